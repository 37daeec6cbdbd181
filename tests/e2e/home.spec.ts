import type { Page } from "@playwright/test";
import { expect, test } from "./fixtures";
import { expectNoSeriousA11yViolations } from "./axe";
import { VIEWPORTS, loadLazyImages, screenshots } from "./support";

const PHRASES = ["share ideas", "express innovation", "learn more earn more"];
const EMPTY = "Please enter a valid email";
const THANKS = "Thank you for subscribing! 🎉";

/** Slides wholly inside the slider's box and not hidden: what a person actually sees. */
async function visibleSlideCount(page: Page) {
  return page.evaluate(() => {
    const box = document.querySelector(".testimonials-viewport")!.getBoundingClientRect();
    return [...document.querySelectorAll(".testimonials-slide")].filter((slide) => {
      const r = slide.getBoundingClientRect();
      const shown = getComputedStyle(slide).visibility === "visible";
      return shown && r.width > 0 && r.left >= box.left - 1 && r.right <= box.right + 1;
    }).length;
  });
}

/** The review shown first (leftmost), once Swiper has finished moving. */
async function activeIndex(page: Page) {
  await page.waitForFunction(
    () => !(document.querySelector(".testimonials-viewport") as { swiper?: { animating: boolean } }).swiper?.animating,
  );
  return Number(await page.locator(".testimonials-slide.swiper-slide-active").getAttribute("data-index"));
}

const sliderReady = (page: Page) => page.locator('.testimonials[data-carousel="ready"]');

