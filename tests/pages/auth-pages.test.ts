import { env } from "cloudflare:workers";
import { createExecutionContext, waitOnExecutionContext } from "cloudflare:test";
import { eq } from "drizzle-orm";
import { describe, expect, it, vi } from "vitest";
import { hashPassword } from "#worker/auth/passwords.ts";
import worker from "#worker/index.ts";
import { DATABASE_UNAVAILABLE_TEXT } from "#worker/services/shared/errors.ts";
import { schema } from "#worker/db.ts";
import { newId } from "#worker/services/shared/ids.ts";
import { db, makeBlog, makeUser, sessionFor } from "../support/factories";
import { flashOf } from "../support/flash";
import { call } from "../support/http";

let counter = 0;
const uniqueEmail = (prefix = "page") => `${prefix}-${Date.now().toString(36)}${(counter++).toString(36)}@example.com`;
const PASSWORD = "Sunny-Garden-42";

/** A real 1x1 PNG, padded after IEND so each test's file has a size no other upload has. */
function png(padding = 0): Uint8Array<ArrayBuffer> {
  const base = Uint8Array.from(
    atob("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg=="),
    (c) => c.charCodeAt(0),
  );
  const out = new Uint8Array(new ArrayBuffer(base.length + padding));
  out.set(base);
  return out;
}

/** Posts a form to a page the way a browser without JavaScript does. */
function postForm(path: string, fields: Record<string, string | Blob>, cookie?: string) {
  const body = new FormData();
  for (const [key, value] of Object.entries(fields)) body.append(key, value);
  return call(path, { method: "POST", body, headers: cookie ? { Cookie: cookie } : {}, redirect: "manual" });
}

const get = (path: string, cookie?: string) =>
  call(path, { headers: cookie ? { Cookie: cookie } : {}, redirect: "manual" });
const cookieOf = async (user: { id: string; email: string }) => `__Host-session=${await sessionFor(user)}`;
const setCookies = (res: Response) => res.headers.getSetCookie();
/** The cookies a response sets, as the browser would send them back. */
const cookiesFrom = (res: Response) =>
  setCookies(res)
    .map((c) => c.split(";")[0]!)
    .filter((c) => c.slice(c.indexOf("=") + 1) !== "")
    .join("; ");
const sessionTokenFrom = (res: Response) =>
  setCookies(res)
    .find((c) => c.startsWith("__Host-session="))
    ?.split(";")[0]
    ?.slice("__Host-session=".length);
const userByEmail = async (email: string) =>
  (await db().select().from(schema.users).where(eq(schema.users.email, email)))[0];
