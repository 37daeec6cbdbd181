import { sniffImageType } from "#worker/services/images/files.ts";
import type { ParsedImport } from "#worker/services/import/types.ts";

/** The archive path a relative reference from `from` (a file inside the zip) points to, or null. */
export function resolveInZip(from: string, src: string): string | null {
  if (/^[a-z][a-z0-9+.-]*:/i.test(src) || src.startsWith("//") || src.startsWith("/")) return null;
  const parts = from.split("/").slice(0, -1);
  const path = src.split(/[?#]/)[0]!;
  let decoded = path;
  try {
    decoded = decodeURIComponent(path);
  } catch {
    // a bare "%" ("100%.png"): the name as written
  }
  for (const part of decoded.split("/")) {
    if (part === "..") parts.pop();
    else if (part && part !== ".") parts.push(part);
  }
  return parts.join("/");
}

/**
 * Points every image of `html` that is inside the archive at an `archive:<path>` reference, and keeps
 * its bytes (real images only: sniffed from the bytes). References to elsewhere are left to be fetched.
 */
export function takeArchiveImages(
  doc: Document,
  from: string,
  files: Map<string, Uint8Array>,
  out: ParsedImport,
): void {
  for (const img of Array.from(doc.querySelectorAll("img"))) {
    const ref = archiveRef(img.getAttribute("src") ?? "", from, files, out);
    if (ref) img.setAttribute("src", ref);
  }
}

/** `archive:<path>` for an image inside the archive (recorded in `out`), else null. */
export function archiveRef(
  src: string,
  from: string,
  files: Map<string, Uint8Array>,
  out: ParsedImport,
): string | null {
  const path = resolveInZip(from, src);
  const bytes = path ? files.get(path) : undefined;
  if (!path || !bytes || !sniffImageType(bytes)) return null;
  out.archiveImages.set(`archive:${path}`, bytes);
  return `archive:${path}`;
}
