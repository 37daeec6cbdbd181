import { describe, expect, it } from "vitest";
import { makeBlog, makeUser, sessionFor } from "../support/factories";
import { call } from "../support/http";

/** Issue 18, seen from outside: each finding of the second hardening pass, as the attack was made. */
describe("finding 3: a signed-in page is never stored as a shared copy", () => {
  it("the spaced cookie (and every other spelling) bypasses the shared cache; the anonymous reader after it gets a fresh anonymous page", async () => {
    const reader = await makeUser({ name: "Spaced Cookie Reader" });
    const token = await sessionFor(reader);
    const writer = await makeUser({ name: "Spaced Writer" });
    for (const spelling of [
      `session =${token}`,
      `session=${token}`,
      ` SESSION=${token}`,
      `__Host-session=${token}`,
      `__secure-session=${token}`,
      `%73ession=${token}`,
      `theme=dark; session\t=${token}`,
    ]) {
      const path = `/blogs/${(await makeBlog(writer)).id}`;
      const personal = await call(path, { headers: { Cookie: spelling } });
      expect(personal.status).toBe(200);
      expect(personal.headers.get("Cache-Control"), spelling).toBe("private, no-store");
      expect(personal.headers.get("X-Cache")).toBe("BYPASS");
      await personal.body?.cancel();
      // Nothing was stored: the next anonymous reader is a MISS and is not the reader.
      const anonymous = await call(path);
      expect(anonymous.headers.get("X-Cache"), spelling).toBe("MISS");
      expect(await anonymous.text()).not.toContain("Spaced Cookie Reader");
    }
  });

  it("a browser still sending the old, unprefixed session cookie is told to drop it", async () => {
    const res = await call("/about", { headers: { Cookie: "session=old-token" } });
    expect(res.headers.getSetCookie().some((c) => /^session=;.*Max-Age=0/.test(c))).toBe(true);
    expect(res.headers.get("Cache-Control")).toBe("private, no-store");
  });
});
