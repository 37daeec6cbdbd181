import { and, eq } from "drizzle-orm";
import { z } from "zod";
import { schema } from "#worker/db.ts";
import type { ImageCleanup } from "#worker/services/images/cleanup.ts";
import { imageKeyOf } from "#worker/services/images/files.ts";
import { ValidationError } from "#worker/services/shared/errors.ts";
import { LIMITS } from "#worker/services/shared/limits.ts";
import { requireUser, type Actor } from "#worker/services/shared/policy.ts";
import { parse } from "#worker/services/shared/validation.ts";
import { SLUG_MAX } from "#worker/services/blogs/slug.ts";
import type { Kernel } from "#worker/services/kernel.ts";

/**
 * The server copy of what a writer is typing on Write Blogs (their autosave), so another device of
 * theirs can offer it back. One per account, read and written only by that account (the session's,
 * never an id from the request), and never a post: it is not in `blogs`, so no list, feed, search or
 * page can show it, and it is never published. Posting the new post clears it.
 */

/** Words as they are typed: kept as sent (untrimmed), only bounded, since they are not a post yet. */
const words = (max: number) => z.string({ error: "Each field must be text." }).max(max).optional();

export const autosaveInput = z.object({
  fields: z
    .object({
      title: words(LIMITS.title),
      category: words(100),
      short_description: words(LIMITS.shortDescription),
      blog_details: words(LIMITS.blogDetails),
      tags: words(LIMITS.tags * (LIMITS.tag + 3)),
      meta_description: words(LIMITS.metaDescription),
      social_image: words(LIMITS.url),
      seo_title: words(LIMITS.seoTitle),
      slug: words(SLUG_MAX),
    })
    .default({}),
  // The cover already uploaded for this text (POST /api/images): only one of our own images.
  cover: z
    .string()
    .max(LIMITS.url)
    .refine((v) => v === "" || imageKeyOf(v) !== null, { error: "The cover must be an uploaded image." })
    .default(""),
});

const COVER_NOT_OWN = "The cover must be an image you uploaded.";

export interface PostAutosave {
  fields: Record<string, string>;
  cover: string;
  /** When it was last kept (ISO 8601). */
  saved_at: string;
}

export function createPostAutosaveService(k: Kernel, deps: { imageCleanup: Pick<ImageCleanup, "release"> }) {
  const { db } = k;
  const { release } = deps.imageCleanup;
  const t = schema.postAutosaves;
  const find = (userId: string) => db.query.postAutosaves.findFirst({ where: eq(t.userId, userId) });
  const ownImage = async (userId: string, url: string) =>
    Boolean(
      await db.query.images.findFirst({
        columns: { key: true },
        where: and(eq(schema.images.key, imageKeyOf(url) ?? ""), eq(schema.images.ownerId, userId)),
      }),
    );
  return {
    /** The signed-in writer's own autosave, or null. */
    async get(actor: Actor | null): Promise<PostAutosave | null> {
      const user = requireUser(actor);
      const row = await find(user.id);
      if (!row) return null;
      let fields: Record<string, string> = {};
      try {
        fields = JSON.parse(row.fields) as Record<string, string>;
      } catch {
        // a broken copy is no copy
      }
      return { fields, cover: row.cover, saved_at: new Date(row.updatedAt).toISOString() };
    },

    /** Keeps the writer's words (replacing the last copy); a cover no longer chosen is let go. */
    async put(actor: Actor | null, input: unknown): Promise<{ saved_at: string }> {
      const user = requireUser(actor);
      const data = parse(autosaveInput, input);
      // Only an upload of the writer's own: a copy that names another's image could later let it go.
      if (data.cover && !(await ownImage(user.id, data.cover)))
        throw new ValidationError({ cover: COVER_NOT_OWN }, COVER_NOT_OWN);
      const fields = Object.fromEntries(Object.entries(data.fields).filter(([, v]) => v !== undefined));
      const before = await find(user.id);
      const now = Date.now();
      const values = { fields: JSON.stringify(fields), cover: data.cover, updatedAt: now };
      await db
        .insert(t)
        .values({ userId: user.id, ...values })
        .onConflictDoUpdate({ target: t.userId, set: values });
      if (before?.cover && before.cover !== data.cover) await release([before.cover]);
      return { saved_at: new Date(now).toISOString() };
    },

    /** Forgets the writer's autosave (posted, or discarded); its cover goes unless a post now shows it. */
    async clear(actor: Actor | null): Promise<{ deletedCount: number }> {
      const user = requireUser(actor);
      const gone = await db.delete(t).where(eq(t.userId, user.id)).returning({ cover: t.cover });
      await release(gone.map((row) => row.cover));
      return { deletedCount: gone.length };
    },
  };
}

export type PostAutosaveService = ReturnType<typeof createPostAutosaveService>;
