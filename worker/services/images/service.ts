import { and, eq, gt, inArray, isNotNull, lte } from "drizzle-orm";
import { imageSize } from "image-size";
import { z } from "zod";
import type { Db } from "#worker/db.ts";
import { schema } from "#worker/db.ts";
import {
  DomainError,
  NotFound,
  tooLarge,
  Unauthorized,
  Unavailable,
  unsupportedType,
  ValidationError,
} from "#worker/services/shared/errors.ts";
import { IMAGE_UPLOAD_FAILED } from "#worker/services/texts.ts";
import { newId } from "#worker/services/shared/ids.ts";
import { isVariantWidth, VARIANT_WIDTHS, variantObjectKey } from "#worker/services/images/variants.ts";
import { requireUser, type Actor } from "#worker/services/shared/policy.ts";
import { parse } from "#worker/services/shared/validation.ts";
import { logError } from "#worker/log.ts";
import { imageKeyOf, isImageKey, sniffImageType, type ImageType } from "#worker/services/images/files.ts";
import type { Kernel } from "#worker/services/kernel.ts";

export const MAX_IMAGE_BYTES = 5 * 1024 * 1024;
export const MIN_EXPIRATION_SECONDS = 60;
// The replaced host's own ceiling (180 days).
export const MAX_EXPIRATION_SECONDS = 15_552_000;
export const UPLOADS_PER_WINDOW = 30;
export const UPLOAD_WINDOW_SECONDS = 10 * 60;
// D1 binds at most 100 parameters per statement: a slice of keys plus the statement's own parameters.
// R2 deletes at most 1,000 keys at once: a slice with its variants stays well under.
const SWEEP_SLICE = 90;
const SWEEP_MAX_SLICES = 50;

/**
 * The bytes and type of an image file, or the error an upload of it would get. Registration checks
 * the photo with this before creating the account, so a refused photo never leaves a half-made account.
 */
export async function inspectImage(file: unknown): Promise<{ bytes: Uint8Array; type: ImageType }> {
  // Browsers send an empty, nameless file part when no file was chosen.
  if (!(file instanceof Blob) || file.size === 0)
    throw new ValidationError({ image: "Choose an image file to upload." });
  if (file.size > MAX_IMAGE_BYTES) throw tooLarge("The image is larger than 5 MB.");
  const bytes = new Uint8Array(await file.arrayBuffer());
  if (bytes.byteLength > MAX_IMAGE_BYTES) throw tooLarge("The image is larger than 5 MB.");
  const type = sniffImageType(bytes);
  if (!type) throw unsupportedType("Only JPEG, PNG, WebP, GIF and AVIF images are accepted.");
  checkPixels(bytes);
  return { bytes, type };
}

/** A decompression-bomb guard: 5 MB of JPEG or PNG can declare far more pixels than any page shows. */
export const MAX_IMAGE_PIXELS = 50_000_000;
export const MAX_IMAGE_SIDE = 12_000;
export const TOO_MANY_PIXELS = `The image is too large: at most ${MAX_IMAGE_SIDE} pixels a side and ${MAX_IMAGE_PIXELS / 1_000_000} megapixels.`;

/**
 * Where the size is found in nearly every file. The library copies what follows each JPEG segment it steps
 * over, so it reads this head first, and the whole file only when the head does not hold the size (a JPEG
 * with a large profile or thumbnail before its frame header).
 */
const SIZE_HEAD_BYTES = 256 * 1024;

function sizeOf(bytes: Uint8Array): { width?: number; height?: number } | null {
  try {
    return imageSize(bytes);
  } catch {
    return null;
  }
}

/**
 * Reads the image's declared size from its header (image-size, no decoding and no call out: an import's
 * hundreds of images each skip a round trip to the Images binding) and refuses one past the cap.
 */
function checkPixels(bytes: Uint8Array): void {
  const size = sizeOf(bytes.subarray(0, SIZE_HEAD_BYTES)) ?? sizeOf(bytes);
  // A size the reader cannot tell (bytes that only look like an image) is no bomb a decoder could open
  // either: such a file is kept as uploaded, and its widths answer an error, never a resize.
  if (!size || typeof size.width !== "number" || typeof size.height !== "number") return;
  if (size.width > MAX_IMAGE_SIDE || size.height > MAX_IMAGE_SIDE || size.width * size.height > MAX_IMAGE_PIXELS)
    throw tooLarge(TOO_MANY_PIXELS);
}

