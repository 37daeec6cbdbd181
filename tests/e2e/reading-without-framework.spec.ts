import type { Page } from "@playwright/test";
import { gzipSync } from "node:zlib";
import { expect, ownAddress, test } from "./fixtures";
import { VIEWPORTS, hydrated, loadLazyImages, screenshots } from "./support";

/**
 * Issue 45 (docs/decisions/059): an anonymous reader's reading pages are server-rendered HTML with no
 * framework JavaScript, only small inline islands; a signed-in reader's same pages hydrate as before.
 */

// The newest seeded post (seed/content.json), at its readable link.
const POST = "dtsmsv96ei1r4bjkcypt";
const POST_PATH = `/blogs/${POST}/cut-your-web-apps-load-time-in-half-a-practical-checklist`;
const PASSWORD = "Reader#Demo2026";

const email = () => `reader-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 7)}@example.com`;

/** What a page loaded and carries in the way of script. */
async function scriptsOf(page: Page, path: string, requested: string[]) {
  requested.length = 0;
  const res = await page.goto(path);
  expect(res?.status(), path).toBeLessThan(500);
  await page.waitForLoadState("load");
  return page.evaluate(() => ({
    modules: document.querySelectorAll('script[type="module"]').length,
    preloads: document.querySelectorAll('link[rel="modulepreload"]').length,
    remixContext: "__remixContext" in window,
    hydrated: document.documentElement.hasAttribute("data-hydrated"),
    inline: [...document.querySelectorAll("script:not([src])")]
      .filter((s) => !(s as HTMLScriptElement).type || (s as HTMLScriptElement).type === "text/javascript")
      .map((s) => s.textContent ?? ""),
  }));
}

