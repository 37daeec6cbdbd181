import { describe, expect, it } from "vitest";
import { schema } from "#worker/db.ts";
import { newId } from "#worker/services/shared/ids.ts";
import { NEWSLETTER_ALREADY_TEXT, NEWSLETTER_SUCCESS_TEXT } from "#worker/services/texts.ts";
import { asUser, db, makeUser } from "../support/factories";
import { call, json, send } from "../support/http";
import { getPage, postForm } from "../support/pages";

const stamp = () => `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;

async function confirmed(email: string): Promise<string> {
  const id = newId();
  await db().insert(schema.newsletterSubscriptions).values({ id, email, state: "confirmed", confirmedAt: Date.now() });
  return id;
}

describe("removing a subscriber", () => {
  it("DELETE /api/newsletter/subscribers/{id}: admins only; the row is gone", async () => {
    const email = `api-removed-${stamp()}@example.com`;
    const id = await confirmed(email);
    const member = await asUser(await makeUser());
    expect((await call(`/api/newsletter/subscribers/${id}`, { method: "DELETE" })).status).toBe(401);
    expect((await call(`/api/newsletter/subscribers/${id}`, { method: "DELETE", headers: member })).status).toBe(403);
    const admin = await asUser(await makeUser({ role: "admin" }));
    const res = await call(`/api/newsletter/subscribers/${id}`, { method: "DELETE", headers: admin });
    expect(res.status).toBe(200);
    expect(await json(res)).toEqual({ removed: true, email });
    expect((await call(`/api/newsletter/subscribers/${id}`, { method: "DELETE", headers: admin })).status).toBe(404);
    const list = await json<{ subscribers: { email: string }[] }>(
      await call(`/api/newsletter/subscribers?q=${encodeURIComponent(email)}`, { headers: admin }),
    );
    expect(list.subscribers).toEqual([]);
  });

  it("the Newsletter page's Remove (after the confirm step) takes the row off the table", async () => {
    const email = `page-removed-${stamp()}@example.com`;
    const id = await confirmed(email);
    const admin = await makeUser({ role: "admin" });
    const page = `/dashboard/newsletter?q=${encodeURIComponent(email)}`;
    const before = await (await getPage(page, admin)).text();
    expect(before).toContain(email);
    // Without JavaScript the button is a GET to /confirm asking first, with the row's fields.
    expect(before).toContain('name="ask" value="remove-subscriber"');
    const res = await postForm(page, admin, { intent: "remove", id });
    expect(res.status).toBe(302);
    expect(res.headers.get("Location")).toBe(page);
    const after = await (await getPage(page, admin)).text();
    expect(after).toContain("No subscribers match.");
    // A non-admin cannot.
    const other = await confirmed(`page-kept-${stamp()}@example.com`);
    expect((await postForm("/dashboard/newsletter", await makeUser(), { intent: "remove", id: other })).status).toBe(
      403,
    );
  });
});

describe("the subscribe answer over /api", () => {
  it("a signed-in person subscribing their own verified, confirmed address hears so; anyone else the uniform answer", async () => {
    const owner = await makeUser({ email: `api-owner-${stamp()}@example.com` });
    await confirmed(owner.email);
    const mine = await send("POST", "/api/newsletter", { email: owner.email }, await asUser(owner));
    expect(mine.status).toBe(200);
    expect(await json(mine)).toEqual({ subscribed: true, already: true, message: NEWSLETTER_ALREADY_TEXT });
    const stranger = await send("POST", "/api/newsletter", { email: owner.email });
    expect(stranger.status).toBe(202);
    expect(await json(stranger)).toEqual({ subscribed: true, message: NEWSLETTER_SUCCESS_TEXT });
    const someoneElse = await send("POST", "/api/newsletter", { email: owner.email }, await asUser(await makeUser()));
    expect(await json(someoneElse)).toEqual({ subscribed: true, message: NEWSLETTER_SUCCESS_TEXT });
  });

  it("the home page's form says “You're already subscribed.” to that person only", async () => {
    const owner = await makeUser({ email: `form-owner-${stamp()}@example.com` });
    await confirmed(owner.email);
    const fields = { intent: "newsletter", email: owner.email };
    const mine = await (await postForm("/?index", owner, fields)).text();
    expect(mine).toContain("You&#x27;re already subscribed.");
    const visitor = await (await postForm("/?index", null, fields)).text();
    expect(visitor).not.toContain("already subscribed.");
    expect(visitor).toContain("Already subscribed? Then nothing changes.");
  });
});
