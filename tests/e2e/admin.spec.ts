import type { Locator, Page } from "@playwright/test";
import { expect, test } from "./fixtures";
import path from "node:path";
import { expectNoSeriousA11yViolations } from "./axe";
import { ACCOUNTS, VIEWPORTS, screenshots, signIn } from "./support";

const PICTURE = path.resolve("seed/images/seed-author-hannah-cole.jpg");
let counter = 0;
const unique = () => `${Date.now().toString(36)}${(counter++).toString(36)}`;

/** The SweetAlert2 dialog on screen. */
const swal = (page: Page) => page.locator(".swal2-popup");

/**
 * Presses a row's confirm button (Delete, Make Admin) once the page has hydrated: before that the button
 * is the no-JavaScript form that opens /confirm (method get), and a fast click goes there instead.
 */
async function pressConfirm(scope: Locator, name: string) {
  await expect(scope.locator('form[method="post"]').first()).toBeAttached();
  await scope.getByRole("button", { name }).click();
}

/** Answers the confirmation dialog with its confirm button. */
async function confirmWith(page: Page, button: string, texts: string[] = []) {
  for (const text of texts) await expect(swal(page)).toContainText(text);
  await swal(page).getByRole("button", { name: button }).click();
}

/** Waits for a self-closing toast (1.5 s) with this title to come and go, so the next dialog is the next one. */
async function toastSeen(page: Page, title: string) {
  await expect(swal(page)).toContainText(title);
  await expect(swal(page)).toBeHidden();
}

const row = (page: Page, text: string) => page.getByRole("row").filter({ hasText: text });

