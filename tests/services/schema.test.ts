import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { schema } from "#worker/db.ts";
import { newId } from "#worker/services/shared/ids.ts";
import { db, makeBlog, makeUser } from "../support/factories";

describe("schema constraints", () => {
  it("refuses a second user with the same email", async () => {
    const user = await makeUser();
    await expect(makeUser({ email: user.email })).rejects.toThrow();
    const rows = await env.DB.prepare("select count(*) as n from users where email = ?")
      .bind(user.email)
      .first<{ n: number }>();
    expect(rows?.n).toBe(1);
  });

  it("keeps at most one saved row per user and blog", async () => {
    const user = await makeUser();
    const blog = await makeBlog(user);
    const save = () =>
      db().insert(schema.savedBlogs).values({ id: newId(), userId: user.id, blogId: blog.id, email: user.email });
    await save();
    await expect(save()).rejects.toThrow();
    const n = await env.DB.prepare("select count(*) as n from saved_blogs where user_id = ?")
      .bind(user.id)
      .first<{ n: number }>();
    expect(n?.n).toBe(1);
  });

  it("refuses a blog whose author does not exist (foreign keys are enforced)", async () => {
    await expect(makeBlog({ id: newId(), name: "Ghost", email: "ghost@example.com" })).rejects.toThrow();
  });

  it("removes a user's saved rows and blogs with the user", async () => {
    const user = await makeUser();
    const blog = await makeBlog(user);
    await db().insert(schema.savedBlogs).values({ id: newId(), userId: user.id, blogId: blog.id, email: user.email });
    await env.DB.prepare("delete from users where id = ?").bind(user.id).run();
    const left = await env.DB.prepare(
      "select (select count(*) from saved_blogs where user_id = ?1) + (select count(*) from blogs where author_id = ?1) as n",
    )
      .bind(user.id)
      .first<{ n: number }>();
    expect(left?.n).toBe(0);
  });
});
