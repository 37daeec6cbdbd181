import { encode } from "fast-png";
import type { Db } from "#worker/db.ts";
import { schema } from "#worker/db.ts";
import type { Env } from "#worker/env.ts";
import { inspectImage, MAX_IMAGE_BYTES } from "#worker/services/images.ts";
import { newId } from "#worker/services/shared/ids.ts";

/** The stand-in a post keeps where an image could not be copied (a plain grey card, made once). */
export const PLACEHOLDER_KEY = "import-placeholder.png";
export const PLACEHOLDER_URL = `/images/${PLACEHOLDER_KEY}`;
export const IMAGE_FETCH_TIMEOUT_MS = 10_000;
const MAX_REDIRECTS = 3;

/** Hosts an import never fetches from in production: loopback, private, link-local and unique-local. */
export function isPrivateHost(hostname: string): boolean {
  const host = hostname.replace(/^\[|\]$/g, "").toLowerCase();
  if (host === "localhost" || host.endsWith(".localhost") || host.endsWith(".local") || host.endsWith(".internal"))
    return true;
  const v4 = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/.exec(host);
  if (v4) {
    const [a, b] = [Number(v4[1]), Number(v4[2])];
    return (
      a === 0 ||
      a === 10 ||
      a === 127 ||
      (a === 100 && b >= 64 && b <= 127) ||
      (a === 169 && b === 254) ||
      (a === 172 && b >= 16 && b <= 31) ||
      (a === 192 && b === 168) ||
      a >= 224
    );
  }
  if (host.includes(":"))
    return host === "::" || host === "::1" || /^(fc|fd|fe8|fe9|fea|feb)/.test(host) || host.startsWith("::ffff:");
  return false;
}

export class ImageCopyError extends Error {}

/** Reads a response body up to `cap` bytes; past it, the transfer is cut and refused. */
async function readCapped(response: Response, cap: number): Promise<Uint8Array> {
  const declared = Number(response.headers.get("content-length") ?? "0");
  if (declared > cap) {
    await response.body?.cancel();
    throw new ImageCopyError("larger than 5 MB");
  }
  const reader = response.body?.getReader();
  if (!reader) return new Uint8Array();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > cap) {
      await reader.cancel();
      throw new ImageCopyError("larger than 5 MB");
    }
    chunks.push(value);
  }
  const out = new Uint8Array(size);
  let at = 0;
  for (const c of chunks) {
    out.set(c, at);
    at += c.byteLength;
  }
  return out;
}

/**
 * Fetches one image from the web for an import: http(s) only, every redirect hop checked, a timeout,
 * a size cap, and (unless IMPORT_ALLOW_PRIVATE_HOSTS, for local runs) no private or loopback hosts.
 */
export async function fetchImage(env: Env, url: string): Promise<Uint8Array> {
  let current = url;
  for (let hop = 0; hop <= MAX_REDIRECTS; hop++) {
    let parsed: URL;
    try {
      parsed = new URL(current);
    } catch {
      throw new ImageCopyError("not a URL");
    }
    if (parsed.protocol !== "https:" && parsed.protocol !== "http:") throw new ImageCopyError("not an http(s) URL");
    if (env.IMPORT_ALLOW_PRIVATE_HOSTS !== "true" && isPrivateHost(parsed.hostname))
      throw new ImageCopyError("a private or loopback address");
    let response: Response;
    try {
      response = await fetch(parsed.toString(), {
        redirect: "manual",
        signal: AbortSignal.timeout(IMAGE_FETCH_TIMEOUT_MS),
        headers: { accept: "image/*" },
      });
    } catch (err) {
      throw new ImageCopyError(err instanceof Error && err.name === "TimeoutError" ? "timed out" : "unreachable");
    }
    if (response.status >= 300 && response.status < 400 && response.headers.get("location")) {
      await response.body?.cancel();
      current = new URL(response.headers.get("location")!, parsed).toString();
      continue;
    }
    if (!response.ok) {
      await response.body?.cancel();
      throw new ImageCopyError(`answered ${response.status}`);
    }
    return readCapped(response, MAX_IMAGE_BYTES);
  }
  throw new ImageCopyError("too many redirects");
}

/** Stores copied bytes as one of our images (type sniffed, size and pixels capped, as for an upload). */
export async function storeImportedImage(db: Db, env: Env, bytes: Uint8Array, ownerId: string): Promise<string> {
  let inspected: Awaited<ReturnType<typeof inspectImage>>;
  try {
    inspected = await inspectImage(new Blob([bytes as Uint8Array<ArrayBuffer>]), env.IMAGE_TRANSFORMS);
  } catch (err) {
    throw new ImageCopyError(err instanceof Error ? err.message : "not an image");
  }
  const key = `${newId(24)}.${inspected.type.extension}`;
  await env.IMAGES.put(key, inspected.bytes, { httpMetadata: { contentType: inspected.type.contentType } });
  await db
    .insert(schema.images)
    .values({ key, ownerId, contentType: inspected.type.contentType, size: inspected.bytes.byteLength });
  return `/images/${key}`;
}

/** Puts the placeholder in R2 the first time an import needs it. */
export async function ensurePlaceholder(env: Env): Promise<void> {
  if (await env.IMAGES.head(PLACEHOLDER_KEY)) return;
  const width = 1200;
  const height = 630;
  const data = new Uint8Array(width * height * 3).fill(0xe5);
  await env.IMAGES.put(PLACEHOLDER_KEY, encode({ width, height, data, channels: 3, depth: 8 }), {
    httpMetadata: { contentType: "image/png" },
  });
}
