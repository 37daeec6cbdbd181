/**
 * The editor's image upload: the file goes to the one upload call, POST /api/images (signed
 * in, rate limited, type sniffed from the bytes, 5 MB and pixel caps: worker/services/images/service.ts), by
 * XMLHttpRequest because fetch reports no upload progress. Answers the stored image's `/images/...` URL.
 */
export const EDITOR_IMAGE_TYPES = "image/jpeg,image/png,image/webp,image/gif,image/avif";
const MAX_BYTES = 5 * 1024 * 1024;

/** Refusals the browser can tell at once, before any byte is sent (the server checks again). */
export function precheck(file: File): string | null {
  if (!file.type.startsWith("image/") || file.type === "image/svg+xml")
    return `${file.name} is not an image: only JPEG, PNG, WebP, GIF and AVIF images are accepted.`;
  if (file.size > MAX_BYTES) return `${file.name} is larger than 5 MB.`;
  return null;
}

/** The server refused the file itself (not an image, too large): sending it again with the form would fail too. */
export class UploadRefused extends Error {}

export function uploadImage(file: File, onProgress: (percent: number) => void): Promise<string> {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open("POST", "/api/images");
    xhr.responseType = "json";
    xhr.upload.onprogress = (event) => {
      if (event.lengthComputable) onProgress(Math.round((event.loaded / event.total) * 100));
    };
    xhr.onload = () => {
      const body = xhr.response as {
        data?: { url?: string };
        error?: { message?: string; fields?: Record<string, string> };
      } | null;
      const url = body?.data?.url;
      if (xhr.status === 200 && url) return resolve(url);
      const reason = body?.error?.fields?.image ?? body?.error?.message ?? `the server answered ${xhr.status}`;
      const message = `${file.name} could not be uploaded: ${reason}`;
      reject(
        xhr.status >= 400 && xhr.status < 500 && xhr.status !== 429 ? new UploadRefused(message) : new Error(message),
      );
    };
    xhr.onerror = () => reject(new Error(`${file.name} could not be uploaded: no connection to the server.`));
    const form = new FormData();
    form.append("image", file);
    xhr.send(form);
  });
}

/** The Markdown of an uploaded image, its alt text from the file's name ("my-cat.png" -> "my cat"). */
export function imageMarkdown(file: File, url: string): string {
  const alt = file.name
    .replace(/\.[a-z0-9]+$/i, "")
    .replace(/[-_]+/g, " ")
    .replace(/[[\]]/g, "")
    .trim();
  return `![${alt || "image"}](${url})`;
}
