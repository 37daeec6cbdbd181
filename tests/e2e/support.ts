import type { Page } from "@playwright/test";
import { mkdirSync, readFileSync } from "node:fs";
import path from "node:path";

export const SCREENSHOT_DIR = path.resolve("e2e-artifacts/screenshots");
export const VIEWPORTS = { phone: { width: 375, height: 812 }, desktop: { width: 1280, height: 900 } } as const;

/** Full-page screenshots at phone (375 px) and desktop (1280 px) widths, for people to look at. */
export async function screenshots(page: Page, name: string) {
  mkdirSync(SCREENSHOT_DIR, { recursive: true });
  const original = page.viewportSize();
  for (const [label, size] of Object.entries(VIEWPORTS)) {
    await page.setViewportSize(size);
    await page.waitForLoadState("networkidle");
    await page.screenshot({ path: path.join(SCREENSHOT_DIR, `${name}-${size.width}.png`), fullPage: true });
    void label;
  }
  if (original) await page.setViewportSize(original);
}

/** The seeded demo accounts (scripts/seed.mjs). */
export const ACCOUNTS = {
  admin: { email: "admin@edgeblog.test", password: "Admin#Demo2026" },
  writer: { email: "writer@edgeblog.test", password: "Writer#Demo2026" },
} as const;

/** Signs the page's browser context in through the real login call (the session cookie lands in the context). */
export async function signIn(page: Page, who: { email: string; password: string }) {
  const res = await page.request.post("/api/auth/login", { data: who });
  if (!res.ok()) throw new Error(`sign-in failed: ${res.status()} ${await res.text()}`);
}

/**
 * Uploads the seed's cover through the real image API and answers its URL on this site. Posts made
 * through the API use it, so no page ever shows an image from elsewhere (the CSP allows only this site's).
 */
export async function uploadCover(page: Page): Promise<string> {
  const cover = path.resolve("seed/images/seed-cover-cut-web-apps-load-time-half.jpg");
  const res = await page.request.post("/api/images", {
    multipart: { image: { name: "cover.jpg", mimeType: "image/jpeg", buffer: readFileSync(cover) } },
  });
  if (!res.ok()) throw new Error(`cover upload failed: ${res.status()} ${await res.text()}`);
  return ((await res.json()) as { data: { url: string } }).data.url;
}
