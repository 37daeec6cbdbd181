import type { Context } from "hono";
import { createRoute, z } from "@hono/zod-openapi";
import { tooLarge as tooLargeError, unsupportedType, ValidationError } from "#worker/services/shared/errors.ts";
import { MAX_IMAGE_BYTES, type UploadInput } from "#worker/services/images/service.ts";
import type { ApiEnv } from "#worker/api/context.ts";
import { readBytesUpTo } from "#worker/api/body.ts";
import { bodyErrors, contractApp, fileForm, json, rawBody } from "#worker/api/contract.ts";

// Room for the multipart boundaries, part headers and the expiration field around a 5 MB file.
const FORM_OVERHEAD_BYTES = 64 * 1024;
const MAX_FORM_BYTES = MAX_IMAGE_BYTES + FORM_OVERHEAD_BYTES;

const tooLarge = () => tooLargeError("The image is larger than 5 MB.");

/** The upload form of a request: 415 unless multipart, 413 past the size limit, 400 for a broken form. */
async function readUploadForm(c: Context<ApiEnv>): Promise<UploadInput> {
  const type = c.req.header("Content-Type") ?? "";
  if (!/^multipart\/form-data\b/i.test(type)) throw unsupportedType("Send the image as multipart/form-data.");
  const declared = Number(c.req.header("Content-Length") ?? "0");
  if (declared > MAX_FORM_BYTES) throw tooLarge();
  const bytes = await readBytesUpTo(c.req.raw.body, MAX_FORM_BYTES, tooLarge);
  let form: FormData;
  try {
    form = await new Response(bytes, { headers: { "Content-Type": type } }).formData();
  } catch {
    throw new ValidationError(
      { body: "The form data could not be read." },
      "The form data could not be read.",
      "invalid-form",
    );
  }
  return { image: form.get("image"), expiration: form.get("expiration") };
}

/**
 * Image uploads, in place of the third-party host the spec's pages used: same field name and the
 * same answer shape (`{success, data: {url}}`, status 200 like that host).
 */
const upload = createRoute({
  method: "post",
  path: "/images",
  summary: "Upload an image (JPEG, PNG, WebP, GIF or AVIF, at most 5 MB); answers its URL",
  request: {
    body: rawBody(
      "multipart/form-data",
      fileForm("image", { expiration: { type: "string", description: "Seconds until the image is deleted" } }),
      "The image in the `image` field",
    ),
  },
  responses: {
    200: json(z.object({ success: z.boolean(), data: z.object({ url: z.string() }) })),
    ...bodyErrors,
  },
});

export const imagesApi = contractApp().openapi(upload, async (c) => {
  const { url } = await c.var.services.images.upload(c.var.user, () => readUploadForm(c));
  return c.json({ success: true, data: { url } }, 200);
});
