import { beforeAll, describe, expect, it } from "vitest";
import { asUser, makeBlog, makeUser } from "../support/factories";
import { call, json, send, untilHit } from "../support/http";
import { client } from "../support/client";
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
    const top = await client(await asUser(reader)).blogs[":id"].comments.$post({
      param: { id: blogId },
      json: { body: "Top via API" },
    });
    expect(top.status).toBe(201);
    const { insertedId, parentId } = await json<{ insertedId: string; parentId: null }>(top);
    expect(parentId).toBeNull();
    const reply = await client(await asUser(other)).blogs[":id"].comments.$post({
      param: { id: blogId },
      json: { body: "Reply via API", parent_id: insertedId },
    });
    expect(reply.status).toBe(201);
    expect(await json(reply)).toMatchObject({ parentId: insertedId });

    const list = await client().blogs[":id"].comments.$get({ param: { id: blogId }, query: {} });
    const threads = await json<ThreadJson[]>(list);
    expect(list.headers.get("X-Total-Count")).toBe("1");
    expect(threads).toHaveLength(1);
    expect(threads[0]).toMatchObject({ _id: insertedId, reply_count: 1, parent_id: null });
    expect(threads[0]!.replies.map((r) => [r.body, r.parent_id])).toEqual([["Reply via API", insertedId]]);
    const replies = await client().comments[":id"].replies.$get({ param: { id: insertedId }, query: {} });
    expect(replies.status).toBe(200);
    expect((await json<{ body: string }[]>(replies)).map((r) => r.body)).toEqual(["Reply via API"]);

    expect(
      (await client().blogs[":id"].comments.$post({ param: { id: blogId }, json: { body: "No session" } })).status,
    ).toBe(401);
    expect((await send("POST", `/api/blogs/${blogId}/comments`, "{nope", await asUser(reader))).status).toBe(400);
    // A body the contract's types refuse is sent as raw JSON, to see the API refuse it too.
    const badParent = await send(
      "POST",
      `/api/blogs/${blogId}/comments`,
      { body: "x", parent_id: ["a"] },
      await asUser(reader),
    );
    expect(badParent.status).toBe(400);
    const lost = await client(await asUser(reader)).blogs[":id"].comments.$post({
      param: { id: blogId },
      json: { body: "x", parent_id: "zzzzzzzzzzzzzzzzzzzz" },
    });
    expect(lost.status).toBe(404);
    expect((await call(`/api/comments/${insertedId}/replies?cursor=bad`)).status).toBe(400);
    expect((await call(`/api/comments/${insertedId}/replies?limit=0`)).status).toBe(400);
    expect((await call("/api/comments/zzzzzzzzzzzzzzzzzzzz/replies")).status).toBe(404);
  });

  it("lets the writer and admins delete, not another reader (403), and purges the cached post page", async () => {
    const made0 = await makeBlog(writer, { title: "Purged post" });
    const post = made0.id;
    const page = postPath(made0);
    const made = await client(await asUser(other)).blogs[":id"].comments.$post({
      param: { id: post },
      json: { body: "Soon removed" },
    });
    const { insertedId } = await json<{ insertedId: string }>(made);
    // The visitor copy of the page is cached with the comment in it.
    expect(await (await untilHit(page)).text()).toContain("Soon removed");
    expect((await client(await asUser(reader)).comments[":id"].$delete({ param: { id: insertedId } })).status).toBe(
      403,
    );
    expect((await client({}).comments[":id"].$delete({ param: { id: insertedId } })).status).toBe(401);
    const del = await client(await asUser(writer)).comments[":id"].$delete({ param: { id: insertedId } });
    expect(del.status).toBe(200);
    expect(await json(del)).toEqual({ deletedCount: 1 });
    const after = await call(page);
    expect(after.headers.get("X-Cache")).toBe("MISS");
    expect(await after.text()).not.toContain("Soon removed");
    expect((await client(await asUser(writer)).comments[":id"].$delete({ param: { id: insertedId } })).status).toBe(
      404,
    );

    // A reply purges the page too; an admin deletes on any post.
    const top = await json<{ insertedId: string }>(
      await client(await asUser(other)).blogs[":id"].comments.$post({
        param: { id: post },
        json: { body: "Second top" },
      }),
    );
    expect(await (await untilHit(page)).text()).not.toContain("A cached reply");
    await client(await asUser(reader)).blogs[":id"].comments.$post({
      param: { id: post },
      json: { body: "A cached reply", parent_id: top.insertedId },
    });
    const replied = await call(page);
    expect(replied.headers.get("X-Cache")).toBe("MISS");
    expect(await replied.text()).toContain("A cached reply");
    expect((await client(await asUser(admin)).comments[":id"].$delete({ param: { id: top.insertedId } })).status).toBe(
      200,
    );
    expect(await json(await client().blogs[":id"].comments.$get({ param: { id: post }, query: {} }))).toEqual([]);
  });

  it("takes reports once per person and gives admins the reported list, keep and delete", async () => {
    const post = (await makeBlog(writer, { title: "Reports post" })).id;
    const { insertedId } = await json<{ insertedId: string }>(
      await client(await asUser(other)).blogs[":id"].comments.$post({
        param: { id: post },
        json: { body: "Reported via API" },
      }),
    );
    const spam = { reason: "spam" as const };
    const report = () => client({}).comments[":id"].report.$post({ param: { id: insertedId }, json: spam });
    expect((await report()).status).toBe(401);
    for (const who of [reader, reader, writer]) {
      const res = await client(await asUser(who)).comments[":id"].report.$post({
        param: { id: insertedId },
        json: spam,
      });
      expect(res.status).toBe(200);
      expect(await json(res)).toEqual({ reported: true, reason: "spam" });
    }
    const own = await client(await asUser(other)).comments[":id"].report.$post({
      param: { id: insertedId },
      json: spam,
    });
    expect(own.status).toBe(403);
    expect((await send("POST", "/api/comments/nope!/report", spam, await asUser(reader))).status).toBe(404);

    expect((await client(await asUser(reader)).comments.reported.$get({ query: {} })).status).toBe(403);
    const listed = await client(await asUser(admin)).comments.reported.$get({ query: { limit: "50" } });
    expect(listed.status).toBe(200);
    expect(listed.headers.get("Cache-Control")).toBe("private, no-store");
    const mine = (await json<{ _id: string; reports: number; blog: { _id: string } }[]>(listed)).find(
      (c) => c._id === insertedId,
    );
    expect(mine).toMatchObject({ reports: 2, blog: { _id: post } });
    expect((await call("/api/comments/reported?page=x", { headers: await asUser(admin) })).status).toBe(400);

    expect(
      (await client(await asUser(reader)).comments[":id"].reports.$delete({ param: { id: insertedId } })).status,
    ).toBe(403);
    const kept = await client(await asUser(admin)).comments[":id"].reports.$delete({ param: { id: insertedId } });
    expect(await json(kept)).toEqual({ clearedCount: 2 });
    const again = await json<{ _id: string }[]>(
      await client(await asUser(admin)).comments.reported.$get({ query: { limit: "50" } }),
    );
    expect(again.some((c) => c._id === insertedId)).toBe(false);
  });

  it("asks a report for its reason (400 saying so), keeps one per person, and lets the reporter withdraw it", async () => {
    const post = (await makeBlog(writer, { title: "Reasons post" })).id;
    const { insertedId } = await json<{ insertedId: string }>(
      await client(await asUser(other)).blogs[":id"].comments.$post({
        param: { id: post },
        json: { body: "Reported with reasons" },
      }),
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
          await client(await asUser(admin)).comments.reported.$get({ query: { limit: "50" } }),
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
