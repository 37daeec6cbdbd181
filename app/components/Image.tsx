import type { ImgHTMLAttributes } from "react";
import { variantSrcSet } from "#worker/services/images/variants.ts";

type Props = Omit<
  ImgHTMLAttributes<HTMLImageElement>,
  "src" | "alt" | "srcSet" | "sizes" | "loading" | "width" | "height"
> & {
  src: string;
  /** Empty for a decorative picture. */
  alt: string;
  /** The box's intrinsic size (its aspect ratio reserves the space, so nothing shifts while it loads). */
  width: number;
  height: number;
  /** How wide the image is drawn in this layout, as for the `sizes` attribute. */
  sizes: string;
  /** The largest picture of the first screen: loaded first (eager, fetchpriority=high). One per page. */
  priority?: boolean;
  /** On the first screen but not the largest: eager, without the priority. */
  eager?: boolean;
  /** The widest variant worth offering (small thumbnails need no 1280 px file). */
  maxWidth?: number;
};

/**
 * Every picture of the site: our own images get a WebP `srcset` of their width variants, lazy
 * loading below the fold, explicit dimensions, and a grey placeholder behind them while they load.
 */
export function Image({
  src,
  alt,
  width,
  height,
  sizes,
  priority = false,
  eager = false,
  maxWidth,
  className = "",
  ...rest
}: Props) {
  // A draft may have no cover yet: a soft brand-tinted panel keeps the layout, and being decoration it says
  // nothing to a screen reader (the title beside it already names the post). Never an empty src.
  if (!src) {
    return (
      <span
        aria-hidden="true"
        data-no-cover=""
        className={`block bg-linear-to-br from-brand-50 via-gray-50 to-brand-100 ${className}`}
      />
    );
  }
  const srcSet = variantSrcSet(src, maxWidth);
  return (
    <img
      src={src}
      alt={alt}
      srcSet={srcSet}
      sizes={srcSet ? sizes : undefined}
      width={width}
      height={height}
      loading={priority || eager ? "eager" : "lazy"}
      decoding={priority ? "sync" : "async"}
      // React 18 knows the attribute only in lower case (the camel-case prop warns), and its types only in camel case.
      {...(priority ? { fetchpriority: "high" } : {})}
      className={`bg-gray-100 ${className}`}
      {...rest}
    />
  );
}