/** The <input> tag of a field, whatever the order of its attributes. */
const inputTag = (html: string, name: string) => html.match(new RegExp(`<input[^>]*name="${name}"[^>]*>`))?.[0] ?? "";
/** React escapes apostrophes in text; compare against the page as a person reads it. */
const text = (html: string) =>
  html
    .replace(/&#x27;/g, "'")
    .replace(/&quot;/g, '"')
    .replace(/&amp;/g, "&");

async function makeAccount(password = PASSWORD, overrides: Partial<typeof schema.users.$inferInsert> = {}) {
  return makeUser({ email: uniqueEmail("acct"), passwordHash: await hashPassword(password), ...overrides });
}

/** Targets that must never take a signed-in person off the site. */
const OPEN_REDIRECTS = [
  "//evil.example.com/x",
  "https://evil.example.com/",
  "HTTPS://evil.example.com/",
  "http:evil.example.com",
  "/\\evil.example.com",
  "\\\\evil.example.com",
  "/\t/evil.example.com",
  "/\n/evil.example.com",
  "/\r\n/evil.example.com",
  "javascript:alert(1)",
  "/.//evil.example.com",
  "/./\\evil.example.com",
  "/..//evil.example.com",
  "/a/../..//evil.example.com",
  "/%2e%2e//evil.example.com",
  "/%2e//evil.example.com",
  "/%2F%2Fevil.example.com",
  "/%5C%5Cevil.example.com",
  "//@evil.example.com",
  "/\\@evil.example.com",
  " //evil.example.com",
  "evil.example.com",
];

/** A Location stays on the site: a single-slash path that resolves to the site's own origin. */
function expectSameSite(location: string | null, target: string) {
  expect(location, target).not.toBeNull();
  expect(location!.startsWith("/") && !location!.startsWith("//") && !location!.startsWith("/\\"), target).toBe(true);
  expect(new URL(location!, "https://blog.test").origin, target).toBe("https://blog.test");
}

describe("/register", () => {
  it("stores the photo in R2, creates the account, signs it in and goes home with the success message", async () => {
    const email = uniqueEmail("reg");
    const res = await postForm("/register", {
      name: "Grace Hopper",
      email,
      password: PASSWORD,
      image: new File([png()], "me.png", { type: "image/png" }),
      redirectTo: "/",
    });
    expect(res.status).toBe(302);
    expect(res.headers.get("Location")).toBe("/");
    const token = sessionTokenFrom(res);
    expect(token).toBeTruthy();
    expect(setCookies(res).join("\n")).toContain("flash=");

    const row = await userByEmail(email);
    expect(row?.name).toBe("Grace Hopper");
    expect(row?.photoUrl).toMatch(/^\/images\/[0-9a-z_-]+\.png$/);
    const key = row!.photoUrl!.slice("/images/".length);
    expect(await env.IMAGES.head(key)).not.toBeNull();
    const [image] = await db().select().from(schema.images).where(eq(schema.images.key, key));
    expect(image?.ownerId).toBe(row!.id);
    expect(image?.expiresAt).toBeNull();

    // The next page is signed in: the top bar shows the uploaded photo in the avatar button.
    const home = text(await (await get("/", cookiesFrom(res))).text());
    expect(home).toContain("Account menu for Grace Hopper");
    expect(home).toContain(`src="${row!.photoUrl}"`);
    expect(home).not.toMatch(/href="\/login"[^>]*>Sign in</);
    expect(home).toContain("Registration Successful!");
  });

  it("treats the empty file part a browser sends when no photo was chosen as no photo", async () => {
    const email = uniqueEmail("nophoto");
    const res = await postForm("/register", {
      name: "No Photo",
      email,
      password: PASSWORD,
      image: new File([], "", { type: "application/octet-stream" }),
    });
    expect(res.status).toBe(302);
    const row = await userByEmail(email);
    expect(row?.photoUrl).toBeNull();
    const home = await (await get("/", `__Host-session=${sessionTokenFrom(res)}`)).text();
    expect(home).toContain("data-default-avatar");
  });

  it("goes back to a same-site redirectTo, and ignores open-redirect attempts", async () => {
    const kept = await postForm("/register", {
      name: "Back",
      email: uniqueEmail("back"),
      password: PASSWORD,
      redirectTo: "/Profile?tab=1",
    });
    expect(kept.headers.get("Location")).toBe("/Profile?tab=1");
    for (const redirectTo of OPEN_REDIRECTS) {
      const res = await postForm("/register", {
        name: "Evil",
        email: uniqueEmail("evil"),
        password: PASSWORD,
        redirectTo,
      });
      expect(res.status, redirectTo).toBe(302);
      expectSameSite(res.headers.get("Location"), redirectTo);
    }
  });

  it("refuses a password the policy rejects: 400, the reason beside the field, typed values kept, the password never echoed, nothing stored", async () => {
    const email = uniqueEmail("weak");
    const padding = 1000 + (Date.now() % 5000);
    const res = await postForm("/register", {
      name: "Weak Password",
      email,
      password: "12345678",
      image: new File([png(padding)], "me.png", { type: "image/png" }),
    });
    expect(res.status).toBe(400);
    const html = text(await res.text());
    expect(inputTag(html, "password")).toContain('aria-invalid="true"');
    expect(html).toContain("Password must be 8 to 128 characters long and contain something other than digits.");
    expect(html).toMatch(/name="name"[^>]*value="Weak Password"/);
    expect(html).toMatch(new RegExp(`name="email"[^>]*value="${email}"`));
    expect(html).not.toContain("12345678");
    expect(setCookies(res).some((c) => c.startsWith("__Host-session="))).toBe(false);
    expect(await userByEmail(email)).toBeUndefined();
    // The photo was checked but not stored: no image of that exact size exists.
    const orphan = await db()
      .select()
      .from(schema.images)
      .where(eq(schema.images.size, png(padding).byteLength));
    expect(orphan).toHaveLength(0);
  });

  it("says a taken email is taken, beside the email field, and keeps the typed values", async () => {
    const existing = await makeAccount();
    const res = await postForm("/register", {
      name: "Second",
      email: existing.email.toUpperCase(),
      password: PASSWORD,
    });
    expect(res.status).toBe(409);
    const html = text(await res.text());
    expect(inputTag(html, "email")).toContain('aria-invalid="true"');
    expect(html).toContain("An account with this email already exists.");
    expect(html).toMatch(/name="name"[^>]*value="Second"/);
    expect(html).not.toContain(PASSWORD);
    expect(await db().select().from(schema.users).where(eq(schema.users.email, existing.email))).toHaveLength(1);
  });

  it("refuses a file that is not an image beside the photo field, and creates no account", async () => {
    const email = uniqueEmail("notimage");
    const res = await postForm("/register", {
      name: "Text File",
      email,
      password: PASSWORD,
      image: new File(["just some text"], "photo.png", { type: "image/png" }),
    });
    expect(res.status).toBe(400);
    expect(await res.text()).toContain("Only JPEG, PNG, WebP, GIF and AVIF images are accepted.");
    expect(await userByEmail(email)).toBeUndefined();
  });

  it("sends a signed-in person on to redirectTo instead of showing the form", async () => {
    const user = await makeAccount();
    const res = await get("/register?redirectTo=%2FProfile", await cookieOf(user));
    expect(res.status).toBe(302);
    expect(res.headers.get("Location")).toBe("/Profile");
  });

  it("never sends a signed-in person off the site from /login or /register, whatever redirectTo says", async () => {
    const cookie = await cookieOf(await makeAccount());
    for (const page of ["/login", "/register"]) {
      for (const target of OPEN_REDIRECTS) {
        const res = await get(`${page}?redirectTo=${encodeURIComponent(target)}`, cookie);
        expect(res.status, `${page} ${target}`).toBe(302);
        expectSameSite(res.headers.get("Location"), `${page} ${target}`);
      }
    }
  });
});

describe("/login", () => {
  it("renders the form, the Google link into the redirect flow, the inert Facebook button and the register link carrying redirectTo", async () => {
    const res = await get("/login?redirectTo=%2FProfile");
    expect(res.status).toBe(200);
    const html = text(await res.text());
    expect(html).toContain('name="redirectTo" value="/Profile"');
    expect(html).toContain('href="/auth/google?mode=redirect&intent=login&redirectTo=%2FProfile"');
    expect(html).toMatch(/<button[^>]*disabled=""[^>]*title="Facebook sign-in is not available"/);
    expect(html).toContain('href="/register?redirectTo=%2FProfile"');
  });

  it("signs in: the session cookie, the welcome message, then redirectTo", async () => {
    const user = await makeAccount();
    const res = await postForm("/login", { email: user.email, password: PASSWORD, redirectTo: "/Profile" });
    expect(res.status).toBe(302);
    expect(res.headers.get("Location")).toBe("/Profile");
    const token = sessionTokenFrom(res);
    const profile = await get("/Profile", `__Host-session=${token}`);
    expect(profile.status).toBe(200);
    const flash = setCookies(res).find((c) => c.startsWith("flash="))!;
    const page = await (await get("/", `__Host-session=${token}; ${flash.split(";")[0]}`)).text();
    expect(page).toContain("Login successful");
    expect(page).toContain("Welcome to Edge Blog!");
  });

  it("ignores open-redirect attempts", async () => {
    const user = await makeAccount();
    for (const redirectTo of OPEN_REDIRECTS) {
      const res = await postForm("/login", { email: user.email, password: PASSWORD, redirectTo });
      expect(res.status, redirectTo).toBe(302);
      expectSameSite(res.headers.get("Location"), redirectTo);
    }
  });

  it("answers a wrong password with the reason and the typed email kept, never the password, and no session", async () => {
    const user = await makeAccount();
    const res = await postForm("/login", { email: user.email, password: "Wrong-Password-1" });
    expect(res.status).toBe(401);
    const html = await res.text();
    expect(html).toContain("Invalid email or password.");
    expect(html).toMatch(new RegExp(`<input[^>]*name="email"[^>]*value="${user.email.replace(/[.+]/g, "\\$&")}"`));
    expect(html).not.toContain("Wrong-Password-1");
    expect(setCookies(res).some((c) => c.startsWith("__Host-session="))).toBe(false);
  });

  it("answers a malformed email with the reason", async () => {
    const res = await postForm("/login", { email: "not-an-email", password: "whatever" });
    expect(res.status).toBe(400);
    expect(await res.text()).toContain("Please enter a valid email");
  });

  it("sends a signed-in person to redirectTo, or home", async () => {
    const user = await makeAccount();
    const cookie = await cookieOf(user);
    expect((await get("/login?redirectTo=%2FProfile", cookie)).headers.get("Location")).toBe("/Profile");
    expect((await get("/login?redirectTo=%2F%2Fevil.example.com", cookie)).headers.get("Location")).toBe("/");
  });
});

describe("/logout", () => {
  it("ends the session and clears the cookie, then goes home with the signed-out message", async () => {
    const user = await makeAccount();
    const cookie = await cookieOf(user);
    const res = await postForm("/logout", { redirectTo: "/Profile" }, cookie);
    expect(res.status).toBe(302);
    expect(res.headers.get("Location")).toBe("/");
    expect(setCookies(res).find((c) => c.startsWith("__Host-session="))).toMatch(/Max-Age=0/);
    const flash = setCookies(res).find((c) => c.startsWith("flash="))!;
    const home = await (await get("/", flash.split(";")[0])).text();
    expect(home).toContain("Logged Out!");
    expect(home).toContain("You have been signed out successfully.");
    // The old cookie no longer opens anything: the session row is gone.
    const again = await get("/Profile", cookie);
    expect(again.status).toBe(302);
    expect(again.headers.get("Location")).toBe("/login?redirectTo=%2FProfile");
  });

  it("when the session cannot be ended: back where they were with Error! and the reason, still signed in", async () => {
    const user = await makeAccount();
    const cookie = await cookieOf(user);
    // D1 refuses the session delete only: everything before it (finding who asks) works.
    const failing: D1Database = new Proxy(env.DB, {
      get(target, prop) {
        // No D1 Sessions API here: the request uses this binding as it is.
        if (prop === "withSession") return undefined;
        if (prop === "prepare")
          return (sql: string) => {
            if (/^delete from "sessions"/i.test(sql)) throw new Error("D1_ERROR: Network connection lost.");
            return target.prepare(sql);
          };
        const value = Reflect.get(target, prop);
        return typeof value === "function" ? value.bind(target) : value;
      },
    });
    const send = async (path: string, body: BodyInit, headers: Record<string, string>) => {
      const ctx = createExecutionContext();
      const res = await worker.fetch(
        new Request(`https://blog.test${path}`, {
          method: "POST",
          body,
          headers: { Cookie: cookie, Origin: "https://blog.test", ...headers },
          redirect: "manual",
        }) as Request<unknown, IncomingRequestCfProperties>,
        { ...env, DB: failing },
        ctx,
      );
      await waitOnExecutionContext(ctx);
      return res;
    };

    const page = await send("/logout", new URLSearchParams({ redirectTo: "/Profile" }), {
      "Content-Type": "application/x-www-form-urlencoded",
    });
    expect(page.status).toBe(302);
    expect(page.headers.get("Location")).toBe("/Profile");
    expect(flashOf(page)).toEqual({
      kind: "alert",
      title: "Error!",
      text: DATABASE_UNAVAILABLE_TEXT,
      icon: "error",
    });
    expect(setCookies(page).some((c) => c.startsWith("__Host-session="))).toBe(false);

    // The menu's script asks for JSON, and gets the same sentence to show under "Error!"; so does the API.
    for (const path of ["/logout", "/api/auth/logout"]) {
      const res = await send(path, new URLSearchParams({ redirectTo: "/Profile" }), {
        "Content-Type": "application/x-www-form-urlencoded",
        Accept: "application/json",
      });
      expect(res.status, path).toBe(503);
      expect(await res.json(), path).toEqual({
        error: { code: "database-unavailable", message: DATABASE_UNAVAILABLE_TEXT },
      });
    }

    expect((await get("/Profile", cookie)).status).toBe(200);
  });

  it("answers the menu's script (Accept: application/json) with {ok: true}, the cleared cookie and the flash for home", async () => {
    const user = await makeAccount();
    const cookie = await cookieOf(user);
    const res = await call("/logout", {
      method: "POST",
      body: new URLSearchParams({ redirectTo: "/about" }),
      headers: { Cookie: cookie, Accept: "application/json", "Content-Type": "application/x-www-form-urlencoded" },
    });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ ok: true });
    expect(setCookies(res).find((c) => c.startsWith("__Host-session="))).toMatch(/Max-Age=0/);
    expect(flashOf(res)).toMatchObject({ title: "Logged Out!", text: "You have been signed out successfully." });
    expect((await get("/Profile", cookie)).status).toBe(302);
  });

  it("does not sign out on a GET", async () => {
    const user = await makeAccount();
    const cookie = await cookieOf(user);
    const res = await get("/logout", cookie);
    expect(res.status).toBe(302);
    expect(setCookies(res).some((c) => c.startsWith("__Host-session="))).toBe(false);
    expect((await get("/Profile", cookie)).status).toBe(200);
  });
});

