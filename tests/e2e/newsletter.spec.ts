import type { Page } from "@playwright/test";
import { mkdirSync, readFileSync, readdirSync, statSync } from "node:fs";
import path from "node:path";
import { expect, test } from "./fixtures";
import { ACCOUNTS, VIEWPORTS, screenshots, signIn, uploadCover } from "./support";

/** Mail as local development reads it: `wrangler dev` writes each message's parts under .wrangler/tmp/email/. */
function mailFiles(dir: string): string[] {
  let out: string[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) out = out.concat(mailFiles(full));
    else out.push(full);
  }
  return out;
}

/** The newest message part (text or html) written after `since` that mentions every needle. */
async function readMail(needles: string[], since: number, part: "text" | "html" = "text") {
  const dir = path.resolve(".wrangler/tmp/email");
  let found = { file: "", text: "" };
  await expect
    .poll(
      () => {
        let files: string[] = [];
        try {
          files = mailFiles(dir).filter(
            (f) => statSync(f).mtimeMs >= since - 1000 && (part === "html") === /html/i.test(f),
          );
        } catch {
          return "";
        }
        files.sort((a, b) => statSync(b).mtimeMs - statSync(a).mtimeMs);
        for (const file of files) {
          const text = readFileSync(file, "utf8");
          if (needles.every((n) => text.includes(n))) {
            found = { file, text };
            return file;
          }
        }
        return "";
      },
      { timeout: 20_000, message: `a mail mentioning ${needles.join(" and ")} under ${dir}` },
    )
    .not.toBe("");
  return found;
}

const linkIn = (text: string, pathname: string) => {
  const url = (text.match(/https?:\/\/[^\s)>\]]+/g) ?? []).map((u) => new URL(u)).find((u) => u.pathname === pathname);
  if (!url) throw new Error(`no ${pathname} link in: ${text}`);
  return url;
};

async function publish(page: Page, title: string) {
  const res = await page.request.post("/api/blogs", {
    data: {
      title,
      short_description: "A post for the newsletter journey.",
      blog_details: "Every confirmed subscriber gets this once.",
      category: "Technology",
      date_time: new Date().toISOString(),
      image: await uploadCover(page),
    },
  });
  expect(res.status()).toBe(201);
}

test.describe("newsletter", () => {
  test("subscribe, confirm from the mail, get a new post, unsubscribe in one click", async ({ page, browser }) => {
    test.setTimeout(120_000);
    await page.setViewportSize(VIEWPORTS.desktop);
    const since = Date.now();
    const email = `reader-${since.toString(36)}@example.com`;

    await page.goto("/#newsletter");
    await page.getByLabel("Email address").fill(email);
    await page.getByRole("button", { name: "Subscribe Now" }).click();
    await expect(page.locator("#newsletter-message")).toContainText(
      "Thank you for subscribing! 🎉 Check your inbox to confirm. Already subscribed? Then nothing changes.",
    );

    const confirmation = await readMail([email, "/newsletter/confirm"], since);
    const confirm = linkIn(confirmation.text, "/newsletter/confirm");
    await page.goto(`${confirm.pathname}${confirm.search}`);
    // Opening the link only asks (a mail scanner subscribes nobody); the button confirms.
    await expect(page.getByRole("heading", { name: "Confirm your subscription" })).toBeVisible();
    await page.getByRole("button", { name: "Confirm subscription" }).click();
    await expect(page.getByRole("heading", { name: "You're subscribed" })).toBeVisible();

    // A writer publishes: the message arrives through the queue.
    const writer = await browser.newPage();
    await signIn(writer, ACCOUNTS.writer);
    const title = `Newsletter journey ${since.toString(36)}`;
    await publish(writer, title);
    const message = await readMail([email, title], since);
    expect(message.text).toContain("A post for the newsletter journey.");
    const unsubscribe = linkIn(message.text, "/newsletter/unsubscribe");

    // The message as a reader sees it, light and dark, phone and desktop.
    const html = await readMail([email, title], since, "html");
    const mail = await browser.newPage();
    mkdirSync(path.resolve("docs/screenshots"), { recursive: true });
    for (const scheme of ["light", "dark"] as const) {
      await mail.emulateMedia({ colorScheme: scheme });
      for (const size of Object.values(VIEWPORTS)) {
        await mail.setViewportSize(size);
        await mail.goto(`file://${html.file}`);
        await mail.screenshot({
          path: path.resolve(`docs/screenshots/newsletter-email-${scheme}-${size.width}.png`),
          fullPage: true,
        });
      }
    }
    await mail.close();

    // GET only asks; the mail client's one-click POST (no cookie, no Origin) unsubscribes.
    await page.goto(`${unsubscribe.pathname}${unsubscribe.search}`);
    await expect(page.getByRole("heading", { name: "Unsubscribe from the newsletter?" })).toBeVisible();
    const oneClick = await fetch(new URL(`${unsubscribe.pathname}${unsubscribe.search}`, page.url()), {
      method: "POST",
      headers: { "Content-Type": "application/x-www-form-urlencoded" },
      body: "List-Unsubscribe=One-Click",
    });
    expect(oneClick.status).toBe(200);
    await page.reload();
    await expect(page.getByRole("heading", { name: "You're unsubscribed" })).toBeVisible();

    // The next post does not reach the address.
    const later = Date.now();
    const next = `After unsubscribing ${since.toString(36)}`;
    await publish(writer, next);
    const admin = await browser.newPage();
    await signIn(admin, ACCOUNTS.admin);
    await expect
      .poll(async () => {
        const { sends } = await (await admin.request.get("/api/newsletter/sends")).json();
        return sends.find((s: { title: string; completed: boolean }) => s.title === next)?.completed ?? false;
      })
      .toBe(true);
    const files = mailFiles(path.resolve(".wrangler/tmp/email")).filter((f) => statSync(f).mtimeMs >= later - 1000);
    expect(files.some((f) => readFileSync(f, "utf8").includes(email))).toBe(false);

    // The admin Newsletter page: the address, its state, the send counts.
    await admin.setViewportSize(VIEWPORTS.desktop);
    await admin.goto(`/dashboard/newsletter?q=${encodeURIComponent(email)}`);
    await expect(admin.getByRole("cell", { name: email, exact: true })).toBeVisible();
    await expect(admin.getByRole("cell", { name: "unsubscribed" })).toBeVisible();
    await expect(admin.getByRole("link", { name: title })).toBeVisible();
    await admin.goto("/dashboard/newsletter");
    await screenshots(admin, "newsletter-admin");
  });
});
