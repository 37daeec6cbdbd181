import { describe, expect, it } from "vitest";
import { hashPassword } from "#worker/auth/passwords.ts";
import { schema } from "#worker/db.ts";
import { newId } from "#worker/services/shared/ids.ts";
import { REGISTER_ADDRESS_LIMIT, LOGIN_ADDRESS_LIMIT, LOGIN_LIMIT } from "#worker/services/users.ts";
import { REVIEWS_PER_DAY } from "#worker/services/reviews.ts";
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
