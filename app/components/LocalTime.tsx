import { useEffect, useState } from "react";
import { formatDate } from "#app/lib/blog-text.ts";
import { localTimeText, timeAttributes } from "#app/lib/local-times.ts";

/**
 * A date in the reader's own time zone (app/lib/local-times.ts). Pages are cached and shared, so the
 * server renders the UTC text, labelled; once hydrated, the browser swaps in its own zone's text, named.
 * The machine-readable ISO instant stays in `dateTime` either way.
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
  const style = withTime ? "datetime" : "date";
  const server = timeAttributes(iso, style);
  const [local, setLocal] = useState<{ text: string; title: string } | null>(null);
  useEffect(() => {
    setLocal({ text: localTimeText(iso, style), title: formatDate(iso, true, "local") });
  }, [iso, style]);
  return (
    <time
      {...server}
      data-zone={local ? "local" : "UTC"}
      title={local ? local.title : server.title}
      className={className}
      // The first client render matches the server's UTC text; the effect then changes it on purpose.
      suppressHydrationWarning
    >
      {local ? local.text : formatDate(iso, withTime)}
    </time>
  );
}
