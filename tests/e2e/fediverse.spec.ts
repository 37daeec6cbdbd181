import { expect, test } from "./fixtures";
import { VIEWPORTS, screenshots } from "./support";

test.describe("the fediverse handle (issue 24)", () => {
  test("a writer page and About show the handle, a copy button and how to follow from Mastodon", async ({ page }) => {
    await page.setViewportSize(VIEWPORTS.desktop);
    await page.goto("/allBlogs");
    const writerLink = page.locator('a[href^="/writers/"]').first();
    await writerLink.click();
    await expect(page).toHaveURL(/\/writers\/[0-9a-z]+/);
    const box = page.getByTestId("fediverse-handle");
    await expect(box.getByRole("heading", { name: "Follow from Mastodon" })).toBeVisible();
    await expect(box.locator("code")).toHaveText(/^@[a-z0-9_-]+@[^@\s]+$/);
    await expect(box).toContainText("paste this handle into your server's search box");
    await box.getByRole("button", { name: "Copy handle" }).click();
    await expect(box.getByRole("status")).toHaveText("Copied.");
    await screenshots(page, "fediverse-writer");

    // The handle is also the writer's actor, for any ActivityPub server.
    const handle = (await box.locator("code").textContent())!;
    const finger = await page.request.get(`/.well-known/webfinger?resource=acct:${handle.slice(1)}`);
    expect(finger.ok()).toBe(true);

    await page.goto("/about");
    await expect(page.getByTestId("fediverse-handle").locator("code")).toHaveText(/^@site@/);
  });
});
