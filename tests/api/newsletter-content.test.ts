import { describe, expect, it } from "vitest";
import type { Blog } from "#worker/services/blogs/model.ts";
import { asUser, makeUser } from "../support/factories";
import { call, json, send } from "../support/http";
import { getPage, postForm } from "../support/pages";

type ErrorBody = { error: { code: string; message: string; fields?: Record<string, string> } };

const validBlog = (extra: Record<string, unknown> = {}) => ({
  title: "A post for the newsletter",
  short_description: "What it is about.",
  blog_details: "First paragraph.",
  category: "Technology",
  date_time: "2026-11-21T10:30",
  image: "https://img.example.com/cover.png",
  ...extra,
});

describe("newsletter_content on the blog API", () => {
  it("is stored and shown on the record; a bad value answers 400 with fields.newsletter_content", async () => {
    const headers = await asUser(await makeUser());
    const created = await send("POST", "/api/blogs", validBlog({ newsletter_content: "full" }), headers);
    expect(created.status).toBe(201);
    const { insertedId } = await json<{ insertedId: string }>(created);
    const record = async () => json<Blog>(await call(`/api/blog/${insertedId}`, { headers }));
    expect((await record()).newsletter_content).toBe("full");

    for (const bad of ["everything", "FULL", 1, true, ["full"]]) {
      for (const [method, path, body] of [
        ["POST", "/api/blogs", validBlog({ newsletter_content: bad })],
        ["PUT", `/api/blog/${insertedId}`, { newsletter_content: bad }],
      ] as const) {
        const res = await send(method, path, body, headers);
        expect(res.status, `${method} ${JSON.stringify(bad)}`).toBe(400);
        const { error } = await json<ErrorBody>(res);
        expect(Object.keys(error.fields ?? {})).toEqual(["newsletter_content"]);
      }
    }
    expect((await record()).newsletter_content).toBe("full");

    // An update without it keeps it; "" follows the site's default again.
    expect((await send("PUT", `/api/blog/${insertedId}`, { title: "Renamed" }, headers)).status).toBe(200);
    expect((await record()).newsletter_content).toBe("full");
    expect((await send("PUT", `/api/blog/${insertedId}`, { newsletter_content: "" }, headers)).status).toBe(200);
    expect((await record()).newsletter_content).toBe("");
  });
});

describe("the pages that choose", () => {
  it("the admin's Newsletter page sets the site's default; the post editor offers the override", async () => {
    const admin = await makeUser({ role: "admin" });
    const checked = (html: string) =>
      (html.match(/<input[^>]*name="content"[^>]*>/g) ?? [])
        .filter((tag) => / checked/.test(tag))
        .map((tag) => /value="(\w+)"/.exec(tag)?.[1]);
    const before = await (await getPage("/dashboard/newsletter", admin)).text();
    expect(before).toContain("What subscribers get");
    expect(checked(before)).toEqual(["teaser"]);
    expect(
      (await postForm("/dashboard/newsletter", await makeUser(), { intent: "content", content: "full" })).status,
    ).toBe(403);
    const saved = await postForm("/dashboard/newsletter", admin, { intent: "content", content: "full" });
    expect(saved.status).toBe(302);
    expect(checked(await (await getPage("/dashboard/newsletter", admin)).text())).toEqual(["full"]);
    const refused = await postForm("/dashboard/newsletter", admin, { intent: "content", content: "everything" });
    expect(refused.status).toBe(400);
    expect(checked(await (await getPage("/dashboard/newsletter", admin)).text())).toEqual(["full"]);
    await postForm("/dashboard/newsletter", admin, { intent: "content", content: "teaser" });

    // Who gets new posts: the same form; a refused audience stores neither choice.
    const audience = (html: string) =>
      (html.match(/<input[^>]*name="audience"[^>]*>/g) ?? [])
        .filter((tag) => / checked/.test(tag))
        .map((tag) => /value="(\w+)"/.exec(tag)?.[1]);
    expect(audience(await (await getPage("/dashboard/newsletter", admin)).text())).toEqual(["everyone"]);
    const wrong = await postForm("/dashboard/newsletter", admin, {
      intent: "content",
      content: "full",
      audience: "vip",
    });
    expect(wrong.status).toBe(400);
    const page = await (await getPage("/dashboard/newsletter", admin)).text();
    expect([checked(page), audience(page)]).toEqual([["teaser"], ["everyone"]]);
    const paid = await postForm("/dashboard/newsletter", admin, {
      intent: "content",
      content: "teaser",
      audience: "paid",
    });
    expect(paid.status).toBe(302);
    expect(audience(await (await getPage("/dashboard/newsletter", admin)).text())).toEqual(["paid"]);
    await postForm("/dashboard/newsletter", admin, { intent: "content", content: "teaser", audience: "everyone" });

    const editor = await (await getPage("/dashboard/writeBlogs", admin)).text();
    expect(editor).toContain("In the newsletter");
    expect(editor).toMatch(/<select[^>]*name="newsletter_content"/);
    expect(editor).toContain('<option value="full">The whole post</option>');
    // Who gets a post's newsletter is the admin's to choose: the select is in an admin's editor only.
    expect(editor).toMatch(/<select[^>]*name="newsletter_audience"/);
    const writers = await (await getPage("/dashboard/writeBlogs", await makeUser())).text();
    expect(writers).toContain("In the newsletter");
    expect(writers).not.toContain('name="newsletter_audience"');
  });
});
