import type { APIRequestContext, Page } from "@playwright/test";
import { mkdirSync } from "node:fs";
import path from "node:path";
import { expectNoSeriousA11yViolations } from "./axe";
import { expect, test } from "./fixtures";
import { ACCOUNTS, VIEWPORTS, localD1 as d1, signIn } from "./support";

/**
 * In a browser: the Swiper testimonials with 2 and with 7 reviews at three
 * widths, dark-mode search results under axe, a tag page, Cancel focused in destructive dialogs, and the
 * layout leftovers of defect 9 (Revisions at 1280 and 375 px, the Stats chart by keyboard in dark mode
 * on a phone). The slug redirect and the scheduled post's page right after publishing are proved in
 * editor-links.spec.ts and drafts.spec.ts.
 */
const SHOTS = path.resolve("docs/screenshots");
const COVER = "/images/seed-cover-cut-web-apps-load-time-half.jpg";
const unique = () => `${Date.now().toString(36)}${Math.floor(Math.random() * 1e4)}`;

/** Full-page screenshots at 375 and 1280 px into docs/screenshots/ (looked at, and kept). */
async function shots(page: Page, name: string, sizes = Object.values(VIEWPORTS)) {
  mkdirSync(SHOTS, { recursive: true });
  for (const size of sizes) {
    await page.setViewportSize(size);
    await page.waitForLoadState("networkidle");
    await page.evaluate(() => window.scrollTo(0, 0));
    await page.screenshot({ path: path.join(SHOTS, `${name}-${size.width}.png`), fullPage: true });
  }
}

/** Whether the page scrolls sideways: what a reader meets as a page wider than the screen. */
const scrollsSideways = (page: Page) =>
  page.evaluate(() => document.documentElement.scrollWidth > document.documentElement.clientWidth);

async function createPost(request: APIRequestContext, overrides: Record<string, unknown>): Promise<string> {
  const res = await request.post("/api/blogs", {
    data: {
      title: `Proof post ${unique()}`,
      short_description: "A post made by the slider and tags proofs.",
      blog_details: "Body.",
      category: "Technology",
      date_time: "2026-01-15T10:00",
      image: COVER,
      ...overrides,
    },
  });
  expect(res.status(), await res.text()).toBe(201);
  return ((await res.json()) as { insertedId: string }).insertedId;
}

// ---------------------------------------------------------------------------------------------------
// The testimonials slider with a given number of reviews.

/**
 * Keeps only `count` approved reviews on the site for the tests of a group (the home page shows approved
 * ones only): every other review waits in a side table and comes back afterwards, as it was.
 */
function keepReviews(count: number) {
  d1(`DROP TABLE IF EXISTS reviews_held;
CREATE TABLE reviews_held AS SELECT * FROM reviews
  WHERE id NOT IN (SELECT id FROM reviews WHERE status = 'approved' ORDER BY id LIMIT ${count});
DELETE FROM reviews WHERE id IN (SELECT id FROM reviews_held);`);
}
function restoreReviews() {
  d1(`INSERT OR IGNORE INTO reviews SELECT * FROM reviews_held; DROP TABLE IF EXISTS reviews_held;`);
}

/** Slides wholly inside the slider's box and not hidden: what a person actually sees. */
const visibleSlideCount = (page: Page) =>
  page.evaluate(() => {
    const box = document.querySelector(".testimonials-viewport")!.getBoundingClientRect();
    return [...document.querySelectorAll(".testimonials-slide")].filter((slide) => {
      const r = slide.getBoundingClientRect();
      return (
        getComputedStyle(slide).visibility === "visible" &&
        r.width > 0 &&
        r.left >= box.left - 1 &&
        r.right <= box.right + 1
      );
    }).length;
  });

/** The review shown first (leftmost), once Swiper has finished moving. */
async function activeIndex(page: Page) {
  await page.waitForFunction(
    () => !(document.querySelector(".testimonials-viewport") as { swiper?: { animating: boolean } }).swiper?.animating,
  );
  return Number(await page.locator(".testimonials-slide.swiper-slide-active").getAttribute("data-index"));
}

