import { describe, expect, it } from "vitest";
import { eq } from "drizzle-orm";
import { hashPassword } from "#worker/auth/passwords.ts";
import { schema } from "#worker/db.ts";
import { newId } from "#worker/services/shared/ids.ts";
import { REGISTER_ADDRESS_LIMIT, LOGIN_ADDRESS_LIMIT, LOGIN_LIMIT } from "#worker/services/accounts/model.ts";
import { REVIEWS_PER_DAY } from "#worker/services/reviews.ts";
import { clientAddressKey } from "#worker/services/client-address.ts";
import { asUser, db, makeUser } from "../support/factories";
import { call } from "../support/http";

const json = (path: string, body: unknown, headers: Record<string, string> = {}) =>
  call(path, {
    method: "POST",
    headers: { "Content-Type": "application/json", ...headers },
    body: JSON.stringify(body),
  });

let counter = 0;
const address = () => `203.0.113.${(counter++ % 200) + 1}`;
const email = (tag: string) => `${tag}-${Date.now().toString(36)}-${counter++}@example.com`;

async function account(password = "correct horse battery") {
  const row = { id: newId(), name: "Limited", email: email("acct"), passwordHash: await hashPassword(password) };
  await db().insert(schema.users).values(row);
  return { ...row, password };
}

describe("abuse limits", () => {
  it(`reviews: ${REVIEWS_PER_DAY} a day per account, then 429 with Retry-After; the home page shows one per person`, async () => {
    const user = await makeUser({ name: "Prolific Reviewer" });
    const headers = await asUser(user);
    for (let i = 1; i <= REVIEWS_PER_DAY; i++) {
      const res = await json(
        "/api/review",
        { name: "Prolific", designation: "Fan", review: `Review number ${i}`, image: "/images/r-000000001.png" },
        headers,
      );
      expect(res.status).toBe(201);
    }
    const refused = await json(
      "/api/review",
      { name: "Prolific", designation: "Fan", review: "One too many", image: "/images/r-000000001.png" },
      headers,
    );
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get("Retry-After"))).toBeGreaterThan(0);
    // Reviews wait for an admin's approval before the home page shows them.
    await db().update(schema.reviews).set({ status: "approved" }).where(eq(schema.reviews.userId, user.id));
    const home = await (await call("/")).text();
    expect(home).toContain(`Review number ${REVIEWS_PER_DAY}`);
    expect(home).not.toContain("Review number 1<");
    expect(home).not.toContain("One too many");
  });

  it(`registrations: ${REGISTER_ADDRESS_LIMIT.attempts} an hour per client address, then 429`, async () => {
    const from = { "CF-Connecting-IP": address() };
    for (let i = 0; i < REGISTER_ADDRESS_LIMIT.attempts; i++) {
      const res = await json(
        "/api/auth/register",
        { name: "New", email: email("reg"), password: "a good password" },
        from,
      );
      expect(res.status).toBe(201);
    }
    const refused = await json(
      "/api/auth/register",
      { name: "New", email: email("reg"), password: "a good password" },
      from,
    );
    expect(refused.status).toBe(429);
    expect(refused.headers.get("Retry-After")).toMatch(/^\d+$/);
    // Another address is not affected.
    const other = await json(
      "/api/auth/register",
      { name: "New", email: email("reg"), password: "a good password" },
      { "CF-Connecting-IP": address() },
    );
    expect(other.status).toBe(201);
  });

  it(`failed sign-ins: ${LOGIN_ADDRESS_LIMIT.failures} per client address across emails, then 429 even for a new email`, async () => {
    const from = { "CF-Connecting-IP": address() };
    for (let i = 0; i < LOGIN_ADDRESS_LIMIT.failures; i++) {
      const res = await json("/api/auth/login", { email: email("guess"), password: "wrong password" }, from);
      expect(res.status).toBe(401);
    }
    const refused = await json("/api/auth/login", { email: email("guess"), password: "wrong password" }, from);
    expect(refused.status).toBe(429);
    expect(refused.headers.get("Retry-After")).toMatch(/^\d+$/);
  }, 60_000);

  it("a locked account: strangers wait, the owner's known browser still signs in with the right password", async () => {
    const owner = await account();
    // The owner signed in from this browser before: it carries the signed device cookie.
    const first = await json("/api/auth/login", { email: owner.email, password: owner.password });
    expect(first.status).toBe(200);
    const device = first.headers
      .getSetCookie()
      .find((c) => c.startsWith("device="))!
      .split(";")[0]!;
    expect(device).toMatch(/^device=.+\..+/);
    // A stranger guesses until the account locks.
    for (let i = 0; i < LOGIN_LIMIT.attempts; i++) {
      const res = await json(
        "/api/auth/login",
        { email: owner.email, password: `guess ${i}` },
        { "CF-Connecting-IP": address() },
      );
      expect(res.status).toBe(401);
    }
    const stranger = await json(
      "/api/auth/login",
      { email: owner.email, password: owner.password },
      { "CF-Connecting-IP": address() },
    );
    expect(stranger.status).toBe(429);
    // A forged device cookie does not pass.
    const forged = await json(
      "/api/auth/login",
      { email: owner.email, password: owner.password },
      { Cookie: `device=${owner.id}` },
    );
    expect(forged.status).toBe(429);
    const ownerAgain = await json(
      "/api/auth/login",
      { email: owner.email, password: owner.password },
      { Cookie: device },
    );
    expect(ownerAgain.status).toBe(200);
    // Signing in clears the lock.
  }, 60_000);
});

