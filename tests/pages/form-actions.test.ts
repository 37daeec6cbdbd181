import { MSG } from "#app/lib/messages.ts";
import { beforeAll, describe, expect, it } from "vitest";
import { makeBlog, makeUser, sessionFor } from "../support/factories";
import { call } from "../support/http";
import { postPath } from "#worker/services/blogs/slug.ts";

/** Posts a form the way a browser without JavaScript does. */
function postForm(path: string, fields: Record<string, string>, cookie?: string) {
  return call(path, {
    method: "POST",
    body: new URLSearchParams(fields),
    headers: { "Content-Type": "application/x-www-form-urlencoded", ...(cookie ? { Cookie: cookie } : {}) },
    redirect: "manual",
  });
}

describe("a form with an intent the page does not know", () => {
  let cookie: string;
  let blogId: string;
  let post: { id: string; title: string };

  beforeAll(async () => {
    const writer = await makeUser({ name: "Una Known" });
    cookie = `__Host-session=${await sessionFor(writer)}`;
    post = await makeBlog(writer);
    blogId = post.id;
  });

  it("is answered the same way everywhere: 400 with the page itself (not the error page), nothing done", async () => {
    for (const path of ["/?index", postPath(post), "/dashboard/manageBlogs"]) {
      const res = await postForm(path, { intent: "nonsense", id: blogId }, cookie);
      expect(res.status, path).toBe(400);
      const html = await res.text();
      // The page itself comes back (its form can show the refusal), not the error page.
      expect(html, path).not.toContain("Something went wrong");
    }
    // The post is still there.
    expect((await call(postPath(post))).status).toBe(200);
  });
});

describe("flash messages", () => {
  const b64 = (value: object) => btoa(JSON.stringify(value));

  it("show only when the site signed them: a hand-made flash cookie is ignored", async () => {
    const forged = b64({ kind: "alert", title: "Your account is locked, call 555-0100" });
    const res = await call("/about", { headers: { Cookie: `flash=${forged}` } });
    expect(await res.text()).not.toContain("call 555-0100");
  });

  it("signed on the way out by the Worker, read back once, then cleared", async () => {
    const writer = await makeUser({ name: "Flash Reader" });
    const blog = await makeBlog(writer);
    // A visitor pressing Save is sent to /login with the spec's message as a flash.
    const save = await postForm(`/blogs/${blog.id}`, { intent: "save" });
    const setCookie = save.headers.getSetCookie().find((c) => c.startsWith("flash="));
    expect(setCookie).toMatch(/^flash=[^;]+\.[^;]+;/);
    const cookie = setCookie!.split(";")[0]!;
    const page = await call("/login", { headers: { Cookie: cookie } });
    expect(await page.text()).toContain(MSG.save.needLogin);
    expect(page.headers.getSetCookie().some((c) => /^flash=;.*Max-Age=0/i.test(c))).toBe(true);
    // Tampering with the signed value voids it.
    const tampered = cookie.replace(/^flash=./, (m) => (m.endsWith("e") ? "flash=f" : "flash=e"));
    expect(await (await call("/login", { headers: { Cookie: tampered } })).text()).not.toContain(MSG.save.needLogin);
  });
});
