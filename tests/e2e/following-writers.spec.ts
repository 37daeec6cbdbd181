import type { Page } from "@playwright/test";
import { expect, test } from "./fixtures";
import { expectNoSeriousA11yViolations } from "./axe";
import { ACCOUNTS, VIEWPORTS, screenshots, signIn } from "./support";

/** A seeded writer (a post's author) the admin then follows through the API. */
async function followSeededWriter(page: Page) {
  const [post] = (await (await page.request.get("/api/blogs?limit=1")).json()) as {
    author_id: string;
    author_name: string;
  }[];
  const res = await page.request.post(`/api/writers/${post!.author_id}/follow`);
  expect(res.status()).toBe(200);
  const writer = await (await page.request.get(`/api/follows`)).json();
  const mine = (writer as { _id: string; name: string }[]).find((w) => w._id === post!.author_id)!;
  return { id: mine._id, name: mine.name };
}

test.describe("the writers you follow", () => {
  // Axe and two screenshot widths per step: more than the default 30 s on a busy machine.
  test.describe.configure({ timeout: 120_000 });
  test("/following lists writers; Unfollow says so and Undo follows again, in place", async ({ page }) => {
    await signIn(page, ACCOUNTS.admin);
    const writer = await followSeededWriter(page);
    await page.setViewportSize(VIEWPORTS.desktop);
    await page.goto("/following");
    const list = page.getByRole("list", { name: "Writers you follow", exact: true });
    const row = list.getByRole("listitem").filter({ has: page.getByRole("link", { name: writer.name, exact: true }) });
    await expect(row).toBeVisible();
    await expect(row).toContainText(/\d+ posts?/);
    // Their posts stay below the writers.
    await expect(page.getByRole("heading", { name: "From writers you follow" })).toBeVisible();
    await expectNoSeriousA11yViolations(page);
    await screenshots(page, "following-writers");

    await page.setViewportSize(VIEWPORTS.phone);
    await row.getByRole("button", { name: `Unfollow ${writer.name}` }).click();
    const notice = page.getByTestId("follow-notice");
    await expect(notice).toHaveText(new RegExp(`Unfollowed ${writer.name}\\.`));
    await expect(row).toHaveCount(0);
    const undo = notice.getByRole("button", { name: /^Undo/ });
    // The row's button is gone: focus is on Undo, not lost to the page's start.
    await expect(undo).toBeFocused();
    await screenshots(page, "following-unfollowed");

    await page.keyboard.press("Enter");
    await expect(notice).toHaveText(`You follow ${writer.name} again.`);
    await expect(row).toBeVisible();
    const follows = (await (await page.request.get("/api/follows")).json()) as { _id: string }[];
    expect(follows.map((w) => w._id)).toContain(writer.id);
  });

  test("the writer page's Following says Unfollow on hover and focus, and its unfollow can be undone", async ({
    page,
  }) => {
    await signIn(page, ACCOUNTS.admin);
    const writer = await followSeededWriter(page);
    await page.setViewportSize(VIEWPORTS.desktop);
    await page.goto(`/writers/${writer.id}`);
    const button = page.getByRole("button", { name: `Unfollow ${writer.name}` });
    await expect(button).toHaveAttribute("aria-pressed", "true");
    await expect(button.getByText("Following", { exact: true })).toBeVisible();
    await button.hover();
    await expect(button.getByText("Unfollow", { exact: true })).toBeVisible();
    await expect(button.getByText("Following", { exact: true })).toBeHidden();
    await page.mouse.move(0, 0);
    await expect(button.getByText("Following", { exact: true })).toBeVisible();
    // Keyboard focus says it too.
    await button.focus();
    await page.keyboard.press("Shift+Tab");
    await page.keyboard.press("Tab");
    await expect(button).toBeFocused();
    await expect(button.getByText("Unfollow", { exact: true })).toBeVisible();

    await page.keyboard.press("Enter");
    const notice = page.getByTestId("unfollow-notice");
    await expect(notice).toContainText(`Unfollowed ${writer.name}.`);
    await expect(page.getByRole("button", { name: `Follow ${writer.name}`, exact: true })).toHaveAttribute(
      "aria-pressed",
      "false",
    );
    await screenshots(page, "writer-unfollowed");
    await notice.getByRole("button", { name: /^Undo/ }).click();
    await expect(page.getByRole("button", { name: `Unfollow ${writer.name}` })).toHaveAttribute("aria-pressed", "true");
    await expect(notice).toBeEmpty();
  });
});
