import type { Page } from "@playwright/test";
import { contrastFailures, fileButtonContrast } from "./axe";
import { test, expect } from "./fixtures";
import { ACCOUNTS, screenshots, signIn } from "./support";

// A seeded post of the demo writer, at its readable link.
const POST_PATH = "/blogs/dtsmsv96ei1r4bjkcypt/cut-your-web-apps-load-time-in-half-a-practical-checklist";

/** Pages anyone reaches, and the ones the other specs visit signed in (where the red Delete buttons live). */
const PUBLIC_PAGES = [
  "/",
  "/allBlogs",
  POST_PATH,
  "/login",
  "/register",
  "/contact",
  "/about",
  "/privacy",
  "/terms",
  "/forgot-password",
];
const ADMIN_PAGES = [
  POST_PATH,
  "/dashboard",
  "/dashboard/comments",
  "/dashboard/manageBlogs",
  "/dashboard/manageAllBlogs",
  "/dashboard/manageReview",
  "/dashboard/manageUsers",
  "/dashboard/manageAuthors",
  "/dashboard/addAuthor",
  "/dashboard/newsletter",
  "/dashboard/feedback",
  "/dashboard/writeBlogs",
  "/dashboard/myBlog",
  "/dashboard/stats",
  "/dashboard/import",
  "/dashboard/export",
  "/dashboard/fediverse",
  "/dashboard/pages/privacy",
  "/settings",
  "/Profile",
  "/saved",
  "/following",
  "/notifications",
];

async function visit(page: Page, path: string, dark: boolean) {
  const res = await page.goto(path);
  expect(res?.status(), path).toBeLessThan(400);
  expect(await page.evaluate(() => document.documentElement.classList.contains("dark"))).toBe(dark);
  await page.waitForLoadState("networkidle");
  const pickers = (await fileButtonContrast(page))
    .filter((b) => b.ratio < 4.5)
    .map((b) => ({ page: path, target: `input[name=${b.name}]::file-selector-button`, ...b }));
  return [...(await contrastFailures(page)), ...pickers];
}

/** Every page of the list, then one assertion: the message lists every failing text of every page. */
async function expectAllReadable(page: Page, paths: string[], dark: boolean) {
  const failures = [];
  for (const path of paths) failures.push(...(await visit(page, path, dark)));
  expect(failures, JSON.stringify(failures, null, 2)).toEqual([]);
}

test.describe("every text reads at 4.5:1 in both themes (axe colour-contrast)", () => {
  test.beforeAll(async ({ browser }) => {
    // A comment by the writer on a post the admin sees, reported by the admin: the comment list and the
    // reported-comments list both show their red Delete buttons.
    const context = await browser.newContext({ baseURL: test.info().project.use.baseURL });
    const page = await context.newPage();
    await signIn(page, ACCOUNTS.writer);
    const id = POST_PATH.split("/")[2];
    const made = await page.request.post(`/api/blogs/${id}/comments`, { data: { body: "Contrast check comment." } });
    expect(made.status()).toBe(201);
    const { insertedId } = (await made.json()) as { insertedId: string };
    await context.clearCookies();
    await signIn(page, ACCOUNTS.admin);
    const reported = await page.request.post(`/api/comments/${insertedId}/report`, {
      data: { reason: "other", note: "Checking how a note reads." },
    });
    expect(reported.ok()).toBe(true);
    await context.close();
  });

  for (const scheme of ["light", "dark"] as const) {
    test(`public pages, ${scheme}`, async ({ page }) => {
      test.setTimeout(120_000);
      await page.emulateMedia({ colorScheme: scheme });
      await expectAllReadable(page, PUBLIC_PAGES, scheme === "dark");
    });

    test(`signed-in pages, ${scheme}`, async ({ page }) => {
      test.setTimeout(240_000);
      await page.emulateMedia({ colorScheme: scheme });
      await signIn(page, ACCOUNTS.admin);
      await expectAllReadable(page, ADMIN_PAGES, scheme === "dark");
    });
  }
});

test("screenshots: Delete buttons and a file picker in both themes", async ({ page }) => {
  test.setTimeout(120_000);
  await signIn(page, ACCOUNTS.admin);
  for (const scheme of ["light", "dark"] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    await page.goto("/dashboard/manageUsers");
    await screenshots(page, `contrast-manage-users-${scheme}`);
    await page.goto("/dashboard/comments");
    await screenshots(page, `contrast-dashboard-comments-${scheme}`);
    await page.goto("/dashboard/writeBlogs");
    await screenshots(page, `contrast-write-blog-${scheme}`);
  }
});
