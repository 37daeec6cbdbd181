import { describe, expect, it } from "vitest";
import { asUser, db, makeBlog, makeUser } from "../support/factories";
import { call, json, send } from "../support/http";
import { getPage, postForm } from "../support/pages";
import { schema } from "#worker/db.ts";

const follow = async (reader: { id: string; email: string }, writerId: string) =>
  send("POST", `/api/writers/${writerId}/follow`, undefined, await asUser(reader));

describe("/following lists writers, with Unfollow and Undo", () => {
  it("lists the followed writers (shown name, link, visible posts) and keeps their posts below", async () => {
    const writer = await makeUser({ name: "Account Name" });
    await db()
      .insert(schema.profiles)
      .values({ id: `p${writer.id}`.slice(0, 20), userId: writer.id, name: "Shown Name", email: writer.email });
    await makeBlog(writer, { title: "A visible post" });
    await makeBlog(writer, { title: "Another visible post" });
    await makeBlog(writer, { title: "Hidden draft", status: "draft" });
    await makeBlog(writer, { title: "Later", status: "scheduled", publishAt: Date.now() + 3_600_000 });
    const quiet = await makeUser({ name: "Quiet Writer" });
    const reader = await makeUser();
    await follow(reader, writer.id);
    await follow(reader, quiet.id);

    const html = await (await getPage("/following", reader)).text();
    expect(html).toContain("Writers you follow");
    expect(html).toContain(`href="/writers/${writer.id}"`);
    // The writer's shown name (their profile's), as their page says it.
    expect(html).toContain(`href="/writers/${writer.id}">Shown Name</a>`);
    // Two visible posts: the draft and the post scheduled for later are not counted.
    expect(html).toMatch(/>2 posts</);
    expect(html).toContain("No posts yet");
    expect(html).toMatch(/Unfollow<span class="sr-only"> <!-- -->Shown Name/);
    // The feed of their posts stays, below, paged by its own parameter.
    expect(html).toContain("From writers you follow");
    expect(html).toContain("A visible post");
    expect(html).not.toContain("Hidden draft");
  });

  it("GET /api/follows gives each writer's visible posts", async () => {
    const writer = await makeUser({ name: "Counted" });
    await makeBlog(writer);
    await makeBlog(writer, { status: "draft" });
    const reader = await makeUser();
    await follow(reader, writer.id);
    const list = await json<{ _id: string; name: string; posts: number }[]>(
      await call("/api/follows", { headers: await asUser(reader) }),
    );
    expect(list).toEqual([expect.objectContaining({ _id: writer.id, name: "Counted", posts: 1 })]);
  });

  it("Unfollow without JavaScript comes back saying so, with an Undo that follows again", async () => {
    const writer = await makeUser({ name: "Undo Writer" });
    const reader = await makeUser();
    await follow(reader, writer.id);

    const gone = await postForm("/following", reader, {
      intent: "unfollow",
      writerId: writer.id,
      back: "/following?page=1&posts=2&x=evil",
    });
    expect(gone.status).toBe(302);
    expect(gone.headers.get("Location")).toBe(`/following?page=1&posts=2&unfollowed=${writer.id}`);
    const after = await (await getPage(`/following?unfollowed=${writer.id}`, reader)).text();
    expect(after).toContain("Unfollowed Undo Writer.");
    expect(after).toContain(`name="intent" value="follow"`);
    expect(after).not.toContain(`href="/writers/${writer.id}"`);

    const back = await postForm("/following", reader, {
      intent: "follow",
      writerId: writer.id,
      back: "//evil.example",
    });
    expect(back.headers.get("Location")).toBe(`/following?followed=${writer.id}`);
    const again = await (await getPage(`/following?followed=${writer.id}`, reader)).text();
    expect(again).toContain(`href="/writers/${writer.id}"`);
    expect(again).toContain("You follow Undo Writer again.");
    // A stale mark says nothing untrue: they follow the writer, so no "Unfollowed".
    const stale = await (await getPage(`/following?unfollowed=${writer.id}`, reader)).text();
    expect(stale).not.toContain("Unfollowed Undo Writer.");
  });

  it("refuses a visitor and an unknown intent", async () => {
    const writer = await makeUser();
    const visitor = await postForm("/following", null, { intent: "unfollow", writerId: writer.id });
    expect(visitor.status).toBe(302);
    expect(visitor.headers.get("Location")).toContain("/login");
    expect((await postForm("/following", await makeUser(), { intent: "nope", writerId: writer.id })).status).toBe(400);
  });

  it("the writer page's Unfollow without JavaScript comes back with Undo", async () => {
    const writer = await makeUser({ name: "Page Writer" });
    const reader = await makeUser();
    await follow(reader, writer.id);
    const res = await postForm(`/writers/${writer.id}/follow`, reader, {
      intent: "unfollow",
      undoable: "1",
      redirectTo: `/writers/${writer.id}?page=1`,
    });
    expect(res.headers.get("Location")).toBe(`/writers/${writer.id}?page=1&unfollowed=1`);
    const html = await (await getPage(`/writers/${writer.id}?page=1&unfollowed=1`, reader)).text();
    expect(html).toContain("Unfollowed <!-- -->Page Writer<!-- -->.");
    // The Undo posts a follow and comes back to the page without the mark.
    expect(html).toContain(`name="redirectTo" value="/writers/${writer.id}?page=1"`);
    // "Following" says "Unfollow" on hover and keyboard focus, as visible text.
    await follow(reader, writer.id);
    const following = await (await getPage(`/writers/${writer.id}`, reader)).text();
    expect(following).toMatch(/group-hover:inline group-focus-visible:inline[^"]*">Unfollow</);
    expect(following).not.toContain("Unfollowed <!-- -->Page Writer");
    // A visitor's shared copy never says it.
    expect(await (await getPage(`/writers/${writer.id}?unfollowed=1`, null)).text()).not.toContain(
      "Unfollowed <!-- -->Page Writer",
    );
  });
});
