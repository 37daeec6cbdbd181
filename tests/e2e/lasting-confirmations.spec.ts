import type { Page } from "@playwright/test";
import path from "node:path";
import { expect, test } from "./fixtures";
import { ACCOUNTS, screenshots, signIn } from "./support";

const COVER = path.resolve("seed/images/seed-cover-cut-web-apps-load-time-half.jpg");
const swal = (page: Page) => page.locator(".swal2-popup");

test.describe("confirmations that stay on the page", () => {
  test("after Post Blog the message stays until dismissed, and offers to view and share the post", async ({ page }) => {
    await signIn(page, ACCOUNTS.writer);
    const title = `Staying power ${Date.now().toString(36)}`;
    await page.goto("/dashboard/writeBlogs");
    await page.getByLabel("Title").fill(title);
    await page.getByLabel("Category").selectOption("Travel");
    await page.getByLabel("Cover image").setInputFiles(COVER);
    await page.getByLabel("Short description").fill("A short one.");
    await page.getByLabel("Details").fill("Some details.");
    await page.getByRole("button", { name: "Post Blog" }).click();
    await expect(page).toHaveURL(/\/dashboard\/myBlog$/);

    // The toast has a close button and closes itself; the notice keeps its words on the page.
    await expect(swal(page).getByRole("button", { name: "Close this dialog" })).toBeVisible();
    await expect(swal(page)).toBeHidden({ timeout: 5_000 });
    const notice = page.getByTestId("flash-notice");
    await expect(notice).toContainText("Blog Posted Successfully!");
    await page.waitForTimeout(2_000);
    await expect(notice).toBeVisible();
    await screenshots(page, "post-blog-notice");
    await expect(notice.getByRole("link", { name: "View it" })).toBeVisible();

    // "Share it" opens the post with its share panel open; Escape closes it and focus returns to Share.
    await notice.getByRole("link", { name: "Share it" }).click();
    await expect(page.getByRole("heading", { level: 1, name: title })).toBeVisible();
    const panel = page.getByRole("region", { name: "Share this post" });
    await expect(panel).toBeVisible();
    await page.keyboard.press("Escape");
    await expect(panel).toBeHidden();
    await expect(page.getByRole("button", { name: "Share" })).toBeFocused();

    // Back on My Blogs with a new flash: the dismiss button takes the notice away.
    await page.goto("/dashboard/myBlog");
    await expect(page.getByTestId("flash-notice")).toHaveCount(0);
  });

  test("a dismissed notice goes away; the settings page's notice stays until then", async ({ page }) => {
    await signIn(page, ACCOUNTS.writer);
    await page.goto("/settings#notifications");
    await page.getByRole("button", { name: "Save email choices" }).click();
    const notice = page.getByTestId("flash-notice");
    await expect(notice).toBeVisible();
    await expect(swal(page)).toBeHidden({ timeout: 5_000 });
    await expect(notice).toBeVisible();
    await notice.getByRole("button", { name: "Dismiss message" }).click();
    await expect(notice).toHaveCount(0);
  });
});
