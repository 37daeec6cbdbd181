import { env } from "cloudflare:workers";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { schema } from "#worker/db.ts";
import { createServices } from "#worker/services/index.ts";
import { hashToken, type TOKEN_KINDS } from "#worker/services/accounts/tokens.ts";
import { ValidationError } from "#worker/services/shared/errors.ts";
import { db, makeUser } from "../support/factories";

const tokens = () => createServices(env).accountTokens;

async function issued(kind: keyof typeof TOKEN_KINDS = "password-reset", data: object = {}, now = Date.now()) {
  const user = await makeUser();
  const { token, statements, expiresAt } = await tokens().issue(kind, user.id, data, now);
  await db().batch(statements);
  return { user, token, expiresAt };
}

async function refusal(promise: Promise<unknown>): Promise<string> {
  const err = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(ValidationError);
  return (err as ValidationError).code;
}

describe("single-use account tokens", () => {
  it("are 256-bit URL-safe strings, stored only as their SHA-256", async () => {
    const { user, token } = await issued();
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const rows = await db().select().from(schema.accountTokens).where(eq(schema.accountTokens.userId, user.id));
    expect(rows).toHaveLength(1);
    expect(rows[0]?.tokenHash).toBe(await hashToken(token));
    expect(rows[0]?.tokenHash).toMatch(/^[0-9a-f]{64}$/);
    expect(JSON.stringify(rows)).not.toContain(token);
  });

  it("live 24 hours for an email check and one hour for a password reset", async () => {
    const now = Date.now();
    expect((await issued("verify-email", {}, now)).expiresAt).toBe(now + 24 * 60 * 60 * 1000);
    expect((await issued("password-reset", {}, now)).expiresAt).toBe(now + 60 * 60 * 1000);
  });

  it("redeem once: a second use is refused", async () => {
    const { user, token } = await issued("email-change", { newEmail: "new@example.com" });
    expect(await tokens().redeem("email-change", token)).toEqual({
      userId: user.id,
      data: { newEmail: "new@example.com" },
    });
    expect(await refusal(tokens().redeem("email-change", token))).toBe("token-used");
    expect(await refusal(tokens().inspect("email-change", token))).toBe("token-used");
  });

  it("are refused once expired", async () => {
    const now = Date.now();
    const { token } = await issued("password-reset", {}, now);
    await expect(tokens().inspect("password-reset", token, now + 60 * 60 * 1000 - 1)).resolves.toBeTruthy();
    expect(await refusal(tokens().redeem("password-reset", token, undefined, now + 60 * 60 * 1000))).toBe(
      "token-expired",
    );
  });

  it("refuse forged, altered, malformed and other-kind tokens", async () => {
    const { token } = await issued("password-reset");
    const altered = `${token.slice(0, -1)}${token.endsWith("A") ? "B" : "A"}`;
    const forged = "x".repeat(43);
    for (const bad of [altered, forged, `${token}x`, token.slice(1), "", null, 42, { token }]) {
      expect(await refusal(tokens().redeem("password-reset", bad))).toBe("token-invalid");
    }
    expect(await refusal(tokens().redeem("verify-email", token))).toBe("token-invalid");
    // The genuine one still works after all that.
    await expect(tokens().redeem("password-reset", token)).resolves.toBeTruthy();
  });

  it("a new token of a kind replaces the person's unused one", async () => {
    const { user, token: first } = await issued("password-reset");
    const second = await tokens().issue("password-reset", user.id);
    await db().batch(second.statements);
    expect(await refusal(tokens().inspect("password-reset", first))).toBe("token-invalid");
    await expect(tokens().inspect("password-reset", second.token)).resolves.toMatchObject({ userId: user.id });
  });

  it("what a redemption adds happens in the same batch, guarded by the claim", async () => {
    const { user, token } = await issued("password-reset");
    await tokens().redeem("password-reset", token, (claim) => [
      db().update(schema.users).set({ name: "Renamed" }).where(claim.guard),
    ]);
    const row = await db().query.users.findFirst({ where: eq(schema.users.id, user.id) });
    expect(row?.name).toBe("Renamed");
    // A second try changes nothing.
    await refusal(
      tokens().redeem("password-reset", token, (claim) => [
        db().update(schema.users).set({ name: "Twice" }).where(claim.guard),
      ]),
    );
    expect((await db().query.users.findFirst({ where: eq(schema.users.id, user.id) }))?.name).toBe("Renamed");
  });

  it("two requests racing with one token: exactly one wins", async () => {
    const { user, token } = await issued("password-reset");
    const results = await Promise.allSettled(
      ["First", "Second", "Third"].map((name) =>
        tokens().redeem("password-reset", token, (claim) => [
          db().update(schema.users).set({ name }).where(claim.guard),
        ]),
      ),
    );
    expect(results.filter((r) => r.status === "fulfilled")).toHaveLength(1);
    const name = (await db().query.users.findFirst({ where: eq(schema.users.id, user.id) }))?.name;
    expect(["First", "Second", "Third"]).toContain(name);
  });
});
