import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import type { ContactMessage } from "#worker/services/contact.ts";
import { CONTACT_HONEYPOT, MESSAGES_PER_WINDOW, VISITOR_MESSAGES_PER_WINDOW } from "#worker/services/contact.ts";
import { asUser, makeUser } from "../support/factories";
import { call, json, send } from "../support/http";
import { stopClock } from "../support/clock";

type Fields = { error: { code: string; fields: Record<string, string> } };

const valid = () => ({ name: "Reader", email: "Reader@Example.com", subject: "Hello", message: "I like the blog." });

const messagesFrom = (userId: string) =>
  env.DB.prepare("select * from contact_messages where user_id = ? order by created_at")
    .bind(userId)
    .all()
    .then((r) => r.results);

describe("POST /api/contact", () => {
  it("stores a visitor's message (no sign-in needed) without a sender account", async () => {
    const marker = `anon-${crypto.randomUUID()}`;
    const res = await send(
      "POST",
      "/api/contact",
      { ...valid(), message: marker },
      { "CF-Connecting-IP": "198.51.100.7" },
    );
    expect(res.status).toBe(201);
    const row = await env.DB.prepare("select user_id, email from contact_messages where message = ?")
      .bind(marker)
      .first<{ user_id: string | null; email: string }>();
    expect(row).toEqual({ user_id: null, email: "reader@example.com" });
  });

  it("answers a filled honeypot as sent and stores nothing", async () => {
    const marker = `trap-${crypto.randomUUID()}`;
    const body = { ...valid(), message: marker, [CONTACT_HONEYPOT]: "http://spam.example" };
    const res = await send("POST", "/api/contact", body, { "CF-Connecting-IP": "198.51.100.8" });
    expect(res.status).toBe(201);
    const n = await env.DB.prepare("select count(*) as n from contact_messages where message = ?")
      .bind(marker)
      .first<{ n: number }>();
    expect(n?.n).toBe(0);
  });

  it(`allows a visitor ${VISITOR_MESSAGES_PER_WINDOW} messages per address in ten minutes, then 429`, async () => {
    stopClock();
    const from = (ip: string) => ({ "CF-Connecting-IP": ip });
    for (let i = 0; i < VISITOR_MESSAGES_PER_WINDOW; i++) {
      expect((await send("POST", "/api/contact", valid(), from("2001:db8:77:1::5"))).status).toBe(201);
    }
    // The same /64 is the same client.
    const limited = await send("POST", "/api/contact", valid(), from("2001:db8:77:1::9"));
    expect(limited.status).toBe(429);
    expect((await json<Fields>(limited)).error.code).toBe("rate-limited");
    expect((await send("POST", "/api/contact", valid(), from("2001:db8:77:2::5"))).status).toBe(201);
  });

  it("stores a signed-in user's message with its sender, email lower-cased", async () => {
    const user = await makeUser();
    const res = await send("POST", "/api/contact", valid(), await asUser(user));
    expect(res.status).toBe(201);
    const { insertedId } = await json<{ insertedId: string }>(res);
    const rows = await messagesFrom(user.id);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      id: insertedId,
      name: "Reader",
      email: "reader@example.com",
      subject: "Hello",
      message: "I like the blog.",
    });
  });

  it("lets an admin send a message too", async () => {
    const admin = await makeUser({ role: "admin" });
    expect((await send("POST", "/api/contact", valid(), await asUser(admin))).status).toBe(201);
  });

  it("keeps the subject optional", async () => {
    const user = await makeUser();
    const { subject: _subject, ...withoutSubject } = valid();
    expect((await send("POST", "/api/contact", withoutSubject, await asUser(user))).status).toBe(201);
    expect((await send("POST", "/api/contact", { ...valid(), subject: "   " }, await asUser(user))).status).toBe(201);
    expect((await messagesFrom(user.id)).map((r) => r.subject)).toEqual(["", ""]);
  });

  it("requires name, email and message, with a message for each", async () => {
    const user = await makeUser();
    const res = await send("POST", "/api/contact", { subject: "Only a subject" }, await asUser(user));
    expect(res.status).toBe(400);
    expect((await json<Fields>(res)).error.fields).toEqual({
      name: "Name is required.",
      email: "Email is required.",
      message: "Message is required.",
    });
    expect(await messagesFrom(user.id)).toHaveLength(0);
  });

  it("checks the email's format", async () => {
    const user = await makeUser();
    const res = await send("POST", "/api/contact", { ...valid(), email: "not-an-email" }, await asUser(user));
    expect(res.status).toBe(400);
    expect((await json<Fields>(res)).error.fields).toEqual({ email: "Please enter a valid email" });
  });

  it("never answers 500 for malformed input", async () => {
    const user = await makeUser();
    const headers = await asUser(user);
    for (const body of [
      "{]",
      "[]",
      '"text"',
      { name: 1, email: {}, message: [] },
      { ...valid(), message: "m".repeat(5_001) },
      { ...valid(), subject: "s".repeat(151) },
    ]) {
      expect((await send("POST", "/api/contact", body, headers)).status).toBe(400);
    }
    const plain = await call("/api/contact", {
      method: "POST",
      headers: { ...headers, "Content-Type": "text/plain" },
      body: "hello",
    });
    expect(plain.status).toBe(415);
    expect(await messagesFrom(user.id)).toHaveLength(0);
  });

  it(`allows ${MESSAGES_PER_WINDOW} messages per person in ten minutes, then answers 429 with Retry-After`, async () => {
    stopClock();
    const user = await makeUser();
    const headers = await asUser(user);
    for (let i = 0; i < MESSAGES_PER_WINDOW; i++) {
      expect((await send("POST", "/api/contact", valid(), headers)).status).toBe(201);
    }
    const limited = await send("POST", "/api/contact", valid(), headers);
    expect(limited.status).toBe(429);
    expect(Number(limited.headers.get("Retry-After"))).toBeGreaterThan(0);
    expect((await json<Fields>(limited)).error.code).toBe("rate-limited");
    expect(await messagesFrom(user.id)).toHaveLength(MESSAGES_PER_WINDOW);
    // The limit is per person: someone else can still write.
    const other = await makeUser();
    expect((await send("POST", "/api/contact", valid(), await asUser(other))).status).toBe(201);
  });
});

