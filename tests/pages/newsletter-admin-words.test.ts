import { describe, expect, it } from "vitest";
import { schema } from "#worker/db.ts";
import { newId } from "#worker/services/shared/ids.ts";
import { db, makeUser } from "../support/factories";
import { call } from "../support/http";
import { getPage } from "../support/pages";

/** The table row of one address on the admin page. */
const rowOf = (html: string, email: string) => {
  const at = html.indexOf(email);
  return html.slice(html.lastIndexOf("<tr", at), html.indexOf("</tr>", at));
};

describe("newsletter words", () => {
  it("only a confirmed address shows a Subscribed date; pending and unsubscribed ones say they are not", async () => {
    const admin = await makeUser({ role: "admin" });
    const stamp = Date.now().toString(36);
    const [pending, confirmed, gone] = ["pending", "confirmed", "unsubscribed"].map((s) => `${s}-${stamp}@example.com`);
    const now = Date.now();
    await db()
      .insert(schema.newsletterSubscriptions)
      .values([
        { id: newId(), email: pending!, state: "pending" },
        { id: newId(), email: confirmed!, state: "confirmed", confirmedAt: now },
        { id: newId(), email: gone!, state: "unsubscribed", unsubscribedAt: now },
      ]);
    const html = await (await getPage(`/dashboard/newsletter?q=${stamp}`, admin)).text();
    expect(rowOf(html, confirmed!)).toMatch(/<time /);
    for (const email of [pending!, gone!]) expect(rowOf(html, email)).not.toMatch(/<time /);
    expect(rowOf(html, pending!)).toContain("Not confirmed yet");
    expect(rowOf(html, gone!)).toContain(">No longer subscribed<");
  });

  it("a subscriber has one time, the same on the Inbox and the Newsletter page: when they subscribed (issue 47)", async () => {
    const admin = await makeUser({ role: "admin" });
    const stamp = `one-time-${Date.now().toString(36)}`;
    const email = `${stamp}@example.com`;
    // Signed up an hour and a half before confirming.
    const confirmedAt = Date.now() - 60_000;
    const createdAt = confirmedAt - 90 * 60_000;
    await db()
      .insert(schema.newsletterSubscriptions)
      .values({ id: newId(), email, state: "confirmed", confirmedAt, createdAt });
    const subscribed = `dateTime="${new Date(confirmedAt).toISOString()}"`;
    const started = `dateTime="${new Date(createdAt).toISOString()}"`;
    const newsletter = rowOf(await (await getPage(`/dashboard/newsletter?q=${stamp}`, admin)).text(), email);
    // The Inbox lists the newest subscribers first: this one is on its first page.
    const inboxHtml = await (await getPage("/dashboard/inbox", admin)).text();
    const inbox = inboxHtml.slice(inboxHtml.indexOf(email), inboxHtml.indexOf("</li>", inboxHtml.indexOf(email)));
    for (const row of [newsletter, inbox]) {
      expect(row).toContain(subscribed);
      expect(row).not.toContain(started);
    }
  });

  it("a broken unsubscribe link offers other ways out", async () => {
    const res = await call("/newsletter/unsubscribe?token=broken");
    expect(res.status).toBe(400);
    const html = await res.text();
    expect(html).toContain('href="/settings#newsletter"');
    expect(html).toContain('href="/contact"');
  });
});
