import path from "node:path";
import type { Page } from "@playwright/test";
import { expect, test } from "./fixtures";
import { SCREENSHOT_DIR, VIEWPORTS } from "./support";

// The newest seeded post (seed/content.json).
const POST_PATH = "/blogs/dtsmsv96ei1r4bjkcypt";

/** Scrolls to the bottom in steps, so every lazy image comes near the viewport and loads. */
async function scrollThrough(page: Page) {
  await page.evaluate(async () => {
    for (let y = 0; y < document.body.scrollHeight; y += 400) {
      window.scrollTo(0, y);
      await new Promise((r) => setTimeout(r, 60));
    }
    window.scrollTo(0, 0);
  });
  await page.waitForLoadState("networkidle");
  // Polled from here: waitForFunction compiles its predicate with eval, which the CSP (rightly) refuses.
  await expect
    .poll(
      () =>
        page.evaluate(() =>
          // Slides clipped off to the side of the testimonials slider never come near the viewport: not awaited.
          // Pictures not drawn at all (the hero's, hidden on phones) are lazy and rightly never load.
          [...document.images].every(
            (img) =>
              img.complete ||
              img.getClientRects().length === 0 ||
              img.getBoundingClientRect().left >= window.innerWidth,
          ),
        ),
      { timeout: 20_000 },
    )
    .toBe(true);
}

/**
 * Every visible picture: what it loaded, the file's real pixel width (naturalWidth is scaled by the
 * srcset descriptor, which overstates a variant capped at a smaller original) and its drawn width.
 */
const pictures = (page: Page) =>
  page.evaluate(() =>
    Promise.all(
      [...document.images]
        .filter((img) => img.getClientRects().length > 0 && img.clientWidth > 0 && img.complete)
        .map(async (img) => {
          const probe = new Image();
          probe.src = img.currentSrc;
          await probe.decode().catch(() => undefined);
          return {
            src: img.getAttribute("src") ?? "",
            current: img.currentSrc,
            natural: probe.naturalWidth,
            drawn: img.clientWidth,
          };
        }),
    ),
  );

for (const [label, size] of Object.entries(VIEWPORTS)) {
  for (const [name, url] of [
    ["home", "/"],
    ["all-blogs", "/allBlogs"],
    ["post", POST_PATH],
  ] as const) {
    test(`${name} at ${size.width} px: every picture loads a WebP variant sharp for its size`, async ({ page }) => {
      await page.setViewportSize(size);
      await page.goto(url);
      await scrollThrough(page);
      const shown = await pictures(page);
      expect(shown.length).toBeGreaterThan(0);
      for (const p of shown) {
        expect(p.natural, `${p.current} loaded`).toBeGreaterThan(0);
        if (/^\/(images|featured)\//.test(p.src) && !p.src.endsWith(".gif")) {
          expect(p.current, p.src).toMatch(/(\/images\/w\d+\/|\/featured\/.*-w\d+\.webp$)/);
          // Sharp: at least as many pixels as drawn (1x here), unless the variant is the original's own width.
          expect(p.natural, `${p.current} drawn at ${p.drawn}px`).toBeGreaterThanOrEqual(Math.min(p.drawn, 960));
        }
      }
      await page.screenshot({ path: path.join(SCREENSHOT_DIR, `images-${name}-${size.width}.png`), fullPage: true });
      void label;
    });
  }
}

test("the post page has no layout shift while its pictures load", async ({ page }) => {
  await page.goto(POST_PATH);
  await scrollThrough(page);
  const shift = await page.evaluate(
    () =>
      new Promise<number>((resolve) => {
        let total = 0;
        new PerformanceObserver((list) => {
          for (const entry of list.getEntries() as (PerformanceEntry & { value: number; hadRecentInput: boolean })[])
            if (!entry.hadRecentInput) total += entry.value;
        }).observe({ type: "layout-shift", buffered: true });
        setTimeout(() => resolve(total), 300);
      }),
  );
  expect(shift).toBeLessThan(0.01);
});
