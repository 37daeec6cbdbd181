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

/** Whether `zone` is an IANA time zone this runtime knows ("Asia/Tokyo", "UTC"). */
export function isTimeZone(zone: string): boolean {
  if (!/^[A-Za-z][A-Za-z0-9_+\-/]{0,63}$/.test(zone)) return false;
  try {
    new Intl.DateTimeFormat("en-US", { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}

const CLOCKS = new Map<string, Intl.DateTimeFormat>();

/** The wall clock of an instant in a zone, as the UTC milliseconds of the same digits. */
function wallClockMs(ms: number, zone: string): number {
  let clock = CLOCKS.get(zone);
  if (!clock) {
    clock = new Intl.DateTimeFormat("en-US", {
      timeZone: zone,
      hourCycle: "h23",
      year: "numeric",
      month: "2-digit",
      day: "2-digit",
      hour: "2-digit",
      minute: "2-digit",
      second: "2-digit",
    });
    CLOCKS.set(zone, clock);
  }
  const part = Object.fromEntries(clock.formatToParts(new Date(ms)).map((p) => [p.type, Number(p.value)]));
  return Date.UTC(part.year!, part.month! - 1, part.day!, part.hour! % 24, part.minute!, part.second!);
}

/** A zone's offset from UTC at an instant, in whole minutes (east positive: Tokyo +540, New York -300 or -240). */
export function zoneOffsetMinutes(ms: number, zone: string): number {
  const whole = Math.floor(ms / 1000) * 1000;
  return Math.round((wallClockMs(whole, zone) - whole) / 60_000);
}

const pad2 = (n: number) => String(n).padStart(2, "0");

/** An offset in minutes as ISO 8601 writes it: +09:00, -04:00, +05:30. */
export function offsetText(minutes: number): string {
  const abs = Math.abs(minutes);
  return `${minutes < 0 ? "-" : "+"}${pad2(Math.floor(abs / 60))}:${pad2(abs % 60)}`;
}

/**
 * A wall-clock time typed in a zone (a datetime-local value, "2026-11-21T10:30") with the offset that zone
 * had then ("2026-11-21T10:30+09:00"), or null when either is not one. The offset is the one of the
 * chosen day, not of today, so a time across a daylight-saving change means what the writer meant. A time
 * that a spring-forward skips is read with the offset from before the change (it lands an hour later).
 */
export function wallTimeInZone(value: string, zone: string): string | null {
  const m = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2}))?$/.exec(value.trim());
  if (!m || !isTimeZone(zone)) return null;
  const [year, month, day, hour, minute, second] = m.slice(1, 7).map((p) => Number(p ?? 0)) as number[];
  const wall = Date.UTC(year!, month! - 1, day!, hour!, minute!, second!);
  if (Number.isNaN(wall)) return null;
  let offset = zoneOffsetMinutes(wall, zone);
  const second_ = zoneOffsetMinutes(wall - offset * 60_000, zone);
  if (second_ !== offset && zoneOffsetMinutes(wall - second_ * 60_000, zone) === second_) offset = second_;
  return `${value.trim()}${offsetText(offset)}`;
}

/** The datetime-local value (minutes) that shows an instant in a zone: what a writer there sees and sends back. */
export function inputValueInZone(iso: string, zone: string): string | null {
  const ms = Date.parse(iso);
  if (Number.isNaN(ms) || !isTimeZone(zone)) return null;
  return new Date(wallClockMs(ms, zone)).toISOString().slice(0, 16);
}
