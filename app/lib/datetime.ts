/**
 * A datetime-local input has no zone. Forms send the browser's offset beside it (a hidden `tz`
 * field, set by DateTimeField once hydrated), so "10:30" means 10:30 where the writer is. Without
 * JavaScript the field shows and means UTC, both ways, so it stays consistent.
 */
const ZONE = /^[+-](?:[01]\d|2[0-3]):[0-5]\d$/;
const ZONED = /(?:Z|[+-]\d{2}:\d{2})$/i;

export const UTC_OFFSET = "+00:00";

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

/** The browser's current offset from UTC as +hh:mm. */
export function localOffset(date = new Date()): string {
  const minutes = -date.getTimezoneOffset();
  const abs = Math.abs(minutes);
  const pad = (n: number) => String(n).padStart(2, "0");
  return `${minutes < 0 ? "-" : "+"}${pad(Math.floor(abs / 60))}:${pad(abs % 60)}`;
}

/** The submitted date and time with the submitted zone attached (a malformed zone is ignored: UTC). */
export function withZone(value: FormDataEntryValue | null, tz: FormDataEntryValue | null): string | undefined {
  if (typeof value !== "string") return undefined;
  const v = value.trim();
  if (!v || ZONED.test(v)) return v;
  return typeof tz === "string" && ZONE.test(tz) ? `${v}${tz}` : v;
}
