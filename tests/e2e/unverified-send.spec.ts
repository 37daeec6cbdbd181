import type { Page } from "@playwright/test";
import { readFileSync, readdirSync, statSync, existsSync } from "node:fs";
import path from "node:path";
import { expect, test } from "./fixtures";
import { linkIn, readMail } from "./mail";
import { ACCOUNTS, VIEWPORTS, screenshots, signIn, uploadCover } from "./support";

const COVER = path.resolve("seed/images/seed-cover-cut-web-apps-load-time-half.jpg");
const PASSWORD = "Sunny-Garden-42";
const tag = () => `${Date.now().toString(36)}${Math.floor(Math.random() * 1e4)}`;
const MAIL_DIR = path.resolve(".wrangler/tmp/email");

/** Every message part written since `since` that mentions `needle` (wrangler dev's local mail). */
function mailMentioning(needle: string, since: number): string[] {
  if (!existsSync(MAIL_DIR)) return [];
  const walk = (dir: string): string[] =>
    readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
      e.isDirectory() ? walk(path.join(dir, e.name)) : [path.join(dir, e.name)],
    );
  return walk(MAIL_DIR).filter((f) => statSync(f).mtimeMs >= since - 1000 && readFileSync(f, "utf8").includes(needle));
}

const dialog = (page: Page, title: string) =>
  page.locator(".swal2-popup").filter({ has: page.locator(".swal2-title", { hasText: title }) });

test.describe("outreach needs a verified writer", () => {
  test("an unverified writer's post is on the site, mailed to nobody, and the writer is told why", async ({
    page,
    browser,
  }) => {
    test.setTimeout(120_000);
    const since = Date.now();
    const reader = `reader-${tag()}@example.com`;

    // A confirmed subscriber.
    expect((await page.request.post("/api/newsletter", { data: { email: reader } })).status()).toBe(202);
    const confirm = linkIn((await readMail(reader, since)).text, "/newsletter/confirm");
    await page.goto(`${confirm.pathname}${confirm.search}`);
    // Opening the link only asks (a mail scanner subscribes nobody); the button confirms.
    await expect(page.getByRole("heading", { name: "Confirm your subscription" })).toBeVisible();
    await page.getByRole("button", { name: "Confirm subscription" }).click();
    await expect(page.getByRole("heading", { name: "You're subscribed" })).toBeVisible();

    // A new account that has not confirmed its address posts through the page.
    const writer = await (await browser.newContext()).newPage();
    await writer.setViewportSize(VIEWPORTS.desktop);
    const email = `unverified-${tag()}@example.com`;
    const signup = await writer.request.post("/api/auth/register", {
      data: { name: "Una Proven", email, password: PASSWORD },
    });
    expect(signup.status()).toBe(201);
    const title = `Unproven news ${tag()}`;
    await writer.goto("/dashboard/writeBlogs");
    await writer.getByLabel("Title").fill(title);
    await writer.getByLabel("Category").selectOption("Travel");
    await writer.getByLabel("Cover image").setInputFiles(COVER);
    await writer.getByLabel("Short description").fill("Meant for every subscriber's inbox.");
    await writer.getByLabel("Details").fill("It should reach the site only.");
    await writer.getByRole("button", { name: "Post Blog" }).click();
    await expect(writer).toHaveURL(/\/dashboard\/myBlog$/);
    const told = dialog(writer, "Blog Posted Successfully!");
    await expect(told).toContainText("not emailed to subscribers or followers");
    await expect(told).toContainText("confirm your email address first");
    await screenshots(writer, "post-unverified-notice");

    // It is on the site.
    await page.goto("/allBlogs");
    await expect(page.getByRole("article").filter({ hasText: title })).toBeVisible();

    // A verified writer's post reaches the subscriber through the same queue: by then the first would have too.
    const verified = await (await browser.newContext()).newPage();
    await signIn(verified, ACCOUNTS.writer);
    const later = `Proven news ${tag()}`;
    const created = await verified.request.post("/api/blogs", {
      data: {
        title: later,
        short_description: "For every subscriber.",
        blog_details: "A verified writer's post goes out.",
        category: "Technology",
        date_time: new Date().toISOString(),
        image: await uploadCover(verified),
      },
    });
    expect(created.status()).toBe(201);
    expect((await created.json()).notice).toBeUndefined();
    await readMail(later, since);
    expect(mailMentioning(title, since)).toEqual([]);
  });
});
