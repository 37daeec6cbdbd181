import { beforeAll, describe, expect, it } from "vitest";
import { asUser, makeBlog, makeUser } from "../support/factories";
import { call, json, send, untilHit } from "../support/http";
import { postPath } from "#worker/services/blogs/slug.ts";

/** Asks until the answer is a HIT: the MISS stores its copy in waitUntil, after the answer went out. */
interface ThreadJson {
  _id: string;
  body: string;
  parent_id: string | null;
  reply_count: number;
  replies: { _id: string; body: string; parent_id: string }[];
}

describe("the comments REST calls", () => {
  let writer: Awaited<ReturnType<typeof makeUser>>;
  let reader: Awaited<ReturnType<typeof makeUser>>;
  let other: Awaited<ReturnType<typeof makeUser>>;
  let admin: Awaited<ReturnType<typeof makeUser>>;
  let blogId: string;
  beforeAll(async () => {
    writer = await makeUser({ name: "Api Writer" });
    reader = await makeUser({ name: "Api Reader" });
    other = await makeUser({ name: "Api Other" });
    admin = await makeUser({ name: "Api Admin", role: "admin" });
    blogId = (await makeBlog(writer, { title: "Api thread post" })).id;
  });

  it("writes a comment and a reply (201), lists the reply under its comment, refuses bad input with 4xx", async () => {
    const top = await send("POST", `/api/blogs/${blogId}/comments`, { body: "Top via API" }, await asUser(reader));
    expect(top.status).toBe(201);
    const { insertedId, parentId } = await json<{ insertedId: string; parentId: null }>(top);
    expect(parentId).toBeNull();
    const reply = await send(
      "POST",
      `/api/blogs/${blogId}/comments`,
      { body: "Reply via API", parent_id: insertedId },
      await asUser(other),
    );
    expect(reply.status).toBe(201);
    expect(await json(reply)).toMatchObject({ parentId: insertedId });

    const list = await call(`/api/blogs/${blogId}/comments`);
    const threads = await json<ThreadJson[]>(list);
    expect(list.headers.get("X-Total-Count")).toBe("1");
    expect(threads).toHaveLength(1);
    expect(threads[0]).toMatchObject({ _id: insertedId, reply_count: 1, parent_id: null });
    expect(threads[0]!.replies.map((r) => [r.body, r.parent_id])).toEqual([["Reply via API", insertedId]]);
    const replies = await call(`/api/comments/${insertedId}/replies`);
    expect(replies.status).toBe(200);
    expect((await json<{ body: string }[]>(replies)).map((r) => r.body)).toEqual(["Reply via API"]);

    expect((await send("POST", `/api/blogs/${blogId}/comments`, { body: "No session" })).status).toBe(401);
    expect((await send("POST", `/api/blogs/${blogId}/comments`, "{nope", await asUser(reader))).status).toBe(400);
    const badParent = await send(
      "POST",
      `/api/blogs/${blogId}/comments`,
      { body: "x", parent_id: ["a"] },
      await asUser(reader),
    );
    expect(badParent.status).toBe(400);
    const lost = await send(
      "POST",
      `/api/blogs/${blogId}/comments`,
      { body: "x", parent_id: "zzzzzzzzzzzzzzzzzzzz" },
      await asUser(reader),
    );
    expect(lost.status).toBe(404);
    expect((await call(`/api/comments/${insertedId}/replies?cursor=bad`)).status).toBe(400);
    expect((await call(`/api/comments/${insertedId}/replies?limit=0`)).status).toBe(400);
    expect((await call("/api/comments/zzzzzzzzzzzzzzzzzzzz/replies")).status).toBe(404);
  });

  it("lets the writer and admins delete, not another reader (403), and purges the cached post page", async () => {
    const made0 = await makeBlog(writer, { title: "Purged post" });
    const post = made0.id;
    const page = postPath(made0);
    const made = await send("POST", `/api/blogs/${post}/comments`, { body: "Soon removed" }, await asUser(other));
    const { insertedId } = await json<{ insertedId: string }>(made);
    // The visitor copy of the page is cached with the comment in it.
    expect(await (await untilHit(page)).text()).toContain("Soon removed");
    expect((await send("DELETE", `/api/comments/${insertedId}`, undefined, await asUser(reader))).status).toBe(403);
    expect((await send("DELETE", `/api/comments/${insertedId}`, undefined, {})).status).toBe(401);
    const del = await send("DELETE", `/api/comments/${insertedId}`, undefined, await asUser(writer));
    expect(del.status).toBe(200);
    expect(await json(del)).toEqual({ deletedCount: 1 });
    const after = await call(page);
    expect(after.headers.get("X-Cache")).toBe("MISS");
    expect(await after.text()).not.toContain("Soon removed");
    expect((await send("DELETE", `/api/comments/${insertedId}`, undefined, await asUser(writer))).status).toBe(404);

    // A reply purges the page too; an admin deletes on any post.
    const top = await json<{ insertedId: string }>(
      await send("POST", `/api/blogs/${post}/comments`, { body: "Second top" }, await asUser(other)),
    );
    expect(await (await untilHit(page)).text()).not.toContain("A cached reply");
    await send(
      "POST",
      `/api/blogs/${post}/comments`,
      { body: "A cached reply", parent_id: top.insertedId },
      await asUser(reader),
    );
    const replied = await call(page);
    expect(replied.headers.get("X-Cache")).toBe("MISS");
    expect(await replied.text()).toContain("A cached reply");
    expect((await send("DELETE", `/api/comments/${top.insertedId}`, undefined, await asUser(admin))).status).toBe(200);
    expect(await json(await call(`/api/blogs/${post}/comments`))).toEqual([]);
  });

  it("takes reports once per person and gives admins the reported list, keep and delete", async () => {
    const post = (await makeBlog(writer, { title: "Reports post" })).id;
    const { insertedId } = await json<{ insertedId: string }>(
      await send("POST", `/api/blogs/${post}/comments`, { body: "Reported via API" }, await asUser(other)),
    );
    const spam = { reason: "spam" };
    const report = () => send("POST", `/api/comments/${insertedId}/report`, spam, {});
    expect((await report()).status).toBe(401);
    for (const who of [reader, reader, writer]) {
      const res = await send("POST", `/api/comments/${insertedId}/report`, spam, await asUser(who));
      expect(res.status).toBe(200);
      expect(await json(res)).toEqual({ reported: true, reason: "spam" });
    }
    const own = await send("POST", `/api/comments/${insertedId}/report`, spam, await asUser(other));
    expect(own.status).toBe(403);
    expect((await send("POST", "/api/comments/nope!/report", spam, await asUser(reader))).status).toBe(404);

    expect((await call("/api/comments/reported", { headers: await asUser(reader) })).status).toBe(403);
    const listed = await call("/api/comments/reported?limit=50", { headers: await asUser(admin) });
    expect(listed.status).toBe(200);
    expect(listed.headers.get("Cache-Control")).toBe("private, no-store");
    const mine = (await json<{ _id: string; reports: number; blog: { _id: string } }[]>(listed)).find(
      (c) => c._id === insertedId,
    );
    expect(mine).toMatchObject({ reports: 2, blog: { _id: post } });
    expect((await call("/api/comments/reported?page=x", { headers: await asUser(admin) })).status).toBe(400);

    expect((await send("DELETE", `/api/comments/${insertedId}/reports`, undefined, await asUser(reader))).status).toBe(
      403,
    );
    const kept = await send("DELETE", `/api/comments/${insertedId}/reports`, undefined, await asUser(admin));
    expect(await json(kept)).toEqual({ clearedCount: 2 });
    const again = await json<{ _id: string }[]>(
      await call("/api/comments/reported?limit=50", { headers: await asUser(admin) }),
    );
    expect(again.some((c) => c._id === insertedId)).toBe(false);
  });

  it("asks a report for its reason (400 saying so), keeps one per person, and lets the reporter withdraw it", async () => {
    const post = (await makeBlog(writer, { title: "Reasons post" })).id;
    const { insertedId } = await json<{ insertedId: string }>(
      await send("POST", `/api/blogs/${post}/comments`, { body: "Reported with reasons" }, await asUser(other)),
    );
    const path = `/api/comments/${insertedId}/report`;
    const reason = "Choose a reason: spam, abuse or other.";
    for (const body of [{}, { reason: "rude" }, { reason: 3 }, { note: "no reason" }]) {
      const res = await send("POST", path, body, await asUser(reader));
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(await json(res)).toEqual({ error: { code: "invalid-report", message: reason, fields: { reason } } });
    }
    const long = await send("POST", path, { reason: "other", note: "x".repeat(201) }, await asUser(reader));
    expect(long.status).toBe(400);
    expect(await json(long)).toMatchObject({ error: { fields: { note: "Note must be at most 200 characters." } } });

    const listed = async () =>
      (
        await json<{ _id: string; reports: number; reasons: unknown; notes: { note: string; reporter: unknown }[] }[]>(
          await call("/api/comments/reported?limit=50", { headers: await asUser(admin) }),
        )
      ).find((c) => c._id === insertedId);
    expect(await listed()).toBeUndefined();

    // One report per person: a second one is the same report with the latest reason (a note goes with "other" only).
    const first = await send("POST", path, { reason: "other", note: "  Off topic  " }, await asUser(reader));
    expect(await json(first)).toEqual({ reported: true, reason: "other" });
    const again = await send("POST", path, { reason: "abuse", note: "dropped" }, await asUser(reader));
    expect(await json(again)).toEqual({ reported: true, reason: "abuse" });
    await send("POST", path, { reason: "other", note: "Looks like an advert" }, await asUser(writer));
    expect(await listed()).toMatchObject({
      reports: 2,
      reasons: { spam: 0, abuse: 1, other: 1 },
      notes: [{ note: "Looks like an advert", reporter: { _id: writer.id, name: "Api Writer" } }],
    });

    // Withdrawal: the reporter's own report only; a second withdrawal finds nothing left.
    expect((await send("DELETE", path, undefined, {})).status).toBe(401);
    const withdrawn = await send("DELETE", path, undefined, await asUser(reader));
    expect(withdrawn.status).toBe(200);
    expect(await json(withdrawn)).toEqual({ withdrawnCount: 1 });
    expect(await json(await send("DELETE", path, undefined, await asUser(reader)))).toEqual({ withdrawnCount: 0 });
    expect(
      (await send("DELETE", "/api/comments/zzzzzzzzzzzzzzzzzzzz/report", undefined, await asUser(reader))).status,
    ).toBe(404);
    expect(await listed()).toMatchObject({ reports: 1, reasons: { spam: 0, abuse: 0, other: 1 } });
    await send("DELETE", path, undefined, await asUser(writer));
    expect(await listed()).toBeUndefined();

    // The contract names the body and the withdrawal.
    const doc = await json<{ paths: Record<string, Record<string, { requestBody?: unknown }>> }>(
      await call("/api/openapi.json"),
    );
    expect(JSON.stringify(doc.paths["/comments/{id}/report"]?.post?.requestBody)).toContain(
      '"enum":["spam","abuse","other"]',
    );
    expect(doc.paths["/comments/{id}/report"]?.delete).toBeDefined();
  });
});
