import { env } from "cloudflare:workers";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { schema } from "#worker/db.ts";
import { createServices } from "#worker/services/index.ts";
import type { Actor } from "#worker/services/shared/policy.ts";
import { db, makeBlog, makeUser } from "../support/factories";

/** Issue 42, finding 11: a comment the reporter cannot see (its post went back to draft) cannot be reported. */

const services = () => createServices(env);
const actor = (u: { id: string; name: string; email: string }, role: "user" | "admin" = "user"): Actor => ({
  id: u.id,
  name: u.name,
  email: u.email,
  role,
  photoURL: null,
});

describe("reports on a comment the reporter cannot see", () => {
  it("are 404 once its post is a draft again; its writer and an admin may still report it", async () => {
    const writer = actor(await makeUser());
    const ada = actor(await makeUser());
    const bob = actor(await makeUser());
    const admin = actor(await makeUser({ role: "admin" }), "admin");
    const blog = await makeBlog(writer);
    const { insertedId } = await services().comments.create(ada, blog.id, { body: "Said while it was public" });
    await db().update(schema.blogs).set({ status: "draft" }).where(eq(schema.blogs.id, blog.id));
    await expect(services().commentReports.report(bob, insertedId, { reason: "spam" })).rejects.toMatchObject({
      code: "comment-not-found",
      kind: "not-found",
    });
    expect(
      await db().select().from(schema.commentReports).where(eq(schema.commentReports.commentId, insertedId)),
    ).toEqual([]);
    for (const who of [writer, admin]) {
      expect(await services().commentReports.report(who, insertedId, { reason: "spam" })).toEqual({
        reported: true,
        reason: "spam",
      });
    }
  });
});
