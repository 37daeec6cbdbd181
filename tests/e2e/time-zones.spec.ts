import type { Page } from "@playwright/test";
import path from "node:path";
import { expect, test } from "./fixtures";
import { ACCOUNTS, VIEWPORTS, hydrated, screenshots, signIn } from "./support";

// Issue 43: the time a writer picks is the instant they meant, in their zone, with and without JavaScript,
// and editing never moves it. Each zone runs the whole journey (write and schedule, then ten edits).
const COVER = path.resolve("seed/images/seed-cover-cut-web-apps-load-time-half.jpg");
const ZONES = [
  { zone: "Asia/Tokyo", offset: 540, label: "GMT+9" },
  { zone: "America/New_York", offset: null, label: /GMT-[45]/ },
  { zone: "Asia/Kolkata", offset: 330, label: "GMT+5:30" },
] as const;

/** A wall time `hours` ahead, in the browser's own zone, as a datetime-local value, and the instant it means. */
async function aheadInBrowser(page: Page, hours: number) {
  return page.evaluate((h) => {
    const at = new Date(Date.now() + h * 3_600_000);
    at.setSeconds(0, 0);
    const pad = (n: number) => String(n).padStart(2, "0");
    const local = `${at.getFullYear()}-${pad(at.getMonth() + 1)}-${pad(at.getDate())}T${pad(at.getHours())}:${pad(at.getMinutes())}`;
    return { local, iso: at.toISOString() };
  }, hours);
}

/** The same, computed here for a zone (the no-JavaScript writer types their own wall time and picks the zone). */
function aheadIn(zone: string, hours: number) {
  const at = new Date(Date.now() + hours * 3_600_000);
  at.setUTCSeconds(0, 0);
  const parts = Object.fromEntries(
    new Intl.DateTimeFormat("en-US", {
      timeZone: zone,
      hourCycle: "h23",
      year: "numeric",
      month: "2-digit",
      day: "2-digit",
      hour: "2-digit",
      minute: "2-digit",
    })
      .formatToParts(at)
      .map((p) => [p.type, p.value]),
  );
  return { local: `${parts.year}-${parts.month}-${parts.day}T${parts.hour}:${parts.minute}`, iso: at.toISOString() };
}

async function storedDate(page: Page, id: string): Promise<string> {
  const res = await page.request.get(`/api/blogs/${id}`);
  expect(res.ok()).toBe(true);
  return ((await res.json()) as { date_time: string }).date_time;
}

async function writeScheduled(page: Page, title: string, when: { local: string }, zone?: string) {
  await page.goto("/dashboard/writeBlogs");
  await page.getByLabel("Title").fill(title);
  await page.getByLabel("Category").selectOption("Travel");
  await page.getByLabel("Cover image").setInputFiles(COVER);
  await page.getByLabel("Short description").fill(`Short description of ${title}.`);
  await page.getByLabel("Details").fill(`The details of ${title}.`);
  await page.getByLabel("Date and time").fill(when.local);
  if (zone) await page.getByLabel("Time zone").selectOption(zone);
  await page.getByRole("button", { name: "Schedule" }).click();
  await expect(page).toHaveURL(/\/dashboard\/myBlog$/);
  const card = page.getByRole("article").filter({ hasText: title });
  const href = (await card.getByRole("link").first().getAttribute("href"))!;
  return href.split("/")[2]!;
}

/** Ten saves of the edit form, each changing the title only: the date must not move. */
async function editTenTimes(page: Page, id: string, js: boolean) {
  const before = await storedDate(page, id);
  for (let i = 1; i <= 10; i++) {
    await page.goto(`/dashboard/updateBlog/${id}`);
    if (js) await hydrated(page);
    await page.getByLabel("Title").fill(`Edited ${i} times`);
    await page.getByRole("button", { name: "Update Blog" }).click();
    await expect(page).not.toHaveURL(/updateBlog/);
    expect(await storedDate(page, id)).toBe(before);
  }
}

