import type { Locator, Page } from "@playwright/test";
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { zipSync } from "fflate";
import { expect, test } from "./fixtures";
import { expectNoSeriousA11yViolations } from "./axe";
import { ACCOUNTS, VIEWPORTS, hydrated, importThroughApi, screenshots, signIn, uploadCover } from "./support";

/** Issue 47, "Writing and importing": what a writer meets once they stay. */
const PASSWORD = "Sunny-Garden-42";
const tag = () => `${Date.now().toString(36)}${Math.floor(Math.random() * 1e4)}`;
const swal = (page: Page) => page.locator(".swal2-popup");

async function registerViaApi(page: Page, name: string) {
  const email = `w47-${tag()}@example.com`;
  const res = await page.request.post("/api/auth/register", { data: { name, email, password: PASSWORD } });
  expect(res.status()).toBe(201);
  return { name, email };
}

/** Screenshots at 375 and 1280 px in the light theme, then again in the dark one (a reload paints it). */
async function lightAndDark(page: Page, name: string) {
  await page.emulateMedia({ colorScheme: "light" });
  await screenshots(page, `${name}-light`);
  await page.emulateMedia({ colorScheme: "dark" });
  await page.reload();
  await hydrated(page);
  await screenshots(page, `${name}-dark`);
  await expectNoSeriousA11yViolations(page);
  await page.emulateMedia({ colorScheme: "light" });
}

/**
 * The badge is not a tall oval (a pill only while it is one line), sits under its title rather than squeezed
 * beside it, starts where the title starts, and stays inside its cell.
 */
async function expectTidyBadge(badge: Locator, titleLink: Locator) {
  await expect(badge).toBeVisible();
  const box = (await badge.boundingBox())!;
  const title = (await titleLink.boundingBox())!;
  const radius = await badge.evaluate((el) => parseFloat(getComputedStyle(el).borderTopLeftRadius));
  if (box.height > 30) expect(radius).toBeLessThanOrEqual(8);
  expect(box.y).toBeGreaterThanOrEqual(title.y + title.height - 1);
  expect(Math.abs(box.x - title.x)).toBeLessThan(1);
  const cell = (await badge.locator("xpath=ancestor::td[1]").boundingBox())!;
  expect(box.x + box.width).toBeLessThanOrEqual(cell.x + cell.width + 0.5);
  // Its words stay inside it (no date running out of the box).
  expect(await badge.evaluate((el) => el.scrollWidth <= el.clientWidth + 1)).toBe(true);
}

