import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { schema } from "#worker/db.ts";
import { CONFIRM_MAILS_PER_HOUR } from "#worker/services/newsletter/model.ts";
import { NEWSLETTER_SUCCESS_TEXT } from "#worker/services/texts.ts";
import { db, makeUser, sessionFor } from "../support/factories";
import { callWith, linkIn, sendWith } from "../support/mail";
import { newsletterWorld } from "../support/kernel";

let n = 0;
const address = () => `api-${Date.now().toString(36)}${(n++).toString(36)}@example.com`;
const stateOf = async (email: string) =>
  (await db().query.newsletterSubscriptions.findFirst({ where: eq(schema.newsletterSubscriptions.email, email) }))
    ?.state;

describe("POST /api/newsletter and the links it mails", () => {
  it("sends a confirmation link; opening it confirms; the post's one-click link unsubscribes without a session", async () => {
    const w = newsletterWorld();
    const email = address();
    const res = await sendWith(w.env, "POST", "/api/newsletter", { email }, { "CF-Connecting-IP": "10.21.0.1" });
    expect(res.status).toBe(202);
    expect(await res.json()).toEqual({ subscribed: true, message: NEWSLETTER_SUCCESS_TEXT });
    expect(NEWSLETTER_SUCCESS_TEXT).toBe(
      "Thank you for subscribing! 🎉 Check your inbox to confirm. Already subscribed? Then nothing changes.",
    );
    expect(await stateOf(email)).toBe("pending");

    const confirm = linkIn(w.box.to(email)[0], "/newsletter/confirm");
    expect(confirm.origin).toBe("https://blog.test");
    // Opening the link (a mail scanner does, before the person) subscribes nobody: it shows a button.
    for (let i = 0; i < 2; i++) {
      const page = await callWith(w.env, `${confirm.pathname}${confirm.search}`);
      expect(page.status).toBe(200);
      expect(page.headers.get("Cache-Control")).toBe("private, no-store");
      expect(page.headers.get("Referrer-Policy")).toBe("same-origin");
      const html = await page.text();
      expect(html).toContain("Confirm subscription");
      expect(html).toContain(`action="${confirm.pathname}${confirm.search}"`);
      expect(html).not.toContain("You&#x27;re subscribed");
      expect(await stateOf(email)).toBe("pending");
    }
    // The button: a form post to the same URL, as a browser without JavaScript sends it.
    const pressed = await callWith(w.env, `${confirm.pathname}${confirm.search}`, {
      method: "POST",
      headers: { "Content-Type": "application/x-www-form-urlencoded" },
      body: "",
    });
    expect(pressed.status).toBe(200);
    expect(await pressed.text()).toContain("You&#x27;re subscribed");
    expect(await stateOf(email)).toBe("confirmed");

    // A published post reaches the address with the RFC 8058 headers.
    const writer = await makeUser();
    const cookie = `__Host-session=${await sessionFor(writer)}`;
    const created = await sendWith(
      w.env,
      "POST",
      "/api/blogs",
      {
        title: "Fresh news",
        short_description: "Short.",
        blog_details: "Long.",
        category: "Technology",
        date_time: "2026-11-20T10:00",
        image: "https://example.com/a.png",
      },
      { Cookie: cookie, Origin: "https://blog.test" },
    );
    expect(created.status).toBeLessThan(300);
    await w.queue.drain(w.env);
    const message = w.box.to(email).find((m) => m.subject === "Fresh news");
    expect(message).toBeDefined();
    const unsubscribe = linkIn(message, "/newsletter/unsubscribe");
    const headers = (message as unknown as { headers: Record<string, string> }).headers;
    expect(headers["List-Unsubscribe"]).toBe(`<${unsubscribe.href}>`);
    expect(headers["List-Unsubscribe-Post"]).toBe("List-Unsubscribe=One-Click");

    // GET only asks (a link scanner unsubscribes nobody).
    const ask = await callWith(w.env, `${unsubscribe.pathname}${unsubscribe.search}`);
    expect(ask.status).toBe(200);
    expect(await ask.text()).toContain("Unsubscribe from the newsletter?");
    expect(await stateOf(email)).toBe("confirmed");

    // An altered token is refused.
    const altered = new URL(unsubscribe);
    altered.searchParams.set("token", `${unsubscribe.searchParams.get("token")!.slice(0, -2)}xx`);
    const refused = await callWith(w.env, `${altered.pathname}${altered.search}`, {
      method: "POST",
      headers: { "Content-Type": "application/x-www-form-urlencoded" },
      body: "List-Unsubscribe=One-Click",
    });
    expect(refused.status).toBe(400);
    expect(await stateOf(email)).toBe("confirmed");

    // The mail client's one-click POST: no cookie, no Origin, just the RFC 8058 body.
    const done = await callWith(w.env, `${unsubscribe.pathname}${unsubscribe.search}`, {
      method: "POST",
      headers: { "Content-Type": "application/x-www-form-urlencoded" },
      body: "List-Unsubscribe=One-Click",
    });
    expect(done.status).toBe(200);
    expect(await done.text()).toContain("You&#x27;re unsubscribed");
    expect(await stateOf(email)).toBe("unsubscribed");
  });

  it("answers a bad address with the spec's message and a confirmation link that was tampered with with 400", async () => {
    const w = newsletterWorld();
    const bad = await sendWith(
      w.env,
      "POST",
      "/api/newsletter",
      { email: "nope" },
      { "CF-Connecting-IP": "10.21.0.2" },
    );
    expect(bad.status).toBe(400);
    expect(JSON.stringify(await bad.json())).toContain("Please enter a valid email");
    const page = await callWith(w.env, "/newsletter/confirm?token=abc.def.ghi");
    expect(page.status).toBe(400);
    expect(await page.text()).toContain("This link is not valid");
  });

  it("lets only an admin read subscribers and export them as CSV", async () => {
    const w = newsletterWorld();
    const admin = await makeUser({ role: "admin" });
    const reader = await makeUser();
    const asAdmin = { Cookie: `__Host-session=${await sessionFor(admin)}` };
    const csv = await callWith(w.env, "/api/newsletter/subscribers.csv", { headers: asAdmin });
    expect(csv.status).toBe(200);
    expect(csv.headers.get("Content-Type")).toContain("text/csv");
    expect((await csv.text()).split("\n")[0]).toBe("email,confirmed_at");
    const list = await callWith(w.env, "/api/newsletter/subscribers?q=api-", { headers: asAdmin });
    expect(list.status).toBe(200);
    const no = await callWith(w.env, "/api/newsletter/subscribers.csv", {
      headers: { Cookie: `__Host-session=${await sessionFor(reader)}` },
    });
    expect(no.status).toBe(403);
    const page = await callWith(w.env, "/dashboard/newsletter", { headers: asAdmin });
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain("Import confirmed subscribers");
    expect(html).toContain("Sends");
  });

  it("subscribes a signed-in reader with a verified email from /settings in one click, and unsubscribes", async () => {
    const w = newsletterWorld();
    const verified = await makeUser({ emailVerifiedAt: Date.now() });
    const unverified = await makeUser({ emailVerifiedAt: null });
    const post = async (who: { id: string; email: string }, intent: string) =>
      callWith(w.env, "/settings", {
        method: "POST",
        headers: {
          Cookie: `__Host-session=${await sessionFor(who)}`,
          "Content-Type": "application/x-www-form-urlencoded",
        },
        body: `intent=${intent}`,
      });
    expect((await post(verified, "newsletter-subscribe")).status).toBe(302);
    expect(await stateOf(verified.email)).toBe("confirmed");
    const page = await callWith(w.env, "/settings", {
      headers: { Cookie: `__Host-session=${await sessionFor(verified)}` },
    });
    expect(await page.text()).toContain("Every new post goes to");
    expect((await post(verified, "newsletter-unsubscribe")).status).toBe(302);
    expect(await stateOf(verified.email)).toBe("unsubscribed");

    const refused = await post(unverified, "newsletter-subscribe");
    expect(refused.status).toBe(400);
    expect(await stateOf(unverified.email)).toBeUndefined();
    expect(w.box.sent).toHaveLength(0);
  });
});

describe("POST /api/newsletter: a stranger's inbox", () => {
  it("one address gets at most CONFIRM_MAILS_PER_HOUR confirmations an hour, whatever client asks; every answer is the same", async () => {
    const w = newsletterWorld();
    const victim = address();
    const answers = new Set<string>();
    for (let i = 0; i < CONFIRM_MAILS_PER_HOUR + 5; i++) {
      const res = await sendWith(
        w.env,
        "POST",
        "/api/newsletter",
        { email: victim },
        {
          "CF-Connecting-IP": `10.31.${i}.${n++ % 250}`,
        },
      );
      expect(res.status).toBe(202);
      answers.add(await res.text());
    }
    expect(answers.size).toBe(1);
    expect(w.box.to(victim)).toHaveLength(CONFIRM_MAILS_PER_HOUR);
    expect(await stateOf(victim)).toBe("pending");
    // Another address is not held back by it.
    const other = address();
    await sendWith(w.env, "POST", "/api/newsletter", { email: other }, { "CF-Connecting-IP": "10.31.250.1" });
    expect(w.box.to(other)).toHaveLength(1);
  });
});