/** What an upload form carries, as the adapter found it (FormData values are File, string or null). */
export interface UploadInput {
  image: unknown;
  expiration: unknown;
}

const expirationSchema = z.object({
  expiration: z.preprocess(
    (v) =>
      v === null || v === undefined || (typeof v === "string" && v.trim() === "")
        ? undefined
        : typeof v === "string"
          ? v.trim()
          : v,
    z
      .union([z.string().regex(/^\d{1,9}$/), z.number()], {
        error: `Expiration must be a whole number of seconds between ${MIN_EXPIRATION_SECONDS} and ${MAX_EXPIRATION_SECONDS}.`,
      })
      .transform(Number)
      .pipe(
        z
          .number()
          .int({ error: "Expiration must be a whole number of seconds." })
          .min(MIN_EXPIRATION_SECONDS, { error: `Expiration must be at least ${MIN_EXPIRATION_SECONDS} seconds.` })
          .max(MAX_EXPIRATION_SECONDS, { error: `Expiration must be at most ${MAX_EXPIRATION_SECONDS} seconds.` }),
      )
      .optional(),
  ),
});

/**
 * Clears the expiry of an upload that its owner has attached to a record meant to last (a review's
 * photo). Only the owner's own images, and never one that has already expired. Null for URLs that
 * are not ours. Returned as a query so the caller can batch it with its own insert.
 */
export function keepImageQuery(db: Db, url: string, ownerId: string, now = Date.now()) {
  const key = imageKeyOf(url);
  if (!key) return null;
  const t = schema.images;
  return db
    .update(t)
    .set({ expiresAt: null })
    .where(and(eq(t.key, key), eq(t.ownerId, ownerId), isNotNull(t.expiresAt), gt(t.expiresAt, now)));
}

/** An original's key together with every variant key derived from it, for deleting them as one. */
export function withVariantKeys(keys: string[]): string[] {
  return keys.flatMap((key) => [key, ...VARIANT_WIDTHS.map((w) => variantObjectKey(key, w))]);
}

/** Quality 78 WebP: visually clean at these widths, and about a third of the JPEG's bytes. */
const VARIANT_QUALITY = 78;