test.describe("issue 47: writing", () => {
  test("an emptied bio is saved empty, and the confirmation is said once and names what changed", async ({ page }) => {
    await page.setViewportSize(VIEWPORTS.desktop);
    await registerViaApi(page, "Bio Person");
    expect(
      (await page.request.post("/api/profile", { data: { bio: "Old words.", designation: "Engineer" } })).status(),
    ).toBe(201);
    await page.goto("/Profile");
    await page.getByRole("link", { name: "Edit Profile" }).click();
    await hydrated(page);
    await expect(page.getByRole("textbox", { name: "Bio" })).toHaveValue("Old words.");
    await page.getByRole("textbox", { name: "Bio" }).fill("");
    await page.getByRole("button", { name: "Save changes" }).click();
    await expect(page).toHaveURL(/\/Profile$/);

    // One message at a time: while the toast is up, the notice with the same words is not on screen.
    await expect(swal(page)).toContainText("Profile updated successfully!");
    await expect(swal(page)).toContainText("Changed: your bio (now empty).");
    await expect(page.getByTestId("flash-notice")).toBeHidden();
    await expect(swal(page)).toBeHidden({ timeout: 5_000 });
    // Then the words stay on the page, once.
    const notice = page.getByTestId("flash-notice");
    await expect(notice).toBeVisible();
    await expect(notice).toContainText("Changed: your bio (now empty).");
    await expect(page.getByText("No bio added yet")).toBeVisible();
    await expect(page.getByText("Old words.")).toHaveCount(0);
    // The profile is still there to edit (not "Create Profile", which would be refused as a second one).
    await expect(page.getByRole("link", { name: "Edit Profile" })).toBeVisible();
    await expectNoSeriousA11yViolations(page);
    await screenshots(page, "w47-profile-saved-light");
  });

  test("the Scheduled badge stays one line, spaced by its row, at 375 and 1280 px", async ({ page }) => {
    await signIn(page, ACCOUNTS.writer);
    const title = `Later on ${tag()}`;
    const created = await page.request.post("/api/blogs", {
      data: {
        title,
        short_description: "Goes out later.",
        blog_details: "Some words for later.",
        category: "Travel",
        date_time: new Date(Date.now() + 3 * 86_400_000).toISOString(),
        status: "scheduled",
        image: await uploadCover(page),
      },
    });
    expect(created.status()).toBe(201);
    const { insertedId } = (await created.json()) as { insertedId: string };

    await page.setViewportSize(VIEWPORTS.phone);
    await page.goto("/dashboard/manageBlogs");
    const row = page.getByRole("row").filter({ hasText: title });
    const badge = row.getByTestId("status-badge");
    await expect(badge).toContainText("Scheduled ·");
    await expectTidyBadge(badge, row.getByRole("link", { name: title, exact: true }));
    await lightAndDark(page, "w47-manage-blogs-scheduled");

    await page.setViewportSize(VIEWPORTS.desktop);
    await page.goto("/dashboard/manageBlogs");
    await expectTidyBadge(row.getByTestId("status-badge"), row.getByRole("link", { name: title, exact: true }));

    await page.goto(`/dashboard/updateBlog/${insertedId}`);
    await hydrated(page);
    const formBadge = page.getByTestId("status-badge");
    await expect(formBadge).toBeVisible();
    const box = (await formBadge.boundingBox())!;
    // No stray indent: it starts where its column starts (the saved-state line below it).
    const column = (await formBadge.locator("xpath=..").boundingBox())!;
    expect(Math.abs(box.x - column.x)).toBeLessThan(1);
    expect(box.height).toBeLessThan(30);

    // The social image's hint says what really happens when it is empty: the generated card.
    await page.getByText("Search and sharing").click();
    await expect(page.getByText("Empty: a card drawn from the title, category and writer.")).toBeVisible();
    await expect(page.getByText("Empty: the cover image")).toHaveCount(0);
    await lightAndDark(page, "w47-update-blog-scheduled");
  });

  test("an unverified writer is told, before posting, why nothing is emailed and how to fix it", async ({ page }) => {
    await page.setViewportSize(VIEWPORTS.desktop);
    await registerViaApi(page, "Una Proven");
    await page.goto("/dashboard/writeBlogs");
    await hydrated(page);
    const told = page.getByTestId("unverified-send");
    await expect(told).toContainText("not emailed to subscribers or sent to followers until you confirm");
    await expect(page.getByText("Otherwise it goes to the newsletter's confirmed subscribers")).toHaveCount(0);
    await expect(told.getByRole("link", { name: "Confirm your address" })).toHaveAttribute(
      "href",
      /^\/verify-email\?redirectTo=/,
    );
    await lightAndDark(page, "w47-write-unverified");

    // A verified writer is still promised the send, which happens.
    await signIn(page, ACCOUNTS.writer);
    await page.goto("/dashboard/writeBlogs");
    await expect(page.getByText("Otherwise it goes to the newsletter's confirmed subscribers")).toBeVisible();
    await expect(page.getByTestId("unverified-send")).toHaveCount(0);
  });
});

const WXR = path.resolve("tests/fixtures/imports/wordpress/small-export.xml");
const SUBSTACK = path.resolve("tests/fixtures/imports/substack");

function substackZip(): Buffer {
  const files: Record<string, Uint8Array> = {
    "posts.csv": readFileSync(path.join(SUBSTACK, "posts.csv")),
    "email_list.my-publication.csv": readFileSync(path.join(SUBSTACK, "email_list.fixtures.csv")),
  };
  for (const name of readdirSync(path.join(SUBSTACK, "posts")))
    files[`posts/${name}`] = readFileSync(path.join(SUBSTACK, "posts", name));
  return Buffer.from(zipSync(files));
}

