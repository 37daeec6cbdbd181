import { describe, expect, it } from "vitest";
// The built server bundle as text (vite ?raw import).
// eslint-disable-next-line no-restricted-imports -- the build output has no alias; this test reads it as text
import serverBuild from "../../build/server/index.js?raw";
import { statusOf } from "#worker/api/errors.ts";
import { formStatus } from "#app/lib/forms.server.ts";
import {
  Conflict,
  DomainError,
  NotFound,
  ValidationError,
  tooLarge,
  unsupportedType,
} from "#worker/services/shared/errors.ts";

describe("domain errors", () => {
  it("match their own class and their parents, not their siblings", () => {
    const err = new ValidationError({ email: "bad" });
    expect(err).toBeInstanceOf(ValidationError);
    expect(err).toBeInstanceOf(DomainError);
    expect(err).toBeInstanceOf(Error);
    expect(err).not.toBeInstanceOf(NotFound);
    expect(new Error("plain")).not.toBeInstanceOf(DomainError);
    expect(statusOf(new Conflict())).toBe(409);
  });

  it("carry a stable code and a kind; the statuses live in the adapters' maps, one per side", () => {
    for (const [err, status] of [
      [new ValidationError({}), 400],
      [new Conflict(), 409],
      [tooLarge(), 413],
      [unsupportedType(), 415],
    ] as const) {
      expect(statusOf(err)).toBe(status);
      expect(formStatus(err)).toBe(status);
    }
    expect(tooLarge().code).toBe("payload-too-large");
    expect(unsupportedType().code).toBe("unsupported-media-type");
  });

  it("exist once: the Remix server build imports the worker's modules instead of bundling a copy", () => {
    // A second copy would make `instanceof` fail for errors thrown by services and caught by pages.
    expect(serverBuild).toMatch(/(from|import)\s*"\.\.\/\.\.\/worker\/services\/shared\/errors\.ts"/);
    // The errors module's own texts are not in the bundle either.
    expect(serverBuild).not.toContain("You are not allowed to do that.");
  });
});
