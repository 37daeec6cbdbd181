import type { Page } from "@playwright/test";
import { execFileSync } from "node:child_process";
import { mkdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { expectNoSeriousA11yViolations } from "./axe";

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

/**
 * Screenshots (375 and 1280 px) in the light theme, then the dark one, each on a fresh load of the page (the theme
 * is set when a document loads, app/root.tsx), and an accessibility check in the dark. For pages whose state a
 * reload keeps (not an open dialog or a refused form's errors).
 */
export async function screenshotsInBothThemes(page: Page, name: string) {
  for (const scheme of ["light", "dark"] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    await page.reload();
    await screenshots(page, `${name}-${scheme}`);
  }
  await expectNoSeriousA11yViolations(page);
  await page.emulateMedia({ colorScheme: "light" });
}

/**
 * The same screen in the dark theme as well (`{name}-dark`): reloaded in the dark scheme (the theme is set as
 * the page loads), then the page goes back to light. For screens whose state a reload keeps.
 */
export async function darkScreenshots(page: Page, name: string) {
  await page.emulateMedia({ colorScheme: "dark" });
  await page.reload();
  await screenshots(page, `${name}-dark`);
  await page.emulateMedia({ colorScheme: "light" });
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
 * An account's published posts through `GET /api/blog?email=`, asked as that account from a browser
 * context of its own (the page stays a visitor): a sign-in address finds posts only for its owner and
 * admins (docs/decisions/048-public-contact-address.md).
 */
export async function postsOf(page: Page, who: { email: string; password: string }) {
  // The same base as playwright.config.ts.
  const baseURL = process.env.E2E_BASE_URL ?? "http://127.0.0.1:8787";
  const context = await page.context().browser()!.newContext({ baseURL });
  try {
    const login = await context.request.post("/api/auth/login", { data: who });
    if (!login.ok()) throw new Error(`sign-in failed: ${login.status()} ${await login.text()}`);
    const res = await context.request.get(`/api/blog?email=${encodeURIComponent(who.email)}`);
    return (await res.json()) as { _id: string; title: string }[];
  } finally {
    await context.close();
  }
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

export interface ImportedItem {
  title: string;
  state: string;
  blogId: string | null;
}

/**
 * Imports a file the way the import screen does, through the API (upload, start, then the job's progress
 * until the import queue's consumer, which wrangler dev runs, has taken every batch), and answers the job
 * and its report's items.
 */
export async function importThroughApi(
  page: Page,
  file: { name: string; mimeType: string; buffer: Buffer },
  start: Record<string, unknown> = { default_category: "Lifestyle" },
) {
  type View = {
    job: { id: string; status: string; imported: number; platform: string };
    report?: { items: ImportedItem[] };
  };
  const uploaded = await page.request.post("/api/imports?scope=site", { multipart: { file } });
  if (uploaded.status() !== 201) throw new Error(`upload answered ${uploaded.status()}: ${await uploaded.text()}`);
  const { job } = (await uploaded.json()) as View;
  const started = await page.request.post(`/api/imports/${job.id}/start`, { data: start });
  if (started.status() !== 202) throw new Error(`start answered ${started.status()}: ${await started.text()}`);
  const deadline = Date.now() + 90_000;
  for (let wait = 500; ; wait = Math.min(wait * 2, 2000)) {
    const view = (await (await page.request.get(`/api/imports/${job.id}`)).json()) as View;
    if (view.job.status === "done") return { job: view.job, items: view.report?.items ?? [] };
    if (Date.now() > deadline) throw new Error(`the import is still ${view.job.status} after 90 s`);
    await page.waitForTimeout(wait);
  }
}

/** Waits until React has hydrated the page (app/root.tsx marks <html>): its buttons then answer with JavaScript. */
export async function hydrated(page: Page) {
  await page.locator("html[data-hydrated]").waitFor({ state: "attached" });
}

/**
 * SQL straight into this worker's e2e server's local D1 (its state folder: scripts/e2e.mjs, one per server),
 * for a fixture no page makes (thousands of rows) or a minute that should not be waited for.
 */
export function localD1(sql: string) {
  const stateDir = process.env.E2E_STATE_DIR;
  if (!stateDir) throw new Error("E2E_STATE_DIR is not set: run through scripts/e2e.mjs");
  execFileSync("wrangler", ["d1", "execute", "DB", "--local", "--persist-to", stateDir, "--command", sql], {
    stdio: "ignore",
    env: { ...process.env, CI: "true" },
  });
}

/** Scrolls through the page so lazy images (and the slider) load before a full-page screenshot. */
export async function loadLazyImages(page: Page) {
  await page.evaluate(async () => {
    for (let y = 0; y < document.body.scrollHeight; y += 600) {
      window.scrollTo(0, y);
      await new Promise((r) => setTimeout(r, 60));
    }
    window.scrollTo(0, 0);
  });
  await page.waitForLoadState("networkidle");
}
