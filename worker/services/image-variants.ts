/**
 * The widths every stored image is offered in, and their URLs. Client-safe (no imports): the pages
 * build `srcset` from it and the Worker serves and stores exactly these widths, nothing else.
 */
export const VARIANT_WIDTHS = [320, 640, 960, 1280] as const;
export type VariantWidth = (typeof VARIANT_WIDTHS)[number];

const OWN_IMAGE = /^\/images\/([0-9a-z][0-9a-z_-]{7,80}\.(?:jpg|png|webp|gif|avif))$/;

export function isVariantWidth(width: number): width is VariantWidth {
  return (VARIANT_WIDTHS as readonly number[]).includes(width);
}

/** Where a variant lives in R2: under its original's key, so one prefix holds them all. */
export function variantObjectKey(key: string, width: VariantWidth): string {
  return `variants/${key}/w${width}.webp`;
}

/** The public URL of one variant of `/images/<key>`, or null when `src` is not one of our images. */
export function variantUrl(src: string, width: VariantWidth): string | null {
  const key = OWN_IMAGE.exec(src)?.[1];
  return key ? `/images/w${width}/${key}` : null;
}

/** A `srcset` for one of our images (widths up to `maxWidth`), or undefined for anything else (GIFs keep their motion). */
export function variantSrcSet(
  src: string,
  maxWidth = 1280,
): string | undefined {
  if (!OWN_IMAGE.test(src) || src.endsWith(".gif")) return undefined;
  const widths = VARIANT_WIDTHS.filter((w, i) => w <= maxWidth || i === 0);
  return widths.map((w) => `${variantUrl(src, w)} ${w}w`).join(", ");
}
