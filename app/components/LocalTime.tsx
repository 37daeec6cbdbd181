import { useEffect, useState } from "react";
import { formatDate } from "#app/lib/blog-text.ts";

/**
 * A date in the reader's own time zone. Pages are cached and shared, so the server renders the
 * neutral UTC text; once hydrated, the browser swaps in its own zone's text. The machine-readable
 * ISO instant stays in `dateTime` either way.
 */
export function LocalTime({
  iso,
  withTime = false,
  className,
}: {
  iso: string;
  withTime?: boolean;
  className?: string;
}) {
  const [text, setText] = useState(() => formatDate(iso, withTime));
  useEffect(() => {
    setText(formatDate(iso, withTime, "local"));
  }, [iso, withTime]);
  const date = new Date(iso);
  return (
    <time
      dateTime={Number.isNaN(date.getTime()) ? iso : date.toISOString()}
      className={className}
      // The first client render matches the server's UTC text; the effect then changes it on purpose.
      suppressHydrationWarning
    >
      {text}
    </time>
  );
}
