import { formatDate } from "./blog-text";

/**
 * Dates in the reader's zone: the one rule (decision 050). The server renders every date as
 * `<time datetime="ISO" data-local-time="date|datetime" data-zone="UTC">` with UTC text that names its
 * zone; the browser rewrites it into its own zone, named too ("GMT+9"), and marks `data-zone="local"`.
 * Both ways go through formatDate (app/lib/blog-text.ts). React pages do it in <LocalTime> (state, so
 * hydration stays quiet); a page without React runs `localizeTimes(document)` from a small inline script.
 */
export type TimeStyle = "date" | "datetime";

/** The attributes of a server-rendered date: what `localizeTimes` looks for. */
export function timeAttributes(iso: string, style: TimeStyle) {
  const date = new Date(iso);
  const valid = !Number.isNaN(date.getTime());
  return {
    dateTime: valid ? date.toISOString() : iso,
    "data-local-time": style,
    "data-zone": "UTC",
    // A date alone does not name its zone in its text: the title does.
    title: valid ? formatDate(iso, true) : undefined,
  };
}

/** The reader-zone text of a date (the browser's zone, named). */
export function localTimeText(iso: string, style: TimeStyle): string {
  return formatDate(iso, style === "datetime", "local");
}

/** Rewrites every server-rendered date under `root` into the reader's zone; safe to run twice. */
export function localizeTimes(root: ParentNode): void {
  for (const el of Array.from(root.querySelectorAll<HTMLTimeElement>("time[data-local-time]"))) {
    if (el.getAttribute("data-zone") === "local") continue;
    const iso = el.dateTime;
    el.textContent = localTimeText(iso, el.getAttribute("data-local-time") === "datetime" ? "datetime" : "date");
    el.title = formatDate(iso, true, "local");
    el.setAttribute("data-zone", "local");
  }
}
