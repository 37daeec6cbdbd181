import { and, desc, eq } from "drizzle-orm";
import { schema } from "#worker/db.ts";
import { imageUrlsIn, type ImageCleanup } from "#worker/services/images/cleanup.ts";
import type { Kernel } from "#worker/services/kernel.ts";
import { newId } from "#worker/services/shared/ids.ts";
import type { Actor } from "#worker/services/shared/policy.ts";
import { changedFields, changesUpdate, findOr404 } from "#worker/services/shared/records.ts";
import type { BlogRow } from "#worker/services/blogs/model.ts";
import { writerVerified } from "#worker/services/blogs/outreach.ts";
import { tagWrites, tagsOf } from "#worker/services/blogs/tags.ts";
import { asSlugRefusal, ensureSlugFree } from "#worker/services/blogs/slug-check.ts";

/** An earlier version of a post, kept when a save replaced it. */
export interface BlogRevision {
  _id: string;
  blog_id: string;
  title: string;
  short_description: string;
  blog_details: string;
  category: string;
  image: string;
  /** The tags and SEO fields of that version ("" or [] when it had none). */
  tags: string[];
  meta_description: string;
  social_image: string;
  seo_title: string;
  custom_slug: string;
  /** Who made the save that replaced this version, and when (ISO 8601). */
  saved_by_name: string;
  saved_at: string;
}

type RevisionRow = typeof schema.blogRevisions.$inferSelect;

function toRevision(row: RevisionRow): BlogRevision {
  return {
    _id: row.id,
    blog_id: row.blogId,
    title: row.title,
    short_description: row.shortDescription,
    blog_details: row.blogDetails,
    category: row.category,
    image: row.image,
    tags: tagsOf(row.tags),
    meta_description: row.metaDescription,
    social_image: row.socialImage,
    seo_title: row.seoTitle,
    custom_slug: row.slug,
    saved_by_name: row.savedByName,
    saved_at: new Date(row.createdAt).toISOString(),
  };
}

/**
 * The fields a revision keeps (the content, the tags and the SEO fields): a save that changes none of
 * them (a status change alone) keeps no revision. The same names on blogs and blog_revisions.
 */
const REVISED_FIELDS = [
  "title",
  "shortDescription",
  "blogDetails",
  "category",
  "image",
  "tags",
  "metaDescription",
  "socialImage",
  "seoTitle",
  "slug",
] as const;

type Revised = Pick<BlogRow, (typeof REVISED_FIELDS)[number]>;

const revisedOf = (row: Revised): Revised =>
  Object.fromEntries(REVISED_FIELDS.map((field) => [field, row[field]])) as Revised;

/** A post's saves and their history: the one write of every edit and restore, and the revisions it keeps. */
export function createBlogRevisions(k: Kernel, deps: { imageCleanup: Pick<ImageCleanup, "release"> }) {
  const { db, purge, events } = k;
  return {
    /** A post's earlier versions, newest first. */
    async list(row: BlogRow): Promise<BlogRevision[]> {
      const rows = await db
        .select()
        .from(schema.blogRevisions)
        .where(eq(schema.blogRevisions.blogId, row.id))
        .orderBy(desc(schema.blogRevisions.createdAt), desc(schema.blogRevisions.id));
      return rows.map(toRevision);
    },

    /** The content of one of this post's revisions, as the fields a save writes. */
    async content(row: BlogRow, revisionId: string): Promise<Partial<BlogRow>> {
      const revision = await findOr404(revisionId, "Revision not found.", (revisionId) =>
        db.query.blogRevisions.findFirst({
          where: and(eq(schema.blogRevisions.id, revisionId), eq(schema.blogRevisions.blogId, row.id)),
        }),
      );
      return revisedOf(revision);
    },

    /**
     * Brings an earlier version back: an ordinary save (so the version it replaces becomes a revision
     * too). A restored slug may have been taken by another post since: checked here, once, before the save.
     */
    async restore(actor: Actor, row: BlogRow, revisionId: string): Promise<{ modifiedCount: number }> {
      const wanted = await this.content(row, revisionId);
      if (wanted.slug !== row.slug) await ensureSlugFree(db, wanted.slug, row.id);
      return this.save(actor, row, wanted);
    },

    /**
     * The one write of every edit and restore: the changed fields, and (when the content changed) the
     * version they replace as a revision, in one D1 batch so neither lands without the other.
     * Writes only the fields that differ, so "no change" is answered without touching D1. The caller
     * has checked a changed slug (the unique index still settles a race: `asSlugRefusal`).
     */
    async save(actor: Actor, row: BlogRow, wanted: Partial<BlogRow>): Promise<{ modifiedCount: number }> {
      const changes = changedFields(row, wanted);
      if (!changes) return { modifiedCount: 0 };
      const update = changesUpdate(db, schema.blogs, row.id, changes);
      // New tags: blog_tags is rewritten in the same batch as blogs.tags.
      const tags = changes.tags === undefined ? [] : tagWrites(db, row.id, tagsOf(changes.tags), true);
      if (REVISED_FIELDS.some((field) => field in changes)) {
        const revision = db.insert(schema.blogRevisions).values({
          id: newId(),
          blogId: row.id,
          savedBy: actor.id,
          savedByName: actor.name,
          ...revisedOf(row),
        });
        await asSlugRefusal(changes.slug, () => db.batch([revision, update, ...tags]));
      } else {
        await asSlugRefusal(changes.slug, () => db.batch([update, ...tags]));
      }
      await purge({ kind: "blog.changed", blogId: row.id });
      await deps.imageCleanup.release([row.image, row.socialImage, ...imageUrlsIn(row.blogDetails)]);
      // Beyond the site only for a verified writer (outreach.ts): published by this save, the subscribers
      // and followers hear of it (the newsletter ignores a post it already sent); published, edited or
      // unpublished, the fediverse gets a Create, an Update or a Delete.
      const verified = await writerVerified(db, row.id);
      if (verified && changes.status === "published") await events.emit("post.published", { blogId: row.id });
      if (verified !== false) await events.emit("post.changed", { blogId: row.id });
      return { modifiedCount: 1 };
    },
  };
}

export type BlogRevisions = ReturnType<typeof createBlogRevisions>;
