import { inArray } from "drizzle-orm";
import type { Db } from "#worker/db.ts";
import { schema } from "#worker/db.ts";
import type { Blog } from "#worker/services/blogs/model.ts";
import type { Actor } from "#worker/services/shared/policy.ts";

/**
 * The `email` of a post record as its reader may see it (docs/decisions/048-public-contact-address.md).
 * A post's stored `email` is its writer's sign-in address (author fields are locked to the session), so
 * it goes only to that writer and to admins; anyone else reads the writer's public contact address in
 * its place, "" when they chose none. Every public answer with post records passes through here.
 */
export async function forReader<T extends Pick<Blog, "author_id" | "email">>(
  db: Db,
  blogs: T[],
  actor: Actor | null,
): Promise<T[]> {
  if (actor?.role === "admin") return blogs;
  const others = [...new Set(blogs.filter((b) => b.author_id !== actor?.id).map((b) => b.author_id))];
  if (!others.length) return blogs;
  const rows = await db
    .select({ id: schema.users.id, contactEmail: schema.users.contactEmail })
    .from(schema.users)
    .where(inArray(schema.users.id, others));
  const contact = new Map(rows.map((r) => [r.id, r.contactEmail]));
  return blogs.map((b) => (b.author_id === actor?.id ? b : { ...b, email: contact.get(b.author_id) ?? "" }));
}
