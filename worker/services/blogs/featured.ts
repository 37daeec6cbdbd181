import { eq } from "drizzle-orm";
import { z } from "zod";
import type { Purge } from "#worker/cache/purge.ts";
import type { Db } from "#worker/db.ts";
import { schema } from "#worker/db.ts";
import { findOr404 } from "#worker/services/shared/records.ts";
import { requireAdmin, type Actor } from "#worker/services/shared/policy.ts";
import { parse } from "#worker/services/shared/validation.ts";

/** How many featured posts the home page shows; the spec's fixed cards fill the rest while fewer are chosen. */
export const FEATURED_BLOGS_SHOWN = 6;

const featuredInput = z.object({
  featured: z.preprocess(
    (v) => (v === "1" || v === "true" ? true : v === "0" || v === "false" ? false : v),
    z.boolean({ error: "Featured must be true or false." }),
  ),
});

/**
 * An admin's picks for the home page's Featured Blogs. Any post may be picked; the home page
 * reads the picks through the visible-blogs rule (worker/services/queries/home.ts), so a draft or a post
 * scheduled for later never shows there until it is public.
 */
export function createFeaturedService(db: Db, purge: Purge) {
  return {
    async set(actor: Actor | null, id: string, input: unknown): Promise<{ modifiedCount: number }> {
      requireAdmin(actor);
      const { featured } = parse(featuredInput, input);
      const row = await findOr404(id, "Blog not found.", (id) =>
        db.query.blogs.findFirst({ where: eq(schema.blogs.id, id), columns: { id: true, featuredAt: true } }),
      );
      if ((row.featuredAt !== null) === featured) return { modifiedCount: 0 };
      await db
        .update(schema.blogs)
        .set({ featuredAt: featured ? Date.now() : null })
        .where(eq(schema.blogs.id, row.id));
      // The home page (tagged `blogs`) and the post's own answers, which carry `featured`.
      await purge({ kind: "blog.changed", blogId: row.id });
      return { modifiedCount: 1 };
    },
  };
}

export type FeaturedService = ReturnType<typeof createFeaturedService>;
