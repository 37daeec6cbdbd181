import { beforeAll, describe, expect, it } from "vitest";
import { makeBlog, makeUser, sessionFor } from "../support/factories";
import { call } from "../support/http";

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

  beforeAll(async () => {
    const writer = await makeUser({ name: "Una Known" });
    cookie = `session=${await sessionFor(writer)}`;
    blogId = (await makeBlog(writer)).id;
  });

  it("is answered the same way everywhere: 400 with the page itself (not the error page), nothing done", async () => {
    for (const path of ["/?index", `/blogs/${blogId}`, "/dashboard/manageBlogs"]) {
      const res = await postForm(path, { intent: "nonsense", id: blogId }, cookie);
      expect(res.status, path).toBe(400);
      const html = await res.text();
      // The page itself comes back (its form can show the refusal), not the error page.
      expect(html, path).not.toContain("Something went wrong");
    }
    // The post is still there.
    expect((await call(`/blogs/${blogId}`)).status).toBe(200);
  });
});