describe("second pass", () => {
  it(`200 parallel wrong passwords for one account get at most ${LOGIN_LIMIT.attempts} password checks`, async () => {
    const victim = await makeUser({ passwordHash: await hashPassword("the right password") });
    // Each from its own address (call() gives every request one), so only the account's limit applies.
    const answers = await Promise.all(
      Array.from({ length: 200 }, (_, i) => json("/api/auth/login", { email: victim.email, password: `wrong ${i}` })),
    );
    const statuses = answers.map((r) => r.status);
    expect(statuses.filter((s) => s === 401).length).toBeLessThanOrEqual(LOGIN_LIMIT.attempts);
    expect(statuses.filter((s) => s === 429).length).toBeGreaterThanOrEqual(200 - LOGIN_LIMIT.attempts);
    expect(statuses.every((s) => s === 401 || s === 429)).toBe(true);
    // Still locked for the right password too (the window's count is spent).
    expect((await json("/api/auth/login", { email: victim.email, password: "the right password" })).status).toBe(429);
  }, 30_000); // 200 requests; a loaded CI machine needs more than the default 5 s

  it("two IPv6 addresses in one /64 share a limit; another /64 does not", async () => {
    const net = `2001:db8:${(counter++ % 60000).toString(16)}:${(counter++ % 60000).toString(16)}`;
    for (let i = 0; i < REGISTER_ADDRESS_LIMIT.attempts; i++) {
      const from = { "CF-Connecting-IP": `${net}::${(i + 1).toString(16)}` };
      expect(
        (await json("/api/auth/register", { name: "Six", email: email("v6"), password: "a good password" }, from))
          .status,
      ).toBe(201);
    }
    const sameNet = { "CF-Connecting-IP": `${net}:ffff:ffff:ffff:fffe` };
    expect(
      (await json("/api/auth/register", { name: "Six", email: email("v6"), password: "a good password" }, sameNet))
        .status,
    ).toBe(429);
    const otherNet = { "CF-Connecting-IP": `2001:db8:ffff:${(counter++ % 60000).toString(16)}::1` };
    expect(
      (await json("/api/auth/register", { name: "Six", email: email("v6"), password: "a good password" }, otherNet))
        .status,
    ).toBe(201);
  });

  it("requests without a client address are one shared client, never unlimited", () => {
    expect(clientAddressKey(null)).toBe("unknown");
    expect(clientAddressKey("")).toBe("unknown");
    expect(clientAddressKey("not an address")).toBe("unknown");
    expect(clientAddressKey("203.0.113.9")).toBe("203.0.113.9");
    expect(clientAddressKey("2001:db8:1:2:3:4:5:6")).toBe("2001:db8:1:2::/64");
    expect(clientAddressKey("2001:DB8:1:2::ffff")).toBe("2001:db8:1:2::/64");
    expect(clientAddressKey("2001:db8::1")).toBe("2001:db8:0:0::/64");
    expect(clientAddressKey("::ffff:198.51.100.4")).toBe("198.51.100.4");
  });
});
