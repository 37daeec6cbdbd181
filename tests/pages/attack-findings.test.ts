import { describe, expect, it } from "vitest";
import { makeBlog, makeUser, sessionFor } from "../support/factories";
import { env, exports } from "cloudflare:workers";
import { call, untilHit } from "../support/http";

/** Asks until the answer is a HIT: the MISS stores its copy in waitUntil, after the answer went out. */
/** Seen from outside: each finding of the second hardening pass (SECURITY.md), as the attack was made. */
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

describe("finding 6: the cache key keeps only the parameters a page reads", () => {
  it("?x=N is the same shared copy as the bare URL: a HIT, never a forced miss", async () => {
    const writer = await makeUser({ name: "Param Writer" });
    const path = `/blogs/${(await makeBlog(writer)).id}`;
    await (await untilHit(path)).body?.cancel();
    for (let n = 0; n < 5; n++) {
      const res = await call(`${path}?x=${n}&utm_source=${n}`);
      expect(res.headers.get("X-Cache"), String(n)).toBe("HIT");
      await res.body?.cancel();
    }
    // A parameter the page reads still makes its own copy.
    const other = await call("/allBlogs?page=2&x=1");
    expect(other.status).toBe(200);
    await other.body?.cancel();
    expect((await untilHit("/allBlogs?x=9&page=2")).status).toBe(200);
  });
});

describe("finding 8: the host is not trusted", () => {
  it("canonical links and feeds name the configured origin, whatever Host the request came through", async () => {
    expect(env.SITE_URL).toBe("https://blog.test");
    const via = (path: string) =>
      (exports as unknown as { default: Fetcher }).default.fetch(
        new Request(`https://evil.example${path}`, { headers: { "CF-Connecting-IP": "192.0.2.7" } }),
      );
    for (const path of ["/rss.xml", "/", "/about", "/robots.txt", "/sitemap.xml"]) {
      const text = await (await via(path)).text();
      expect(text, path).not.toContain("evil.example");
      expect(text, path).toContain("https://blog.test");
    }
  });
});
