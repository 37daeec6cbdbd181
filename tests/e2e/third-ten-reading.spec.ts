import type { Page } from "@playwright/test";
import { expect, test } from "./fixtures";
import { expectNoSeriousA11yViolations } from "./axe";
import { linkIn, readMail } from "./mail";
import { ACCOUNTS, VIEWPORTS, hydrated, screenshots, signIn } from "./support";

/** Issue 47, "Reading and conversation": what a reader meets once they stay. */
const tag = () => `${Date.now().toString(36)}${Math.floor(Math.random() * 1e4)}`;

async function lightAndDark(page: Page, name: string) {
  await page.emulateMedia({ colorScheme: "light" });
  await screenshots(page, `${name}-light`);
  await page.emulateMedia({ colorScheme: "dark" });
  await page.reload();
  await screenshots(page, `${name}-dark`);
  await expectNoSeriousA11yViolations(page);
  await page.emulateMedia({ colorScheme: "light" });
}

test.describe("issue 47: reading", () => {
  test("a bare id and an old slug keep ?ref= and campaign tags on the way to the post", async ({ page }) => {
    const list = (await (await page.request.get("/api/blogs")).json()) as { _id: string; title: string }[];
    const post = list[0]!;
    const query = "?ref=news.ycombinator.com&utm_source=hn&utm_campaign=launch";
    for (const path of [
      `/blogs/${post._id}${query}`,
      `/blogs/${post._id}/an-old-title${query}`,
      `/blog/${post._id}${query}`,
    ]) {
      await page.goto(path);
      const url = new URL(page.url());
      expect(url.pathname).toMatch(new RegExp(`^/blogs/${post._id}/[a-z0-9-]+$`));
      expect(url.search).toBe(query);
    }
  });

  test("the newsletter confirm page shows no ✓ until the button is pressed", async ({ page }) => {
    await page.setViewportSize(VIEWPORTS.phone);
    const since = Date.now();
    const email = `reader-${tag()}@example.com`;
    expect((await page.request.post("/api/newsletter", { data: { email } })).status()).toBe(202);
    const confirm = linkIn((await readMail(email, since)).text, "/newsletter/confirm");
    await page.goto(`${confirm.pathname}${confirm.search}`);
    await expect(page.getByRole("heading", { name: "Confirm your subscription" })).toBeVisible();
    await expect(page.locator('[data-tone="ask"]')).toBeVisible();
    await expect(page.getByText("✓", { exact: true })).toHaveCount(0);
    await lightAndDark(page, "w47-newsletter-confirm-ask");
    await page.getByRole("button", { name: "Confirm subscription" }).click();
    await expect(page.getByRole("heading", { name: "You're subscribed" })).toBeVisible();
    await expect(page.getByText("✓", { exact: true })).toBeVisible();
  });

  test("a cover the server refuses says to choose another image, never that it is sent with the form", async ({
    page,
  }) => {
    await page.setViewportSize(VIEWPORTS.desktop);
    await signIn(page, ACCOUNTS.writer);
    await page.goto("/dashboard/writeBlogs");
    await hydrated(page);
    const refused = page.waitForResponse((r) => r.url().endsWith("/api/images") && r.request().method() === "POST");
    await page.getByLabel("Cover image").setInputFiles({
      name: "holiday.png",
      mimeType: "image/png",
      buffer: Buffer.from("these bytes are words, not a picture"),
    });
    expect((await refused).status()).toBeGreaterThanOrEqual(400);
    const note = page.getByText(/holiday\.png could not be uploaded/);
    await expect(note).toContainText("Choose another image.");
    await expect(note).not.toContainText("It is sent with the form");
    await screenshots(page, "w47-cover-refused-light");
  });
});
