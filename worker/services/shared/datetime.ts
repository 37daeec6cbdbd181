const DATE_TIME = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,9}))?)?(Z|[+-]\d{2}:\d{2})?$/i;

/**
 * A date and time as ISO 8601 in UTC, or null. A datetime-local input sends no zone
 * (2026-11-21T10:30): the server cannot know the writer's zone, so it is read as UTC.
 * Parsed by hand because Date.parse accepts impossible dates (Feb 30) and zone-less forms vary by engine.
 */
export function normalizeDateTime(value: string): string | null {
  const m = DATE_TIME.exec(value);
  if (!m) return null;
  const [year, month, day, hour, minute, second] = m.slice(1, 7).map((part) => Number(part ?? 0)) as [
    number,
    number,
    number,
    number,
    number,
    number,
  ];
  const ms = Number(`${m[7] ?? ""}000`.slice(0, 3));
  if (year < 1900 || month < 1 || month > 12 || hour > 23 || minute > 59 || second > 59) return null;
  // Day 0 of the next month is the last day of this one, leap years included.
  if (day < 1 || day > new Date(Date.UTC(year, month, 0)).getUTCDate()) return null;
  let offsetMinutes = 0;
  const zone = m[8]?.toUpperCase();
  if (zone && zone !== "Z") {
    const [oh, om] = zone.slice(1).split(":").map(Number) as [number, number];
    if (oh > 23 || om > 59) return null;
    offsetMinutes = (zone.startsWith("-") ? -1 : 1) * (oh * 60 + om);
  }
  const date = new Date(Date.UTC(year, month - 1, day, hour, minute, second, ms) - offsetMinutes * 60_000);
  // toISOString switches to an expanded-year form past 9999, which would not sort with the rest.
  return date.getUTCFullYear() <= 9999 ? date.toISOString() : null;
}
