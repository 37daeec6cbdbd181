import type { Page } from "@playwright/test";
import { expect, test } from "./fixtures";
import path from "node:path";
import { expectNoSeriousA11yViolations } from "./axe";
import { ACCOUNTS, VIEWPORTS, hydrated, screenshots, signIn } from "./support";

const COVER = path.resolve("seed/images/seed-cover-cut-web-apps-load-time-half.jpg");
const PHOTO = path.resolve("seed/images/seed-avatar-jordan-reyes.jpg");
const tag = () => `${Date.now().toString(36)}${Math.floor(Math.random() * 1e4)}`;

/** The SweetAlert2 dialog with this title (toasts close on their own after 1.5 s). */
const swal = (page: Page, title: string) =>
  page.locator(".swal2-popup").filter({ has: page.locator(".swal2-title", { hasText: title }) });

async function fillPost(page: Page, title: string) {
  await page.getByLabel("Title").fill(title);
  await page.getByLabel("Category").selectOption("Travel");
  await page.getByLabel("Cover image").setInputFiles(COVER);
  await page.getByLabel("Short description").fill(`Short description of ${title}.`);
  await page.getByLabel("Details").fill(`The details of ${title}.\n\nA second paragraph.`);
}

test.describe("writer dashboard", () => {
  test.beforeEach(async ({ page }) => {
    await page.setViewportSize(VIEWPORTS.desktop);
    await signIn(page, ACCOUNTS.writer);
  });

  test("write a post, see it everywhere, edit it twice and delete it", async ({ page }) => {
    // A whole journey with screenshots at two widths: more than the default 30 s on 2 cores.
    test.setTimeout(120_000);
    const title = `Packing light ${tag()}`;
    await page.goto("/dashboard/writeBlogs");
    await expect(page.getByRole("heading", { level: 1, name: "Write Blogs" })).toBeVisible();
    // Writer name and email come from the session and are locked.
    await expect(page.getByLabel("Writer name")).toHaveValue("Jordan Reyes");
    await expect(page.getByLabel("Writer email")).toHaveValue(ACCOUNTS.writer.email);
    await expect(page.getByLabel("Writer email")).toHaveAttribute("readonly", "");
    await expect(page.getByLabel("Date and time")).not.toHaveValue("");
    await fillPost(page, title);
    await expect(page.getByAltText("Preview of the chosen image")).toBeVisible();
    await screenshots(page, "dashboard-write-blogs");

    await page.getByRole("button", { name: "Post Blog" }).click();
    await expect(swal(page, "Blog Posted Successfully!")).toBeVisible();
    await expect(page).toHaveURL(/\/dashboard\/myBlog$/);
    // The draft kept while typing is gone once the post exists.
    expect(await page.evaluate(() => Object.keys(localStorage).filter((k) => k.startsWith("draft:")))).toEqual([]);
    const card = page.getByRole("article").filter({ hasText: title });
    await expect(card).toBeVisible();
    await expect(page.getByRole("article")).toHaveCount(3);
    await expect(page.getByRole("navigation", { name: "My Blogs pages" })).toBeVisible();
    await expect(swal(page, "Blog Posted Successfully!")).toBeHidden();
    await screenshots(page, "dashboard-my-blogs");
    const href = await card.getByRole("link").first().getAttribute("href");
    expect(href).toMatch(/^\/blogs\/[0-9a-z]+\/[0-9a-z-]+$/);

    await page.goto("/allBlogs");
    await expect(page.getByText(title).first()).toBeVisible();
    await page.goto(href!);
    await expect(page.getByRole("heading", { level: 1, name: title })).toBeVisible();

    // Edit: a change...
    await page.goto("/dashboard/manageBlogs");
    const row = page.getByRole("row").filter({ hasText: title });
    await expect(row).toBeVisible();
    await screenshots(page, "dashboard-manage-blogs");
    await row.getByRole("link", { name: /^Edit/ }).click();
    await expect(page).toHaveURL(new RegExp(`/dashboard/updateBlog/${href!.split("/")[2]}$`));
    await expect(page.getByLabel("Title")).toHaveValue(title);
    await screenshots(page, "dashboard-update-blog");
    const edited = `${title} (edited)`;
    await page.getByLabel("Title").fill(edited);
    await page.getByRole("button", { name: "Update Blog" }).click();
    await expect(swal(page, "Blog Updated Successfully!")).toBeVisible();
    await expect(page).toHaveURL(/\/dashboard\/manageBlogs$/);
    const editedRow = page.getByRole("row").filter({ hasText: edited });
    await expect(editedRow).toBeVisible();

    // ...then no change.
    await expect(swal(page, "Blog Updated Successfully!")).toBeHidden();
    await editedRow.getByRole("link", { name: /^Edit/ }).click();
    await expect(page.getByLabel("Title")).toHaveValue(edited);
    await page.getByRole("button", { name: "Update Blog" }).click();
    await expect(swal(page, "No Changes Made!")).toBeVisible();
    await page.locator(".swal2-confirm").click();

    // Delete, after the spec's confirmation.
    await page.goto("/dashboard/manageBlogs");
    await page
      .getByRole("row")
      .filter({ hasText: edited })
      .getByRole("button", { name: /^Delete/ })
      .click();
    const confirm = swal(page, "Are you sure?");
    await expect(confirm).toContainText("You won't be able to revert this!");
    await confirm.getByRole("button", { name: "Yes, delete it!" }).click();
    await expect(swal(page, "Deleted!")).toContainText("It has been deleted for good.");
    await page.locator(".swal2-confirm").click();
    await expect(page.getByRole("row").filter({ hasText: edited })).toHaveCount(0);
  });

  test("cancelling the delete confirmation keeps the post", async ({ page }) => {
    await page.goto("/dashboard/manageBlogs");
    await hydrated(page);
    const rows = page.getByRole("row");
    const before = await rows.count();
    await rows
      .nth(1)
      .getByRole("button", { name: /^Delete/ })
      .click();
    await swal(page, "Are you sure?").getByRole("button", { name: "Cancel" }).click();
    await expect(swal(page, "Are you sure?")).toBeHidden();
    await expect(rows).toHaveCount(before);
  });

  test("a post the server refuses keeps everything typed and says why in an alert", async ({ page }) => {
    await page.goto("/dashboard/writeBlogs");
    await fillPost(page, "placeholder");
    // Spaces pass the browser's `required` check; the server trims them and refuses.
    await page.getByLabel("Title").fill("   ");
    const alert = page.waitForEvent("dialog");
    await page.getByRole("button", { name: "Post Blog" }).click();
    const dialog = await alert;
    expect(dialog.type()).toBe("alert");
    expect(dialog.message()).toContain("Title is required.");
    await dialog.accept();
    await expect(page.getByText("Title is required.", { exact: true })).toBeVisible();
    await expect(page.getByLabel("Short description")).toHaveValue("Short description of placeholder.");
    await expect(page.getByLabel("Details")).toHaveValue("The details of placeholder.\n\nA second paragraph.");
    await expect(page.getByLabel("Category")).toHaveValue("Travel");
    await expect(page.getByAltText("Preview of the chosen image")).toBeVisible();
    expect(await page.getByLabel("Cover image").evaluate((el: HTMLInputElement) => el.files?.length)).toBe(1);
    await screenshots(page, "dashboard-write-blogs-refused");
  });

  test("the draft survives a reload and can be discarded", async ({ page }) => {
    await page.goto("/dashboard/writeBlogs");
    await page.getByLabel("Title").fill("A draft worth keeping");
    await page.getByLabel("Details").fill("Half a thought.");
    await expect(page.getByText("Saved a moment ago on this device")).toBeVisible();
    // Unsaved words: the reload asks first; the person goes ahead.
    page.on("dialog", (dialog) => void dialog.accept());
    await page.reload();
    await expect(page.getByText("We restored the text you were writing.")).toBeVisible();
    await expect(page.getByLabel("Title")).toHaveValue("A draft worth keeping");
    await expect(page.getByLabel("Details")).toHaveValue("Half a thought.");
    await page.getByRole("button", { name: "Discard it" }).click();
    await expect(page.getByLabel("Title")).toHaveValue("");
    await page.reload();
    await expect(page.getByLabel("Title")).toHaveValue("");
  });

  test("feedback with a 4.5 rating chosen by keyboard waits for approval before the home page shows it", async ({
    page,
  }) => {
    const name = `Keyboard Kim ${tag()}`;
    await page.goto("/dashboard/feedback");
    await page.getByLabel("Name").fill(name);
    await page.getByLabel("Designation").fill("Accessibility Tester");
    await page.getByLabel("Message").fill("Rated entirely with the arrow keys.");
    await page.getByLabel("Your photo").setInputFiles(PHOTO);
    // Tab into the group lands on the checked radio (0); each arrow is half a star.
    await page.getByLabel("Message").focus();
    await page.keyboard.press("Shift+Tab");
    await expect(page.locator('input[name="rating"][value="0"]')).toBeFocused();
    for (let i = 0; i < 9; i++) await page.keyboard.press("ArrowRight");
    await expect(page.getByRole("radio", { name: "4.5 stars" })).toBeChecked();
    await expect(page.locator('[data-readout="4.5"]')).toBeVisible();
    await screenshots(page, "dashboard-feedback");
    await page.getByRole("button", { name: "Submit Feedback" }).click();
    await expect(swal(page, "Thank you for your feedback!")).toBeVisible();
    await expect(swal(page, "Thank you for your feedback!")).toContainText("pending approval");
    await expect(page).toHaveURL(/\/dashboard$/);

    // Pending until an admin approves it (tests/e2e/admin-approvals.spec.ts approves one).
    await page.goto("/");
    const testimonials = page.getByRole("region", { name: "What Our Users Say" });
    await expect(testimonials.getByText("Nina Petrova").first()).toBeAttached();
    await expect(testimonials.getByText(name)).toHaveCount(0);
  });

  test("another writer's post cannot be opened for editing", async ({ page }) => {
    // The admin's seeded post (seed/content.json).
    const res = await page.goto("/dashboard/updateBlog/dolzwv79z4toevdznec2");
    expect(res?.status()).toBe(403);
    await expect(page.getByRole("heading", { name: "Access denied" })).toBeVisible();
  });

  test("on a phone the menu collapses behind a button and marks the current page", async ({ page }) => {
    await page.setViewportSize(VIEWPORTS.phone);
    await page.goto("/dashboard");
    const nav = page.getByRole("navigation", { name: "Dashboard" });
    await expect(nav).toBeHidden();
    await page.getByText("Dashboard menu").click();
    await expect(nav.getByRole("link")).toHaveText([
      "Write Blogs",
      "Manage Blogs",
      "Send Feedback",
      "Comments",
      "Stats",
      "Analytics",
      "Settings",
      "Home",
    ]);
    await screenshots(page, "dashboard-phone-menu-open");
    await nav.getByRole("link", { name: "Manage Blogs" }).click();
    await expect(page).toHaveURL(/\/dashboard\/manageBlogs$/);
    await expect(nav).toBeHidden();
    await page.getByText("Dashboard menu").click();
    await expect(nav.getByRole("link", { name: "Manage Blogs" })).toHaveAttribute("aria-current", "page");
  });

  test("dashboard screens pass axe and are captured at 375 and 1280 px", async ({ page }) => {
    // Many pages, each checked with axe and photographed at two widths: more than the default 30 s on 2 cores.
    test.setTimeout(120_000);
    for (const [url, name] of [
      ["/dashboard", "dashboard-overview"],
      ["/dashboard/writeBlogs", null],
      ["/dashboard/myBlog", null],
      ["/dashboard/manageBlogs", null],
      ["/dashboard/updateBlog/dtsmsv96ei1r4bjkcypt", null],
      ["/dashboard/feedback", null],
    ] as const) {
      for (const size of [VIEWPORTS.desktop, VIEWPORTS.phone]) {
        await page.setViewportSize(size);
        await page.goto(url);
        await expectNoSeriousA11yViolations(page);
      }
      if (name) await screenshots(page, name);
    }
  });

  test("an admin sees the admin menu on the overview", async ({ page }) => {
    await page.context().clearCookies();
    await signIn(page, ACCOUNTS.admin);
    await page.goto("/dashboard");
    const spec = ["Add Author", "Manage Users", "Manage Blogs", "Manage Review", "Manage Authors", "Home"];
    const nav = page.getByRole("navigation", { name: "Dashboard" });
    await expect(nav.getByRole("link").first()).toHaveText("Add Author");
    // The spec's admin items in its order (the admin area may add its own, such as the inbox).
    // (An entry may end with its number: "Manage Review, 3 pending", "Comments, 2 reported".)
    const labels = (await nav.getByRole("link").allTextContents()).map((l) => l.replace(/, \d+ \w+$/, "").trim());
    expect(labels.filter((l) => spec.includes(l))).toEqual(spec);
    expect(labels).not.toContain("Write Blogs");
    await expectNoSeriousA11yViolations(page);
    await screenshots(page, "dashboard-overview-admin");
  });
});
