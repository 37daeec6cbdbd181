import { Image } from "./Image";
/**
 * A round avatar: the person's photo, or a drawn default when they have none. Decorative by default
 * (alt=""), because wherever it appears the name or a button label says who it is.
 */
export function Avatar({
  photoURL,
  size = 40,
  alt = "",
  className = "",
  eager = false,
}: {
  photoURL: string | null | undefined;
  size?: number;
  alt?: string;
  className?: string;
  eager?: boolean;
}) {
  const box = `inline-block shrink-0 overflow-hidden rounded-full bg-brand-50 ring-2 ring-white ${className}`;
  if (photoURL) {
    return (
      <Image
        src={photoURL}
        alt={alt}
        width={size}
        height={size}
        sizes={`${size}px`}
        maxWidth={320}
        eager={eager}
        // Google's avatar host refuses some requests that carry a referrer.
        referrerPolicy="no-referrer"
        className={`${box} object-cover`}
        style={{ width: size, height: size }}
      />
    );
  }
  return (
    <svg
      viewBox="0 0 40 40"
      width={size}
      height={size}
      role={alt ? "img" : undefined}
      aria-hidden={alt ? undefined : true}
      aria-label={alt || undefined}
      className={box}
      data-default-avatar=""
    >
      <rect width="40" height="40" fill="#dbe6fe" />
      <circle cx="20" cy="15.5" r="7" fill="#4f6ef7" />
      <path d="M6.5 36.5c1.6-7.2 7-11 13.5-11s11.9 3.8 13.5 11" fill="#4f6ef7" />
    </svg>
  );
}
