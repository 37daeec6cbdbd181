import type { Page } from "@playwright/test";
import { expect, test } from "./fixtures";
import { expectNoSeriousA11yViolations } from "./axe";
import { hydrated, screenshots } from "./support";

// Seeded posts (seed/content.json): three to save, and the newest one (by Jordan Reyes, 2026-11-18T09:15Z).
const POSTS = ["dtsmsv96ei1r4bjkcypt", "dolzwv79z4toevdznec2", "2u8dg541pdtiejbwlv4u"];

/** A fresh reader of its own, so the list starts empty whatever other specs saved. */
async function registerReader(page: Page) {
  const email = `reader-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 7)}@example.com`;
  const res = await page.request.post("/api/auth/register", {
    data: { name: "Riley Reader", email, password: "Reader#Demo2026" },
  });
  if (!res.ok()) throw new Error(`register failed: ${res.status()} ${await res.text()}`);
}

test.describe("reading list", () => {
  test("save three posts, then remove one on /saved", async ({ page }) => {
    test.setTimeout(90_000);
    await registerReader(page);
    const titles: string[] = [];
    for (const id of POSTS) {
      await page.goto(`/blogs/${id}`);
      await hydrated(page);
      titles.push((await page.getByRole("heading", { level: 1 }).textContent())!.trim());
      await page.getByRole("button", { name: /^Save/ }).click();
      await expect(page.getByRole("button", { name: "Saved" })).toBeVisible();
      // "Saved" shows while the request is still on its way; leaving the page before the answer would cancel it.
      await expect(page.locator(".swal2-popup .swal2-title")).toHaveText("Blog Saved Successfully");
    }
    // Saved toggles back: pressing it takes the post off the list, and Save puts it back.
    const savedButton = page.getByRole("button", { name: "Saved" });
    await expect(savedButton).toHaveAttribute("aria-pressed", "true");
    await savedButton.click();
    await expect(page.getByRole("button", { name: "Save", exact: true })).toHaveAttribute("aria-pressed", "false");
    await expect(page.locator(".swal2-popup .swal2-title")).toHaveText("Removed from your saved list");
    await page.getByRole("button", { name: "Save", exact: true }).click();
    await expect(page.getByRole("button", { name: "Saved" })).toHaveAttribute("aria-pressed", "true");
    await expect(page.locator(".swal2-popup .swal2-title")).toHaveText("Blog Saved Successfully");

    await page.goto("/about");
    await page.getByRole("button", { name: /^Account menu for/ }).click();
    await page.locator("#account-menu").getByRole("link", { name: "Reading list" }).click();
    await expect(page).toHaveURL(/\/saved$/);
    const list = page.getByRole("list", { name: "Saved posts" }).getByRole("listitem");
    await expect(list).toHaveCount(3);
    // Newest save first.
    await expect(list.first()).toContainText(titles[2]!);
    await expect(list.last()).toContainText(titles[0]!);

    await page.getByRole("button", { name: `Remove ${titles[1]} from your reading list` }).click();
    await expect(page.getByRole("status")).toHaveText("Removed from your saved list");
    await expect(list).toHaveCount(2);
    await expect(page.getByRole("list", { name: "Saved posts" })).not.toContainText(titles[1]!);
    await expectNoSeriousA11yViolations(page);
    await screenshots(page, "saved");

    // The sidebar points here too.
    await page.goto("/allBlogs");
    await page.getByRole("link", { name: /See your reading list/ }).click();
    await expect(page).toHaveURL(/\/saved$/);
  });

  test("a visitor is sent to sign in", async ({ page }) => {
    await page.goto("/saved");
    await expect(page).toHaveURL(/\/login\?redirectTo=%2Fsaved$/);
  });
});

test.describe("writer pages", () => {
  test("open a writer page from a post's byline", async ({ page }) => {
    await page.goto(`/blogs/${POSTS[0]}`);
    await page.getByRole("link", { name: "Jordan Reyes" }).first().click();
    await expect(page).toHaveURL(/\/writers\/[0-9a-z]+$/);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Jordan Reyes");
    await expect(page.getByText("Front-end Developer & Newsletter Writer")).toBeVisible();
    const posts = page.getByRole("region", { name: /Posts by Jordan Reyes/ }).getByRole("article");
    expect(await posts.count()).toBeGreaterThan(0);
    await expectNoSeriousA11yViolations(page);
    await screenshots(page, "writer");
    // And from a card on /allBlogs.
    await page.goto("/allBlogs");
    await page
      .getByRole("region", { name: /Latest posts/ })
      .getByRole("article")
      .first()
      .getByRole("link", { name: /./ })
      .last()
      .click();
    await expect(page).toHaveURL(/\/writers\/[0-9a-z]+$/);
  });
});

test.describe("dates in the reader's time zone", () => {
  test.use({ timezoneId: "Asia/Tokyo" });

  test("the post's date shows in the browser's zone, without a hydration warning", async ({ page }) => {
    const warnings: string[] = [];
    page.on("console", (m) => {
      if (/hydrat|did not match/i.test(m.text())) warnings.push(m.text());
    });
    await page.goto(`/blogs/${POSTS[0]}`);
    const time = page.locator("header time").first();
    await expect(time).toHaveAttribute("datetime", "2026-11-18T09:15:00.000Z");
    // 09:15 UTC is 18:15 in Tokyo.
    await expect(time).toContainText("6:15 PM");
    await expect(time).not.toContainText("UTC");
    expect(warnings).toEqual([]);
  });
});
