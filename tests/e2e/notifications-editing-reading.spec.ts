import type { Browser, Page } from "@playwright/test";
import { expect, ownAddress, test } from "./fixtures";
import { ACCOUNTS, screenshots, signIn } from "./support";

let people = 0;
const stamp = () => `${Date.now().toString(36)}${(people++).toString(36)}`;

/** Another person in their own browser, registered and signed in. */
async function reader(browser: Browser, name: string) {
  const context = await browser.newContext({
    baseURL: test.info().project.use.baseURL,
    extraHTTPHeaders: ownAddress(),
  });
  const page = await context.newPage();
  const email = `second-${stamp()}@example.com`;
  const res = await page.request.post("/api/auth/register", { data: { name, email, password: "Second#Look2026" } });
  expect(res.status()).toBe(201);
  return { context, page };
}

/** A fresh published post of the demo writer (JSON create with a cover address), answering its id. */
async function writerPost(page: Page, baseURL: string, title: string) {
  const res = await page.request.post("/api/blogs", {
    data: {
      title,
      category: "Travel",
      short_description: "A short one.",
      blog_details: "Some details.",
      date_time: new Date(Date.now() - 60_000).toISOString(),
      image: `${baseURL}/images/seed-cover-cut-web-apps-load-time-half.jpg`,
    },
  });
  expect(res.status(), await res.text()).toBe(201);
  return ((await res.json()) as { insertedId: string }).insertedId;
}

