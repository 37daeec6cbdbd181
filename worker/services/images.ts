import type { Env } from "../env";
import { NotFound } from "./errors";

/** Keys we hand out: random, lower-case, with one of the image extensions we accept. */
export function isImageKey(key: string): boolean {
  return /^[0-9a-z][0-9a-z_-]{7,80}\.(jpg|png|webp|gif|avif)$/.test(key);
}

export function createImageService(env: Env) {
  return {
    /** Reads one stored image; an unknown or malformed key is simply not found. */
    async read(key: string): Promise<R2ObjectBody> {
      if (!isImageKey(key)) throw new NotFound("Image not found.");
      const object = await env.IMAGES.get(key);
      if (!object) throw new NotFound("Image not found.");
      return object;
    },
  };
}
