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
 *
 * The text is the one en-US Intl writes ("March 4, 2026 at 5:06 AM UTC"), built by hand: building an
 * Intl.DateTimeFormat loads the locale's pattern data, which measured as the largest single cost of
 * hydrating a post on a throttled phone (about 35 ms of main thread on its own). A local zone is
 * named by its offset ("GMT+9", "GMT-3:30"), as Intl names most zones.
 */
export function formatDate(iso: string, withTime = false, zone: "UTC" | "local" = "UTC"): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return iso;
  const utc = zone === "UTC";
  const year = utc ? date.getUTCFullYear() : date.getFullYear();
  const month = utc ? date.getUTCMonth() : date.getMonth();
  const day = `${MONTHS[month]} ${utc ? date.getUTCDate() : date.getDate()}, ${year}`;
  if (!withTime) return day;
  const hours = utc ? date.getUTCHours() : date.getHours();
  const minutes = utc ? date.getUTCMinutes() : date.getMinutes();
  const clock = `${hours % 12 || 12}:${String(minutes).padStart(2, "0")} ${hours < 12 ? "AM" : "PM"}`;
  return `${day} at ${clock} ${utc ? "UTC" : zoneName(date)}`;
}

const MONTHS = [
  "January",
  "February",
  "March",
  "April",
  "May",
  "June",
  "July",
  "August",
  "September",
  "October",
  "November",
  "December",
];

/** The browser's zone at that instant by its offset from UTC: "UTC", "GMT+9", "GMT-3:30". */
function zoneName(date: Date): string {
  const offset = -date.getTimezoneOffset();
  if (offset === 0) return "UTC";
  const abs = Math.abs(offset);
  const minutes = abs % 60;
  return `GMT${offset > 0 ? "+" : "-"}${Math.floor(abs / 60)}${minutes ? `:${String(minutes).padStart(2, "0")}` : ""}`;
}
