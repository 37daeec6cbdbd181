import { describe, expect, it } from "vitest";
import { GOOGLE_REAUTH_MAX_AGE_MS, googleProofFresh } from "#worker/services/accounts/settings.ts";

// One rule for "a Google sign-in still proves the owner": the account service checks it before a delete
// or an email change, and the settings page asks the same function whether to say it is confirmed.
describe("googleProofFresh", () => {
  const now = 1_700_000_000_000;
  it("is fresh for five minutes after the Google sign-in", () => {
    expect(googleProofFresh(now - 1000, now)).toBe(true);
    expect(googleProofFresh(now - GOOGLE_REAUTH_MAX_AGE_MS, now)).toBe(true);
    expect(googleProofFresh(now - GOOGLE_REAUTH_MAX_AGE_MS - 1, now)).toBe(false);
  });
  it("is never fresh without a sign-in, or with one dated in the future", () => {
    expect(googleProofFresh(null, now)).toBe(false);
    expect(googleProofFresh(undefined, now)).toBe(false);
    expect(googleProofFresh(now + 61_000, now)).toBe(false);
  });
});