test.describe("home page", () => {
  test("the headline types each phrase at 50 ms a character, pauses a second, and starts over", async ({ page }) => {
    // The page runs on Playwright's clock, paused: its time moves only when the test moves it, in steps of
    // STEP ms. Every gap measured is then the headline's own, however busy the machine (the real clock made
    // this test fail on a loaded CI). A timer is never early, and each one is set at most one step late.
    const STEP = 10;
    const start = new Date("2026-03-02T09:00:00Z").getTime();
    await page.clock.install({ time: start });
    await page.clock.pauseAt(start + 1_000);
    await page.goto("/");
    // An anonymous reader's home page has no framework: the typing is the reading pages' island (decision 059).
    await expect(page.locator("html[data-hydrated]")).toHaveCount(0);
    const typed = page.getByTestId("typed-phrase");
    await expect(typed).toHaveText(PHRASES[0]!);
    // Record every change of the typed text with the page's (fake) time.
    await page.evaluate(() => {
      const el = document.querySelector('[data-testid="typed-phrase"]')!;
      const log: [number, string][] = [[performance.now(), el.textContent ?? ""]];
      (window as unknown as { typedLog: typeof log }).typedLog = log;
      new MutationObserver(() => log.push([performance.now(), el.textContent ?? ""])).observe(el, {
        subtree: true,
        childList: true,
        characterData: true,
      });
    });
    // A whole round: three pauses of a second, and every character typed and erased, plus a step's lag each.
    const chars = PHRASES.reduce((n, p) => n + p.length, 0);
    const round = 3 * 1_000 + (2 * chars + 3) * 50;
    const steps = Math.ceil((round * 1.25) / STEP);
    for (let i = 0; i < steps; i++) await page.clock.runFor(STEP);
    const log = await page.evaluate(() => (window as unknown as { typedLog: [number, string][] }).typedLog);

    const texts = log.map(([, t]) => t);
    // The three phrases in turn, and the first again.
    const whole = texts.filter((t) => PHRASES.includes(t));
    expect(whole.slice(0, 4)).toEqual([PHRASES[0], PHRASES[1], PHRASES[2], PHRASES[0]]);
    expect(texts).toContain("expr");
    expect(texts).toContain("learn more e");
    const changes = log.slice(1).map(([t, text], i) => ({ gap: t - log[i]![0], from: log[i]![1], text }));
    // One character at a time, 50 ms apart.
    for (const c of changes) expect(Math.abs(c.text.length - c.from.length)).toBe(1);
    const typing = changes.slice(1).filter((c) => !PHRASES.includes(c.from));
    expect(typing.length).toBeGreaterThan(2 * chars - 10);
    // From an erased phrase to the next one's first letter is two ticks: the switch, then the letter.
    for (const c of typing) {
      const ticks = c.from === "" ? 2 : 1;
      expect(c.gap, `${c.from} → ${c.text}`).toBeGreaterThanOrEqual(50 * ticks);
      expect(c.gap, `${c.from} → ${c.text}`).toBeLessThanOrEqual((50 + STEP) * ticks);
    }
    // After each whole phrase it waits a second, then erases at the typing speed: two ticks, 1,000 ms and 50 ms.
    const pauses = changes.slice(1).filter((c) => PHRASES.includes(c.from) && c.text.length < c.from.length);
    expect(pauses.length).toBeGreaterThanOrEqual(2);
    for (const c of pauses) expect(c.gap, `pause after ${c.from}`).toBeGreaterThanOrEqual(1_050);
    for (const c of pauses) expect(c.gap, `pause after ${c.from}`).toBeLessThanOrEqual(1_050 + 2 * STEP);
  });

  test("with reduced motion the three phrases stand still", async ({ page }) => {
    await page.emulateMedia({ reducedMotion: "reduce" });
    await page.goto("/");
    const still = page.getByTestId("static-phrases");
    await expect(still).toBeVisible();
    await expect(still).toHaveText("share ideas,express innovation,learn more earn more.");
    await expect(page.getByTestId("typed-phrase")).toBeHidden();
    const before = await page.getByTestId("typed-phrase").textContent();
    await page.waitForTimeout(1_500);
    expect(await page.getByTestId("typed-phrase").textContent()).toBe(before);
    await expect(page.getByRole("heading", { level: 1 })).toHaveAccessibleName(
      "A place to share ideas, express innovation, learn more earn more",
    );
  });

  for (const [width, slides] of [
    [375, 1],
    [800, 2],
    [1280, 3],
  ] as const) {
    test(`the testimonials slider shows ${slides} review(s) at ${width} px`, async ({ page }) => {
      await page.setViewportSize({ width, height: 900 });
      await page.goto("/");
      const region = page.getByRole("region", { name: "What Our Users Say" });
      await region.scrollIntoViewIfNeeded();
      await expect(sliderReady(page)).toHaveCount(1);
      await expect.poll(() => visibleSlideCount(page)).toBe(slides);
      await expect(region.getByRole("img", { name: /^Rated \d(\.5)? out of 5$/ }).first()).toBeAttached();
    });
  }

  test("Swiper and its stylesheet load only when the reviews near the viewport", async ({ page }) => {
    await page.setViewportSize(VIEWPORTS.desktop);
    const loaded: string[] = [];
    page.on("request", (request) => loaded.push(request.url()));
    await page.goto("/");
    await page.waitForLoadState("networkidle");
    const swiper = () => loaded.filter((url) => /\/assets\/(testimonials-swiper-.*\.js|swiper-.*\.css)$/.test(url));
    expect(swiper()).toEqual([]);
    await expect(page.locator(".testimonials[data-carousel]")).toHaveCount(0);
    await page.getByRole("region", { name: "What Our Users Say" }).scrollIntoViewIfNeeded();
    await expect(sliderReady(page)).toHaveCount(1);
    expect(swiper()).toHaveLength(2);
    await expect(page.locator(".testimonials-viewport.swiper-initialized")).toHaveCount(1);
  });

  test("the arrows and the bullets change the slide", async ({ page }) => {
    await page.setViewportSize(VIEWPORTS.desktop);
    await page.goto("/");
    const region = page.getByRole("region", { name: "What Our Users Say" });
    await region.scrollIntoViewIfNeeded();
    await expect(sliderReady(page)).toHaveCount(1);
    const bullets = region.getByRole("button", { name: /^Go to review \d+$/ });
    const count = await bullets.count();
    expect(count).toBeGreaterThanOrEqual(4);

    expect(await activeIndex(page)).toBe(0);
    await region.getByRole("button", { name: "Next review" }).click();
    await expect.poll(() => activeIndex(page)).toBe(1);
    await region.getByRole("button", { name: "Previous review" }).click();
    await expect.poll(() => activeIndex(page)).toBe(0);
    // Looping: back from the first goes to the last.
    await region.getByRole("button", { name: "Previous review" }).click();
    await expect.poll(() => activeIndex(page)).toBe(count - 1);

    // Looping: on from the last goes to the first, whatever the number of reviews.
    await region.getByRole("button", { name: "Next review" }).click();
    await expect.poll(() => activeIndex(page)).toBe(0);
    for (let i = 1; i <= count; i++) {
      await region.getByRole("button", { name: "Next review" }).click();
      await expect.poll(() => activeIndex(page)).toBe(i % count);
      // However far it went round, the screen is full: three reviews at 1280 px.
      expect(await visibleSlideCount(page)).toBe(Math.min(3, count));
    }

    await region.getByRole("button", { name: "Go to review 3" }).click();
    await expect.poll(() => activeIndex(page)).toBe(2);
    await expect(region.getByRole("button", { name: "Go to review 3" })).toHaveAttribute("aria-current", "true");
    await expect(region.getByText(/^Review 3 of \d+: /)).toBeAttached();
    // The bullets work from the keyboard too.
    await region.getByRole("button", { name: "Go to review 2" }).focus();
    await page.keyboard.press("Enter");
    await expect.poll(() => activeIndex(page)).toBe(1);
  });

  test("author social icons appear on hover and on keyboard focus, only for the links an author has", async ({
    page,
  }) => {
    await page.setViewportSize(VIEWPORTS.desktop);
    await page.goto("/");
    const authors = page.getByRole("region", { name: "Meet Our Authors" });
    const amara = authors.getByRole("article").filter({ hasText: "Amara Osei" });
    const icons = amara.getByTestId("author-links");
    await amara.scrollIntoViewIfNeeded();
    await expect(icons).toHaveCSS("opacity", "0");
    await amara.hover();
    await expect(icons).toHaveCSS("opacity", "1");
    await page.mouse.move(0, 0);
    await expect(icons).toHaveCSS("opacity", "0");
    await expect(icons.getByRole("link")).toHaveCount(3);
    for (const network of ["Twitter", "LinkedIn", "GitHub"])
      await expect(icons.getByRole("link", { name: `Amara Osei on ${network}` })).toHaveCount(1);

    await amara.getByRole("link", { name: "Amara Osei on Twitter" }).focus();
    await expect(icons).toHaveCSS("opacity", "1");
    await page.keyboard.press("Tab");
    await expect(amara.getByRole("link", { name: "Amara Osei on LinkedIn" })).toBeFocused();
    await expect(icons).toHaveCSS("opacity", "1");

    const sofia = authors.getByRole("article").filter({ hasText: "Sofia Marin" });
    await expect(sofia.getByRole("link")).toHaveCount(1);
    await expect(sofia.getByRole("link", { name: "Sofia Marin on LinkedIn" })).toHaveAttribute("href", /linkedin\.com/);
    const kenji = authors.getByRole("article").filter({ hasText: "Kenji Watanabe" });
    await expect(kenji.getByRole("link")).toHaveCount(0);
  });

  test("the newsletter answers with the spec's messages, with JavaScript", async ({ page }) => {
    await page.goto("/");
    const section = page.getByRole("region", { name: "Subscribe to Our Newsletter" });
    const email = section.getByLabel("Email address");
    await section.getByRole("button", { name: "Subscribe Now" }).click();
    await expect(section.getByRole("alert")).toHaveText(EMPTY);
    await email.fill(`e2e-js-${Date.now()}@example.com`);
    await section.getByRole("button", { name: "Subscribe Now" }).click();
    await expect(section.getByRole("status")).toHaveText(
      `${THANKS} Check your inbox to confirm. Already subscribed? Then nothing changes.`,
    );
    await expect(section.getByRole("alert")).toHaveCount(0);
    await expect(email).toHaveValue("");
    // Posted in the background: still the same page.
    expect(new URL(page.url()).pathname).toBe("/");
  });

  test("without JavaScript the reviews are a row that scrolls sideways from the keyboard too", async ({
    browser,
    baseURL,
  }) => {
    const context = await browser.newContext({ javaScriptEnabled: false, baseURL, viewport: VIEWPORTS.phone });
    const page = await context.newPage();
    await page.goto("/");
    const row = page.getByRole("region", { name: "Reviews, scroll sideways for more" });
    await row.scrollIntoViewIfNeeded();
    const [scrollWidth, clientWidth] = await row.evaluate((el) => [el.scrollWidth, el.clientWidth]);
    expect(scrollWidth).toBeGreaterThan(clientWidth * 2);
    await row.focus();
    await page.keyboard.press("ArrowRight");
    await expect.poll(() => row.evaluate((el) => el.scrollLeft)).toBeGreaterThan(0);
    // The arrows cannot work without a script, so they say so by being disabled.
    await expect(page.getByRole("button", { name: "Next review" })).toBeDisabled();
    await context.close();
  });

  test("the newsletter works without JavaScript", async ({ browser, baseURL }) => {
    const context = await browser.newContext({ javaScriptEnabled: false, baseURL });
    const page = await context.newPage();
    await page.goto("/");
    const section = page.getByRole("region", { name: "Subscribe to Our Newsletter" });
    const email = section.getByLabel("Email address");
    await section.getByRole("button", { name: "Subscribe Now" }).click();
    await expect(section.getByText(EMPTY)).toBeVisible();
    await email.fill(`e2e-nojs-${Date.now()}@example.com`);
    await section.getByRole("button", { name: "Subscribe Now" }).click();
    await expect(section.getByText(THANKS)).toBeVisible();
    await expect(section.getByText(EMPTY)).toHaveCount(0);
    await expect(email).toHaveValue("");
    // The page lands on the newsletter, not at the top.
    expect(new URL(page.url()).hash).toBe("#newsletter");
    await context.close();
  });

  test("a category tile opens All Blogs filtered by that category", async ({ page }) => {
    await page.goto("/");
    await page.getByRole("region", { name: "Most Popular Categories" }).getByRole("link", { name: "Travel" }).click();
    await expect(page).toHaveURL(/\/allBlogs\?category=Travel$/);
  });

  test("has no serious accessibility violations, and looks right at 375 and 1280 px", async ({ page }) => {
    await page.setViewportSize(VIEWPORTS.desktop);
    await page.goto("/");
    await page.getByRole("region", { name: "What Our Users Say" }).scrollIntoViewIfNeeded();
    await expect(sliderReady(page)).toHaveCount(1);
    await expect(page.getByRole("region", { name: "Featured Blogs" }).getByRole("article")).toHaveCount(6);
    await expect(page.getByRole("region", { name: "Most Popular Categories" }).getByRole("link")).toHaveCount(10);
    await expectNoSeriousA11yViolations(page);
    await page.setViewportSize(VIEWPORTS.phone);
    await expectNoSeriousA11yViolations(page);
    await loadLazyImages(page);
    await screenshots(page, "home");
  });
});

test.describe("about page", () => {
  test("shows the spec's sections, has no serious accessibility violations, and looks right", async ({ page }) => {
    await page.goto("/about");
    await expect(page).toHaveTitle("About Us | Edge Blog");
    for (const name of ["Our Mission", "Why Edge Blog?", "Our Features", "Meet the Author", "Our Values"]) {
      await expect(page.getByRole("heading", { level: 2, name })).toBeVisible();
    }
    const features = page.getByRole("region", { name: "Our Features" }).getByRole("heading", { level: 3 });
    await expect(features).toHaveText(["Like", "Comment", "Share", "Read & Filter", "Write & Edit"]);
    const values = page.getByRole("region", { name: "Our Values" }).getByRole("heading", { level: 3 });
    await expect(values).toHaveText(["Quality Content", "Creativity", "Community"]);
    await expectNoSeriousA11yViolations(page);
    await screenshots(page, "about");
  });
});