test.describe("issue 47: importing", () => {
  test("a named file picker; a preview is not progress; pages are not counted as posts", async ({ page }) => {
    test.setTimeout(150_000);
    await page.setViewportSize(VIEWPORTS.desktop);
    await signIn(page, ACCOUNTS.admin);
    await page.goto("/dashboard/import");
    await hydrated(page);
    // The picker has a visible name and says which files it takes.
    const picker = page.getByLabel("Export file");
    const label = await picker.evaluate((el) => {
      const first = (el as HTMLInputElement).labels![0]!.firstChild!;
      const range = document.createRange();
      range.selectNodeContents(first);
      const box = range.getBoundingClientRect();
      return { text: first.textContent!.trim(), shown: box.width > 20 && box.height > 8 };
    });
    expect(label).toEqual({ text: "Export file", shown: true });
    await expect(picker).toHaveAccessibleDescription(/WordPress \(\.xml\), Ghost \(\.json\)/);
    await lightAndDark(page, "w47-import-upload");
    await picker.setInputFiles(WXR);
    await page.getByRole("button", { name: "Upload and preview" }).click();
    await expect(page.getByRole("heading", { name: /Preview: WordPress file/ })).toBeVisible();

    // Recent imports: a preview waits, with no "5 of 11 done" (its pages were set aside at upload).
    const recent = page.getByRole("region", { name: "Recent imports" }).getByRole("listitem").first();
    await expect(recent).toContainText("Waiting for you to start it");
    await expect(recent).not.toContainText(" of ");

    await page.getByLabel("Category for posts whose categories match none of ours").selectOption("Lifestyle");
    await page.getByRole("button", { name: "Start import" }).click();
    await expect(page.getByRole("heading", { name: "Import finished" })).toBeVisible({ timeout: 120_000 });
    const counts = page.getByTestId("import-counts");
    await expect(counts).toContainText("6 of 6 posts imported");
    await expect(counts).toContainText("5 pages left out: this site has posts only");
    await expect(counts).not.toContainText("11 posts");
    await expect(counts).not.toContainText("of 11 posts");
    await expectNoSeriousA11yViolations(page);
    await screenshots(page, "w47-import-report-light");
  });

  test("the report accounts for every subscriber the preview counted; a post with no image has no grey cover", async ({
    page,
  }) => {
    test.setTimeout(150_000);
    await page.setViewportSize(VIEWPORTS.desktop);
    await signIn(page, ACCOUNTS.admin);
    const view = await importThroughApi(page, {
      name: "substack-export.zip",
      mimeType: "application/zip",
      buffer: substackZip(),
    });
    await page.goto(`/dashboard/import?job=${view.job.id}`);
    const subscribers = page.getByTestId("import-subscribers");
    // The preview said 15: two of them are not addresses this site can send to, and the report says so.
    await expect(subscribers).toContainText("of 15 subscribers added");
    await expect(subscribers).toContainText("2 are not addresses this site can send to");
    await expect(subscribers).toContainText("ömil@gmail.com");
    await expectNoSeriousA11yViolations(page);
    await lightAndDark(page, "w47-import-subscribers");

    // "Plain Text" has no image: no grey stand-in as its cover, on its page or its card.
    const plain = view.items.find((i) => i.title === "Plain Text")!;
    const post = await (await page.request.get(`/api/blogs/${plain.blogId}`)).json();
    expect(post.image).toBe("");
    await page.goto(`/blogs/${plain.blogId}`);
    await expect(page.getByRole("heading", { level: 1, name: "Plain Text" })).toBeVisible();
    // Its own page, not the related posts' cards: another import on this server may have an image that failed to
    // copy, whose card rightly shows the stand-in.
    await expect(
      page.locator('main img[src*="import-placeholder"]:not(section[aria-labelledby="related-heading"] img)'),
    ).toHaveCount(0);
    await expect(page.locator("main figure")).toHaveCount(0);
  });
});