describe("GET /api/contact (admin inbox)", () => {
  it("is refused to anonymous callers and users", async () => {
    const user = await makeUser();
    const other = await makeUser();
    expect((await call("/api/contact")).status).toBe(401);
    expect((await call("/api/contact", { headers: await asUser(user) })).status).toBe(403);
    expect((await call("/api/contact", { headers: await asUser(other) })).status).toBe(403);
  });

  it("answers an admin every message, newest first", async () => {
    const sender = await makeUser();
    const admin = await makeUser({ role: "admin" });
    const headers = await asUser(sender);
    const first = await json<{ insertedId: string }>(
      await send("POST", "/api/contact", { ...valid(), message: "first" }, headers),
    );
    const second = await json<{ insertedId: string }>(
      await send("POST", "/api/contact", { ...valid(), message: "second" }, headers),
    );
    await env.DB.prepare("update contact_messages set created_at = created_at - 60000 where id = ?")
      .bind(first.insertedId)
      .run();
    const res = await call("/api/contact", { headers: await asUser(admin) });
    expect(res.status).toBe(200);
    const inbox = await json<ContactMessage[]>(res);
    const ids = inbox.map((m) => m._id);
    expect(ids.indexOf(second.insertedId)).toBeGreaterThanOrEqual(0);
    expect(ids.indexOf(second.insertedId)).toBeLessThan(ids.indexOf(first.insertedId));
    const shown = inbox.find((m) => m._id === second.insertedId)!;
    expect(shown).toMatchObject({ name: "Reader", email: "reader@example.com", subject: "Hello", message: "second" });
    expect(new Date(shown.created_at).toISOString()).toBe(shown.created_at);
  });
});