export function createImageService(k: Kernel) {
  const { db, env, rateLimit } = k;
  const service = {
    /**
     * Reads one stored image; an unknown or malformed key, or an expired one not yet swept, is simply
     * not found. Objects without a row (put there by the seed script) never expire.
     */
    async read(key: string, now = Date.now()): Promise<{ object: R2ObjectBody; expiresAt: number | null }> {
      if (!isImageKey(key)) throw new NotFound("Image not found.");
      const [row, object] = await Promise.all([
        db.query.images.findFirst({ columns: { expiresAt: true }, where: eq(schema.images.key, key) }),
        env.IMAGES.get(key),
      ]);
      const expiresAt = row?.expiresAt ?? null;
      if (object && expiresAt !== null && expiresAt <= now) await object.body.cancel();
      if (!object || (expiresAt !== null && expiresAt <= now)) throw new NotFound("Image not found.");
      return { object, expiresAt };
    },

    /**
     * One width of a stored image as WebP, made from the original on its first request and kept in
     * R2 beside it (never larger than the original: `scale-down`). The original's expiry applies.
     * A GIF, or an original the transformer cannot read, is answered with the original itself.
     */
    async readVariant(
      key: string,
      width: number,
      now = Date.now(),
    ): Promise<{ object: R2ObjectBody; expiresAt: number | null }> {
      // GIFs keep their motion and are never offered in widths (variantSrcSet): no variant to serve.
      if (!isImageKey(key) || !isVariantWidth(width) || key.endsWith(".gif")) throw new NotFound("Image not found.");
      const variantKey = variantObjectKey(key, width);
      const [row, stored, originalHead] = await Promise.all([
        db.query.images.findFirst({ columns: { expiresAt: true }, where: eq(schema.images.key, key) }),
        env.IMAGES.get(variantKey),
        env.IMAGES.head(key),
      ]);
      const expiresAt = row?.expiresAt ?? null;
      // A variant never outlives its original: gone (or expired) original, 404, and the stray variant goes.
      if (!originalHead || (expiresAt !== null && expiresAt <= now)) {
        if (stored) {
          await stored.body.cancel();
          await env.IMAGES.delete(variantKey);
        }
        throw new NotFound("Image not found.");
      }
      if (stored) return { object: stored, expiresAt };

      const original = await this.read(key, now);
      const source = new Uint8Array(await original.object.arrayBuffer());
      let bytes: Uint8Array;
      try {
        const result = await env.IMAGE_TRANSFORMS.input(new Blob([source]).stream())
          .transform({ width, fit: "scale-down" })
          .output({ format: "image/webp", quality: VARIANT_QUALITY });
        bytes = new Uint8Array(await result.response().arrayBuffer());
      } catch {
        bytes = new Uint8Array();
      }
      // The stored type is the one the bytes show, as for uploads. A failed resize is an error, never
      // the original at every width (an original can be many times the bytes the page asked for).
      const type = sniffImageType(bytes);
      if (type?.contentType !== "image/webp")
        throw new Unavailable("The image could not be resized. Please try again later.", "resize-failed");
      await env.IMAGES.put(variantKey, bytes, { httpMetadata: { contentType: type.contentType } });
      const object = await env.IMAGES.get(variantKey);
      if (!object) throw new NotFound("Image not found.");
      return { object, expiresAt };
    },

    /**
     * Stores an uploaded image in R2 and records it in D1. `read` is only called once the person is
     * known and within their rate, so anonymous or flooding requests never get their bodies read.
     */
    async upload(
      actor: Actor | null,
      read: () => Promise<UploadInput>,
      now = Date.now(),
    ): Promise<{ url: string; key: string }> {
      const user = requireUser(actor);
      await rateLimit.hit(`upload:${user.id}`, UPLOADS_PER_WINDOW, UPLOAD_WINDOW_SECONDS);
      const input = await read();
      const { expiration } = parse(expirationSchema, { expiration: input.expiration });
      const { bytes, type } = await inspectImage(input.image);

      const key = `${newId(24)}.${type.extension}`;
      try {
        await env.IMAGES.put(key, bytes, { httpMetadata: { contentType: type.contentType } });
      } catch (err) {
        // Nothing was recorded yet: the upload is refused whole, as an outage (503), not a bug (500).
        logError("R2 put failed", err);
        throw new Unavailable("Image storage is not answering. Please try again shortly.", "storage-unavailable");
      }
      try {
        await db.insert(schema.images).values({
          key,
          ownerId: user.id,
          contentType: type.contentType,
          size: bytes.byteLength,
          expiresAt: expiration === undefined ? null : now + expiration * 1000,
        });
      } catch (err) {
        // An object without its row would never expire: take it back out.
        await env.IMAGES.delete(key);
        throw err;
      }
      return { url: `/images/${key}`, key };
    },

    /** Deletes expired images from R2 and then their rows; answers how many went. */
    async sweepExpired(now = Date.now()): Promise<number> {
      const t = schema.images;
      let swept = 0;
      for (let slice = 0; slice < SWEEP_MAX_SLICES; slice++) {
        const rows = await db
          .select({ key: t.key })
          .from(t)
          .where(and(isNotNull(t.expiresAt), lte(t.expiresAt, now)))
          .limit(SWEEP_SLICE);
        if (rows.length === 0) break;
        const keys = rows.map((r) => r.key);
        // R2 first: a row left behind is retried next time, an object left behind would be forgotten.
        await env.IMAGES.delete(withVariantKeys(keys));
        await db.delete(t).where(and(inArray(t.key, keys), isNotNull(t.expiresAt), lte(t.expiresAt, now)));
        swept += keys.length;
        if (rows.length < SWEEP_SLICE) break;
      }
      return swept;
    },

    /**
     * Stores the file a form carried, for a use case that has checked everything else first, as the
     * acting user. A refused upload (type, size, rate, storage) becomes a field error beside `field`
     * whose text starts with "Image upload failed" (the spec's update-blog wording).
     */
    async storeUpload(
      actor: Actor | null,
      file: Blob,
      options: { field?: string; expiration?: number } = {},
    ): Promise<string> {
      const field = options.field ?? "image";
      try {
        const { url } = await service.upload(actor, async () => ({ image: file, expiration: options.expiration }));
        return url;
      } catch (err) {
        if (err instanceof Unauthorized || !(err instanceof DomainError)) throw err;
        const reason = err instanceof ValidationError ? (Object.values(err.fields)[0] ?? err.message) : err.message;
        const text = `${IMAGE_UPLOAD_FAILED}: ${reason}`;
        throw new ValidationError({ [field]: text }, text, "image-upload-failed");
      }
    },
  };
  return service;
}

export type ImageService = ReturnType<typeof createImageService>;
