import type { Page } from "@playwright/test";
import { mkdirSync } from "node:fs";
import path from "node:path";
import { expect, test } from "./fixtures";
import { ACCOUNTS, VIEWPORTS, signIn } from "./support";

/** A post published at once through the REST call a writer's client uses; answers its id. */
async function publish(page: Page, title: string): Promise<string> {
  // A cover the site already serves (a seeded post's): the strict CSP allows only the site's own images.
  const [seeded] = (await (await page.request.get("/api/blogs?limit=1")).json()) as { image: string }[];
  const res = await page.request.post("/api/blogs", {
    data: {
      title,
      short_description: "A post for the follow journey.",
      blog_details: "Followers hear of this in the app.",
      category: "Technology",
      date_time: new Date().toISOString(),
      image: seeded!.image,
    },
  });
  expect(res.status()).toBe(201);
  return ((await res.json()) as { insertedId: string }).insertedId;
}

const shot = (name: string) => path.resolve(`docs/screenshots/${name}`);

test.describe("following writers", () => {
  test("follow a writer from a byline, then see their new post in /following and in the bell", async ({
    page,
    browser,
  }) => {
    test.setTimeout(120_000);
    mkdirSync(path.resolve("docs/screenshots"), { recursive: true });
    const run = Date.now().toString(36);
    const writer = await browser.newPage();
    await signIn(writer, ACCOUNTS.writer);
    const firstId = await publish(writer, `Before following ${run}`);

    // The reader follows the writer from the post's byline (a fetcher: the page stays).
    await signIn(page, ACCOUNTS.admin);
    await page.setViewportSize(VIEWPORTS.desktop);
    await page.goto(`/blogs/${firstId}`);
    // Another spec (following-writers) leaves the admin following this writer: start from not following.
    const already = page.getByRole("button", { name: /^Unfollow / }).first();
    const follow = page.getByRole("button", { name: /^Follow / }).first();
    if (await already.isVisible()) await already.click();
    await expect(follow).toBeVisible();
    await follow.click();
    await expect(page.getByRole("button", { name: /^Unfollow / }).first()).toHaveAttribute("aria-pressed", "true");
    await expect(page).toHaveURL(new RegExp(`/blogs/${firstId}`));

    // The writer publishes; /following lists it at once, and the bell counts it once the queue ran.
    const title = `After following ${run}`;
    await publish(writer, title);
    await page.goto("/following");
    await expect(page.getByRole("heading", { name: title })).toBeVisible();
    await expect
      .poll(
        async () => {
          await page.goto("/notifications");
          return page.getByRole("link", { name: new RegExp(`published “${title}”`) }).count();
        },
        { timeout: 30_000 },
      )
      .toBe(1);
    await expect(page.getByTestId("notification-count")).toBeVisible();

    // Screenshots: the bell in the top bar, /notifications and /following, at phone and desktop widths.
    for (const size of Object.values(VIEWPORTS)) {
      await page.setViewportSize(size);
      await page.goto("/notifications");
      await page.waitForLoadState("networkidle");
      await page.screenshot({
        path: shot(`notifications-bell-${size.width}.png`),
        clip: { x: 0, y: 0, width: size.width, height: 64 },
      });
      await page.screenshot({ path: shot(`notifications-${size.width}.png`), fullPage: true });
      await page.goto("/following");
      await page.waitForLoadState("networkidle");
      await page.screenshot({ path: shot(`following-${size.width}.png`), fullPage: true });
    }

    // Reading it clears the count.
    await page.goto("/notifications");
    await page.getByRole("button", { name: "Mark all as read" }).click();
    await expect(page.getByTestId("notification-count")).toHaveCount(0);
    await writer.close();
  });
});