for (const reviews of [2, 7]) {
  test.describe(`the testimonials with ${reviews} reviews`, () => {
    test.describe.configure({ mode: "serial" });
    test.beforeAll(() => keepReviews(reviews));
    test.afterAll(() => restoreReviews());

    for (const [width, perView] of [
      [375, 1],
      [800, 2],
      [1280, 3],
    ] as const) {
      test(`at ${width} px: ${perView} a view, looping both ways with arrows and bullets, and axe clean`, async ({
        page,
      }) => {
        // Signed in, the home page is drawn for this reader alone: no shared copy from before the change.
        await signIn(page, ACCOUNTS.writer);
        await page.setViewportSize({ width, height: 900 });
        await page.goto("/");
        const region = page.getByRole("region", { name: "What Our Users Say" });
        await region.scrollIntoViewIfNeeded();
        await expect(page.locator('.testimonials[data-carousel="ready"]')).toHaveCount(1);
        const bullets = region.getByRole("button", { name: /^Go to review \d+$/ });
        await expect(bullets).toHaveCount(reviews);
        await expect.poll(() => visibleSlideCount(page)).toBe(perView);
        expect(await activeIndex(page)).toBe(0);

        // Back from the first is the last; on from the last is the first, round and round.
        await region.getByRole("button", { name: "Previous review" }).click();
        await expect.poll(() => activeIndex(page)).toBe(reviews - 1);
        for (let i = 0; i <= reviews; i++) {
          await region.getByRole("button", { name: "Next review" }).click();
          await expect.poll(() => activeIndex(page)).toBe(i % reviews);
          expect(await visibleSlideCount(page)).toBe(perView);
        }
        await bullets.nth(reviews - 1).click();
        await expect.poll(() => activeIndex(page)).toBe(reviews - 1);
        await expect(bullets.nth(reviews - 1)).toHaveAttribute("aria-current", "true");
        await expect(region.getByText(new RegExp(`^Review ${reviews} of ${reviews}: `))).toBeAttached();
        await bullets.first().click();
        await expect.poll(() => activeIndex(page)).toBe(0);
        await expectNoSeriousA11yViolations(page);
      });
    }
  });
}

// ---------------------------------------------------------------------------------------------------

test("search results in dark mode pass axe, marks included, at 375 and 1280 px", async ({ page }) => {
  await page.emulateMedia({ colorScheme: "dark" });
  for (const size of Object.values(VIEWPORTS)) {
    await page.setViewportSize(size);
    await page.goto("/allBlogs?q=sky");
    expect(await page.evaluate(() => document.documentElement.classList.contains("dark"))).toBe(true);
    const results = page.getByRole("region", { name: "Results" }).getByRole("article");
    await expect(results.first().locator("mark").first()).toBeVisible();
    await expectNoSeriousA11yViolations(page);
  }
});

test("a tag page lists its posts 12 a page, with a next page and its own RSS feed", async ({ page }) => {
  test.setTimeout(90_000);
  await signIn(page, ACCOUNTS.writer);
  const tag = `proof-${unique()}`;
  const ids: string[] = [];
  for (let i = 0; i < 13; i++) {
    ids.push(await createPost(page.request, { title: `Tagged proof ${i} ${tag}`, tags: [tag, "proofs"] }));
  }
  try {
    // A reader finds the tag on the post and follows it.
    const visitor = await page.context().browser()!.newContext({ baseURL: test.info().project.use.baseURL });
    const reader = await visitor.newPage();
    await reader.goto(`/blogs/${ids[0]}`);
    await reader
      .getByRole("list", { name: "Tags" })
      .getByRole("link", { name: `#${tag}` })
      .click();
    await expect(reader).toHaveURL(new RegExp(`/tags/${tag}$`));
    await expect(reader.getByRole("heading", { level: 1, name: `#${tag}` })).toBeVisible();
    await expect(reader.getByText("13 posts")).toBeVisible();
    await expect(reader.getByRole("heading", { level: 2, name: `Posts tagged ${tag}` })).toBeAttached();
    await expect(reader.getByRole("article")).toHaveCount(12);
    const feed = reader.getByRole("link", { name: `RSS feed for #${tag}` });
    await expect(feed).toHaveAttribute("href", `/tags/${tag}/rss.xml`);
    const rss = await reader.request.get(`/tags/${tag}/rss.xml`);
    expect(rss.headers()["content-type"]).toContain("xml");
    const xml = await rss.text();
    for (const i of [0, 12]) expect(xml).toContain(`Tagged proof ${i} ${tag}`);
    await reader
      .getByRole("navigation", { name: `Pages of posts tagged ${tag}` })
      .getByRole("link", { name: "2", exact: true })
      .click();
    await expect(reader).toHaveURL(new RegExp(`/tags/${tag}\\?page=2$`));
    await expect(reader.getByRole("article")).toHaveCount(1);
    await expectNoSeriousA11yViolations(reader);
    await visitor.close();
  } finally {
    for (const id of ids) await page.request.delete(`/api/blogs/${id}`);
  }
});

