import { env } from "cloudflare:workers";
import { eq } from "drizzle-orm";
import { beforeAll, beforeEach, describe, expect, it } from "vitest";
import { hashPassword } from "#worker/auth/passwords.ts";
import { reauthCookie } from "#worker/auth/reauth.ts";
import { schema } from "#worker/db.ts";
import { newId } from "#worker/services/shared/ids.ts";
import { db, makeUser, sessionFor } from "../support/factories";
import { flashOf } from "../support/flash";
import { call } from "../support/http";
import { getPage } from "../support/pages";

const PASSWORD = "correct horse";
let passwordHash: string;
let user: Awaited<ReturnType<typeof makeUser>>;

/** A form post as a browser without JavaScript sends it, with this session's cookie. */
function post(token: string, fields: Record<string, string>, extraCookie = "") {
  const body = new FormData();
  for (const [k, v] of Object.entries(fields)) body.append(k, v);
  return call("/settings", {
    method: "POST",
    body,
    headers: { Accept: "text/html", Cookie: `__Host-session=${token}${extraCookie ? `; ${extraCookie}` : ""}` },
    redirect: "manual",
  });
}
const meStatus = async (token: string) =>
  (await call("/api/auth/me", { headers: { Authorization: `Bearer ${token}` } })).status;

beforeAll(async () => {
  passwordHash = await hashPassword(PASSWORD, 1000);
});

beforeEach(async () => {
  await env.DB.prepare("delete from rate_limits where key like 'reauth:%'").run();
  user = await makeUser({ name: "Page Person", passwordHash });
});

