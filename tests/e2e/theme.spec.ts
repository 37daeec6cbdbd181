import type { Page } from "@playwright/test";
import { expectNoSeriousA11yViolations } from "./axe";
import { test, expect } from "./fixtures";
import { ACCOUNTS, screenshots, signIn } from "./support";

// The newest seeded post (seed/content.json).
const POST_PATH = "/blogs/dtsmsv96ei1r4bjkcypt";

/**
 * Records the theme class of <html> ("dark" or "") at the moment <body> first exists (nothing can be painted
 * before it) and at DOMContentLoaded, before any of the app's own scripts have run. Other classes (`js`, which
 * the same early script adds for the no-JavaScript variants) are not the theme.
 */
async function recordFirstPaintTheme(page: Page) {
  await page.addInitScript(() => {
    const w = window as unknown as { __themeAtBody?: string; __themeAtDcl?: string };
    const observer = new MutationObserver(() => {
      if (document.body && w.__themeAtBody === undefined) {
        w.__themeAtBody = document.documentElement.classList.contains("dark") ? "dark" : "";
        observer.disconnect();
      }
    });
    observer.observe(document, { childList: true, subtree: true });
    document.addEventListener("DOMContentLoaded", () => {
      w.__themeAtDcl = document.documentElement.classList.contains("dark") ? "dark" : "";
    });
  });
}

const firstPaint = (page: Page) =>
  page.evaluate(() => {
    const w = window as unknown as { __themeAtBody?: string; __themeAtDcl?: string };
    return { body: w.__themeAtBody, dcl: w.__themeAtDcl };
  });

const isDark = (page: Page) => page.evaluate(() => document.documentElement.classList.contains("dark"));

test.describe("dark mode", () => {
  test("the toggle switches, persists, and a reload paints dark from the first frame", async ({ page }) => {
    await page.emulateMedia({ colorScheme: "light" });
    await recordFirstPaintTheme(page);
    await page.goto("/");
    expect(await isDark(page)).toBe(false);
    const toggle = page.getByRole("button", { name: "Dark mode" });
    await expect(toggle).toHaveAttribute("aria-pressed", "false");
    await toggle.click();
    await expect(toggle).toHaveAttribute("aria-pressed", "true");
    expect(await isDark(page)).toBe(true);
    expect(await page.evaluate(() => getComputedStyle(document.body).backgroundColor)).toBe("rgb(15, 21, 34)");

    await page.reload();
    expect(await firstPaint(page)).toEqual({ body: "dark", dcl: "dark" });
    expect(await page.evaluate(() => getComputedStyle(document.body).backgroundColor)).toBe("rgb(15, 21, 34)");
    // The cached page is the same HTML for everyone: the class comes from the browser, not the server.
    const html = await (await page.request.get("/")).text();
    expect(html).toMatch(/<html lang="en">/);

    // Another page of the site, reached by a plain load, is dark too; switching back persists as well.
    await page.goto("/allBlogs");
    expect((await firstPaint(page)).body).toBe("dark");
    await page.getByRole("button", { name: "Dark mode" }).click();
    await page.reload();
    expect(await firstPaint(page)).toEqual({ body: "", dcl: "" });
  });

  test("with no choice made, the system setting rules", async ({ page }) => {
    await page.emulateMedia({ colorScheme: "dark" });
    await recordFirstPaintTheme(page);
    await page.goto("/");
    expect((await firstPaint(page)).body).toBe("dark");
    await page.emulateMedia({ colorScheme: "light" });
    await page.reload();
    expect((await firstPaint(page)).body).toBe("");
  });

  for (const scheme of ["light", "dark"] as const) {
    test(`axe finds no serious or critical violation in the ${scheme} theme`, async ({ page }) => {
      test.setTimeout(120_000);
      await page.emulateMedia({ colorScheme: scheme });
      for (const path of ["/", "/allBlogs", POST_PATH, "/login"]) {
        await page.goto(path);
        expect(await isDark(page)).toBe(scheme === "dark");
        // The testimonials slider settles its markup once its script ran.
        await page.waitForLoadState("networkidle");
        await expectNoSeriousA11yViolations(page);
      }
      await signIn(page, ACCOUNTS.admin);
      await page.goto("/dashboard");
      expect(await isDark(page)).toBe(scheme === "dark");
      await expectNoSeriousA11yViolations(page);
    });
  }

  test("screenshots of the home page and a post in the dark theme", async ({ page }) => {
    await page.emulateMedia({ colorScheme: "dark" });
    await page.goto("/");
    await screenshots(page, "dark-home");
    await page.goto(POST_PATH);
    await screenshots(page, "dark-post");
  });
});
