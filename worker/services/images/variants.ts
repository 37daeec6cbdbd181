/**
 * The widths every stored image is offered in, and their URLs. Client-safe (no imports): the pages
 * build `srcset` from it and the Worker serves and stores exactly these widths, nothing else.
 */
export const VARIANT_WIDTHS = [320, 640, 768, 960, 1280] as const;
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

// The static pictures under public/featured/ have files made by scripts/make-static-variants.mjs.
const STATIC_IMAGE = /^\/featured\/([0-9a-z-]+)\.jpg$/;
const STATIC_WIDTHS = [320, 640, 768, 960] as const;

/**
 * A `srcset` for one of our images (widths up to `maxWidth`, always at least the smallest), or
 * undefined for anything else: other hosts' URLs, and GIFs, which keep their motion.
 */
export function variantSrcSet(src: string, maxWidth = 1280): string | undefined {
  const fits = (w: number, i: number) => w <= maxWidth || i === 0;
  const name = STATIC_IMAGE.exec(src)?.[1];
  if (name)
    return STATIC_WIDTHS.filter(fits)
      .map((w) => `/featured/${name}-w${w}.webp ${w}w`)
      .join(", ");
  if (!OWN_IMAGE.test(src) || src.endsWith(".gif")) return undefined;
  return VARIANT_WIDTHS.filter(fits)
    .map((w) => `${variantUrl(src, w)} ${w}w`)
    .join(", ");
}
