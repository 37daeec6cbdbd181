import type { Browser, Page } from "@playwright/test";
import path from "node:path";
import { expect, ownAddress, test } from "./fixtures";
import { mkdirSync } from "node:fs";
import { SCREENSHOT_DIR, VIEWPORTS } from "./support";

const COVER = path.resolve("seed/images/seed-cover-cut-web-apps-load-time-half.jpg");
const PASSWORD = "Editor#Autosave2026";
const tag = () => `${Date.now().toString(36)}${Math.floor(Math.random() * 1e4)}`;

/** A writer of this spec's own, so no other spec's typing lands in the same account copy. */
async function newWriter(page: Page): Promise<{ email: string; password: string }> {
  const who = { name: "Autosave Writer", email: `autosave-${tag()}@example.com`, password: PASSWORD };
  const res = await page.request.post("/api/auth/register", { data: who });
  expect(res.status()).toBe(201);
  return { email: who.email, password: who.password };
}

/** A second browser (its own storage), signed in as the same writer. */
async function secondBrowser(browser: Browser, baseURL: string, who: { email: string; password: string }) {
  const context = await browser.newContext({ baseURL, viewport: VIEWPORTS.desktop, extraHTTPHeaders: ownAddress() });
  const res = await context.request.post("/api/auth/login", { data: who });
  expect(res.ok()).toBe(true);
  return context;
}

/** The cover preview's picture: the chosen file (a blob) or its kept upload (/images/...). */
const coverPreview = (page: Page) => page.getByRole("img", { name: "Preview of the chosen image" });

test.describe("Write Blogs autosave: the cover and the account's copy", () => {
  test.beforeEach(async ({ page }) => {
    await page.setViewportSize(VIEWPORTS.desktop);
  });

  test("a chosen cover is kept through a reload", async ({ page }) => {
    await newWriter(page);
    await page.goto("/dashboard/writeBlogs");
    await page.getByLabel("Title").fill(`Cover kept ${tag()}`);
    await page.getByLabel("Cover image").setInputFiles(COVER);
    await expect(page.getByText("The cover is kept with your draft.")).toBeVisible();
    await expect(page.getByTestId("autosave-status")).toHaveText("Saved a moment ago on this device");

    page.on("dialog", (dialog) => void dialog.accept());
    await page.reload();
    await expect(page.getByText("We restored the text you were writing.")).toBeVisible();
    // The file input is empty after a reload; the kept upload shows, and stands in for the required file.
    await expect(coverPreview(page)).toHaveAttribute("src", /^\/images\/[0-9a-z]+\.jpg$/);
    await expect(page.getByLabel("Cover image")).not.toHaveAttribute("required", "");
  });

  test("text typed in one browser is offered in another signed in as the same writer", async ({
    page,
    browser,
    baseURL,
  }) => {
    const who = await newWriter(page);
    const title = `Started on the laptop ${tag()}`;
    await page.goto("/dashboard/writeBlogs");
    await page.getByLabel("Title").fill(title);
    await page.getByLabel("Short description").fill("Finished on the phone.");
    await page.getByLabel("Cover image").setInputFiles(COVER);
    await expect(page.getByText("The cover is kept with your draft.")).toBeVisible();
    // The account's copy goes a little after the typing stops.
    await expect
      .poll(
        async () =>
          (
            (await (await page.request.get("/api/drafts/autosave")).json()) as {
              autosave: { fields: { title?: string }; cover: string } | null;
            }
          ).autosave,
      )
      // The words and the kept cover (its upload may end after the first copy was sent).
      .toMatchObject({ fields: { title }, cover: expect.stringMatching(/^\/images\//) as unknown });

    const context = await secondBrowser(browser, baseURL!, who);
    const other = await context.newPage();
    await other.goto("/dashboard/writeBlogs");
    const offer = other.getByTestId("draft-offer");
    await expect(offer).toContainText("Your account kept a post you were writing in another browser");
    // Offered, never applied silently.
    await expect(other.getByLabel("Title")).toHaveValue("");
    await offer.getByRole("button", { name: "Restore that draft" }).click();
    await expect(other.getByLabel("Title")).toHaveValue(title);
    await expect(other.getByLabel("Short description")).toHaveValue("Finished on the phone.");
    await expect(coverPreview(other)).toHaveAttribute("src", /^\/images\/[0-9a-z]+\.jpg$/);
    await context.close();
  });

  test("the editor's SEO part, at phone and desktop widths", async ({ page }) => {
    await newWriter(page);
    await page.goto("/dashboard/writeBlogs");
    const seo = page.getByTestId("seo-fields");
    await seo.getByText("Search and sharing (optional)").click();
    await expect(seo.getByLabel("Search headline")).toBeVisible();
    await seo.getByLabel("Search headline").fill("Packing light for a weekend");
    await seo.getByLabel("Custom slug").fill("packing-light");
    await expect(seo.getByLabel("Or upload a social image")).toBeVisible();
    // The section itself, at both widths, for people to look at.
    mkdirSync(SCREENSHOT_DIR, { recursive: true });
    for (const size of Object.values(VIEWPORTS)) {
      await page.setViewportSize(size);
      await seo.scrollIntoViewIfNeeded();
      await seo.screenshot({ path: path.join(SCREENSHOT_DIR, `editor-seo-section-${size.width}.png`) });
    }
  });
});