test.describe("notifications, editing and reading", () => {
  test("a notification lands on the comment, through the readable link, and is then read", async ({
    page,
    browser,
    baseURL,
  }) => {
    await signIn(page, ACCOUNTS.writer);
    const id = await writerPost(page, baseURL!, `Notified ${stamp()}`);
    const ava = await reader(browser, "Ava Noticer");
    const made = await ava.page.request.post(`/api/blogs/${id}/comments`, { data: { body: "Landing here?" } });
    expect(made.status()).toBe(201);
    const { insertedId: commentId } = (await made.json()) as { insertedId: string };

    await page.goto("/notifications");
    const item = page.getByRole("listitem").filter({ hasText: "Ava Noticer commented" });
    await expect(item.getByRole("button", { name: /^Mark as read/ })).toBeVisible();
    await item.getByRole("link", { name: /Ava Noticer commented/ }).click();
    // The 301 to the readable link kept the fragment: the page sits on the comment.
    await expect(page).toHaveURL(new RegExp(`/blogs/${id}/notified-[0-9a-z]+#comment-${commentId}$`));
    await expect(page.locator(`#comment-${commentId}`)).toBeInViewport();
    await page.goto("/notifications");
    await expect(item.getByRole("button", { name: /^Mark as read/ })).toHaveCount(0);
    await ava.context.close();
  });

  test("the writer (and an admin) find Edit and Stats on the post; a reader does not", async ({
    page,
    browser,
    baseURL,
  }) => {
    await signIn(page, ACCOUNTS.writer);
    const id = await writerPost(page, baseURL!, `Editable ${stamp()}`);
    await page.goto(`/blogs/${id}`);
    const mine = page.getByRole("navigation", { name: "Your post" });
    await expect(mine.getByRole("link", { name: "Edit" })).toHaveAttribute("href", `/dashboard/updateBlog/${id}`);
    await expect(mine.getByRole("link", { name: "Stats" })).toHaveAttribute("href", `/dashboard/analytics/${id}`);

    const admin = await browser.newContext({ baseURL });
    const adminPage = await admin.newPage();
    await signIn(adminPage, ACCOUNTS.admin);
    await adminPage.goto(`/blogs/${id}`);
    await expect(
      adminPage.getByRole("navigation", { name: "Your post" }).getByRole("link", { name: "Edit" }),
    ).toHaveAttribute("href", `/dashboard/updateAllBlogs/${id}`);
    await admin.close();

    const ben = await reader(browser, "Ben Browser");
    await ben.page.goto(`/blogs/${id}`);
    await expect(ben.page.getByRole("heading", { level: 1 })).toBeVisible();
    await expect(ben.page.getByRole("navigation", { name: "Your post" })).toHaveCount(0);
    await ben.context.close();
  });

  test("a visitor's empty comments section links to sign in; opening Reply leaves Report where it was", async ({
    page,
    browser,
    baseURL,
  }) => {
    await signIn(page, ACCOUNTS.writer);
    const id = await writerPost(page, baseURL!, `Quiet corner ${stamp()}`);
    const visitor = await browser.newContext({ baseURL });
    const anon = await visitor.newPage();
    await anon.goto(`/blogs/${id}`);
    const signInLink = anon.locator("#comments").getByRole("link", { name: "Sign in" });
    await expect(signInLink).toHaveAttribute("href", /^\/login\?redirectTo=%2Fblogs%2F/);
    await visitor.close();

    await page.request.post(`/api/blogs/${id}/comments`, { data: { body: "The writer speaks first." } });
    const cat = await reader(browser, "Cat Replier");
    await cat.page.goto(`/blogs/${id}`);
    const report = cat.page.locator("#comments summary", { hasText: /^Report comment by/ });
    // Where Report sits on the page (not in the viewport, which may scroll as the form opens).
    const place = () =>
      report.evaluate((el) => {
        const r = el.getBoundingClientRect();
        return { x: r.x, y: r.y + window.scrollY };
      });
    const before = await place();
    await cat.page.locator("#comments summary", { hasText: "Reply" }).click();
    await expect(cat.page.getByLabel("Your reply")).toBeVisible();
    expect(await place()).toEqual(before);
    await cat.context.close();
  });

  test("a post without a cover has no hero, and its card no grey box named after it nor an empty pill", async ({
    page,
  }) => {
    await signIn(page, ACCOUNTS.writer);
    const title = `Bare bones ${stamp()}`;
    const res = await page.request.post("/api/blogs", { data: { title, status: "draft" } });
    expect(res.status()).toBe(201);
    const { insertedId } = (await res.json()) as { insertedId: string };
    await page.goto(`/blogs/${insertedId}`);
    await expect(page.getByRole("heading", { level: 1, name: title })).toBeVisible();
    await expect(page.locator("figure")).toHaveCount(0);
    await expect(page.getByRole("img", { name: title })).toHaveCount(0);
    for (const scheme of ["light", "dark"] as const) {
      await page.emulateMedia({ colorScheme: scheme });
      await page.goto("/dashboard/myBlog");
      const card = page.getByRole("article").filter({ hasText: title });
      await expect(card).toBeVisible();
      await expect(card.getByRole("img")).toHaveCount(0);
      await screenshots(page, `no-cover-card-${scheme}`);
    }
  });

  test("Save as a visitor, then register from the sign-in page: the post is saved", async ({ page }) => {
    await page.goto("/blogs/dtsmsv96ei1r4bjkcypt");
    await page.getByRole("button", { name: "Save", exact: true }).click();
    await page.locator(".swal2-popup").getByRole("button", { name: "OK" }).click();
    await page.waitForURL(/\/login\?/);
    // A new visitor is not welcomed back.
    await expect(page.getByText(/welcome back/i)).toHaveCount(0);
    await page.getByRole("link", { name: "Create an account" }).click();
    await page.getByLabel("Username").fill("Newly Saved");
    await page.getByLabel("Email", { exact: true }).fill(`saver-${stamp()}@example.com`);
    await page.getByLabel("Password", { exact: true }).fill("Saver#Journey2026");
    await page.getByRole("button", { name: "Register", exact: true }).click();
    // Registering hashes the password (slow on a busy machine).
    await expect(page).toHaveURL(/\/blogs\/dtsmsv96ei1r4bjkcypt\/[a-z0-9-]+$/, { timeout: 20_000 });
    await expect(page.getByRole("button", { name: "Saved", exact: true })).toHaveAttribute("aria-pressed", "true");
    await page.goto("/saved");
    await expect(page.getByRole("list", { name: "Saved posts" }).getByRole("listitem")).toHaveCount(1);
  });

  test("a past schedule date is said once: the focused summary, no alert, no repeat under the field", async ({
    page,
  }) => {
    const alerts: string[] = [];
    page.on("dialog", (d) => {
      alerts.push(d.message());
      void d.accept();
    });
    await signIn(page, ACCOUNTS.writer);
    await page.goto("/dashboard/writeBlogs");
    await page.getByLabel("Title").fill(`Too late ${stamp()}`);
    await page.getByLabel("Category").selectOption("Travel");
    await page.getByLabel("Cover image").setInputFiles("seed/images/seed-cover-cut-web-apps-load-time-half.jpg");
    await page.getByLabel("Short description").fill("Scheduled for the past.");
    await page.getByLabel("Details").fill("It cannot be.");
    await page.getByLabel("Date and time").fill("2020-01-01T09:00");
    await page.getByRole("button", { name: "Schedule" }).click();
    await expect(page.locator("[data-error-summary]")).toBeFocused();
    await expect(page.getByText("To schedule a post, set its date and time in the future.")).toHaveCount(1);
    expect(alerts).toEqual([]);
  });
});
