import { describe, expect, it } from "vitest";
import { VERIFY_TEXTS } from "#worker/services/texts.ts";
import { json } from "../support/http";
import { callWith, linkIn, mailbox, sendWith, type Mailbox } from "../support/mail";

let counter = 0;
const newEmail = () => `return-${Date.now().toString(36)}${(counter++).toString(36)}@example.com`;

async function register(box: Mailbox, email: string): Promise<string> {
  const res = await sendWith(box.env(), "POST", "/api/auth/register", {
    name: "Rita",
    email,
    password: "correct horse",
  });
  expect(res.status).toBe(201);
  return (await json<{ token: string }>(res)).token;
}

const page = (box: Mailbox, path: string, session: string | null, init: RequestInit = {}) =>
  callWith(box.env(), path, {
    ...init,
    redirect: "manual",
    headers: { Accept: "text/html", ...(session ? { Cookie: `__Host-session=${session}` } : {}) },
  });

function formOf(fields: Record<string, string>): FormData {
  const form = new FormData();
  for (const [k, v] of Object.entries(fields)) form.set(k, v);
  return form;
}

const continueHref = (html: string) => /<a[^>]*href="([^"]*)"[^>]*>Continue<\/a>/.exec(html)?.[1];
const occurrences = (html: string, text: string) => html.split(text).length - 1;

describe("/verify-email: Continue goes back to where the person was", () => {
  it("the banner's Resend carries the page through the link; confirming says its sentence once and Continue returns there", async () => {
    const box = mailbox();
    const email = newEmail();
    const session = await register(box, email);
    // The banner on /settings asks for a new link (without JavaScript: a form post).
    const resent = await page(box, "/verify-email", session, {
      method: "POST",
      body: formOf({ redirectTo: "/settings?tab=email" }),
    });
    expect(resent.status).toBe(302);
    expect(resent.headers.get("Location")).toBe("/settings?tab=email");
    const link = linkIn(box.to(email).at(-1), "/verify-email");
    expect(link.searchParams.get("redirectTo")).toBe("/settings?tab=email");

    const path = `${link.pathname}${link.search}`;
    // Opened in the browser that asked for it (signed in): a foreign browser would start the account afresh.
    const opened = await (await page(box, path, session)).text();
    expect(opened).toContain('name="returnTo" value="/settings?tab=email"');

    const done = await page(box, path, session, {
      method: "POST",
      body: formOf({ intent: "verify", token: link.searchParams.get("token")!, returnTo: "/settings?tab=email" }),
    });
    expect(done.status).toBe(200);
    const html = await done.text();
    expect(html).toContain("Email address confirmed");
    expect(occurrences(html, VERIFY_TEXTS.verified)).toBe(1);
    expect(continueHref(html)).toBe("/settings?tab=email");

    // Opened again by the now verified account: "already", said once too.
    const again = await (await page(box, "/verify-email?redirectTo=%2Fsaved", session)).text();
    expect(occurrences(again, VERIFY_TEXTS.alreadyVerified)).toBe(1);
    expect(continueHref(again)).toBe("/saved");
  });

  it("never leads off the site: anything but a path of this site is the home page", async () => {
    const box = mailbox();
    const email = newEmail();
    const session = await register(box, email);
    // A Resend asked with a foreign return: the link carries none.
    await page(box, "/verify-email", session, { method: "POST", body: formOf({ redirectTo: "//evil.example/x" }) });
    const link = linkIn(box.to(email).at(-1), "/verify-email");
    expect(link.searchParams.has("redirectTo")).toBe(false);
    const token = link.searchParams.get("token")!;
    for (const target of ["//evil.example", "https://evil.example/", "/\\evil.example", "javascript:alert(1)"]) {
      const opened = await (
        await page(box, `/verify-email?token=${token}&redirectTo=${encodeURIComponent(target)}`, null)
      ).text();
      expect(opened).toContain('name="returnTo" value="/"');
    }
    const done = await page(box, `/verify-email?token=${token}`, session, {
      method: "POST",
      body: formOf({ intent: "verify", token, returnTo: "https://evil.example/" }),
    });
    expect(continueHref(await done.text())).toBe("/");
  });

  it("a sign-up that started at Write a Blog: the first link's Continue goes back to writing (issue 47)", async () => {
    const box = mailbox();
    const email = newEmail();
    const made = await page(box, "/register", null, {
      method: "POST",
      body: formOf({ name: "Wren", email, password: "correct horse", redirectTo: "/dashboard/writeBlogs" }),
    });
    expect(made.status).toBe(302);
    expect(made.headers.get("Location")).toBe("/dashboard/writeBlogs");
    const session = /__Host-session=([^;]+)/.exec(made.headers.get("Set-Cookie") ?? "")?.[1];
    expect(session).toBeTruthy();
    const link = linkIn(box.to(email).at(-1), "/verify-email");
    expect(link.searchParams.get("redirectTo")).toBe("/dashboard/writeBlogs");
    const token = link.searchParams.get("token")!;
    const done = await page(box, `${link.pathname}${link.search}`, session!, {
      method: "POST",
      body: formOf({ intent: "verify", token, returnTo: "/dashboard/writeBlogs" }),
    });
    expect(continueHref(await done.text())).toBe("/dashboard/writeBlogs");
  });
});
