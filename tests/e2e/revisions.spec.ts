import type { Page } from "@playwright/test";
import path from "node:path";
import { expect, test } from "./fixtures";
import { ACCOUNTS, VIEWPORTS, screenshots, signIn } from "./support";

const COVER = path.resolve("seed/images/seed-cover-cut-web-apps-load-time-half.jpg");
const tag = () => `${Date.now().toString(36)}${Math.floor(Math.random() * 1e4)}`;

const swal = (page: Page, title: string) =>
  page.locator(".swal2-popup").filter({ has: page.locator(".swal2-title", { hasText: title }) });

const MARKDOWN = [
  "## Getting started",
  "",
  "- pack a **light** bag",
  "- bring a map",
  "",
  "Read [the guide](https://example.com/guide).",
  "",
  "```",
  "const bag = pack();",
  "```",
].join("\n");

/** Writes a post through Write Blogs and answers its id. */
async function writePost(page: Page, title: string, details: string): Promise<string> {
  await page.goto("/dashboard/writeBlogs");
  await page.getByLabel("Title").fill(title);
  await page.getByLabel("Category").selectOption("Travel");
  await page.getByLabel("Cover image").setInputFiles(COVER);
  await page.getByLabel("Short description").fill(`Short description of ${title}.`);
  await page.getByLabel("Details").fill(details);
  await page.getByRole("button", { name: "Post Blog" }).click();
  await expect(swal(page, "Blog Posted Successfully!")).toBeVisible();
  await expect(page).toHaveURL(/\/dashboard\/myBlog$/);
  const href = await page
    .getByRole("article")
    .filter({ hasText: title })
    .getByRole("link")
    .first()
    .getAttribute("href");
  return href!.split("/")[2]!;
}

test.describe("writer tools: formatted text and revisions", () => {
  test.beforeEach(async ({ page }) => {
    await page.setViewportSize(VIEWPORTS.desktop);
    await signIn(page, ACCOUNTS.writer);
  });

  test("format a post with the toolbar and preview, and see it rendered on the post page", async ({ page }) => {
    await page.goto("/dashboard/writeBlogs");
    const details = page.getByLabel("Details");
    const preview = page.getByTestId("markdown-preview");
    await details.fill("Travel tips");
    await details.selectText();
    await page.getByRole("button", { name: "Heading" }).click();
    await expect(details).toHaveValue("## Travel tips");
    await expect(preview.getByRole("heading", { name: "Travel tips" })).toBeVisible();
    await details.fill(MARKDOWN);
    await expect(preview.getByRole("listitem")).toHaveCount(2);
    await expect(preview.getByRole("link", { name: "the guide" })).toHaveAttribute("href", "https://example.com/guide");
    await expect(preview.locator("pre code")).toHaveText("const bag = pack();");
    await page.getByLabel("Title").fill("Preview screenshot");
    await screenshots(page, "editor-markdown-preview");

    const title = `Formatted ${tag()}`;
    const id = await writePost(page, title, MARKDOWN);
    await page.goto(`/blogs/${id}`);
    const body = page.locator(".post-body");
    await expect(body.getByRole("heading", { level: 2, name: "Getting started" })).toBeVisible();
    await expect(body.getByRole("listitem")).toHaveCount(2);
    await expect(body.locator("strong")).toHaveText("light");
    await expect(body.getByRole("link", { name: "the guide" })).toHaveAttribute("href", "https://example.com/guide");
    await expect(body.locator("pre code")).toHaveText("const bag = pack();");
  });

  test("edit a post twice and restore the first version", async ({ page }) => {
    const first = `First version ${tag()}`;
    const id = await writePost(page, first, "The first details.");
    for (const [title, details] of [
      [`Second version ${tag()}`, "The second details."],
      [`Third version ${tag()}`, "The third details."],
    ] as const) {
      await page.goto(`/dashboard/updateBlog/${id}`);
      await page.getByLabel("Title").fill(title);
      await page.getByLabel("Details").fill(details);
      await page.getByRole("button", { name: "Update Blog" }).click();
      await expect(swal(page, "Blog Updated Successfully!")).toBeVisible();
    }
    await page.goto(`/dashboard/updateBlog/${id}`);
    await page.getByRole("link", { name: "Revisions" }).click();
    await expect(page).toHaveURL(new RegExp(`/dashboard/blogs/${id}/revisions$`));
    const versions = page.getByRole("list", { name: "Earlier versions, newest first" }).getByRole("listitem");
    await expect(versions).toHaveCount(2);
    const oldest = versions.last();
    await expect(oldest).toContainText(first);
    await oldest.getByRole("link", { name: /Compare/ }).click();
    await expect(page.locator('[data-field="blog_details"] del')).toContainText("first");
    await expect(page.locator('[data-field="blog_details"] ins')).toContainText("third");
    await screenshots(page, "revisions-list");

    await oldest.getByRole("button", { name: /Restore/ }).click();
    await expect(versions).toHaveCount(3);
    await page.goto(`/blogs/${id}`);
    await expect(page.getByRole("heading", { level: 1, name: first })).toBeVisible();
    await expect(page.locator(".post-body")).toHaveText("The first details.");
  });
});
