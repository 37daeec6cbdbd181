import { configOf } from "#worker/config.ts";
import { encode } from "fast-png";
import type { schema } from "#worker/db.ts";
import type { Env } from "#worker/env.ts";
import { inspectImage, MAX_IMAGE_BYTES } from "#worker/services/images/service.ts";
import { newId } from "#worker/services/shared/ids.ts";
import { GHOST_IMAGE_NO_ADDRESS, GHOST_URL } from "#worker/services/import/ghost-urls.ts";
import {
  fetchOutbound,
  isPrivateHost,
  OutboundError,
  readOutboundBody,
  type OutboundRefusal,
} from "#worker/security/outbound.ts";

/** The stand-in a post keeps where an image could not be copied (a plain grey card, made once). */
export const PLACEHOLDER_KEY = "import-placeholder.png";
export const PLACEHOLDER_URL = `/images/${PLACEHOLDER_KEY}`;
export const IMAGE_FETCH_TIMEOUT_MS = 10_000;
const MAX_REDIRECTS = 3;

/** Hosts an import never fetches from (the one outbound rule, worker/security/outbound.ts). */
export { isPrivateHost };

export class ImageCopyError extends Error {}

/** What the import report says for each refusal of the outbound rule. */
const REASONS: Record<OutboundRefusal, string> = {
  "invalid-url": "not a URL",
  scheme: "not an http(s) URL",
  credentials: "a URL with a user name or password",
  "private-host": "a private or loopback address",
  timeout: "timed out",
  unreachable: "unreachable",
  "too-many-redirects": "too many redirects",
  "cross-host-redirect": "a redirect to another host",
  "too-large": "larger than 5 MB",
};

/**
 * Fetches one image from the web for an import through the one outbound path: http(s) only, every
 * redirect hop checked, a timeout, a size cap, and (unless IMPORT_ALLOW_PRIVATE_HOSTS, for local runs)
 * no private or loopback hosts.
 */
export async function fetchImage(env: Env, url: string): Promise<Uint8Array> {
  if (url.startsWith(GHOST_URL)) throw new ImageCopyError(GHOST_IMAGE_NO_ADDRESS);
  try {
    const { response } = await fetchOutbound(url, {
      allowHttp: true,
      allowPrivate: configOf(env).imports.allowPrivateHosts,
      timeoutMs: IMAGE_FETCH_TIMEOUT_MS,
      maxRedirects: MAX_REDIRECTS,
      headers: { accept: "image/*" },
    });
    if (!response.ok) {
      await response.body?.cancel();
      throw new ImageCopyError(`answered ${response.status}`);
    }
    return await readOutboundBody(response, MAX_IMAGE_BYTES);
  } catch (err) {
    if (err instanceof OutboundError) throw new ImageCopyError(REASONS[err.reason]);
    throw err;
  }
}

/**
 * Puts copied bytes in R2 as one of our images (type sniffed, size and pixels capped, as for an upload) and
 * answers its path and the images row to write: the copier writes a batch's rows in one D1 call.
 */
export async function putImportedImage(
  env: Env,
  bytes: Uint8Array,
  ownerId: string,
): Promise<{ path: string; row: typeof schema.images.$inferInsert }> {
  let inspected: Awaited<ReturnType<typeof inspectImage>>;
  try {
    inspected = await inspectImage(new Blob([bytes as Uint8Array<ArrayBuffer>]));
  } catch (err) {
    throw new ImageCopyError(err instanceof Error ? err.message : "not an image");
  }
  const key = `${newId(24)}.${inspected.type.extension}`;
  await env.IMAGES.put(key, inspected.bytes, { httpMetadata: { contentType: inspected.type.contentType } });
  return {
    path: `/images/${key}`,
    row: { key, ownerId, contentType: inspected.type.contentType, size: inspected.bytes.byteLength },
  };
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
