import type { Page } from "@playwright/test";
import { readFileSync } from "node:fs";
import path from "node:path";
import { expect, ownAddress, test } from "./fixtures";
import { expectNoSeriousA11yViolations } from "./axe";
import { linkIn, readMail } from "./mail";
import { ACCOUNTS, darkScreenshots, hydrated, screenshots, signIn, VIEWPORTS } from "./support";

/** Issue 47, "Reading and conversation": what a reader meets once they stay. */
const tag = () => `${Date.now().toString(36)}${Math.floor(Math.random() * 1e4)}`;

async function lightAndDark(page: Page, name: string) {
  await page.emulateMedia({ colorScheme: "light" });
  await screenshots(page, `${name}-light`);
  await page.emulateMedia({ colorScheme: "dark" });
  await page.reload();
  await screenshots(page, `${name}-dark`);
  await expectNoSeriousA11yViolations(page);
  await page.emulateMedia({ colorScheme: "light" });
}

test.describe("issue 47: reading", () => {
  test("a bare id and an old slug keep ?ref= and campaign tags on the way to the post", async ({ page }) => {
    const list = (await (await page.request.get("/api/blogs")).json()) as { _id: string; title: string }[];
    // The latest post may be another spec's, titled in any script: its slug keeps those letters (issue 43).
    const post = list[0]!;
    const query = "?ref=news.ycombinator.com&utm_source=hn&utm_campaign=launch";
    for (const path of [
      `/blogs/${post._id}${query}`,
      `/blogs/${post._id}/an-old-title${query}`,
      `/blog/${post._id}${query}`,
    ]) {
      await page.goto(path);
      const url = new URL(page.url());
      expect(url.pathname).toMatch(new RegExp(`^/blogs/${post._id}/[^/?#]+$`));
      expect(url.search).toBe(query);
    }
  });

  test("the newsletter confirm page shows no ✓ until the button is pressed", async ({ page }) => {
    await page.setViewportSize(VIEWPORTS.phone);
    const since = Date.now();
    const email = `reader-${tag()}@example.com`;
    expect((await page.request.post("/api/newsletter", { data: { email } })).status()).toBe(202);
    const confirm = linkIn((await readMail(email, since)).text, "/newsletter/confirm");
    await page.goto(`${confirm.pathname}${confirm.search}`);
    await expect(page.getByRole("heading", { name: "Confirm your subscription" })).toBeVisible();
    await expect(page.locator('[data-tone="ask"]')).toBeVisible();
    await expect(page.getByText("✓", { exact: true })).toHaveCount(0);
    await lightAndDark(page, "w47-newsletter-confirm-ask");
    await page.getByRole("button", { name: "Confirm subscription" }).click();
    await expect(page.getByRole("heading", { name: "You're subscribed" })).toBeVisible();
    await expect(page.getByText("✓", { exact: true })).toBeVisible();
  });

  test("a cover the server refuses says to choose another image, never that it is sent with the form", async ({
    page,
  }) => {
    await page.setViewportSize(VIEWPORTS.desktop);
    await signIn(page, ACCOUNTS.writer);
    await page.goto("/dashboard/writeBlogs");
    await hydrated(page);
    // The server's refusal of the bytes (its type sniffing answers 415 for a file that is no image it takes),
    // answered here for a real picture so the browser's own preview stays quiet.
    await page.route("**/api/images", (route) =>
      route.fulfill({
        status: 415,
        contentType: "application/json",
        body: JSON.stringify({
          error: { code: "unsupported-image", message: "Only JPEG, PNG, WebP, GIF and AVIF images are accepted." },
        }),
      }),
    );
    await page.getByLabel("Cover image").setInputFiles({
      name: "holiday.jpg",
      mimeType: "image/jpeg",
      buffer: readFileSync(path.resolve("seed/images/seed-cover-cut-web-apps-load-time-half.jpg")),
    });
    const note = page.getByText(/holiday\.jpg could not be uploaded/);
    await expect(note).toContainText("Choose another image.");
    await expect(note).not.toContainText("It is sent with the form");
    await screenshots(page, "w47-cover-refused-light");
  });

  test("notifications that fit on one page have no pager", async ({ page, browser, baseURL }) => {
    await page.setViewportSize(VIEWPORTS.phone);
    const writer = `noted-${tag()}@example.com`;
    expect(
      (
        await page.request.post("/api/auth/register", {
          data: { name: "Noted Writer", email: writer, password: "Sunny-Garden-42" },
        })
      ).status(),
    ).toBe(201);
    const me = (await (await page.request.get("/api/auth/me")).json()) as { _id?: string; id?: string };
    const writerId = me._id ?? me.id;
    const fan = await (await browser.newContext({ baseURL, extraHTTPHeaders: ownAddress() })).newPage();
    await signIn(fan, ACCOUNTS.writer);
    expect((await fan.request.post(`/api/writers/${writerId}/follow`)).ok()).toBe(true);
    // The bell's fan-out runs on the notifications queue: the row arrives shortly.
    await expect(async () => {
      await page.goto("/notifications");
      await expect(page.getByRole("list", { name: "Notifications" }).getByRole("listitem")).toHaveCount(1, {
        timeout: 500,
      });
    }).toPass({ timeout: 30_000 });
    await expect(page.getByRole("navigation", { name: "Pages of notifications" })).toHaveCount(0);
    await screenshots(page, "w47-notifications-one-page");
    await darkScreenshots(page, "w47-notifications-one-page");
  });

  test("replies to one comment each show their own words: no two identical rows", async ({
    page,
    browser,
    baseURL,
  }) => {
    await page.setViewportSize(VIEWPORTS.phone);
    const person = async (p: Page, name: string) =>
      expect(
        (
          await p.request.post("/api/auth/register", {
            data: {
              name,
              email: `${name.split(" ")[0]!.toLowerCase()}-${tag()}@example.com`,
              password: "Sunny-Garden-42",
            },
          })
        ).status(),
      ).toBe(201);
    await person(page, "Asking Reader");
    const post = ((await (await page.request.get("/api/blogs")).json()) as { _id: string }[])[0]!;
    const asked = await page.request.post(`/api/blogs/${post._id}/comments`, {
      data: { body: "Which lens was this?" },
    });
    expect(asked.status()).toBe(201);
    const { insertedId: parent } = (await asked.json()) as { insertedId: string };
    const other = await (await browser.newContext({ baseURL, extraHTTPHeaders: ownAddress() })).newPage();
    await person(other, "Answering Reader");
    const answers = ["A 35 mm prime, wide open.", "Correction: it was the 50 mm, stopped down to f/4."];
    for (const body of answers) {
      const made = await other.request.post(`/api/blogs/${post._id}/comments`, { data: { body, parent_id: parent } });
      expect(made.status(), await made.text()).toBe(201);
    }
    await page.goto("/notifications");
    const rows = page.getByRole("list", { name: "Notifications" }).getByRole("listitem");
    await expect(rows).toHaveCount(2);
    // Newest first, each with the start of its reply.
    await expect(rows.nth(0)).toContainText("Answering Reader replied to your comment");
    await expect(rows.nth(0)).toContainText(`“${answers[1]}”`);
    await expect(rows.nth(1)).toContainText(`“${answers[0]}”`);
    expect(await rows.nth(0).innerText()).not.toBe(await rows.nth(1).innerText());
    await lightAndDark(page, "w47-notifications-excerpts");
  });

  test("on a touch screen Following says a tap unfollows, and the unfollow can be undone, on the writer page and the post", async ({
    browser,
    baseURL,
  }) => {
    const context = await browser.newContext({
      baseURL,
      extraHTTPHeaders: ownAddress(),
      viewport: VIEWPORTS.phone,
      hasTouch: true,
      isMobile: true,
    });
    const page = await context.newPage();
    expect(
      (
        await page.request.post("/api/auth/register", {
          data: { name: "Touch Reader", email: `touch-${tag()}@example.com`, password: "Sunny-Garden-42" },
        })
      ).status(),
    ).toBe(201);
    const post = (
      (await (await page.request.get("/api/blogs")).json()) as { _id: string; author_id: string; author_name: string }[]
    )[0]!;
    expect((await page.request.post(`/api/writers/${post.author_id}/follow`)).ok()).toBe(true);

    for (const where of [`/writers/${post.author_id}`, `/blogs/${post._id}`]) {
      await page.goto(where);
      await hydrated(page);
      const following = page.getByRole("button", { name: `Unfollow ${post.author_name}` }).first();
      // No hover on a touch screen: the words themselves say what a tap does.
      await expect(following).toHaveText("Unfollow", { useInnerText: true });
      if (where.startsWith("/writers")) {
        await lightAndDark(page, "w47-following-touch");
        await hydrated(page);
      }
      await following.tap();
      const notice = page.getByTestId("unfollow-notice").first();
      await expect(notice).toContainText(`Unfollowed ${post.author_name}.`);
      await expect(page.getByRole("button", { name: `Follow ${post.author_name}`, exact: true }).first()).toHaveText(
        "Follow",
        {
          useInnerText: true,
        },
      );
      await screenshots(page, `w47-unfollowed-touch${where.startsWith("/writers") ? "-writer" : "-post"}`);
      await notice.getByRole("button", { name: /^Undo/ }).tap();
      await expect(page.getByRole("button", { name: `Unfollow ${post.author_name}` }).first()).toHaveAttribute(
        "aria-pressed",
        "true",
      );
    }
    await context.close();
  });

  test("on a phone a visitor's Like is as wide as the other buttons, and pressing it leads to sign in and back", async ({
    page,
  }) => {
    await page.setViewportSize(VIEWPORTS.phone);
    const post = ((await (await page.request.get("/api/blogs")).json()) as { _id: string }[])[0]!;
    await page.goto(`/blogs/${post._id}`);
    const like = page.getByRole("button", { name: /^Like/ });
    const comment = page.getByRole("button", { name: /^Comment/ });
    const [likeBox, commentBox] = [(await like.boundingBox())!, (await comment.boundingBox())!];
    expect(Math.abs(likeBox.width - commentBox.width)).toBeLessThan(2);
    await screenshots(page, "w47-visitor-like-phone");
    // A visitor's Like leads to sign in, and back to this post (issue 45).
    await like.click();
    await expect(page).toHaveURL(new RegExp(`/login\\?redirectTo=%2Fblogs%2F${post._id}`));
  });

  test("opening Reply or Report moves neither under the pointer", async ({ page, browser, baseURL }) => {
    await page.setViewportSize(VIEWPORTS.phone);
    const post = ((await (await page.request.get("/api/blogs")).json()) as { _id: string }[])[0]!;
    const other = await (await browser.newContext({ baseURL, extraHTTPHeaders: ownAddress() })).newPage();
    const commenter = `Steady Commenter ${tag()}`;
    for (const [p, name] of [
      [other, commenter],
      [page, "Steady Reader"],
    ] as const) {
      const res = await p.request.post("/api/auth/register", {
        data: { name, email: `steady-${tag()}@example.com`, password: "Sunny-Garden-42" },
      });
      expect(res.status()).toBe(201);
    }
    const made = await other.request.post(`/api/blogs/${post._id}/comments`, { data: { body: "Hold still, please." } });
    const { insertedId } = (await made.json()) as { insertedId: string };
    await page.goto(`/blogs/${post._id}#comment-${insertedId}`);
    await hydrated(page);
    const card = page.locator(`#comment-${insertedId}`);
    const reply = card.locator("summary", { hasText: /^Reply$/ });
    const report = card.locator("summary", { hasText: /^Report/ });
    await reply.scrollIntoViewIfNeeded();
    const before = [(await reply.boundingBox())!, (await report.boundingBox())!];
    await reply.click();
    await expect(card.getByRole("textbox").first()).toBeVisible();
    expect([(await reply.boundingBox())!, (await report.boundingBox())!]).toEqual(before);
    await report.click();
    await expect(card.getByRole("group").first()).toBeVisible();
    expect([(await reply.boundingBox())!, (await report.boundingBox())!]).toEqual(before);
    await screenshots(page, "w47-reply-report-open");
  });

  test("in the dark theme Subscribe Now has an edge against its blue card", async ({ page }) => {
    await page.emulateMedia({ colorScheme: "dark" });
    await page.setViewportSize(VIEWPORTS.phone);
    await page.goto("/#newsletter");
    const button = page.getByRole("button", { name: "Subscribe Now" });
    await expect(button).toBeVisible();
    // Its fill is the card's brand blue in the dark theme: a light ring draws the edge.
    const shadow = await button.evaluate((el) => getComputedStyle(el).boxShadow);
    expect(shadow).toMatch(/\/ 0\.8\) 0px 0px 0px 2px/);
    await button.scrollIntoViewIfNeeded();
    await page.screenshot({ path: "e2e-artifacts/screenshots/w47-subscribe-dark-375.png" });
    await page.emulateMedia({ colorScheme: "light" });
  });
});
