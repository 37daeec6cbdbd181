import { and, eq, ne } from "drizzle-orm";
import type { Db } from "#worker/db.ts";
import { schema } from "#worker/db.ts";
import { ValidationError } from "#worker/services/shared/errors.ts";
import { isUniqueViolation } from "#worker/services/shared/records.ts";

export const SLUG_TAKEN = "Another post already uses that slug. Choose another one.";

const slugTaken = () => new ValidationError({ slug: SLUG_TAKEN }, SLUG_TAKEN, "slug-taken");

/**
 * A custom slug belongs to one post: refused, with the field's error, when another post has it. Checked
 * before anything is stored (uploads included); the unique index (blogs_slug_unique) settles a race,
 * and `asSlugRefusal` turns its refusal into the same error. Empty (the title's slug) is never taken.
 */
export async function ensureSlugFree(db: Db, slug: string | undefined, blogId?: string): Promise<void> {
  if (!slug) return;
  const t = schema.blogs;
  const [other] = await db
    .select({ id: t.id })
    .from(t)
    .where(blogId ? and(eq(t.slug, slug), ne(t.id, blogId)) : eq(t.slug, slug))
    .limit(1);
  if (other) throw slugTaken();
}

/** Runs a write that sets a custom slug; a unique-index refusal (two writers racing for one slug) is the field's error. */
export async function asSlugRefusal<T>(slug: string | undefined, write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (err) {
    if (slug && isUniqueViolation(err)) throw slugTaken();
    throw err;
  }
}
