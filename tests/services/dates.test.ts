import { describe, expect, it } from "vitest";
import { formatDate } from "#app/lib/blog-text.ts";

// formatDate writes by hand what en-US Intl writes (building an Intl.DateTimeFormat is costly on a phone
// while a page hydrates), so Intl itself is the oracle here.
const intl = (iso: string, withTime: boolean) =>
  new Intl.DateTimeFormat("en-US", {
    year: "numeric",
    month: "long",
    day: "numeric",
    ...(withTime ? { hour: "numeric", minute: "2-digit", timeZoneName: "short" } : {}),
    timeZone: "UTC",
  }).format(new Date(iso));

const INSTANTS = [
  "2026-03-04T05:06:00.000Z",
  "2026-11-18T09:15:00.000Z",
  "2026-01-01T00:00:00.000Z", // midnight is 12 AM
  "2026-06-30T12:00:59.000Z", // noon is 12 PM
  "2025-12-31T23:59:00.000Z",
  "1999-02-09T13:07:00.000Z",
];

describe("formatDate", () => {
  it.each(INSTANTS)("writes %s as en-US Intl does, with and without the time", (iso) => {
    expect(formatDate(iso)).toBe(intl(iso, false));
    expect(formatDate(iso, true)).toBe(intl(iso, true));
  });

  it("names the zone it was asked for: UTC on the shared page, the offset in the browser's own zone", () => {
    expect(formatDate("2026-03-04T05:06:00.000Z", true)).toBe("March 4, 2026 at 5:06 AM UTC");
    // The pool runs in UTC, so the browser's zone there is UTC too (the e2e spec reads Tokyo's).
    expect(formatDate("2026-03-04T05:06:00.000Z", true, "local")).toBe("March 4, 2026 at 5:06 AM UTC");
  });

  it("gives back what is not a date as it is", () => {
    expect(formatDate("not a date")).toBe("not a date");
  });
});

describe("time zones (issue 43)", () => {
  it("reads a wall time in a zone with that zone's offset on the chosen day", async () => {
    const { wallTimeInZone, inputValueInZone } = await import("#worker/services/shared/datetime.ts");
    expect(wallTimeInZone("2026-11-21T10:30", "Asia/Tokyo")).toBe("2026-11-21T10:30+09:00");
    expect(wallTimeInZone("2026-11-21T10:30", "Asia/Kolkata")).toBe("2026-11-21T10:30+05:30");
    expect(wallTimeInZone("2026-01-15T10:30", "America/New_York")).toBe("2026-01-15T10:30-05:00");
    expect(wallTimeInZone("2026-07-15T10:30", "America/New_York")).toBe("2026-07-15T10:30-04:00");
    // 02:30 does not exist in New York on 2026-03-08: read with the offset from before the change.
    expect(wallTimeInZone("2026-03-08T02:30", "America/New_York")).toBe("2026-03-08T02:30-05:00");
    expect(wallTimeInZone("2026-11-21T10:30", "Nowhere/Else")).toBeNull();
    for (const zone of ["Asia/Tokyo", "America/New_York", "Asia/Kolkata", "UTC", "Australia/Adelaide"]) {
      for (const iso of INSTANTS) {
        const shown = inputValueInZone(iso, zone)!;
        const back = new Date(wallTimeInZone(shown, zone)!).toISOString();
        expect(back).toBe(`${iso.slice(0, 16)}:00.000Z`);
      }
    }
  });

  it("formats an instant in a named zone, the zone named by its offset", () => {
    expect(formatDate("2026-03-04T05:06:00.000Z", true, "Asia/Tokyo")).toBe("March 4, 2026 at 2:06 PM GMT+9");
    expect(formatDate("2026-03-04T05:06:00.000Z", true, "Asia/Kolkata")).toBe("March 4, 2026 at 10:36 AM GMT+5:30");
    expect(formatDate("2026-03-04T05:06:00.000Z", true, "America/New_York")).toBe("March 4, 2026 at 12:06 AM GMT-5");
    expect(formatDate("2026-03-04T05:06:00.000Z", false, "America/New_York")).toBe("March 4, 2026");
    expect(formatDate("2026-03-04T02:06:00.000Z", false, "America/New_York")).toBe("March 3, 2026");
  });
});
