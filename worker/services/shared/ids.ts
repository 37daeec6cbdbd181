const ALPHABET = "0123456789abcdefghijklmnopqrstuvwxyz";

/** The largest multiple of 36 a byte can hold: bytes at or above it are drawn again, so no character is likelier. */
const UNBIASED_LIMIT = 256 - (256 % ALPHABET.length);

/** A random, opaque, URL-safe id (20 characters, ~103 bits), every character equally likely. */
export function newId(length = 20): string {
  let id = "";
  while (id.length < length) {
    for (const byte of crypto.getRandomValues(new Uint8Array(length))) {
      if (byte < UNBIASED_LIMIT && id.length < length) id += ALPHABET[byte % ALPHABET.length];
    }
  }
  return id;
}

/**
 * What every id we make looks like (newId's, and the longer ones of older rows). Written here only
 * (scripts/check-post-id.mjs): the cache policy's URL table composes ID_SOURCE into its routes, and the
 * OpenAPI document shows ID_PATTERN.
 */
export const ID_SOURCE = "[0-9a-z]{8,40}";
export const ID_PATTERN = `^${ID_SOURCE}$`;
const ID = new RegExp(ID_PATTERN);

/**
 * The one parse of an id (a post's, or any record's) from text a request brought: the id, or null when it
 * cannot be one of ours. scripts/check-post-id.mjs fails the lint when an id is parsed anywhere else.
 */
export function parseId(value: unknown): string | null {
  return typeof value === "string" && ID.test(value) ? value : null;
}

/** Ids come from URLs: anything that is not shaped like one of ours cannot exist. */
export function isIdShaped(value: unknown): value is string {
  return parseId(value) !== null;
}

/** The post a path names: /blogs/{id}, with or without its slug or a trailing slash; null for any other path. */
export function postIdOfPath(pathname: string): string | null {
  const [root, first, id, , ...rest] = pathname.split("/");
  if (root !== "" || first !== "blogs" || rest.some(Boolean) || rest.length > 1) return null;
  return parseId(id);
}
