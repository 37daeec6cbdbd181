import type { AppLoadContext } from "@remix-run/cloudflare";
import type { z } from "zod";
import { DomainError, Unauthorized, ValidationError, type FieldErrors } from "#worker/services/shared/errors.ts";
import type { Actor } from "#worker/services/shared/policy.ts";
import { parse } from "#worker/services/shared/validation.ts";
import { MSG } from "./messages";

/** A stand-in for the URL an upload will get, so a service schema can be run before anything is stored. */
const PENDING_IMAGE_URL = "/images/pending-upload.png";

/** Browsers send an empty, nameless file part when no file was chosen. */
export function hasFile(file: FormDataEntryValue | null | undefined): file is File {
  return typeof file === "object" && file !== null && file.size > 0;
}

/**
 * Runs the service's own input schema over a form's fields BEFORE its image is uploaded, so a form
 * the service would refuse never leaves an orphan image in R2. The file stands in as a placeholder
 * URL when one was chosen; when none was chosen the schema itself says whether the image is required.
 * Throws the same ValidationError the service would (handleForm shows it beside the fields).
 */
function checkBeforeUpload(
  schema: z.ZodType,
  input: Record<string, unknown>,
  file: FormDataEntryValue | null,
  field = "image",
): void {
  parse(schema, { ...input, [field]: hasFile(file) ? PENDING_IMAGE_URL : undefined });
}

/**
 * The one way pages upload an image: first the service's own schema runs over the form's fields
 * (`schema`, `input`), so a form the service would refuse never leaves an orphan image in R2; then
 * the file goes through the images service (rate limit, type sniffing, size cap), as the acting user. Answers the new `/images/...` URL, or undefined when no file was chosen
 * and none is required. A refused upload becomes a field error whose text starts with
 * "Image upload failed" (the spec's update-blog wording), so every form shows it beside the field.
 */
export async function uploadImage(
  context: AppLoadContext,
  actor: Actor | null,
  file: FormDataEntryValue | null,
  options: {
    schema: z.ZodType;
    input: Record<string, unknown>;
    required: boolean;
    expiration?: number;
    field?: string;
  },
): Promise<string | undefined> {
  const field = options.field ?? "image";
  checkBeforeUpload(options.schema, options.input, file, field);
  if (!hasFile(file)) {
    if (options.required) throw new ValidationError({ [field]: "Image is required." });
    return undefined;
  }
  try {
    const { url } = await context.services.images.upload(actor, async () => ({
      image: file,
      expiration: options.expiration,
    }));
    return url;
  } catch (err) {
    if (err instanceof Unauthorized || !(err instanceof DomainError)) throw err;
    const reason = err instanceof ValidationError ? (Object.values(err.fields)[0] ?? err.message) : err.message;
    const text = `${MSG.blog.imageUploadFailed}: ${reason}`;
    const fields: FieldErrors = { [field]: text };
    throw new ValidationError(fields, text, "image-upload-failed");
  }
}

/** The spec's feedback upload expiry; reviews.create clears it once the review is saved (decision 003). */
export const FEEDBACK_IMAGE_EXPIRATION_SECONDS = 600;
