const STAR_PATH = "M12 2.6l2.85 5.95 6.55.8-4.83 4.5 1.25 6.5L12 17.13l-5.82 3.22 1.25-6.5L2.6 9.35l6.55-.8z";

/** Clamps to the spec's range (0 to 5) and to half steps. */
export function roundRating(value: number): number {
  if (!Number.isFinite(value)) return 0;
  return Math.min(5, Math.max(0, Math.round(value * 2) / 2));
}

/** A rating as five stars, half stars shown (spec: 5 stars, half steps, size 24). */
export function StarRating({ value, size = 24, className = "" }: { value: number; size?: number; className?: string }) {
  const rating = roundRating(value);
  return (
    <span
      role="img"
      aria-label={`Rated ${rating} out of 5`}
      className={`inline-flex items-center gap-0.5 ${className}`}
    >
      {[0, 1, 2, 3, 4].map((i) => {
        const fill = Math.min(1, Math.max(0, rating - i));
        return (
          <span
            key={i}
            data-star={fill === 1 ? "full" : fill === 0.5 ? "half" : "empty"}
            className="relative inline-block shrink-0"
            style={{ width: size, height: size }}
          >
            <svg
              viewBox="0 0 24 24"
              width={size}
              height={size}
              aria-hidden="true"
              className="absolute inset-0 text-gray-300"
            >
              <path d={STAR_PATH} fill="currentColor" />
            </svg>
            {fill > 0 ? (
              <span className="absolute inset-y-0 left-0 overflow-hidden" style={{ width: `${fill * 100}%` }}>
                <svg viewBox="0 0 24 24" width={size} height={size} aria-hidden="true" className="text-amber-400">
                  <path d={STAR_PATH} fill="currentColor" />
                </svg>
              </span>
            ) : null}
          </span>
        );
      })}
    </span>
  );
}
