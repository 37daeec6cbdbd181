import { expect, test } from "./fixtures";
import { ACCOUNTS, screenshots, signIn } from "./support";

let counter = 0;
const unique = () => `${Date.now().toString(36)}${(counter++).toString(36)}`;

test.describe("An admin's approvals and picks", () => {
  test("a review stays off the home page until an admin approves it in Manage Review", async ({ page }) => {
    await signIn(page, ACCOUNTS.admin);
    const name = `Pending Pat ${unique()}`;
    const sent = await page.request.post("/api/review", {
      data: {
        name,
        designation: "Reader",
        rating: 1,
        review: "One star, straight away.",
        image: "/images/seed-reviewer-olivia-grant.jpg",
      },
    });
    expect(sent.status()).toBe(201);

    await page.goto("/");
    const testimonials = page.getByRole("region", { name: "What Our Users Say" });
    await expect(testimonials.getByText("Nina Petrova").first()).toBeAttached();
    await expect(testimonials.getByText(name)).toHaveCount(0);

    await page.goto("/dashboard/manageReview?status=pending");
    const row = page.getByRole("row").filter({ hasText: name });
    await expect(row.getByText("Pending approval")).toBeVisible();
    await screenshots(page, "admin-manage-review-pending");
    await row.getByRole("button", { name: /^Approve/ }).click();
    await expect(page.getByRole("row").filter({ hasText: name })).toHaveCount(0);

    await page.goto("/");
    await expect(testimonials.getByText(name).first()).toBeAttached();
  });

  test("a post an admin features in Manage All Blogs shows first in Featured Blogs", async ({ page }) => {
    await signIn(page, ACCOUNTS.admin);
    await page.goto("/dashboard/manageAllBlogs");
    const firstRow = page.getByRole("row").nth(1);
    const toggle = firstRow.getByRole("button", { name: /^Featured on the home page/ });
    await expect(toggle).toHaveAttribute("aria-pressed", "false");
    const title = (await firstRow.getByRole("link").first().textContent())!.trim();
    await toggle.click();
    await expect(
      page
        .getByRole("row")
        .nth(1)
        .getByRole("button", { name: /^Featured on the home page/ }),
    ).toHaveAttribute("aria-pressed", "true");
    await screenshots(page, "admin-manage-all-blogs-featured");

    await page.goto("/");
    const featured = page.getByTestId("featured");
    await expect(featured.getByRole("article").first()).toContainText(title);
    await screenshots(page, "home-featured-pick");

    await page.goto("/dashboard/manageAllBlogs");
    await page
      .getByRole("row")
      .nth(1)
      .getByRole("button", { name: /^Featured on the home page/ })
      .click();
    await expect(
      page
        .getByRole("row")
        .nth(1)
        .getByRole("button", { name: /^Featured on the home page/ }),
    ).toHaveAttribute("aria-pressed", "false");
  });

  test("Privacy and Terms open from the footer; an admin edits Privacy", async ({ page }) => {
    await page.goto("/");
    await page.getByRole("list", { name: "Footer" }).getByRole("link", { name: "Privacy" }).click();
    await expect(page).toHaveURL(/\/privacy$/);
    await expect(page.getByRole("heading", { level: 1, name: "Privacy Policy" })).toBeVisible();
    await screenshots(page, "privacy");

    await signIn(page, ACCOUNTS.admin);
    await page.goto("/privacy");
    await page.getByRole("link", { name: "Edit this page" }).click();
    const words = `We changed this ${unique()}.`;
    // The shipped text is put back afterwards: other specs on this server read the policy as the site ships it.
    const shipped = await page.getByLabel("Text").inputValue();
    await page.getByLabel("Text").fill(`## Updated\n\n${words}`);
    await screenshots(page, "dashboard-edit-privacy");
    await page.getByRole("button", { name: "Save Page" }).click();
    await expect(page).toHaveURL(/\/privacy$/);
    await expect(page.getByText(words)).toBeVisible();

    await page.getByRole("link", { name: "Edit this page" }).click();
    await page.getByLabel("Text").fill(shipped);
    await page.getByRole("button", { name: "Save Page" }).click();
    await expect(page).toHaveURL(/\/privacy$/);
    await expect(page.getByText(words)).toHaveCount(0);
  });
});
