import { env } from "cloudflare:workers";
import { eq } from "drizzle-orm";
import { beforeAll, beforeEach, describe, expect, it } from "vitest";
import { hashPassword } from "#worker/auth/passwords.ts";
import { hashToken } from "#worker/services/accounts/tokens.ts";
import { schema } from "#worker/db.ts";
import { newId } from "#worker/services/shared/ids.ts";
import { asUser, db, makeBlog, makeUser } from "../support/factories";
import { json } from "../support/http";
import { linkIn, mailbox, sendWith, type Mailbox } from "../support/mail";

type ErrorBody = { error: { code: string; message: string; fields?: Record<string, string> } };

const PASSWORD = "correct horse";
let passwordHash: string;
let box: Mailbox;
let user: Awaited<ReturnType<typeof makeUser>>;
let headers: Record<string, string>;
let counter = 0;
const fresh = () => `new-${Date.now().toString(36)}-${counter++}@example.com`;

const request = (body: unknown, h = headers) => sendWith(box.env(), "POST", "/api/auth/change-email", body, h);
/** The API's confirm, by default from nobody's session (as a link opened on another device). */
const confirm = (token: string | null, h: Record<string, string> = {}) =>
  sendWith(box.env(), "POST", "/api/auth/confirm-email-change", { token }, h);
const rowOf = (id: string) => db().query.users.findFirst({ where: eq(schema.users.id, id) });

beforeAll(async () => {
  passwordHash = await hashPassword(PASSWORD, 1000);
});

beforeEach(async () => {
  await env.DB.prepare("delete from rate_limits where key like 'email-change:%' or key like 'reauth:%'").run();
  box = mailbox();
  user = await makeUser({ name: "Mover", passwordHash });
  headers = await asUser(user);
});

describe("POST /api/auth/change-email", () => {
  it("needs a session (401) and the current password (400), and sends nothing without them", async () => {
    const target = fresh();
    expect((await request({ newEmail: target, password: PASSWORD }, {})).status).toBe(401);
    const wrong = await request({ newEmail: target, password: "wrong" });
    expect(wrong.status).toBe(400);
    expect((await json<ErrorBody>(wrong)).error.code).toBe("wrong-password");
    expect(box.sent).toHaveLength(0);
  });

  it("refuses an address another account has (409) and a malformed one (400)", async () => {
    const other = await makeUser();
    expect((await request({ newEmail: other.email, password: PASSWORD })).status).toBe(409);
    expect((await request({ newEmail: "not an email", password: PASSWORD })).status).toBe(400);
    expect(box.sent).toHaveLength(0);
  });

  it("mails a single-use link to the new address and changes nothing until it is opened; the token is stored hashed", async () => {
    const target = fresh();
    const res = await request({ newEmail: target, password: PASSWORD });
    expect(res.status).toBe(202);
    expect((await json<{ mailSent: boolean }>(res)).mailSent).toBe(true);
    expect(box.to(target)).toHaveLength(1);
    expect(box.to(user.email)).toHaveLength(0);
    expect((await rowOf(user.id))?.email).toBe(user.email);

    const link = linkIn(box.to(target)[0], "/confirm-email");
    const token = link.searchParams.get("token")!;
    const stored = await db().select().from(schema.accountTokens).where(eq(schema.accountTokens.userId, user.id));
    expect(stored.map((t) => t.tokenHash)).toContain(await hashToken(token));
    expect(JSON.stringify(stored)).not.toContain(token);
  });

  it("opening the link moves the account, its profile and posts to the new address, verifies it, tells the old one; a second use is refused", async () => {
    const blog = await makeBlog(user);
    await db().insert(schema.profiles).values({ id: newId(), userId: user.id, name: user.name, email: user.email });
    const target = fresh();
    await request({ newEmail: target, password: PASSWORD });
    const token = linkIn(box.to(target)[0], "/confirm-email").searchParams.get("token")!;

    const other = await asUser(user);
    const res = await confirm(token, headers);
    expect(res.status).toBe(200);
    expect(await json(res)).toEqual({ modifiedCount: 1, email: target, accountReset: false });
    const row = await rowOf(user.id);
    expect(row?.email).toBe(target);
    expect(row?.emailVerifiedAt).not.toBeNull();
    expect((await db().query.blogs.findFirst({ where: eq(schema.blogs.id, blog.id) }))?.email).toBe(target);
    expect((await db().query.profiles.findFirst({ where: eq(schema.profiles.userId, user.id) }))?.email).toBe(target);
    const told = box.to(user.email);
    expect(told).toHaveLength(1);
    expect(told[0]!.text).toContain(target);

    // The session still works and now speaks for the new address; the old address is free.
    const me = await sendWith(box.env(), "GET", "/api/auth/me", undefined, headers);
    expect((await json<{ email: string }>(me)).email).toBe(target);
    // The account's other sessions ended: a new address is a new start for every other device.
    expect((await sendWith(box.env(), "GET", "/api/auth/me", undefined, other)).status).toBe(401);
    expect((await rowOf(user.id))?.passwordHash).toBe(passwordHash);
    expect(await db().query.users.findFirst({ where: eq(schema.users.email, user.email) })).toBeUndefined();

    const again = await confirm(token);
    expect(again.status).toBe(400);
    expect((await json<ErrorBody>(again)).error.code).toBe("token-used");
  });

  it("refuses a forged or altered token, and an expired one", async () => {
    const target = fresh();
    await request({ newEmail: target, password: PASSWORD });
    const token = linkIn(box.to(target)[0], "/confirm-email").searchParams.get("token")!;
    const altered = `${token.slice(0, -1)}${token.endsWith("A") ? "B" : "A"}`;
    expect((await json<ErrorBody>(await confirm(altered))).error.code).toBe("token-invalid");
    expect((await json<ErrorBody>(await confirm("x".repeat(43)))).error.code).toBe("token-invalid");
    expect((await confirm(null)).status).toBe(400);

    await db()
      .update(schema.accountTokens)
      .set({ expiresAt: Date.now() - 1 })
      .where(eq(schema.accountTokens.tokenHash, await hashToken(token)));
    expect((await json<ErrorBody>(await confirm(token))).error.code).toBe("token-expired");
    expect((await rowOf(user.id))?.email).toBe(user.email);
  });

  it("refuses (409) when the new address was taken meanwhile, leaving the account as it was", async () => {
    const target = fresh();
    await request({ newEmail: target, password: PASSWORD });
    const token = linkIn(box.to(target)[0], "/confirm-email").searchParams.get("token")!;
    await makeUser({ email: target });
    const res = await confirm(token);
    expect(res.status).toBe(409);
    expect((await rowOf(user.id))?.email).toBe(user.email);
  });

  it("keeps the message in the outbox when mail is down, and the request still succeeds", async () => {
    box.fail();
    const target = fresh();
    const res = await request({ newEmail: target, password: PASSWORD });
    expect(res.status).toBe(202);
    expect((await json<{ mailSent: boolean }>(res)).mailSent).toBe(false);
    const queued = await db().select().from(schema.mailOutbox).where(eq(schema.mailOutbox.toAddress, target));
    expect(queued).toHaveLength(1);
    expect(queued[0]!.sentAt).toBeNull();
  });

  it("is limited per account (429 past 5 an hour)", async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++) statuses.push((await request({ newEmail: fresh(), password: PASSWORD })).status);
    expect(statuses).toEqual([202, 202, 202, 202, 202, 429]);
  });
});