describe("/settings", () => {
  it("offers to download your data first, beside Delete my account", async () => {
    const html = await (await getPage("/settings", user)).text();
    const section = html.slice(html.indexOf('id="delete-account"'));
    expect(section).toMatch(/Download your data first:[\s\S]*href="\/api\/auth\/export"[\s\S]*Delete my account/);
  });

  it("sends a visitor to sign in first, coming back here", async () => {
    const res = await getPage("/settings", null);
    expect(res.status).toBe(302);
    expect(res.headers.get("Location")).toBe("/login?redirectTo=%2Fsettings");
  });

  it("shows every section to the signed-in person, private and not indexed", async () => {
    const res = await getPage("/settings", user);
    expect(res.status).toBe(200);
    expect(res.headers.get("Cache-Control")).toMatch(/no-store/);
    const html = await res.text();
    for (const text of [
      "Change password",
      "Send confirmation link",
      "Add a passkey",
      "Signed-in sessions",
      "Sign out everywhere else",
      'href="/api/auth/export"',
      "Delete my account",
      user.email,
    ])
      expect(html).toContain(text);
    expect(html).toContain('content="noindex"');
  });

  it("is linked from the avatar menu and the dashboard", async () => {
    const home = await (await getPage("/", user)).text();
    expect(home).toMatch(/<a[^>]+href="\/settings"[^>]*>Settings<\/a>/);
    const dashboard = await (await getPage("/dashboard", user)).text();
    expect(dashboard.match(/href="\/settings"/g)?.length ?? 0).toBeGreaterThanOrEqual(2);
  });

  it("changes the password without JavaScript, ending other sessions; a wrong current one comes back to its form", async () => {
    const mine = await sessionFor(user);
    const other = await sessionFor(user);
    const wrong = await post(mine, {
      intent: "change-password",
      currentPassword: "nope",
      newPassword: "new password 1",
    });
    expect(wrong.status).toBe(400);
    expect(await wrong.text()).toContain("The current password is not correct.");
    expect(await meStatus(other)).toBe(200);

    const ok = await post(mine, {
      intent: "change-password",
      currentPassword: PASSWORD,
      newPassword: "new password 1",
    });
    expect(ok.status).toBe(302);
    expect(ok.headers.get("Location")).toBe("/settings#password");
    expect(flashOf(ok)?.title).toBe("Password changed");
    expect(await meStatus(mine)).toBe(200);
    expect(await meStatus(other)).toBe(401);
  });

  it("lists sessions and signs out everywhere else without JavaScript", async () => {
    const mine = await sessionFor(user);
    const other = await sessionFor(user);
    const html = await (
      await call("/settings", { headers: { Accept: "text/html", Cookie: `__Host-session=${mine}` } })
    ).text();
    expect(html).toContain("This device");
    const res = await post(mine, { intent: "end-others" });
    expect(res.status).toBe(302);
    expect(await meStatus(other)).toBe(401);
    expect(await meStatus(mine)).toBe(200);
  });

  it("removes a passkey of one's own only", async () => {
    await db()
      .insert(schema.passkeys)
      .values({ id: `pk-${newId()}`, userId: user.id, name: "Old phone", publicKey: "AA" });
    const [key] = await db().select().from(schema.passkeys).where(eq(schema.passkeys.userId, user.id));
    const stranger = await makeUser();
    const refused = await post(await sessionFor(stranger), { intent: "remove-passkey", passkeyId: key!.id });
    expect(refused.status).toBe(404);
    const page = await (await getPage("/settings", user)).text();
    expect(page).toContain("Old phone");
    const ok = await post(await sessionFor(user), { intent: "remove-passkey", passkeyId: key!.id });
    expect(ok.status).toBe(302);
    expect(await db().select().from(schema.passkeys).where(eq(schema.passkeys.userId, user.id))).toHaveLength(0);
  });

  it("deletes the account without JavaScript after the password, signing out and going home", async () => {
    const mine = await sessionFor(user);
    const wrong = await post(mine, { intent: "delete-account", password: "nope", understood: "on" });
    expect(wrong.status).toBe(400);
    expect(await meStatus(mine)).toBe(200);

    const ok = await post(mine, { intent: "delete-account", password: PASSWORD, understood: "on" });
    expect(ok.status).toBe(302);
    expect(ok.headers.get("Location")).toBe("/");
    expect(flashOf(ok)?.title).toBe("Account deleted");
    expect(ok.headers.getSetCookie().some((c) => /^__Host-session=;/.test(c))).toBe(true);
    expect(await db().query.users.findFirst({ where: eq(schema.users.id, user.id) })).toBeUndefined();
  });

  it("offers a Google-only account the Google confirmation, then lets it delete itself", async () => {
    const google = await makeUser({ googleSub: `g-${newId()}` });
    const token = await sessionFor(google);
    const page = await (await call("/settings", { headers: { Cookie: `__Host-session=${token}` } })).text();
    expect(page).toContain("/auth/google?mode=redirect&amp;intent=reauth&amp;redirectTo=%2Fsettings%23delete-account");
    expect((await post(token, { intent: "delete-account", understood: "on" })).status).toBe(400);
    const proof = (await reauthCookie(google.id, env.SESSION_SECRET!)).split(";")[0]!;
    const confirmed = await (
      await call("/settings", { headers: { Cookie: `__Host-session=${token}; ${proof}` } })
    ).text();
    expect(confirmed).toContain("Google confirmed it is you.");
    const ok = await post(token, { intent: "delete-account", understood: "on" }, proof);
    expect(ok.status).toBe(302);
    expect(await db().query.users.findFirst({ where: eq(schema.users.id, google.id) })).toBeUndefined();
  });

  it("answers an unknown intent with 400", async () => {
    const res = await post(await sessionFor(user), { intent: "launch-rockets" });
    expect(res.status).toBe(400);
  });
});

describe("/login", () => {
  it("offers Sign in with a passkey, without the WebAuthn library in the page's first load", async () => {
    const html = await (await getPage("/login", null)).text();
    expect(html).toContain("Sign in with a passkey");
    expect(html).not.toMatch(/simplewebauthn/i);
  });
});

describe("/confirm-email", () => {
  it("says why a forged link cannot change anything", async () => {
    const res = await getPage(`/confirm-email?token=${"A".repeat(43)}`, user);
    expect(res.status).toBe(200);
    expect(await res.text()).toContain("This link is not valid.");
  });
});