test.describe("destructive dialogs focus Cancel, so Enter keeps things", () => {
  const dialog = (page: Page) => page.locator(".swal2-popup");

  test("a writer deleting a post", async ({ page }) => {
    await signIn(page, ACCOUNTS.writer);
    const title = `Kept by Enter ${unique()}`;
    // Dated now, so it is on the first page of My Blogs whatever other specs have published before.
    const id = await createPost(page.request, { title, date_time: new Date().toISOString().slice(0, 16) });
    try {
      await page.goto("/dashboard/manageBlogs");
      const row = page.getByRole("row").filter({ hasText: title });
      await row.getByRole("button", { name: /^Delete/ }).click();
      await expect(dialog(page).getByRole("button", { name: "Cancel" })).toBeFocused();
      await page.keyboard.press("Enter");
      await expect(dialog(page)).toBeHidden();
      await page.reload();
      await expect(page.getByRole("row").filter({ hasText: title })).toHaveCount(1);
    } finally {
      await page.request.delete(`/api/blogs/${id}`);
    }
  });

  test("an admin deleting a user and an author", async ({ page, request }) => {
    await signIn(page, ACCOUNTS.admin);
    const email = `kept-${unique()}@example.com`;
    const res = await request.post("/api/auth/register", {
      data: { name: "Kept By Enter", email, password: "Kept-By-Enter-42" },
    });
    expect(res.status()).toBe(201);
    // Searched for, so the account is on the page however many accounts other specs made before.
    await page.goto(`/dashboard/manageUsers?q=${encodeURIComponent(email)}`);
    const user = page.getByRole("row").filter({ hasText: email });
    await user.getByRole("button", { name: "Delete" }).click();
    await expect(dialog(page).getByRole("button", { name: "Cancel" })).toBeFocused();
    await page.keyboard.press("Enter");
    await expect(dialog(page)).toBeHidden();
    await page.reload();
    await expect(page.getByRole("row").filter({ hasText: email })).toHaveCount(1);

    await page.goto("/dashboard/manageAuthors");
    const rows = page.getByRole("row");
    const before = await rows.count();
    await rows.nth(1).getByRole("button", { name: "Delete" }).click();
    await expect(dialog(page).getByRole("button", { name: "Cancel" })).toBeFocused();
    await page.keyboard.press("Enter");
    await expect(dialog(page)).toBeHidden();
    await page.reload();
    await expect(rows).toHaveCount(before);
  });
});

// ---------------------------------------------------------------------------------------------------
// Defect 9, layout leftovers.

test("Revisions does not scroll sideways at 1280 or 375 px, however long an unbroken line", async ({ page }) => {
  await signIn(page, ACCOUNTS.writer);
  const long = `https://example.com/${"a-very-long-unbroken-path-segment".repeat(12)}`;
  const id = await createPost(page.request, { title: `Revised ${unique()}`, blog_details: "Short body." });
  try {
    const put = await page.request.put(`/api/blog/${id}`, {
      data: { title: `Revised again ${unique()} ${"Unbroken".repeat(12)}`, blog_details: `See ${long} now.` },
    });
    expect(put.ok(), await put.text()).toBe(true);
    for (const size of [VIEWPORTS.desktop, VIEWPORTS.phone]) {
      await page.setViewportSize(size);
      await page.goto(`/dashboard/blogs/${id}/revisions`);
      await expect(page.locator('[data-field="blog_details"] ins').last()).toContainText("a-very-long");
      expect(await scrollsSideways(page), `scrolls sideways at ${size.width} px`).toBe(false);
    }
    await shots(page, "revisions");
  } finally {
    await page.request.delete(`/api/blogs/${id}`);
  }
});

test("the Stats chart is reached by keyboard in dark mode on a phone, with a visible focus ring", async ({ page }) => {
  await page.emulateMedia({ colorScheme: "dark" });
  await page.setViewportSize(VIEWPORTS.phone);
  await signIn(page, ACCOUNTS.writer);
  await page.goto("/dashboard/stats");
  expect(await page.evaluate(() => document.documentElement.classList.contains("dark"))).toBe(true);
  const chart = page.getByRole("region", { name: /^Views per day, last 30 days.*, chart$/ });
  // On a phone the chart is wider than the screen and scrolls inside its own box.
  expect(await chart.evaluate((el) => el.scrollWidth > el.clientWidth)).toBe(true);
  expect(await scrollsSideways(page)).toBe(false);

  // Tab from the top of the page reaches it.
  await page.locator("body").focus();
  let reached = false;
  for (let i = 0; i < 60 && !reached; i++) {
    await page.keyboard.press("Tab");
    reached = await chart.evaluate((el) => el === document.activeElement);
  }
  expect(reached).toBe(true);
  const ring = await chart.evaluate((el) => {
    const s = getComputedStyle(el);
    return { style: s.outlineStyle, width: parseFloat(s.outlineWidth), color: s.outlineColor };
  });
  expect(ring.style).not.toBe("none");
  expect(ring.width).toBeGreaterThanOrEqual(2);
  // The arrow keys scroll it.
  await page.keyboard.press("ArrowRight");
  await expect.poll(() => chart.evaluate((el) => el.scrollLeft)).toBeGreaterThan(0);
  await chart.evaluate((el) => (el.scrollLeft = 0));
  await expectNoSeriousA11yViolations(page);
  await page.evaluate(() => window.scrollTo(0, 0));
  await page.screenshot({ path: path.join(SHOTS, "stats-dark-375.png"), fullPage: true });
  await shots(page, "stats-dark", [VIEWPORTS.desktop]);
});
