import { readFileSync } from "node:fs";
import path from "node:path";
import { expect, test } from "./fixtures";
import { ACCOUNTS, VIEWPORTS, signIn } from "./support";

const COVER = path.resolve("seed/images/seed-cover-cut-web-apps-load-time-half.jpg");

/**
 * A refused form on a phone moved the focus to the body and put its message far above
 * the viewport. The error summary now takes the focus and comes into view, whatever the form.
 */
test.describe("errors come into view", () => {
  test.beforeEach(async ({ page }) => {
    await page.setViewportSize(VIEWPORTS.phone);
    await signIn(page, ACCOUNTS.writer);
    // Write Blogs also answers a refusal with the browser's alert (the spec's); accept it.
    page.on("dialog", (dialog) => void dialog.accept());
    await page.goto("/dashboard/writeBlogs");
    await page.getByLabel("Title").fill(`Too late ${Date.now()}`);
    await page.getByLabel("Category").selectOption("Travel");
    await page.getByLabel("Short description").fill("A post scheduled for yesterday.");
    await page.getByLabel("Details").fill("It cannot be published in the past.");
  });

  test("scheduling in the past: the summary is focused and on screen, at 375 px", async ({ page }) => {
    await page.getByLabel("Cover image").setInputFiles(COVER);
    await page.getByLabel("Date and time").fill("2020-01-01T09:00");
    const schedule = page.getByRole("button", { name: "Schedule" });
    await schedule.scrollIntoViewIfNeeded();
    await schedule.click();
    const summary = page.locator("[data-error-summary]");
    await expect(summary).toBeFocused();
    await expect(summary).toBeInViewport();
    await expect(summary).toContainText(/past|future|ahead/i);
  });

  test("an oversized image: the summary is focused and on screen, at 375 px", async ({ page }) => {
    // A real photo padded after its end to 5.7 MB, so only its size is wrong.
    const photo = readFileSync(COVER);
    const big = Buffer.concat([photo, Buffer.alloc(5_700_000 - photo.length, 0)]);
    await page.getByLabel("Cover image").setInputFiles({ name: "huge.jpg", mimeType: "image/jpeg", buffer: big });
    const publish = page.getByRole("button", { name: "Save draft" });
    await publish.scrollIntoViewIfNeeded();
    await publish.click();
    const focused = page.locator(":focus");
    await expect(focused).toHaveAttribute("data-error-summary", "");
    await expect(focused).toBeInViewport();
  });
});
