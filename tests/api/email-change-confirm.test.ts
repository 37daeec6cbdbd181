import { env } from "cloudflare:workers";
import { eq } from "drizzle-orm";
import { beforeAll, beforeEach, describe, expect, it } from "vitest";
import { hashPassword } from "#worker/auth/passwords.ts";
import { schema } from "#worker/db.ts";
import { db, makeUser, sessionFor } from "../support/factories";
import { flashOf } from "../support/flash";
import { json } from "../support/http";
import { callWith, linkIn, mailbox, sendWith, type Mailbox } from "../support/mail";

/**
 * The email-change link opened by a GET changed the address: a mail scanner following links in the
 * owner's inbox confirmed an attacker's change onto an ADMIN_EMAILS address, and the attacker's session
 * became admin. Now a GET only shows a button; the POST changes, and from a browser not signed in to the
 * account, every way in the account had goes with it.
 */

const PASSWORD = "correct horse";
let passwordHash: string;
let box: Mailbox;
let counter = 0;
const fresh = (prefix: string) => `${prefix}-${Date.now().toString(36)}-${counter++}@example.com`;
const bearer = (token: string) => ({ Authorization: `Bearer ${token}` });
const rowOf = async (id: string) => (await db().select().from(schema.users).where(eq(schema.users.id, id)))[0];
const html = { Accept: "text/html" };

/** The button's form post, as a browser without JavaScript sends it. */
function pressConfirm(workerEnv: Cloudflare.Env, link: URL, headers: Record<string, string> = {}) {
  const form = new FormData();
  form.set("token", link.searchParams.get("token")!);
  return callWith(workerEnv, `${link.pathname}${link.search}`, {
    method: "POST",
    body: form,
    headers: { ...html, ...headers },
    redirect: "manual",
  });
}

beforeAll(async () => {
  passwordHash = await hashPassword(PASSWORD, 1000);
});

beforeEach(async () => {
  await env.DB.prepare("delete from rate_limits where key like 'email-change:%'").run();
  box = mailbox();
});

/** A verified account asks to move to `target`; answers the mailed link. */
async function askToMove(workerEnv: Cloudflare.Env, session: string, target: string) {
  const asked = await sendWith(
    workerEnv,
    "POST",
    "/api/auth/change-email",
    { newEmail: target, password: PASSWORD },
    bearer(session),
  );
  expect(asked.status).toBe(202);
  return linkIn(box.to(target).at(-1), "/confirm-email");
}

describe("/confirm-email: the link shows a button, the button changes", () => {
  it("opening the link (a scanner, twice) changes nothing; the page names the account and says what the button does", async () => {
    const owner = fresh("scanned");
    const workerEnv = box.env({ ADMIN_EMAILS: owner });
    const attacker = await makeUser({ name: "Mallory", email: fresh("mallory"), passwordHash });
    const session = await sessionFor(attacker);
    const link = await askToMove(workerEnv, session, owner);

    for (let i = 0; i < 2; i++) {
      const page = await callWith(workerEnv, `${link.pathname}${link.search}`, { headers: html });
      expect(page.status).toBe(200);
      expect(page.headers.get("Cache-Control")).toBe("private, no-store");
      expect(page.headers.get("Referrer-Policy")).toBe("same-origin");
      const text = await page.text();
      expect(text).toContain("Confirm my new email address");
      expect(text).toContain("Mallory");
      expect(text).toContain(attacker.email);
      expect(text).toContain("This browser is not signed in to that account.");
    }
    expect(await rowOf(attacker.id)).toMatchObject({ email: attacker.email, role: "user" });
    const me = await sendWith(workerEnv, "GET", "/api/auth/me", undefined, bearer(session));
    expect(await json(me)).toMatchObject({ email: attacker.email, role: "user" });
  });

  it("the owner pressing Confirm in a browser not signed in: the address moves, and the attacker keeps no way in", async () => {
    const owner = fresh("boss");
    const workerEnv = box.env({ ADMIN_EMAILS: owner });
    const attacker = await makeUser({ email: fresh("mallory"), passwordHash, googleSub: `g-${counter++}` });
    const session = await sessionFor(attacker);
    await db()
      .insert(schema.passkeys)
      .values({
        id: `pk-${counter++}`,
        userId: attacker.id,
        name: "Mine",
        publicKey: "x",
        provenEmail: attacker.email,
      });
    const link = await askToMove(workerEnv, session, owner);

    const done = await pressConfirm(workerEnv, link);
    expect(done.status).toBe(200);
    const page = await done.text();
    expect(page).toContain(`The account&#x27;s address is now ${owner}.`);
    expect(page).toContain('href="/forgot-password"');

    expect(await rowOf(attacker.id)).toMatchObject({
      email: owner,
      role: "admin",
      passwordHash: null,
      googleSub: null,
    });
    expect((await sendWith(workerEnv, "GET", "/api/auth/me", undefined, bearer(session))).status).toBe(401);
    expect((await sendWith(workerEnv, "GET", "/api/users", undefined, bearer(session))).status).toBe(401);
    const login = await sendWith(workerEnv, "POST", "/api/auth/login", { email: owner, password: PASSWORD });
    expect(login.status).toBe(401);
    expect(await db().select().from(schema.passkeys).where(eq(schema.passkeys.userId, attacker.id))).toHaveLength(0);

    // The API's confirm answers the same way from nobody's session.
    const second = await askToMove(workerEnv, await sessionFor(await makeUser({ passwordHash })), fresh("other"));
    const api = await sendWith(workerEnv, "POST", "/api/auth/confirm-email-change", {
      token: second.searchParams.get("token"),
    });
    expect(await json(api)).toMatchObject({ modifiedCount: 1, accountReset: true });
  });

  it("confirmed while signed in to the account: settings with a toast, this session stays, the others and the passkeys go", async () => {
    const user = await makeUser({ email: fresh("mover"), passwordHash });
    const here = await sessionFor(user);
    const elsewhere = await sessionFor(user);
    await db()
      .insert(schema.passkeys)
      .values({ id: `pk-${counter++}`, userId: user.id, name: "Old", publicKey: "x", provenEmail: user.email });
    const target = fresh("moved");
    const link = await askToMove(box.env(), here, target);
    const page = await (
      await callWith(box.env(), `${link.pathname}${link.search}`, { headers: { ...html, ...bearer(here) } })
    ).text();
    expect(page).not.toContain("This browser is not signed in");
    expect(page).toContain("Your other devices will be signed out");

    const done = await pressConfirm(box.env(), link, { Cookie: `__Host-session=${here}` });
    expect(done.status).toBe(302);
    expect(done.headers.get("Location")).toBe("/settings#email");
    expect(JSON.stringify(await flashOf(done))).toContain("Passkeys added for your old address were removed");
    expect(await rowOf(user.id)).toMatchObject({ email: target, passwordHash });
    expect((await sendWith(box.env(), "GET", "/api/auth/me", undefined, bearer(here))).status).toBe(200);
    expect((await sendWith(box.env(), "GET", "/api/auth/me", undefined, bearer(elsewhere))).status).toBe(401);
    expect(await db().select().from(schema.passkeys).where(eq(schema.passkeys.userId, user.id))).toHaveLength(0);
  });
});
