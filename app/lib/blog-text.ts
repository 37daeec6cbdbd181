export const WORDS_PER_MINUTE = 200;

/** Estimated reading time in whole minutes (at least 1), from the text a reader reads (markdownText, no markup). */
export function readingMinutes(text: string): number {
  const words = text.trim().split(/\s+/).filter(Boolean).length;
  return Math.max(1, Math.round(words / WORDS_PER_MINUTE));
}

/**
 * A date as the site shows it: in UTC by default (so server and browser render the same text), or in
 * the browser's own zone ("local"), which only <LocalTime> asks for, after hydration.
 */
export function formatDate(iso: string, withTime = false, zone: "UTC" | "local" = "UTC"): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return iso;
  return new Intl.DateTimeFormat("en-US", {
    year: "numeric",
    month: "long",
    day: "numeric",
    ...(withTime ? { hour: "numeric", minute: "2-digit", timeZoneName: "short" } : {}),
    ...(zone === "UTC" ? { timeZone: "UTC" } : {}),
  }).format(date);
}