describe("top bar", () => {
  it("shows a signed-in person's avatar menu with Profile and a Sign Out form instead of Sign in", async () => {
    const user = await makeAccount(PASSWORD, { name: "Menu Person", photoUrl: "https://img.example.com/menu.png" });
    const html = text(await (await get("/about", await cookieOf(user))).text());
    expect(html).toContain("Account menu for Menu Person");
    expect(html).toContain('src="https://img.example.com/menu.png"');
    expect(html).toMatch(/href="\/Profile"[^>]*>Profile</);
    // Sign Out asks first: without JavaScript on the /confirm page (tests/pages/confirm.test.ts).
    expect(html).toMatch(/<form method="get" action="\/confirm"/);
    expect(html).not.toMatch(/href="\/login"[^>]*>Sign in</);
  });
});

describe("/Profile", () => {
  it("sends a visitor to /login carrying the path", async () => {
    const res = await get("/Profile");
    expect(res.status).toBe(302);
    expect(res.headers.get("Location")).toBe("/login?redirectTo=%2FProfile");
  });

  it("shows the fallbacks and Create Profile when there is no profile or blog yet", async () => {
    const user = await makeAccount(PASSWORD, { name: "Fresh Writer" });
    const res = await get("/Profile", await cookieOf(user));
    expect(res.status).toBe(200);
    const html = text(await res.text());
    expect(html).toContain("Fresh Writer");
    expect(html).toContain(user.email);
    expect(html).toContain("No bio added yet");
    expect(html).toContain("No designation added yet");
    expect(html).toContain("You haven't written any blogs yet.");
    expect(html).toContain(">Create Profile</a>");
    expect(html).toContain('href="/dashboard"');
  });

  it("without JavaScript, Create Profile links to ?create, which renders the dialog open with name and email locked", async () => {
    const user = await makeAccount(PASSWORD, { name: "No Script" });
    const closed = await (await get("/Profile", await cookieOf(user))).text();
    expect(closed).toContain('href="/Profile?create#create-profile"');
    expect(closed).not.toMatch(/<dialog[^>]*open=""/);
    const html = await (await get("/Profile?create", await cookieOf(user))).text();
    expect(html).toMatch(/<dialog[^>]*open=""/);
    expect(inputTag(html, "name")).toContain('value="No Script"');
    expect(inputTag(html, "name")).toContain('readonly=""');
    expect(inputTag(html, "email")).toContain(`value="${user.email}"`);
    expect(inputTag(html, "email")).toContain('readonly=""');
  });

  it("lists the person's own blogs and nobody else's", async () => {
    const user = await makeAccount();
    const other = await makeAccount();
    await makeBlog(user, { title: "Mine to show" });
    await makeBlog(other, { title: "Someone else's post" });
    const html = text(await (await get("/Profile", await cookieOf(user))).text());
    expect(html).toContain("Mine to show");
    expect(html).not.toContain("Someone else's post");
    expect(html).not.toContain("You haven't written any blogs yet.");
  });

  it("loads with one D1 round trip after the session lookup (profile and blogs batched)", async () => {
    const user = await makeAccount();
    await makeBlog(user);
    const cookie = await cookieOf(user);
    // Counting the calls on the request's D1 session (not replacing them): each prepare is a statement,
    // each batch one round trip.
    const open = env.DB.withSession.bind(env.DB);
    const calls = { prepare: 0, batch: 0 };
    const sessions = vi.spyOn(env.DB, "withSession").mockImplementation((start) => {
      const session = open(start);
      const prepare = session.prepare.bind(session);
      const batch = session.batch.bind(session);
      session.prepare = (query) => (calls.prepare++, prepare(query));
      session.batch = (statements) => (calls.batch++, batch(statements));
      return session;
    });
    try {
      expect((await get("/Profile", cookie)).status).toBe(200);
      expect(calls.batch).toBe(1);
      // The session lookup, then the batch's three statements (profile, a page of posts, their total), and
      // the root layout's unread-notifications count, which runs beside the page's loader.
      expect(calls.prepare).toBe(5);
    } finally {
      sessions.mockRestore();
    }
  });

  it("refuses an empty bio or designation with All fields are required!, keeping what was typed, storing nothing", async () => {
    const user = await makeAccount();
    const res = await postForm(
      "/Profile",
      { intent: "create-profile", bio: "", designation: "Engineer" },
      await cookieOf(user),
    );
    expect(res.status).toBe(400);
    const html = await res.text();
    expect(html).toContain("All fields are required!");
    expect(html).toMatch(/<dialog[^>]*open=""/);
    expect(html).toMatch(/name="designation"[^>]*value="Engineer"/);
    expect(await db().select().from(schema.profiles).where(eq(schema.profiles.userId, user.id))).toHaveLength(0);
  });

  it("creates the profile with the session's name and email, then offers Edit Profile", async () => {
    const user = await makeAccount(PASSWORD, { name: "Locked Name" });
    const cookie = await cookieOf(user);
    const res = await postForm(
      "/Profile",
      {
        intent: "create-profile",
        name: "Someone Else",
        email: "else@example.com",
        bio: "I write about edges.",
        designation: "Engineer",
      },
      cookie,
    );
    expect(res.status).toBe(302);
    expect(res.headers.get("Location")).toBe("/Profile");
    const [row] = await db().select().from(schema.profiles).where(eq(schema.profiles.userId, user.id));
    expect(row).toMatchObject({
      name: "Locked Name",
      email: user.email,
      bio: "I write about edges.",
      designation: "Engineer",
    });
    const html = text(await (await get("/Profile", cookie)).text());
    expect(html).toContain(`href="/editProfile/${row!.id}"`);
    expect(html).toContain("I write about edges.");
    expect(html).not.toContain(">Create Profile</a>");
  });

  it("answers a second profile with the failure text", async () => {
    const user = await makeAccount();
    const cookie = await cookieOf(user);
    await postForm("/Profile", { bio: "First", designation: "One" }, cookie);
    const res = await postForm("/Profile", { bio: "Second", designation: "Two" }, cookie);
    expect(res.status).toBe(409);
    expect(await res.text()).toContain("Failed to create profile. Please try again!");
  });
});

