import { describe, expect, it } from "vitest";
import { Conflict, DomainError, NotFound, ValidationError, statusOf } from "#worker/services/errors";

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

  it("are recognised when made by another copy of the module (the Remix server build bundles one)", () => {
    // What the other copy's ValidationError looks like from here: a plain Error carrying the registered kinds.
    const foreign = Object.assign(new Error("Some fields are not valid."), {
      code: "validation-failed",
      fields: { email: "bad" },
      [Symbol.for("edge-blog.domain-error-kinds")]: ["ValidationError", "DomainError"],
    });
    expect(foreign).toBeInstanceOf(ValidationError);
    expect(foreign).toBeInstanceOf(DomainError);
    expect(foreign).not.toBeInstanceOf(NotFound);
    expect(statusOf(foreign as unknown as DomainError)).toBe(400);
  });
});
