export const WORDS_PER_MINUTE = 200;

/** How many words a text has (the one count: the post page's word count and its reading time). */
export function wordCount(text: string): number {
  return text.trim().split(/\s+/).filter(Boolean).length;
}

/** Estimated reading time in whole minutes (at least 1), from the text a reader reads (markdownText, no markup). */
export function readingMinutes(text: string): number {
  return Math.max(1, Math.round(wordCount(text) / WORDS_PER_MINUTE));
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
