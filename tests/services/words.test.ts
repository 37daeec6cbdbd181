import { describe, expect, it } from "vitest";
import { MSG } from "#app/lib/messages.ts";
import { MAIL_TEMPLATES } from "#worker/services/mail/templates.ts";

describe("words people read", () => {
  it("a site's name takes its article: an Edge Blog account, a Blog account", () => {
    const after = (site: string) => MAIL_TEMPLATES["verify-email"](site, { name: "Ann", url: "https://x.test/" }).after;
    expect(after("Edge Blog")).toContain("If you did not create an Edge Blog account, you can ignore this message.");
    expect(after("Blog Hub")).toContain("If you did not create a Blog Hub account, you can ignore this message.");
  });

  it("the spec's broken sentences are real sentences", () => {
    const all = JSON.stringify(MSG);
    for (const old of ["You can now login", "Feedback Submit Successfully!", "Your file has been deleted"]) {
      expect(all).not.toContain(old);
    }
  });
});
