import { describe, expect, it } from "vitest";
import {
  assertPasswordPolicy,
  hashPassword,
  PASSWORD_POLICY_CODE,
  PASSWORD_REQUIREMENTS,
  PBKDF2,
  passwordProblem,
  verifyPassword,
} from "#worker/auth/passwords.ts";
import { ValidationError } from "#worker/services/shared/errors.ts";

describe("password policy", () => {
  it.each([
    ["", "empty"],
    ["short1!", "7 characters"],
    ["12345678", "only digits"],
    ["1234567890123456", "only digits, long"],
    ["a".repeat(129), "129 characters"],
  ])("refuses %j (%s) with the policy code and a message that says what is required", (password) => {
    let caught: unknown;
    try {
      assertPasswordPolicy(password);
    } catch (err) {
      caught = err;
    }
    expect(caught).toBeInstanceOf(ValidationError);
    const error = caught as ValidationError;
    expect(error.code).toBe(PASSWORD_POLICY_CODE);
    expect(error.code).toBe("password-does-not-meet-requirements");
    expect(error.fields.password).toContain(PASSWORD_REQUIREMENTS);
    expect(error.message).toContain("8 to 128 characters");
  });

  it("refuses values that are not text", () => {
    for (const value of [undefined, null, 12345678, ["password1"], { p: 1 }])
      expect(passwordProblem(value)).not.toBeNull();
  });

  it.each([
    ["abcdefgh", "8 letters"],
    ["1234567a", "digits and one letter"],
    ["correct horse battery staple", "a passphrase"],
    ["a".repeat(128), "128 characters"],
    ["😀😀😀😀😀😀😀😀", "8 emoji count as 8 characters"],
  ])("accepts %j (%s)", (password) => {
    expect(passwordProblem(password)).toBeNull();
    expect(assertPasswordPolicy(password)).toBe(password);
  });
});

describe("password hashing", () => {
  it("pins PBKDF2-SHA256 at the Workers cap of 100,000 iterations, 16-byte salt, 32-byte key", () => {
    expect(PBKDF2).toEqual({
      scheme: "pbkdf2-sha256",
      iterations: 100_000,
      maxIterations: 100_000,
      saltBytes: 16,
      keyBytes: 32,
    });
  });

  it("stores the parameters in the hash itself", async () => {
    const hash = await hashPassword("correct horse");
    const [scheme, iterations, salt, key] = hash.split("$");
    expect(scheme).toBe("pbkdf2-sha256");
    expect(iterations).toBe("100000");
    expect(atob(salt!).length).toBe(16);
    expect(atob(key!).length).toBe(32);
    expect(hash).not.toContain("correct horse");
  });

  it("refuses to hash past the production iteration cap", async () => {
    await expect(hashPassword("correct horse", 100_001)).rejects.toThrow(RangeError);
    await expect(hashPassword("correct horse", 0)).rejects.toThrow(RangeError);
  });

  it("verifies the right password and refuses a wrong one", async () => {
    const hash = await hashPassword("correct horse");
    expect(await verifyPassword("correct horse", hash)).toBe(true);
    expect(await verifyPassword("correct horsE", hash)).toBe(false);
    expect(await verifyPassword("", hash)).toBe(false);
  });

  it("uses a fresh salt each time, so equal passwords give different hashes", async () => {
    const a = await hashPassword("same password");
    const b = await hashPassword("same password");
    expect(a).not.toBe(b);
    expect(a.split("$")[2]).not.toBe(b.split("$")[2]);
    expect(await verifyPassword("same password", a)).toBe(true);
    expect(await verifyPassword("same password", b)).toBe(true);
  });

  it("reads the iteration count from the stored hash", async () => {
    const fewer = await hashPassword("older hash", 1_000);
    expect(fewer.split("$")[1]).toBe("1000");
    expect(await verifyPassword("older hash", fewer)).toBe(true);
    // The same salt and key under another count no longer match: the count really is used.
    expect(await verifyPassword("older hash", fewer.replace("$1000$", "$1001$"))).toBe(false);
  });

  it("answers false, never throws, for malformed or over-cap stored hashes", async () => {
    const good = await hashPassword("correct horse");
    const [, , salt, key] = good.split("$");
    for (const stored of [
      "",
      "plain-text",
      `bcrypt$100000$${salt}$${key}`,
      `pbkdf2-sha256$abc$${salt}$${key}`,
      `pbkdf2-sha256$200000$${salt}$${key}`,
      `pbkdf2-sha256$100000$!!!$${key}`,
      `pbkdf2-sha256$100000$${salt}$`,
      `pbkdf2-sha256$100000$${salt}$${key}$extra`,
    ]) {
      expect(await verifyPassword("correct horse", stored)).toBe(false);
    }
  });
});
