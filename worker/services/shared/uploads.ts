/**
 * A file a form carried, as a use case receives it. A service checks everything else first (with the
 * chosen file standing in as a placeholder URL), and only then stores it, so a refused form never
 * leaves an image in R2.
 */

/** A stand-in for the URL an upload will get, so a service's schema can run before anything is stored. */
export const PENDING_UPLOAD_URL = "/images/pending-upload.png";

/** Browsers send an empty, nameless file part when no file was chosen. */
export function hasUpload(file: unknown): file is Blob {
  return file instanceof Blob && file.size > 0;
}

/**
 * The input as a use case checks it before the upload is stored: a chosen file stands in for its
 * URL; without one, the input is checked as it is (its own URL, or none, and the schema says whether
 * one is required).
 */
export function withPendingUpload(input: unknown, upload: unknown, field = "image"): unknown {
  if (!hasUpload(upload)) return input;
  return { ...(typeof input === "object" && input !== null ? input : {}), [field]: PENDING_UPLOAD_URL };
}
