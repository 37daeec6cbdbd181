import { describe, expect, it } from "vitest";
import { asUser, clearContent, makeBlog, makeUser } from "../support/factories";
import { call, send, untilHit } from "../support/http";
import { cookieFor, postForm } from "../support/pages";

describe("following writers on the pages", () => {
  it("the Follow form works without JavaScript and comes back to the page; a visitor signs in first", async () => {
    const writer = await makeUser({ name: "Form Writer" });
    const blog = await makeBlog(writer);
    const reader = await makeUser();
    const visitor = await postForm(`/writers/${writer.id}/follow`, null, {
      intent: "follow",
      redirectTo: `/blogs/${blog.id}`,
    });
    expect(visitor.status).toBe(302);
    expect(visitor.headers.get("Location")).toBe(`/login?redirectTo=${encodeURIComponent(`/blogs/${blog.id}`)}`);

    const res = await postForm(`/writers/${writer.id}/follow`, reader, {
      intent: "follow",
      redirectTo: `/blogs/${blog.id}`,
    });
    expect(res.status).toBe(302);
    expect(res.headers.get("Location")).toBe(`/blogs/${blog.id}`);
    const page = await call(`/blogs/${blog.id}`, { headers: await cookieFor(reader) });
    const html = await page.text();
    expect(html).toContain(`aria-label="Unfollow Form Writer"`);

    // An off-site redirectTo falls back to the writer's page.
    const evil = await postForm(`/writers/${writer.id}/follow`, reader, {
      intent: "unfollow",
      redirectTo: "//evil.example/x",
    });
    expect(evil.headers.get("Location")).toBe(`/writers/${writer.id}`);
    const after = await (await call(`/writers/${writer.id}`, { headers: await cookieFor(reader) })).text();
    expect(after).toContain(`aria-label="Follow Form Writer"`);
  });

  it("the writer page shows the follower count, and a follow purges its shared copy", async () => {
    const writer = await makeUser({ name: "Counted Writer" });
    await makeBlog(writer);
    const path = `/writers/${writer.id}`;
    expect(await (await untilHit(path)).text()).toMatch(/>0<\/span> <!-- -->followers/);
    await send("POST", `/api/writers/${writer.id}/follow`, undefined, await asUser(await makeUser()));
    const fresh = await call(path);
    expect(fresh.headers.get("X-Cache")).not.toBe("HIT");
    expect(await fresh.text()).toMatch(/>1<\/span> <!-- -->follower</);
  });

  it("/following lists the followed writers' posts for the signed-in reader, and sends visitors to sign in", async () => {
    const writer = await makeUser({ name: "Feed Writer" });
    await makeBlog(writer, { title: "Followed post" });
    await makeBlog(writer, { title: "Draft post", status: "draft" });
    const reader = await makeUser();
    const visitor = await call("/following", { redirect: "manual" });
    expect(visitor.status).toBe(302);
    expect(visitor.headers.get("Location")).toContain("/login");
    await send("POST", `/api/writers/${writer.id}/follow`, undefined, await asUser(reader));
    const res = await call("/following", { headers: await cookieFor(reader) });
    expect(res.headers.get("Cache-Control")).toBe("private, no-store");
    const html = await res.text();
    expect(html).toContain("Followed post");
    expect(html).not.toContain("Draft post");
  });

  it("Who to Follow suggests real writers the reader does not follow, and the static people only when there are none", async () => {
    await clearContent();
    const none = await (await call("/allBlogs")).text();
    expect(none).toContain("Amara Cole");

    const [w1, w2] = [await makeUser({ name: "Suggested One" }), await makeUser({ name: "Suggested Two" })];
    await makeBlog(w1);
    await makeBlog(w2);
    const reader = await makeUser({ name: "Reader" });
    await makeBlog(reader);
    // Another shared copy than the one above (the factories write without purging).
    const visitors = await (await call("/allBlogs?page=1")).text();
    expect(visitors).not.toContain("Amara Cole");
    expect(visitors).toContain(`aria-label="Follow Suggested One"`);
    expect(visitors).toContain(`aria-label="Follow Suggested Two"`);

    await send("POST", `/api/writers/${w1.id}/follow`, undefined, await asUser(reader));
    const theirs = await (await call("/allBlogs", { headers: await cookieFor(reader) })).text();
    expect(theirs).not.toContain(`aria-label="Follow Suggested One"`);
    expect(theirs).toContain(`aria-label="Follow Suggested Two"`);
    // Never themselves.
    expect(theirs).not.toContain(`aria-label="Follow Reader"`);
  });
});