test.describe("admin dashboard", () => {
  test.beforeEach(async ({ page }) => {
    await page.setViewportSize(VIEWPORTS.desktop);
    await signIn(page, ACCOUNTS.admin);
  });

  test("makes a user admin after confirmation (the button then shows Admin), then removes it again", async ({
    page,
  }) => {
    await page.goto("/dashboard/manageUsers");
    const maya = row(page, "maya.okafor@edgeblog.test");
    await pressConfirm(maya, "Make Admin");
    await confirmWith(page, "Yes, make admin", ["Are you sure?"]);
    await toastSeen(page, "User made admin successfully!");
    await expect(maya.getByRole("button", { name: "Admin", exact: true })).toBeDisabled();
    await expect(maya.getByRole("button", { name: "Make Admin" })).toHaveCount(0);

    await pressConfirm(maya, "Remove admin");
    await confirmWith(page, "Yes, remove admin");
    await toastSeen(page, "Admin rights removed.");
    await expect(maya.getByRole("button", { name: "Make Admin" })).toBeEnabled();

    // The admin's own row cannot be deleted or demoted from here.
    const me = row(page, ACCOUNTS.admin.email);
    await expect(me.getByRole("button", { name: "Delete" })).toBeDisabled();
    await expect(me.getByRole("button", { name: "Remove admin" })).toBeDisabled();
  });

  test("edits a review and the home slider shows the change", async ({ page }) => {
    await page.goto("/dashboard/manageReview");
    await row(page, "Nina Petrova")
      .getByRole("link", { name: /^Edit / })
      .click();
    await expect(page).toHaveURL(/\/dashboard\/editReview\//);
    const message = page.getByLabel("Message", { exact: true });
    const original = await message.inputValue();
    const edited = `Edited by the admin ${unique()}: still the best place to write.`;

    // A required field left empty is refused with the spec's dialog, and what was typed stays.
    await page.getByLabel("Name", { exact: true }).fill("");
    await page.getByLabel("Name", { exact: true }).evaluate((el: HTMLInputElement) => (el.required = false));
    await message.fill(edited);
    await page.getByRole("button", { name: "Update Feedback" }).click();
    await expect(swal(page)).toContainText("Error Updating Feedback");
    await swal(page).getByRole("button", { name: "OK" }).click();
    await expect(
      page.getByRole("form", { name: "Edit review" }).getByText("Name is required.", { exact: true }),
    ).toBeVisible();
    await expect(message).toHaveValue(edited);

    await page.getByLabel("Name", { exact: true }).fill("Nina Petrova");
    await page.getByRole("button", { name: "Update Feedback" }).click();
    await expect(page).toHaveURL(/\/dashboard\/manageReview$/);
    await toastSeen(page, "Feedback Updated Successfully!");

    await page.goto("/");
    await expect(page.locator(".testimonials").getByText(edited).first()).toBeAttached();

    // Put the seeded text back for the other specs.
    await page.goto("/dashboard/manageReview");
    await row(page, "Nina Petrova")
      .getByRole("link", { name: /^Edit / })
      .click();
    await page.getByLabel("Message", { exact: true }).fill(original);
    await page.getByRole("button", { name: "Update Feedback" }).click();
    await toastSeen(page, "Feedback Updated Successfully!");
  });

  test("adds an author with a picture, edits it (a change, then no change) and deletes it", async ({ page }) => {
    const name = `Iris Vance ${unique()}`;
    await page.goto("/dashboard/addAuthor");
    await page.getByLabel("Name", { exact: true }).fill(name);
    await page.getByLabel("Bio", { exact: true }).fill("Iris writes about city gardens and the people who keep them.");
    await page.getByLabel("Picture", { exact: true }).setInputFiles(PICTURE);
    await expect(page.getByAltText("Preview of the chosen image")).toBeVisible();
    await page.getByLabel("GitHub", { exact: true }).fill("https://github.com/irisvance");
    await page.getByRole("button", { name: "Add Author" }).click();

    await expect(page).toHaveURL(/\/dashboard\/manageAuthors$/);
    await expect(swal(page)).toContainText("Author Added");
    await expect(swal(page)).toContainText("Author added successfully!");
    await swal(page).getByRole("button", { name: "OK" }).click();
    const author = row(page, name);
    await expect(author.locator("img")).toHaveAttribute("src", /^\/images\/[0-9a-z_-]+\.jpg$/);
    await expect
      .poll(() => author.locator("img").evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0))
      .toBe(true);

    await author.getByRole("link", { name: /^Edit / }).click();
    await expect(page.getByLabel("Name", { exact: true })).toHaveValue(name);
    await page.getByLabel("Bio", { exact: true }).fill("Iris writes about rooftop gardens.");
    await page.getByRole("button", { name: "Update Author" }).click();
    await expect(page).toHaveURL(/\/dashboard\/manageAuthors$/);
    await toastSeen(page, "Author Updated Successfully");
    await expect(author).toContainText("Iris writes about rooftop gardens.");

    await author.getByRole("link", { name: /^Edit / }).click();
    await page.getByRole("button", { name: "Update Author" }).click();
    await expect(swal(page)).toContainText("No Changes Made!");
    await swal(page).getByRole("button", { name: "OK" }).click();

    // The home page shows the author.
    await page.goto("/");
    await expect(page.getByText(name).first()).toBeAttached();

    await page.goto("/dashboard/manageAuthors");
    await pressConfirm(author, "Delete");
    await confirmWith(page, "Yes, delete it!", ["Are you sure?", "You won't be able to revert this!"]);
    await expect(swal(page)).toContainText("Deleted!");
    await expect(swal(page)).toContainText("It has been deleted for good.");
    await swal(page).getByRole("button", { name: "OK" }).click();
    await expect(author).toHaveCount(0);
  });

  test("cancelling a delete changes nothing", async ({ page }) => {
    await page.goto("/dashboard/manageAuthors");
    const first = page.getByRole("row").nth(1);
    const name = (await first.getByRole("cell").nth(1).innerText()).trim();
    await pressConfirm(first, "Delete");
    await swal(page).getByRole("button", { name: "Cancel" }).click();
    await expect(swal(page)).toBeHidden();
    await page.reload();
    await expect(row(page, name)).toHaveCount(1);
  });

  test("deletes a user registered through the API", async ({ page, request }) => {
    const email = `leaving-${unique()}@example.com`;
    // The `request` fixture has its own cookies, so registering does not sign the admin out.
    const res = await request.post("/api/auth/register", {
      data: { name: "Leaving Soon", email, password: "Leaving-Soon-42" },
    });
    expect(res.status()).toBe(201);

    await page.goto("/dashboard/manageUsers");
    const leaving = row(page, email);
    await pressConfirm(leaving, "Delete");
    // The dialog says what goes with the account, with the counts, and focuses Cancel.
    await expect(swal(page).getByRole("button", { name: "Cancel" })).toBeFocused();
    await confirmWith(page, "Yes, delete it!", [
      "Are you sure?",
      "Deleting Leaving Soon's account also deletes 0 posts, 0 comments, 0 likes and 0 saved posts.",
      "You won't be able to revert this!",
    ]);
    await toastSeen(page, "User deleted successfully!");
    await expect(leaving).toHaveCount(0);
    const login = await request.post("/api/auth/login", { data: { email, password: "Leaving-Soon-42" } });
    expect(login.status()).toBe(401);
  });

  test("edits any writer's blog from Manage All Blogs", async ({ page }) => {
    await page.goto("/dashboard/manageAllBlogs");
    const first = page.getByRole("row").nth(1);
    const title = (await first.getByRole("cell").nth(3).innerText()).trim();
    await first.getByRole("link", { name: /^Edit / }).click();
    await expect(page).toHaveURL(/\/dashboard\/updateAllBlogs\//);
    await expect(page.getByLabel("Title", { exact: true })).toHaveValue(title);
    await page.getByRole("button", { name: "Update Blog" }).click();
    await expect(swal(page)).toContainText("No Changes Made!");
    await swal(page).getByRole("button", { name: "OK" }).click();

    await page.getByLabel("Title", { exact: true }).fill(`${title} (edited)`);
    await page.getByRole("button", { name: "Update Blog" }).click();
    await expect(page).toHaveURL(/\/dashboard\/manageAllBlogs$/);
    await toastSeen(page, "Blog Updated Successfully!");
    await expect(page.getByRole("row").nth(1)).toContainText(`${title} (edited)`);

    await page
      .getByRole("row")
      .nth(1)
      .getByRole("link", { name: /^Edit / })
      .click();
    await page.getByLabel("Title", { exact: true }).fill(title);
    await page.getByRole("button", { name: "Update Blog" }).click();
    await toastSeen(page, "Blog Updated Successfully!");
  });

  test("every admin screen passes axe and is photographed at 375 and 1280 px", async ({ page }) => {
    // Many pages, each checked with axe and photographed at two widths: more than the default 30 s on 2 cores.
    test.setTimeout(120_000);
    const visit = async (url: string, name: string, heading: string) => {
      await page.goto(url);
      await expect(page.getByRole("heading", { level: 1, name: heading })).toBeVisible();
      await expectNoSeriousA11yViolations(page);
      await screenshots(page, name);
    };
    await visit("/dashboard/manageAllBlogs", "admin-manage-all-blogs", "Manage All Blogs");
    await page
      .getByRole("row")
      .nth(1)
      .getByRole("link", { name: /^Edit / })
      .click();
    await expect(page).toHaveURL(/updateAllBlogs/);
    await visit(page.url(), "admin-update-all-blogs", "Update Blog");
    await visit("/dashboard/manageUsers", "admin-manage-users", "Manage Users");
    await visit("/dashboard/manageReview", "admin-manage-review", "Manage Review");
    await page
      .getByRole("row")
      .nth(1)
      .getByRole("link", { name: /^Edit / })
      .click();
    await expect(page).toHaveURL(/editReview/);
    await visit(page.url(), "admin-edit-review", "Edit Review");
    await visit("/dashboard/addAuthor", "admin-add-author", "Add Author");
    await visit("/dashboard/manageAuthors", "admin-manage-authors", "Manage Authors");
    await page
      .getByRole("row")
      .nth(1)
      .getByRole("link", { name: /^Edit / })
      .click();
    await expect(page).toHaveURL(/updateAuthor/);
    await visit(page.url(), "admin-update-author", "Update Author");
    await visit("/dashboard/inbox", "admin-inbox", "Inbox");

    // The phone menu lists the admin links, Inbox included.
    await page.setViewportSize(VIEWPORTS.phone);
    await page.getByText("Dashboard menu").click();
    const menu = page.getByRole("navigation", { name: "Dashboard" }).filter({ visible: true });
    await expect(menu.getByRole("link", { name: "Inbox" })).toBeVisible();
    await screenshots(page, "admin-phone-menu");
  });
});

test.describe("admin forms without JavaScript", () => {
  test.use({ javaScriptEnabled: false });

  test("make admin and remove admin ask on a confirm page first, then show the message as a banner", async ({
    page,
  }) => {
    await page.setViewportSize(VIEWPORTS.desktop);
    await signIn(page, ACCOUNTS.admin);
    await page.goto("/dashboard/manageUsers");
    const tomas = row(page, "tomas.novak@edgeblog.test");
    await tomas.getByRole("button", { name: "Make Admin" }).click();
    await expect(page).toHaveURL(/\/confirm\?/);
    await expect(page.getByRole("heading", { name: "Are you sure?" })).toBeVisible();
    await expect(page.getByText("This user will be able to manage every blog")).toBeVisible();
    await screenshots(page, "confirm-no-js");
    // Cancel goes back and changes nothing.
    await page.getByRole("link", { name: "Cancel" }).click();
    await expect(page).toHaveURL(/\/dashboard\/manageUsers$/);
    await expect(tomas.getByRole("button", { name: "Make Admin" })).toBeVisible();

    await tomas.getByRole("button", { name: "Make Admin" }).click();
    await page.getByRole("button", { name: "Yes, make admin" }).click();
    await expect(page.getByRole("status")).toContainText("User made admin successfully!");
    await expect(tomas.getByRole("button", { name: "Admin", exact: true })).toBeDisabled();
    await tomas.getByRole("button", { name: "Remove admin" }).click();
    await expect(page.getByText("This user will lose access to the admin dashboard.")).toBeVisible();
    await page.getByRole("button", { name: "Yes, remove admin" }).click();
    await expect(page.getByRole("status")).toContainText("Admin rights removed.");
    await expect(tomas.getByRole("button", { name: "Make Admin" })).toBeVisible();
  });
});

test.describe("admin pages and actions refuse a non-admin", () => {
  test("a signed-in writer gets the 403 page and their direct posts are refused", async ({ page }) => {
    await page.setViewportSize(VIEWPORTS.desktop);
    await signIn(page, ACCOUNTS.writer);
    const response = await page.goto("/dashboard/manageUsers");
    expect(response?.status()).toBe(403);
    await expect(page.getByRole("heading", { name: "Access denied" })).toBeVisible();
    await expect(page.getByRole("heading", { name: "Manage Users" })).toHaveCount(0);
    await screenshots(page, "admin-forbidden");

    const me = await (await page.request.get("/api/auth/me")).json();
    const promote = await page.request.post("/dashboard/manageUsers", { form: { intent: "make-admin", id: me._id } });
    expect(promote.status()).toBe(403);
    const status = await (
      await page.request.get(`/api/users/admin/${encodeURIComponent(ACCOUNTS.writer.email)}`)
    ).json();
    expect(status).toEqual({ admin: false });

    const authorsBefore = await (await page.request.get("/api/authors")).json();
    const add = await page.request.post("/dashboard/addAuthor", {
      multipart: {
        name: "Sneaky Author",
        bio: "Should never appear",
        image: { name: "x.png", mimeType: "image/png", buffer: Buffer.from("not really") },
      },
    });
    expect(add.status()).toBe(403);
    expect(await (await page.request.get("/api/authors")).json()).toEqual(authorsBefore);
  });
});
