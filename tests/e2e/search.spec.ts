import type { Page } from "@playwright/test";
import { expect, test } from "./fixtures";
import { expectNoSeriousA11yViolations } from "./axe";
import { loadLazyImages, screenshots } from "./support";

const SKY = "Why the Sky Is Blue and Sunsets Are Red";
const topSearch = (page: Page) =>
  page.getByRole("search", { name: "Site" }).getByRole("searchbox", { name: "Search posts" });
const results = (page: Page) => page.getByRole("region", { name: "Results" }).getByRole("article");

test.describe("search from the top bar", () => {
  test("types a prefix on any page, sees ranked highlighted results, opens one, and reads related posts", async ({
    page,
  }) => {
    await page.goto("/about");
    await topSearch(page).fill("Sunse");
    await topSearch(page).press("Enter");
    await expect(page).toHaveURL(/\/allBlogs\?q=Sunse$/);
    // The words stay in the box, and the best match comes first with the word marked.
    await expect(topSearch(page)).toHaveValue("Sunse");
    const first = results(page).first();
    await expect(first).toContainText(SKY);
    await expect(first.locator("mark").first()).toHaveText(/^Sunsets$/i);

    await first.getByRole("link").first().click();
    await expect(page).toHaveURL(/\/blogs\/[0-9a-z]+\/[^/?#]+$/);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText(SKY);
    const related = page.getByRole("region", { name: "Read next" });
    await expect(related).toBeVisible();
    const links = related.getByRole("link");
    expect(await links.count()).toBeGreaterThan(0);
    expect(await links.count()).toBeLessThanOrEqual(3);
    await expect(related).not.toContainText(SKY);
    await links.first().click();
    await expect(page).toHaveURL(/\/blogs\/[0-9a-z]+\/[^/?#]+$/);
    await expect(page.getByRole("heading", { level: 1 })).not.toHaveText(SKY);
  });

  test("folds accents and treats search syntax as plain words", async ({ page }) => {
    await page.goto(`/allBlogs?q=${encodeURIComponent("SÚNSETS")}`);
    await expect(results(page).first()).toContainText(SKY);
    // Quotes, AND and a lone bracket are just words (or nothing): the title has "sky" and "and".
    await page.goto(`/allBlogs?q=${encodeURIComponent('sky" AND (')}`);
    await expect(results(page).first()).toContainText(SKY);
    await page.goto(`/allBlogs?q=${encodeURIComponent('( "* : -')}`);
    await expect(page.getByRole("heading", { name: "No blogs found" })).toBeVisible();
  });

  test("a search that finds nothing suggests topics and the latest posts", async ({ page }) => {
    await page.goto("/");
    await topSearch(page).fill("zebra quantum origami");
    await topSearch(page).press("Enter");
    await expect(page.getByRole("heading", { name: "No blogs found" })).toBeVisible();
    const topics = page.getByRole("list", { name: "Suggested topics" }).getByRole("link");
    await expect(topics).toHaveCount(10);
    await page.getByRole("list", { name: "Suggested latest posts" }).getByRole("link").first().click();
    // The latest post may be another spec's, titled in any script: its slug keeps those letters (issue 43).
    await expect(page).toHaveURL(/\/blogs\/[0-9a-z]+\/[^/?#]+$/);
  });

  test("axe finds nothing serious on results, and screenshots", async ({ page }) => {
    // Three pages at two widths, full length: more than the default 30 s on a busy machine.
    test.setTimeout(120_000);
    await page.goto("/allBlogs?q=sky");
    await expect(results(page).first()).toBeVisible();
    await expectNoSeriousA11yViolations(page);
    await loadLazyImages(page);
    await screenshots(page, "search-results");
    await page.goto("/allBlogs?q=zebra");
    await expectNoSeriousA11yViolations(page);
    await screenshots(page, "search-empty");
    await page.goto("/");
    await screenshots(page, "search-top-bar-home");
    await page.goto("/allBlogs?q=sky");
    await results(page).first().getByRole("link").first().click();
    await expect(page.getByRole("region", { name: "Read next" })).toBeVisible();
    await loadLazyImages(page);
    await screenshots(page, "post-related");
  });
});

test.describe("without JavaScript", () => {
  test.use({ javaScriptEnabled: false });

  test("the top-bar search is a plain GET form", async ({ page }) => {
    await page.goto("/contact");
    await topSearch(page).fill("sunsets");
    await topSearch(page).press("Enter");
    await expect(page).toHaveURL(/\/allBlogs\?q=sunsets$/);
    await expect(results(page).first()).toContainText(SKY);
  });
});
