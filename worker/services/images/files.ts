/** What an image file of ours is: the shape of its key, and its type read from its own bytes. */

/** Keys we hand out: random, lower-case, with one of the image extensions we accept. */
export function isImageKey(key: string): boolean {
  return /^[0-9a-z][0-9a-z_-]{7,80}\.(jpg|png|webp|gif|avif)$/.test(key);
}

/** The R2 key behind one of our own `/images/<key>` URLs, or null for anything else. */
export function imageKeyOf(url: string): string | null {
  const key = url.startsWith("/images/") ? url.slice("/images/".length) : "";
  return isImageKey(key) ? key : null;
}

export type ImageType = { contentType: string; extension: string };

const ascii = (bytes: Uint8Array, from: number, to: number) => String.fromCharCode(...bytes.subarray(from, to));

/**
 * The image type from the file's own first bytes. The name and the part's Content-Type are the
 * sender's claims, so they are never consulted; SVG (script-capable) is deliberately not here.
 */
export function sniffImageType(bytes: Uint8Array): ImageType | null {
  if (bytes.length >= 3 && bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) {
    return { contentType: "image/jpeg", extension: "jpg" };
  }
  const png = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
  if (bytes.length >= 8 && png.every((b, i) => bytes[i] === b)) return { contentType: "image/png", extension: "png" };
  if (bytes.length >= 12 && ascii(bytes, 0, 4) === "RIFF" && ascii(bytes, 8, 12) === "WEBP") {
    return { contentType: "image/webp", extension: "webp" };
  }
  if (bytes.length >= 6 && ["GIF87a", "GIF89a"].includes(ascii(bytes, 0, 6)))
    return { contentType: "image/gif", extension: "gif" };
  // AVIF is an ISO-BMFF file: a leading `ftyp` box whose major or compatible brands name avif/avis.
  if (bytes.length >= 16 && ascii(bytes, 4, 8) === "ftyp") {
    const boxSize = new DataView(bytes.buffer, bytes.byteOffset, 4).getUint32(0);
    const end = Math.min(boxSize, bytes.length, 256);
    const brands = [ascii(bytes, 8, 12)];
    for (let at = 16; at + 4 <= end; at += 4) brands.push(ascii(bytes, at, at + 4));
    if (brands.includes("avif") || brands.includes("avis")) return { contentType: "image/avif", extension: "avif" };
  }
  return null;
}