test.describe("an anonymous reader", () => {
  test("gets every reading page without a framework module, and the islands are small", async ({ page }) => {
    test.setTimeout(120_000);
    const requested: string[] = [];
    page.on("request", (r) => {
      if (r.resourceType() === "script") requested.push(r.url());
    });
    const post = (await (await page.request.get(`/api/blogs/${POST}`)).json()) as { author_id: string };
    await page.goto("/tags");
    const tagLink = page.locator('main a[href^="/tags/"]').first();
    const tagPath = (await tagLink.count()) ? await tagLink.getAttribute("href") : null;
    const paths = [
      "/",
      "/about",
      "/allBlogs",
      "/allBlogs?page=2",
      "/allBlogs?q=sky",
      POST_PATH,
      "/tags",
      ...(tagPath ? [tagPath] : []),
      `/writers/${post.author_id}`,
      "/privacy",
      "/terms",
    ];
    const rows: string[] = [];
    for (const path of paths) {
      const found = await scriptsOf(page, path, requested);
      expect(found.modules, `${path}: module scripts`).toBe(0);
      expect(found.preloads, `${path}: module preloads`).toBe(0);
      expect(found.remixContext, `${path}: window.__remixContext`).toBe(false);
      expect(found.hydrated, `${path}: hydrated`).toBe(false);
      // Nothing of the framework loaded by URL: the islands are inline; only the slider's own module
      // (Swiper) may load, when the reviews come near the viewport.
      expect(
        requested.filter((url) => !/\/assets\/testimonials-swiper-[\w-]+\.js$/.test(url)),
        `${path}: scripts requested`,
      ).toEqual([]);
      const text = found.inline.join("\n");
      const gzip = gzipSync(Buffer.from(text)).byteLength;
      rows.push(`${path}: ${found.inline.length} inline scripts, ${Buffer.byteLength(text)} B, ${gzip} B gzip`);
      if (path === POST_PATH) expect(gzip, "the islands on a post, gzip").toBeLessThanOrEqual(10 * 1024);
    }
    // The islands' bytes, in the report.
    test.info().annotations.push({ type: "islands", description: rows.join("; ") });
    console.log(rows.join("\n"));
  });

  test("the testimonials slider slides at three widths, loops, and its arrows and bullets work", async ({ page }) => {
    const swiperLoads: string[] = [];
    page.on("request", (r) => {
      if (r.resourceType() === "script") swiperLoads.push(r.url());
    });
    for (const [width, shown] of [
      [375, 1],
      [800, 2],
      [1280, 3],
    ] as const) {
      await page.setViewportSize({ width, height: 900 });
      await page.goto("/");
      await expect(page.locator("html[data-hydrated]")).toHaveCount(0);
      const region = page.getByRole("region", { name: "What Our Users Say" });
      await region.scrollIntoViewIfNeeded();
      await expect(page.locator('.testimonials[data-carousel="ready"]')).toHaveCount(1);
      await expect.poll(() => visibleSlides(page)).toBe(shown);
    }
    // Swiper's own module, and nothing of the framework.
    expect(swiperLoads.length).toBeGreaterThan(0);
    for (const url of swiperLoads) expect(url).toMatch(/\/assets\/testimonials-swiper-[\w-]+\.js$/);

    const region = page.getByRole("region", { name: "What Our Users Say" });
    const bullets = region.getByRole("button", { name: /^Go to review \d+$/ });
    const count = await bullets.count();
    expect(count).toBeGreaterThanOrEqual(2);
    await expect(bullets.first()).toHaveAttribute("aria-current", "true");
    await region.getByRole("button", { name: "Next review" }).click();
    await expect.poll(() => activeIndex(page)).toBe(1);
    await expect(bullets.nth(1)).toHaveAttribute("aria-current", "true");
    await region.getByRole("button", { name: "Previous review" }).click();
    await expect.poll(() => activeIndex(page)).toBe(0);
    // It loops: back from the first is the last.
    await region.getByRole("button", { name: "Previous review" }).click();
    await expect.poll(() => activeIndex(page)).toBe(count - 1);
    await region.getByRole("button", { name: "Next review" }).click();
    await expect.poll(() => activeIndex(page)).toBe(0);
    await bullets.nth(2 % count).click();
    await expect.poll(() => activeIndex(page)).toBe(2 % count);
    await expect(region.locator("[aria-live]")).toContainText(`Review ${(2 % count) + 1} of ${count}`);
  });

  test.describe("in Tokyo", () => {
    test.use({ timezoneId: "Asia/Tokyo" });
    test("a post's date shows in the reader's zone", async ({ page }) => {
      await page.goto(POST_PATH);
      const date = page.locator("article header time[data-local-time]");
      await expect(date).toHaveAttribute("data-zone", "local");
      // 2026-11-18T09:15Z is 6:15 PM in Tokyo.
      await expect(date).toHaveText(/November 18, 2026 at 6:15 PM GMT\+9/);
      await expect(page.locator('time[data-local-time][data-zone="UTC"]')).toHaveCount(0);
    });
  });

  test("Share copies the link where there is no share sheet, and Escape closes it", async ({ page, context }) => {
    await context.grantPermissions(["clipboard-read", "clipboard-write"]);
    await page.goto(POST_PATH);
    const toggle = page.getByRole("button", { name: "Share", exact: true });
    const panel = page.getByRole("region", { name: "Share this post" });
    await expect(panel).toBeHidden();
    await toggle.click();
    await expect(toggle).toHaveAttribute("aria-expanded", "true");
    await expect(panel).toBeVisible();
    await expect(panel.getByRole("link", { name: /^Facebook/ })).toBeVisible();
    await panel.getByRole("button", { name: "Copy Link" }).click();
    await expect(panel.getByRole("button", { name: "Copied" })).toBeVisible();
    await expect(panel.getByRole("status")).toHaveText("Link copied to clipboard!");
    expect(await page.evaluate(() => navigator.clipboard.readText())).toMatch(new RegExp(`${POST_PATH}$`));
    await page.keyboard.press("Escape");
    await expect(panel).toBeHidden();
    await expect(toggle).toHaveAttribute("aria-expanded", "false");
    await expect(toggle).toBeFocused();
  });

  test("Share hands the link to the device's share sheet where there is one", async ({ page }) => {
    await page.addInitScript(() => {
      const shared: ShareData[] = [];
      (window as unknown as { shared: ShareData[] }).shared = shared;
      Object.defineProperty(navigator, "share", {
        value: (data: ShareData) => (shared.push(data), Promise.resolve()),
        configurable: true,
      });
    });
    await page.goto(POST_PATH);
    await page.getByRole("button", { name: "Share", exact: true }).click();
    const shared = await page.evaluate(() => (window as unknown as { shared: ShareData[] }).shared);
    expect(shared).toHaveLength(1);
    expect(shared[0]!.url).toMatch(new RegExp(`${POST_PATH}$`));
    expect(shared[0]!.title).toBe("Cut Your Web App's Load Time in Half: A Practical Checklist");
    await expect(page.getByRole("region", { name: "Share this post" })).toBeHidden();
  });

  test("a signed-out Like leads to sign in and back to the post", async ({ page, browser, baseURL }) => {
    const address = email();
    // The account exists (made from a context of its own); this page is still signed out.
    const other = await browser.newContext({ baseURL, extraHTTPHeaders: ownAddress() });
    const made = await other.request.post("/api/auth/register", {
      data: { name: "Lee Liker", email: address, password: PASSWORD },
    });
    expect(made.status()).toBe(201);
    await other.close();
    await page.goto(POST_PATH);
    await page.getByRole("group", { name: "Post actions" }).getByRole("button", { name: /^Like/ }).click();
    await expect(page).toHaveURL(/\/login\?redirectTo=/);
    expect(new URL(page.url()).searchParams.get("redirectTo")).toBe(POST_PATH);
    await page.getByLabel("Email").fill(address);
    await page.getByLabel("Password", { exact: true }).fill(PASSWORD);
    await page.getByRole("button", { name: "Sign in", exact: true }).click();
    await expect(page).toHaveURL(new RegExp(`${POST_PATH}$`));
    // Signed in now: the same post is the app.
    await hydrated(page);
  });

  test("Comment, Save, Follow and Report lead a signed-out reader to sign in, and back to the post", async ({
    page,
  }) => {
    const back = (url: string) => {
      const u = new URL(url);
      expect(u.pathname).toBe("/login");
      return u.searchParams.get("redirectTo");
    };
    await page.goto(POST_PATH);
    const actions = page.getByRole("group", { name: "Post actions" });
    await actions.getByRole("button", { name: /^Comment/ }).click();
    const join = page.getByRole("link", { name: "Sign in to join the conversation" });
    await expect(join).toBeVisible();
    expect(back(new URL((await join.getAttribute("href"))!, page.url()).href)).toBe(POST_PATH);
    const report = page.getByRole("link", { name: /^Report/ });
    if (await report.count())
      expect(back(new URL((await report.first().getAttribute("href"))!, page.url()).href)).toBe(POST_PATH);
    await actions.getByRole("button", { name: "Save" }).click();
    await expect(page).toHaveURL(/\/login\?/);
    // The save asked for happens once the reader is back, signed in.
    expect(back(page.url())).toBe(`${POST_PATH}?save=1`);
    await page.goto(POST_PATH);
    await page.getByRole("button", { name: /^Follow / }).click();
    await expect(page).toHaveURL(/\/login\?/);
    expect(back(page.url())).toBe(POST_PATH);
  });

  test("screenshots: home, a post and All Blogs, light and dark", async ({ page }) => {
    test.setTimeout(120_000);
    for (const scheme of ["light", "dark"] as const) {
      await page.emulateMedia({ colorScheme: scheme });
      for (const [name, path] of [
        ["home", "/"],
        ["post", POST_PATH],
        ["all-blogs", "/allBlogs"],
      ] as const) {
        await page.setViewportSize(VIEWPORTS.desktop);
        await page.goto(path);
        await loadLazyImages(page);
        await screenshots(page, `reading-without-framework-${name}-${scheme}`);
      }
    }
    // The phone menu opens without the framework, and Escape closes it.
    await page.setViewportSize(VIEWPORTS.phone);
    await page.goto("/");
    await page.locator('summary[aria-label="Open menu"]').click();
    const menu = page.getByRole("navigation", { name: "Mobile" });
    await expect(menu).toBeVisible();
    await page.screenshot({ path: "e2e-artifacts/screenshots/reading-without-framework-menu-375.png" });
    await page.keyboard.press("Escape");
    await expect(menu).toBeHidden();
  });
});

