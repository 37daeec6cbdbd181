import type { Page } from "@playwright/test";
import { expect, ownAddress, test } from "./fixtures";
import { VIEWPORTS, screenshots } from "./support";

// After commenting, the new comment is shown in view and announced politely,
// with and without JavaScript. A seeded post of the demo writer, at its readable link.
const POST_PATH = "/blogs/dtsmsv96ei1r4bjkcypt/cut-your-web-apps-load-time-in-half-a-practical-checklist";
const PASSWORD = "Feedback#Journey2026";
let people = 0;
const stamp = () => `${Date.now().toString(36)}${(people++).toString(36)}`;

/** A fresh account, signed in through the real register call (the cookie lands in the page's context). */
async function register(page: Page) {
  const res = await page.request.post("/api/auth/register", {
    data: { name: "Fay Feedback", email: `feedback-${stamp()}@example.com`, password: PASSWORD },
  });
  expect(res.status()).toBe(201);
}

/** Is the element's box inside the viewport (at least partly)? */
async function inView(page: Page, selector: string) {
  return page.locator(selector).evaluate((el) => {
    const r = el.getBoundingClientRect();
    return r.bottom > 0 && r.top < window.innerHeight;
  });
}

test.describe("Feedback after commenting", () => {
  test("with JavaScript at 375 px: the new comment is scrolled into view, focused, and announced politely", async ({
    page,
  }) => {
    await page.setViewportSize(VIEWPORTS.phone);
    await register(page);
    await page.goto(POST_PATH);
    const text = `Measured it on my own site, thanks ${stamp()}`;
    await page.getByRole("button", { name: /^Comment/ }).click();
    await page.getByLabel("Your comment").fill(text);
    await page.getByRole("button", { name: "Send", exact: true }).click();

    // The polite live region says so (a screen reader hears it without losing its place).
    const live = page.locator("#comment-announcer");
    await expect(live).toHaveAttribute("aria-live", "polite");
    await expect(live).toHaveText("Your comment was posted.");

    // The new comment itself has focus and is on screen, not somewhere below the fold.
    const item = page.locator("div[id^='comment-']", { hasText: text }).first();
    await expect(item).toBeFocused();
    const id = await item.getAttribute("id");
    await expect.poll(() => inView(page, `#${id}`)).toBe(true);
    await expect(item).toHaveAttribute("data-fresh", "true");
    await screenshots(page, "comment-feedback");
  });

  test("without JavaScript: the post answers with the page at the new comment's anchor, and it shows there", async ({
    browser,
  }) => {
    const context = await browser.newContext({
      baseURL: test.info().project.use.baseURL,
      javaScriptEnabled: false,
      extraHTTPHeaders: ownAddress(),
    });
    const page = await context.newPage();
    await page.setViewportSize(VIEWPORTS.phone);
    await register(page);
    await page.goto(POST_PATH);
    const text = `No script here, still heard ${stamp()}`;
    await page.getByLabel("Your comment").first().fill(text);
    await page.getByRole("button", { name: "Send", exact: true }).first().click();

    await expect(page).toHaveURL(/#comment-[A-Za-z0-9_-]+$/);
    const anchor = new URL(page.url()).hash;
    const item = page.locator(anchor);
    await expect(item).toContainText(text);
    await expect.poll(() => inView(page, anchor)).toBe(true);
    await context.close();
  });
});
