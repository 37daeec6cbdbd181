import { inputValueInZone, isTimeZone, wallTimeInZone } from "#worker/services/shared/datetime.ts";

/**
 * A datetime-local input has no zone. Forms send the writer's IANA zone beside it (the `tz` select of
 * DateTimeField: the browser's zone once hydrated, UTC or the writer's pick without JavaScript), and the
 * server reads the wall time in that zone, with that zone's offset on the chosen day (decision 050).
 */
const OFFSET = /^[+-](?:[01]\d|2[0-3]):[0-5]\d$/;
const ZONED = /(?:Z|[+-]\d{2}:\d{2})$/i;

export const DEFAULT_ZONE = "UTC";

/**
 * The zones a writer can pick without JavaScript: one or more per offset in use, the most populous places
 * first. With JavaScript the browser's own zone is added when it is not one of these.
 */
export const TIME_ZONES = [
  "UTC",
  "Pacific/Pago_Pago",
  "Pacific/Honolulu",
  "America/Anchorage",
  "America/Los_Angeles",
  "America/Denver",
  "America/Phoenix",
  "America/Chicago",
  "America/Mexico_City",
  "America/New_York",
  "America/Bogota",
  "America/Caracas",
  "America/Halifax",
  "America/St_Johns",
  "America/Sao_Paulo",
  "America/Argentina/Buenos_Aires",
  "Atlantic/Azores",
  "Europe/London",
  "Europe/Dublin",
  "Europe/Lisbon",
  "Africa/Lagos",
  "Europe/Paris",
  "Europe/Berlin",
  "Europe/Madrid",
  "Europe/Rome",
  "Africa/Cairo",
  "Africa/Johannesburg",
  "Europe/Athens",
  "Europe/Kyiv",
  "Asia/Jerusalem",
  "Europe/Istanbul",
  "Europe/Moscow",
  "Asia/Riyadh",
  "Africa/Nairobi",
  "Asia/Tehran",
  "Asia/Dubai",
  "Asia/Kabul",
  "Asia/Karachi",
  "Asia/Kolkata",
  "Asia/Kathmandu",
  "Asia/Dhaka",
  "Asia/Yangon",
  "Asia/Bangkok",
  "Asia/Jakarta",
  "Asia/Shanghai",
  "Asia/Hong_Kong",
  "Asia/Singapore",
  "Asia/Taipei",
  "Australia/Perth",
  "Asia/Seoul",
  "Asia/Tokyo",
  "Australia/Adelaide",
  "Australia/Darwin",
  "Australia/Brisbane",
  "Australia/Sydney",
  "Pacific/Noumea",
  "Pacific/Auckland",
  "Pacific/Chatham",
  "Pacific/Tongatapu",
  "Pacific/Kiritimati",
] as const;

/** The value of a datetime-local input for an instant, in UTC (minute precision). */
export function utcInputValue(date: Date | string): string {
  return new Date(date).toISOString().slice(0, 16);
}

/** The value of a datetime-local input for an instant, in the browser's own zone. */
export function localInputValue(date: Date | string): string {
  const d = new Date(date);
  const pad = (n: number) => String(n).padStart(2, "0");
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:${pad(d.getMinutes())}`;
}

/** Old names browsers still report (ICU keeps them as canonical) for zones of the list under their new name. */
const RENAMED: Record<string, string> = {
  "Asia/Calcutta": "Asia/Kolkata",
  "Asia/Katmandu": "Asia/Kathmandu",
  "Asia/Rangoon": "Asia/Yangon",
  "Europe/Kiev": "Europe/Kyiv",
  "America/Buenos_Aires": "America/Argentina/Buenos_Aires",
};

/** The browser's IANA zone ("Asia/Tokyo"; "Asia/Kolkata" for Chromium's "Asia/Calcutta"), or UTC when it names none. */
export function browserZone(): string {
  try {
    const zone = Intl.DateTimeFormat().resolvedOptions().timeZone || DEFAULT_ZONE;
    return RENAMED[zone] ?? zone;
  } catch {
    return DEFAULT_ZONE;
  }
}

/** The submitted zone when it is one (an IANA name, or a +hh:mm offset from an older form), else UTC. */
export function zoneOf(tz: FormDataEntryValue | null): string {
  return typeof tz === "string" && (OFFSET.test(tz) || isTimeZone(tz)) ? tz : DEFAULT_ZONE;
}

/** The submitted date and time with the submitted zone's offset attached (a malformed zone is UTC). */
export function withZone(value: FormDataEntryValue | null, tz: FormDataEntryValue | null): string | undefined {
  if (typeof value !== "string") return undefined;
  const v = value.trim();
  if (!v || ZONED.test(v)) return v;
  const zone = zoneOf(tz);
  if (OFFSET.test(zone)) return `${v}${zone}`;
  return wallTimeInZone(v, zone) ?? v;
}

/**
 * Whether the submitted wall time is the one the form showed for the stored instant, in the submitted
 * zone: then the writer left the field alone and the stored date must stay as it is, byte for byte
 * (seconds included, and whatever a daylight-saving fold would make of the wall time).
 */
export function sameWallTime(value: FormDataEntryValue | null, tz: FormDataEntryValue | null, stored: string): boolean {
  if (typeof value !== "string" || !value.trim()) return false;
  const zone = zoneOf(tz);
  const shown = OFFSET.test(zone) ? null : inputValueInZone(stored, zone);
  return shown !== null && value.trim().slice(0, 16) === shown;
}