describe("/editProfile/{id}", () => {
  async function withProfile(overrides: Partial<typeof schema.users.$inferInsert> = {}) {
    const user = await makeAccount(PASSWORD, overrides);
    const id = newId();
    await db()
      .insert(schema.profiles)
      .values({ id, userId: user.id, name: user.name, email: user.email, bio: "Old bio", designation: "Old title" });
    return { user, id, cookie: await cookieOf(user) };
  }
  const profileRow = async (id: string) =>
    (await db().select().from(schema.profiles).where(eq(schema.profiles.id, id)))[0];

  it("preloads the owner's profile", async () => {
    const { id, cookie } = await withProfile({ name: "Owner Person" });
    const res = await get(`/editProfile/${id}`, cookie);
    expect(res.status).toBe(200);
    const html = await res.text();
    expect(html).toMatch(/name="name"[^>]*value="Owner Person"/);
    expect(html).toContain("Old bio</textarea>");
    expect(html).toMatch(/name="designation"[^>]*value="Old title"/);
  });

  it("updates it and goes to /Profile with the success message", async () => {
    const { id, cookie } = await withProfile();
    const res = await postForm(
      `/editProfile/${id}`,
      { name: "New Name", bio: "New bio", designation: "New title" },
      cookie,
    );
    expect(res.status).toBe(302);
    expect(res.headers.get("Location")).toBe("/Profile");
    expect(setCookies(res).join("\n")).toContain("flash=");
    expect(await profileRow(id)).toMatchObject({ name: "New Name", bio: "New bio", designation: "New title" });
  });

  it("requires name and designation, beside the fields, keeping what was typed", async () => {
    const { id, cookie } = await withProfile();
    const res = await postForm(`/editProfile/${id}`, { name: "", bio: "Typed bio", designation: "" }, cookie);
    expect(res.status).toBe(400);
    const html = await res.text();
    expect(html).toContain("Name is required.");
    expect(html).toContain("Designation is required.");
    expect(html).toContain("Typed bio</textarea>");
    expect(await profileRow(id)).toMatchObject({ name: expect.any(String), bio: "Old bio", designation: "Old title" });
  });

  it("gives another user the 403 page for both the page and the action, and changes nothing", async () => {
    const { id } = await withProfile();
    const stranger = await makeAccount();
    const cookie = await cookieOf(stranger);
    expect((await get(`/editProfile/${id}`, cookie)).status).toBe(403);
    const before = await profileRow(id);
    const res = await postForm(
      `/editProfile/${id}`,
      { name: "Hijacked", bio: "Hijacked", designation: "Hijacked" },
      cookie,
    );
    expect(res.status).toBe(403);
    expect(await profileRow(id)).toEqual(before);
  });

  it("lets an admin open and save it", async () => {
    const { id } = await withProfile();
    const admin = await makeAccount(PASSWORD, { role: "admin" });
    const cookie = await cookieOf(admin);
    expect((await get(`/editProfile/${id}`, cookie)).status).toBe(200);
    const res = await postForm(
      `/editProfile/${id}`,
      { name: "Fixed By Admin", bio: "", designation: "Old title" },
      cookie,
    );
    expect(res.status).toBe(302);
    // The bio was sent empty, so it is saved empty (issue 47: an emptied optional field is not kept).
    expect(await profileRow(id)).toMatchObject({ name: "Fixed By Admin", bio: "" });
  });

  it("sends visitors to /login (page and action) and answers unknown ids with 404", async () => {
    const { id } = await withProfile();
    const page = await get(`/editProfile/${id}`);
    expect(page.headers.get("Location")).toBe(`/login?redirectTo=${encodeURIComponent(`/editProfile/${id}`)}`);
    const before = await profileRow(id);
    const post = await postForm(`/editProfile/${id}`, { name: "Visitor", designation: "Visitor" });
    expect(post.status).toBe(302);
    expect(post.headers.get("Location")).toContain("/login?redirectTo=");
    expect(await profileRow(id)).toEqual(before);
    const user = await makeAccount();
    expect((await get("/editProfile/not-a-real-id", await cookieOf(user))).status).toBe(404);
  });
});
