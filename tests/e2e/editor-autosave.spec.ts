import type { Page } from "@playwright/test";
import { expect, test } from "./fixtures";
import { ACCOUNTS, VIEWPORTS, hydrated, signIn } from "./support";

const tag = () => `${Date.now().toString(36)}${Math.floor(Math.random() * 1e4)}`;

const swal = (page: Page, title: string) =>
  page.locator(".swal2-popup").filter({ has: page.locator(".swal2-title", { hasText: title }) });

/** A post of the writer's own, made through the REST call; answers its id. */
async function ownPost(page: Page, title: string): Promise<string> {
  // A cover of our own /images (the CSP allows no other host): the newest post's.
  const [newest] = (await (await page.request.get("/api/latest-blogs")).json()) as { image: string }[];
  const res = await page.request.post("/api/blogs", {
    data: {
      title,
      short_description: "A post to edit.",
      blog_details: "The words as stored.",
      category: "Technology",
      date_time: new Date().toISOString(),
      image: newest!.image,
    },
  });
  expect(res.status()).toBe(201);
  return ((await res.json()) as { insertedId: string }).insertedId;
}

test.describe("editor autosave", () => {
  test.beforeEach(async ({ page }) => {
    await page.setViewportSize(VIEWPORTS.desktop);
    await signIn(page, ACCOUNTS.writer);
  });

  test("Update Blog keeps unsaved words through a reload, warns before the reload, and offers them back", async ({
    page,
  }) => {
    const title = `Edited offline ${tag()}`;
    const id = await ownPost(page, title);
    await page.goto(`/dashboard/updateBlog/${id}`);
    await expect(page.getByLabel("Title")).toHaveValue(title);
    await expect(page.getByTestId("autosave-status")).toHaveText("");

    await page.getByLabel("Title").fill(`${title} (better)`);
    await page.getByLabel("Details").fill("The words as stored, and a new paragraph typed before the reload.");
    const status = page.getByTestId("autosave-status");
    await expect(status).toHaveText("Saved a moment ago on this device");
    await expect(status).toHaveAttribute("aria-live", "polite");

    // Reloading with unsaved changes asks first (the browser's beforeunload question).
    const asked: string[] = [];
    page.on("dialog", (dialog) => {
      asked.push(dialog.type());
      void dialog.accept();
    });
    await page.reload();
    expect(asked).toContain("beforeunload");

    // The form shows the post as stored; the device's words are offered, not applied silently.
    await expect(page.getByLabel("Title")).toHaveValue(title);
    const offer = page.getByTestId("draft-offer");
    await expect(offer).toContainText("You have unsaved changes to this post");
    await expect(offer).not.toContainText("saved again");
    await offer.getByRole("button", { name: "Restore my changes" }).click();
    await expect(page.getByLabel("Title")).toHaveValue(`${title} (better)`);
    await expect(page.getByLabel("Details")).toHaveValue(
      "The words as stored, and a new paragraph typed before the reload.",
    );
    await expect(page.getByTestId("markdown-preview")).toContainText("a new paragraph typed before the reload");

    await page.getByRole("button", { name: "Update Blog" }).click();
    await expect(swal(page, "Blog Updated Successfully!")).toBeVisible();
    await expect(page).toHaveURL(/\/dashboard\/manageBlogs$/);
    // Saved to the post: the device's copy has done its job.
    expect(await page.evaluate(() => Object.keys(localStorage).filter((k) => k.startsWith("draft:")))).toEqual([]);
    await page.goto(`/dashboard/updateBlog/${id}`);
    await expect(page.getByLabel("Title")).toHaveValue(`${title} (better)`);
    await expect(page.getByTestId("draft-offer")).toHaveCount(0);
  });

  test("a draft older than the stored post says so, and Discard keeps the stored words", async ({ page }) => {
    const title = `Edited twice ${tag()}`;
    const id = await ownPost(page, title);
    await page.goto(`/dashboard/updateBlog/${id}`);
    await page.getByLabel("Short description").fill("Typed here, never saved.");
    await expect(page.getByTestId("autosave-status")).toHaveText("Saved a moment ago on this device");

    // Meanwhile the post is saved elsewhere (another tab, the REST call).
    const put = await page.request.put(`/api/blog/${id}`, { data: { short_description: "Saved elsewhere." } });
    expect(put.ok()).toBe(true);
    page.on("dialog", (dialog) => void dialog.accept());
    await page.reload();
    await expect(page.getByLabel("Short description")).toHaveValue("Saved elsewhere.");
    const offer = page.getByTestId("draft-offer");
    await expect(offer).toContainText("The post was saved again after them");
    await offer.getByRole("button", { name: "Discard them" }).click();
    await expect(offer).toHaveCount(0);
    await expect(page.getByLabel("Short description")).toHaveValue("Saved elsewhere.");
    await page.reload();
    await expect(page.getByTestId("draft-offer")).toHaveCount(0);
  });

  test("leaving by a link with unsaved changes asks first, with Cancel focused", async ({ page }) => {
    const title = `Half edited ${tag()}`;
    const id = await ownPost(page, title);
    await page.goto(`/dashboard/updateBlog/${id}`);
    // Unchanged: the link just leaves.
    await page.getByRole("link", { name: "Revisions" }).click();
    await expect(page).toHaveURL(new RegExp(`/dashboard/blogs/${id}/revisions$`));
    await page.goto(`/dashboard/updateBlog/${id}`);

    await page.getByLabel("Title").fill(`${title}, continued`);
    await page.getByRole("link", { name: "Revisions" }).click();
    const ask = swal(page, "Leave this page?");
    await expect(ask).toBeVisible();
    await expect(page.getByRole("button", { name: "Cancel" })).toBeFocused();
    await page.keyboard.press("Enter");
    await expect(ask).toBeHidden();
    await expect(page).toHaveURL(new RegExp(`/dashboard/updateBlog/${id}$`));
    await expect(page.getByLabel("Title")).toHaveValue(`${title}, continued`);

    await page.getByRole("link", { name: "Revisions" }).click();
    await swal(page, "Leave this page?").getByRole("button", { name: "Leave" }).click();
    await expect(page).toHaveURL(new RegExp(`/dashboard/blogs/${id}/revisions$`));
  });

  test("Write Blogs warns too, and says when it last kept the text", async ({ page }) => {
    await page.goto("/dashboard/writeBlogs");
    await page.getByLabel("Title").fill(`Unsent ${tag()}`);
    await expect(page.getByTestId("autosave-status")).toHaveText("Saved a moment ago on this device");
    await page.getByRole("link", { name: "My Blogs" }).first().click();
    await expect(swal(page, "Leave this page?")).toBeVisible();
    await page.getByRole("button", { name: "Cancel" }).click();
    await expect(page).toHaveURL(/\/dashboard\/writeBlogs$/);
  });

  test("words typed into Write Blogs before the page is ready are kept too", async ({ page }) => {
    // The app's scripts wait until the title is typed: the words are in the field before React is.
    let release!: () => void;
    const typed = new Promise<void>((resolve) => (release = resolve));
    await page.route("**/assets/**/*.js", async (route) => {
      await typed;
      await route.continue();
    });
    await page.goto("/dashboard/writeBlogs", { waitUntil: "commit" });
    const title = `Typed early ${tag()}`;
    await page.getByLabel("Title").fill(title);
    release();
    await hydrated(page);
    await expect(page.getByTestId("autosave-status")).toHaveText("Saved a moment ago on this device");
    await page.reload();
    await expect(page.getByLabel("Title")).toHaveValue(title);
  });
});