test.describe("a visitor on a page of the app", () => {
  test("who follows a link into a reading page stays in the app (a client-side navigation)", async ({ page }) => {
    const problems: string[] = [];
    page.on("pageerror", (e) => problems.push(String(e)));
    await page.goto("/login");
    await hydrated(page);
    await page.evaluate(() => ((window as unknown as { kept: boolean }).kept = true));
    await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "All Blogs" }).click();
    await expect(page).toHaveURL(/\/allBlogs$/);
    await expect(page.getByRole("heading", { level: 1, name: "All Blogs" })).toBeVisible();
    expect(await page.evaluate(() => (window as unknown as { kept?: boolean }).kept)).toBe(true);
    expect(problems).toEqual([]);
  });
});

test.describe("a signed-in reader", () => {
  test("gets the same post hydrated and likes it without a reload, with no console error", async ({ page }) => {
    const problems: string[] = [];
    page.on("pageerror", (e) => problems.push(String(e)));
    page.on("console", (m) => {
      if (m.type() === "error" || /hydrat/i.test(m.text())) problems.push(m.text());
    });
    const res = await page.request.post("/api/auth/register", {
      data: { name: "Sam Signed", email: email(), password: PASSWORD },
    });
    expect(res.status()).toBe(201);
    await page.goto(POST_PATH);
    await hydrated(page);
    expect(await page.evaluate(() => "__remixContext" in window)).toBe(true);
    // A mark on the window: a reload would lose it.
    await page.evaluate(() => ((window as unknown as { kept: boolean }).kept = true));
    const like = page.getByRole("group", { name: "Post actions" }).getByRole("button", { name: /^Like/ });
    const before = Number(await page.getByTestId("like-count").textContent());
    await like.click();
    await expect(page.getByTestId("like-count")).toHaveText(String(before + 1));
    await expect(
      page.getByRole("group", { name: "Post actions" }).getByRole("button", { name: /^Liked/ }),
    ).toHaveAttribute("aria-pressed", "true");
    await page.waitForLoadState("networkidle");
    expect(await page.evaluate(() => (window as unknown as { kept?: boolean }).kept)).toBe(true);
    expect(page.url()).toMatch(new RegExp(`${POST_PATH}$`));
    // Navigating from the hydrated page into another reading page stays client-side.
    await page.getByRole("link", { name: "All Blogs" }).first().click();
    await expect(page).toHaveURL(/\/allBlogs$/);
    expect(await page.evaluate(() => (window as unknown as { kept?: boolean }).kept)).toBe(true);
    expect(problems).toEqual([]);
  });
});

/** How many slides are wholly inside the slider's viewport. */
async function visibleSlides(page: Page): Promise<number> {
  return page.evaluate(() => {
    const box = document.querySelector(".testimonials-viewport")!.getBoundingClientRect();
    return [...document.querySelectorAll(".testimonials-slide")].filter((slide) => {
      const r = slide.getBoundingClientRect();
      return r.width > 0 && r.left >= box.left - 1 && r.right <= box.right + 1;
    }).length;
  });
}

/** The review index (of the originals) of the slide Swiper has active, once it stopped moving. */
async function activeIndex(page: Page): Promise<number> {
  await page.waitForFunction(
    () => !(document.querySelector(".testimonials-viewport") as { swiper?: { animating: boolean } }).swiper?.animating,
  );
  return Number(await page.locator(".testimonials-slide.swiper-slide-active").getAttribute("data-index"));
}
