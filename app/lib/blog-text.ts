import { zoneOffsetMinutes } from "#worker/services/shared/datetime.ts";
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
 * The one date formatter. A date as the site shows it: in UTC by default (so server and browser render
 * the same text, and a server-rendered page says which zone it used), in the browser's own zone
 * ("local", which only the reader-zone rewrite asks for: app/lib/local-times.ts), or in a named IANA
 * zone ("Asia/Tokyo": the writer's own time in the "Scheduled" confirmation, made on the server).
 *
 * The text is the one en-US Intl writes ("March 4, 2026 at 5:06 AM UTC"), built by hand: building an
 * Intl.DateTimeFormat loads the locale's pattern data, which measured as the largest single cost of
 * hydrating a post on a throttled phone (about 35 ms of main thread on its own). A zone other than UTC
 * is named by its offset ("GMT+9", "GMT-3:30"), as Intl names most zones.
 */
export function formatDate(iso: string, withTime = false, zone: string = "UTC"): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return iso;
  const offset =
    zone === "UTC" ? 0 : zone === "local" ? -date.getTimezoneOffset() : zoneOffsetMinutes(date.getTime(), zone);
  // The wall clock of the zone, read with the UTC getters (they never apply the machine's own zone).
  const wall = new Date(date.getTime() + offset * 60_000);
  const day = `${MONTHS[wall.getUTCMonth()]} ${wall.getUTCDate()}, ${wall.getUTCFullYear()}`;
  if (!withTime) return day;
  const hours = wall.getUTCHours();
  const clock = `${hours % 12 || 12}:${String(wall.getUTCMinutes()).padStart(2, "0")} ${hours < 12 ? "AM" : "PM"}`;
  return `${day} at ${clock} ${zone === "UTC" ? "UTC" : zoneName(offset)}`;
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

/** A zone by its offset from UTC at an instant: "UTC", "GMT+9", "GMT-3:30". */
function zoneName(offset: number): string {
  if (offset === 0) return "UTC";
  const abs = Math.abs(offset);
  const minutes = abs % 60;
  return `GMT${offset > 0 ? "+" : "-"}${Math.floor(abs / 60)}${minutes ? `:${String(minutes).padStart(2, "0")}` : ""}`;
}
