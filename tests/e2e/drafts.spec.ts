import type { Browser, Page } from "@playwright/test";
import { expect, test } from "./fixtures";
import path from "node:path";
import { ACCOUNTS, VIEWPORTS, localD1, screenshots, signIn } from "./support";

const COVER = path.resolve("seed/images/seed-cover-cut-web-apps-load-time-half.jpg");
const tag = () => `${Date.now().toString(36)}${Math.floor(Math.random() * 1e4)}`;

const swal = (page: Page, title: string) =>
  page.locator(".swal2-popup").filter({ has: page.locator(".swal2-title", { hasText: title }) });

/** What a visitor with no session sees at `url`: the status and whether `text` is on the page. */
async function asVisitor(browser: Browser, baseURL: string, url: string, text: string) {
  const context = await browser.newContext({ baseURL });
  const page = await context.newPage();
  const response = await page.goto(url);
  const shown = (await page.content()).includes(text);
  await context.close();
  return { status: response?.status(), shown };
}

test.describe("drafts and scheduled posts", () => {
  test("write a draft, preview it, schedule it, and see it published", async ({ page, browser, baseURL }) => {
    test.setTimeout(120_000);
    await page.setViewportSize(VIEWPORTS.desktop);
    await signIn(page, ACCOUNTS.writer);
    const title = `Quiet harbour ${tag()}`;

    await page.goto("/dashboard/writeBlogs");
    await page.getByLabel("Title").fill(title);
    await page.getByLabel("Category").selectOption("Travel");
    await page.getByLabel("Cover image").setInputFiles(COVER);
    await page.getByLabel("Short description").fill("A draft that waits for its morning.");
    await page.getByLabel("Details").fill("Boats, gulls and a slow tide.\n\nA second paragraph.");
    await screenshots(page, "drafts-write-form");
    await page.getByRole("button", { name: "Save draft" }).click();
    await expect(swal(page, "Draft Saved!")).toBeVisible();
    await expect(page).toHaveURL(/\/dashboard\/myBlog$/);
    const card = page.getByRole("article").filter({ hasText: title });
    await expect(card.getByText("Draft", { exact: true })).toBeVisible();
    const href = (await card.getByRole("link").first().getAttribute("href"))!;

    // The writer previews it; a visitor gets the 404 page and no trace on the lists.
    await page.goto(href);
    await expect(page.getByRole("heading", { level: 1, name: title })).toBeVisible();
    await expect(page.getByText("This post is a draft: only you and admins can see it.")).toBeVisible();
    expect(await asVisitor(browser, baseURL!, href, title)).toMatchObject({ status: 404, shown: false });
    expect((await asVisitor(browser, baseURL!, "/allBlogs", title)).shown).toBe(false);

    // Schedule it for the next minute that is at least 20 s away (the field has minute precision).
    await page.goto(`/dashboard/updateBlog/${href.split("/")[2]}`);
    const when = await page.evaluate(() => {
      const at = new Date(Date.now() + 20_000);
      at.setSeconds(0, 0);
      at.setMinutes(at.getMinutes() + 1);
      const pad = (n: number) => String(n).padStart(2, "0");
      const local = `${at.getFullYear()}-${pad(at.getMonth() + 1)}-${pad(at.getDate())}T${pad(at.getHours())}:${pad(at.getMinutes())}`;
      return { local, at: at.getTime() };
    });
    await page.getByLabel("Date and time").fill(when.local);
    await page.getByRole("button", { name: "Schedule" }).click();
    await expect(swal(page, "Blog Scheduled!")).toBeVisible();
    await page.goto("/dashboard/manageBlogs");
    await expect(page.getByRole("row").filter({ hasText: title }).getByText("Scheduled ·")).toBeVisible();
    expect(await asVisitor(browser, baseURL!, href, title)).toMatchObject({ status: 404, shown: false });

    // Its minute comes: rather than wait up to 80 s for it, the stored time is moved a minute back (the form's
    // part, the time it stored, was checked above: "Scheduled ·" and a 404). The minute cron (run here by hand:
    // wrangler dev runs no crons) then publishes it, as it would at that minute.
    const id = href.split("/")[2]!;
    expect(id).toMatch(/^[a-z0-9]+$/);
    localD1(`UPDATE blogs SET publish_at = ${Date.now() - 60_000} WHERE id = '${id}' AND status = 'scheduled'`);
    const cron = await page.request.get(`/__scheduled?cron=${encodeURIComponent("* * * * *")}`);
    expect(cron.ok()).toBe(true);
    expect(await asVisitor(browser, baseURL!, href, title)).toMatchObject({ status: 200, shown: true });
    expect((await asVisitor(browser, baseURL!, "/allBlogs", title)).shown).toBe(true);
    await page.goto("/dashboard/manageBlogs");
    await expect(page.getByRole("row").filter({ hasText: title })).toBeVisible();
    await expect(page.getByRole("row").filter({ hasText: title }).getByText("Scheduled ·")).toHaveCount(0);
  });

  test("the editor's publishing choices fit a phone", async ({ page }) => {
    await page.setViewportSize(VIEWPORTS.phone);
    await signIn(page, ACCOUNTS.writer);
    await page.goto("/dashboard/writeBlogs");
    for (const name of ["Post Blog", "Save draft", "Schedule"]) {
      await expect(page.getByRole("button", { name })).toBeVisible();
    }
    await page.getByRole("button", { name: "Schedule" }).scrollIntoViewIfNeeded();
    await screenshots(page, "drafts-choices");
  });
});