for (const { zone, offset, label } of ZONES) {
  test.describe(`a writer in ${zone}`, () => {
    test.use({ timezoneId: zone });
    test.beforeEach(async ({ page }) => {
      await page.setViewportSize(VIEWPORTS.desktop);
      await signIn(page, ACCOUNTS.writer);
    });

    test("with JavaScript: schedules the instant meant, sees it in their time, and ten edits keep it", async ({
      page,
    }) => {
      test.setTimeout(120_000);
      await page.goto("/dashboard/writeBlogs");
      await hydrated(page);
      await expect(page.getByLabel("Time zone")).toHaveValue(zone);
      if (offset !== null) {
        expect(await page.evaluate(() => -new Date().getTimezoneOffset())).toBe(offset);
      }
      const when = await aheadInBrowser(page, 2);
      const id = await writeScheduled(page, `Two hours ahead in ${zone}`, when);
      await expect(page.getByTestId("flash-notice")).toContainText("Blog Scheduled!");
      await expect(page.getByTestId("flash-notice")).toContainText(label);
      expect(await storedDate(page, id)).toBe(when.iso);
      await editTenTimes(page, id, true);
      await page.goto(`/dashboard/updateBlog/${id}`);
      await hydrated(page);
      await expect(page.getByLabel("Date and time")).toHaveValue(when.local);
      await screenshots(page, `time-zones-edit-${zone.replace("/", "-")}`);
    });
  });

  test.describe(`a writer in ${zone} without JavaScript`, () => {
    test.use({ timezoneId: zone, javaScriptEnabled: false });
    test.beforeEach(async ({ page }) => {
      await page.setViewportSize(VIEWPORTS.desktop);
      await signIn(page, ACCOUNTS.writer);
    });

    test("picks their zone, schedules the instant meant, and ten edits keep it", async ({ page }) => {
      test.setTimeout(120_000);
      await page.goto("/dashboard/writeBlogs");
      // Without JavaScript the form says UTC and means it, until the writer picks their zone.
      await expect(page.getByLabel("Time zone")).toHaveValue("UTC");
      const when = aheadIn(zone, 26);
      const id = await writeScheduled(page, `Tomorrow in ${zone}, no script`, when, zone);
      await expect(page.getByTestId("flash-notice")).toContainText("Blog Scheduled!");
      await expect(page.getByTestId("flash-notice")).toContainText(label);
      expect(await storedDate(page, id)).toBe(when.iso);
      await editTenTimes(page, id, false);
    });
  });
}

test.describe("one zone for every date", () => {
  const PAGES = ["/", "/blogs/dtsmsv96ei1r4bjkcypt", "/dashboard/myBlog", "/dashboard/manageBlogs", "/notifications"];

  test.describe("with JavaScript, in Tokyo", () => {
    test.use({ timezoneId: "Asia/Tokyo" });
    test("every date on the home page, a post, My Blogs, Manage Blogs and the notifications is in the reader's zone, named", async ({
      page,
    }) => {
      test.setTimeout(90_000);
      await signIn(page, ACCOUNTS.writer);
      // A scheduled post puts a date on My Blogs and Manage Blogs.
      await writeScheduled(page, "A date for the lists", await aheadInBrowser(page, 30));
      let seen = 0;
      for (const url of PAGES) {
        await page.goto(url);
        await hydrated(page);
        const times = page.locator("time[data-local-time]");
        await expect(page.locator('time[data-local-time][data-zone="UTC"]')).toHaveCount(0);
        for (const time of await times.all()) {
          seen++;
          await expect(time).toHaveAttribute("data-zone", "local");
          if ((await time.getAttribute("data-local-time")) === "datetime") await expect(time).toContainText("GMT+9");
          else await expect(time).toHaveAttribute("title", /GMT\+9$/);
        }
        // No date is printed outside the one helper.
        expect(await page.locator("time:not([data-local-time])").count(), url).toBe(0);
      }
      expect(seen).toBeGreaterThan(3);
    });
  });

  test.describe("without JavaScript", () => {
    test.use({ timezoneId: "Asia/Tokyo", javaScriptEnabled: false });
    test("the server-rendered HTML says every date is in UTC", async ({ page }) => {
      await signIn(page, ACCOUNTS.writer);
      for (const url of PAGES) {
        await page.goto(url);
        for (const time of await page.locator("time[data-local-time]").all()) {
          await expect(time).toHaveAttribute("data-zone", "UTC");
          await expect(time).toHaveAttribute("title", /UTC$/);
        }
        expect(await page.locator("time:not([data-local-time])").count(), url).toBe(0);
      }
    });
  });
});
