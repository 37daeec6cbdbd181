import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { schema } from "#worker/db.ts";
import { inputValueInZone } from "#worker/services/shared/datetime.ts";
import { db, makeBlog, makeUser } from "../support/factories";
import { flashOf } from "../support/flash";
import { pngFile, postForm } from "../support/pages";

// The writer's journey of issue 43 through the real actions: the form sends the wall time the writer typed
// and the zone it was typed in (an IANA name), and the stored instant is exactly the one meant.
const ZONES = [
  { zone: "Asia/Tokyo", label: "GMT+9" },
  { zone: "America/New_York", label: /GMT-[45]/ },
  { zone: "Asia/Kolkata", label: "GMT+5:30" },
] as const;

const blogRow = (id: string) => db().query.blogs.findFirst({ where: eq(schema.blogs.id, id) });
const minute = (ms: number) => new Date(Math.floor(ms / 60_000) * 60_000).toISOString();

const fields = (title: string, dateTime: string, tz: string, status = "scheduled") => ({
  title,
  category: "Travel",
  date_time: dateTime,
  tz,
  status,
  short_description: "A weekend with one small bag.",
  blog_details: "Packing light changes how you travel.",
});

describe.each(ZONES)("a writer in $zone", ({ zone, label }) => {
  it("schedules a post for the instant they typed, and the confirmation says it in their own time", async () => {
    const writer = await makeUser();
    const meant = Date.now() + 3 * 86_400_000 + 17 * 60_000;
    const typed = inputValueInZone(new Date(meant).toISOString(), zone)!;
    const res = await postForm("/dashboard/writeBlogs", writer, fields(`Scheduled from ${zone}`, typed, zone), {
      image: pngFile(),
    });
    expect(res.status).toBe(302);
    const flash = flashOf(res)!;
    expect(flash.title).toBe("Blog Scheduled!");
    const [row] = await db().select().from(schema.blogs).where(eq(schema.blogs.authorId, writer.id));
    expect(row?.dateTime).toBe(minute(meant));
    expect(row?.status).toBe("scheduled");
    const [, hhmm] = /T(\d\d:\d\d)/.exec(typed)!;
    const [h, m] = hhmm!.split(":").map(Number) as [number, number];
    expect(flash.text).toContain(`${h % 12 || 12}:${String(m).padStart(2, "0")} ${h < 12 ? "AM" : "PM"}`);
    expect(flash.text).toMatch(label);
  });

  it("accepts a time two hours ahead of their own clock (it is not 'in the past')", async () => {
    const writer = await makeUser();
    const meant = Date.now() + 2 * 3_600_000;
    const typed = inputValueInZone(new Date(meant).toISOString(), zone)!;
    const res = await postForm("/dashboard/writeBlogs", writer, fields("Two hours ahead", typed, zone), {
      image: pngFile(),
    });
    expect(res.status).toBe(302);
    const [row] = await db().select().from(schema.blogs).where(eq(schema.blogs.authorId, writer.id));
    expect(row?.dateTime).toBe(minute(meant));
  });

  it("ten successive edits of a published post leave its date unchanged, byte for byte", async () => {
    const writer = await makeUser();
    const stored = "2026-03-08T06:34:56.789Z"; // seconds the input cannot show, on New York's DST day
    const blog = await makeBlog(writer, { dateTime: stored });
    for (let i = 1; i <= 10; i++) {
      const shown = inputValueInZone((await blogRow(blog.id))!.dateTime, zone)!;
      const res = await postForm(`/dashboard/updateBlog/${blog.id}`, writer, {
        title: `Edit ${i}`,
        date_time: shown,
        tz: zone,
      });
      expect(res.status).toBe(302);
      const row = await blogRow(blog.id);
      expect(row?.title).toBe(`Edit ${i}`);
      expect(row?.dateTime).toBe(stored);
    }
  });

  it("moves the date exactly as far as the writer moves it", async () => {
    const writer = await makeUser();
    const blog = await makeBlog(writer, { dateTime: "2026-05-01T10:00:00.000Z" });
    const later = "2026-05-01T12:30:00.000Z";
    const res = await postForm(`/dashboard/updateBlog/${blog.id}`, writer, {
      title: blog.title,
      date_time: inputValueInZone(later, zone)!,
      tz: zone,
    });
    expect(res.status).toBe(302);
    expect((await blogRow(blog.id))?.dateTime).toBe(later);
  });
});

describe("without JavaScript", () => {
  it("a form sent with the zone left at UTC means UTC", async () => {
    const writer = await makeUser();
    const blog = await makeBlog(writer, { dateTime: "2026-05-01T10:00:00.000Z" });
    await postForm(`/dashboard/updateBlog/${blog.id}`, writer, {
      title: blog.title,
      date_time: "2026-05-02T08:15",
      tz: "UTC",
    });
    expect((await blogRow(blog.id))?.dateTime).toBe("2026-05-02T08:15:00.000Z");
  });

  it("an unknown zone is read as UTC rather than refused", async () => {
    const writer = await makeUser();
    const blog = await makeBlog(writer, { dateTime: "2026-05-01T10:00:00.000Z" });
    await postForm(`/dashboard/updateBlog/${blog.id}`, writer, {
      title: blog.title,
      date_time: "2026-05-02T08:15",
      tz: "Mars/Olympus_Mons",
    });
    expect((await blogRow(blog.id))?.dateTime).toBe("2026-05-02T08:15:00.000Z");
  });
});
