import { and, eq, inArray } from "drizzle-orm";
import { schema } from "#worker/db.ts";
import { postPath } from "#worker/services/blogs/slug.ts";
import { renderMarkdown } from "#worker/content/markdown.ts";
import type { BlogRow } from "#worker/services/blogs/model.ts";
import type { Delivery } from "#worker/services/federation/delivery.ts";
import { escapeHtml } from "#worker/content/escape.ts";
import { OBJECT_CONTEXT, PUBLIC, SITE_ACTOR, type Urls } from "#worker/services/federation/vocab.ts";
import { publicTextOf, visibleBlog } from "#worker/services/blogs/visible.ts";
import type { Kernel } from "#worker/services/kernel.ts";

/** Relative links and images of a rendered post, made absolute (a remote server has no "/images/..."). */
function absoluteLinks(html: string, origin: string): string {
  return html.replace(/(\s(?:href|src))="\/(?!\/)/g, `$1="${origin}/`);
}

/** A post as an ActivityStreams Article: the whole rendered post, its cover, its category, its page. */
export function toArticle(row: BlogRow, u: Urls): Record<string, unknown> {
  const cover = u.absolute(row.image);
  const author = u.actor(row.authorId);
  const published = new Date(
    row.status === "scheduled" && row.publishAt ? row.publishAt : Date.parse(row.dateTime) || row.createdAt,
  );
  const tag = row.category.replace(/[^\p{L}\p{N}_]+/gu, "");
  // The canonical, readable link: /blogs/{id}/{slug}.
  // ?ref=fediverse: a read through the fediverse counts as one, whatever referrer the reader's app sends.
  const page = `${u.origin}${postPath(row)}?ref=fediverse`;
  const html = absoluteLinks(renderMarkdown(publicTextOf(row)), u.origin);
  return {
    "@context": OBJECT_CONTEXT,
    id: u.post(row.id),
    type: "Article",
    attributedTo: author,
    name: row.title,
    summary: escapeHtml(row.shortDescription),
    content: `<p><strong>${escapeHtml(row.shortDescription)}</strong></p>${html}<p><a href="${page}">${escapeHtml(row.title)}</a></p>`,
    mediaType: "text/html",
    url: page,
    published: published.toISOString(),
    ...(row.updatedAt > row.createdAt + 1000 ? { updated: new Date(row.updatedAt).toISOString() } : {}),
    to: [PUBLIC],
    cc: [u.followers(row.authorId), u.followers(SITE_ACTOR)],
    ...(cover
      ? {
          image: { type: "Image", url: cover, name: row.title },
          attachment: [{ type: "Image", url: cover, name: row.title, mediaType: mediaTypeOf(cover) }],
        }
      : {}),
    tag: tag
      ? [
          {
            type: "Hashtag",
            name: `#${tag}`,
            href: `${u.origin}/allBlogs?category=${encodeURIComponent(row.category)}`,
          },
        ]
      : [],
    sensitive: false,
  };
}

function mediaTypeOf(url: string): string {
  const ext = url.split("?")[0]!.split(".").pop()?.toLowerCase();
  return ext === "png" ? "image/png" : ext === "webp" ? "image/webp" : ext === "gif" ? "image/gif" : "image/jpeg";
}

/**
 * Keeps the fediverse in step with a post (called after every write of one, and by the scheduler):
 * a post that is visible and was never sent is Created (and Announced by the site); one sent whose
 * content changed is Updated; one sent that is no longer visible (unpublished, deleted) is Deleted.
 * The post's ap_posts row is what was sent, and each step changes it with a compare-and-set, so two
 * racing calls send once. Drafts and posts scheduled for later are never visible, so never sent.
 */
export function createPublishing(k: Kernel, deps: { delivery: Delivery; u: Urls }) {
  const { db } = k;
  const { delivery, u } = deps;
  async function send(activity: Record<string, unknown>, signer: string, audiences: string[], except?: string[]) {
    // Nobody to tell: no job at all (most posts of a site nobody follows yet).
    const anyone = await db
      .select({ localId: schema.apFollowers.localId })
      .from(schema.apFollowers)
      .where(inArray(schema.apFollowers.localId, audiences))
      .limit(1);
    if (!anyone.length) return;
    await delivery.enqueue([
      {
        kind: "fanout",
        activity: JSON.stringify(activity),
        signer,
        keyId: u.key(signer),
        audiences,
        firstAt: Date.now(),
        ...(except ? { except } : {}),
      },
    ]);
  }

  return {
    /**
     * An account was deleted: each post of theirs that was federated is Deleted (a Tombstone), then
     * their actor itself, to their followers (and the site's, for the posts), through the queue.
     */
    async retireAuthor(authorId: string, now = Date.now()): Promise<number> {
      const gone = await db
        .update(schema.apPosts)
        .set({ deleted: true })
        .where(and(eq(schema.apPosts.authorId, authorId), eq(schema.apPosts.deleted, false)))
        .returning({ blogId: schema.apPosts.blogId });
      const anyone = await db
        .select({ localId: schema.apFollowers.localId })
        .from(schema.apFollowers)
        .where(inArray(schema.apFollowers.localId, [authorId, SITE_ACTOR]))
        .limit(1);
      if (!anyone.length) return 0;
      const actor = u.actor(authorId);
      const job = (activity: Record<string, unknown>, audiences: string[]) => ({
        kind: "fanout" as const,
        activity: JSON.stringify(activity),
        signer: authorId,
        keyId: u.key(authorId),
        audiences,
        firstAt: now,
      });
      const tombstones = gone.map(({ blogId }) =>
        job(
          {
            "@context": OBJECT_CONTEXT,
            id: `${u.post(blogId)}/delete/${now}`,
            type: "Delete",
            actor,
            to: [PUBLIC],
            cc: [u.followers(authorId), u.followers(SITE_ACTOR)],
            object: { type: "Tombstone", id: u.post(blogId) },
          },
          [authorId, SITE_ACTOR],
        ),
      );
      const self = job(
        {
          "@context": OBJECT_CONTEXT,
          id: `${actor}#delete/${now}`,
          type: "Delete",
          actor,
          to: [PUBLIC],
          object: actor,
        },
        [authorId],
      );
      await delivery.enqueue([...tombstones, self]);
      return tombstones.length + 1;
    },

    async sync(blogId: string, now = Date.now()): Promise<"created" | "updated" | "deleted" | "unchanged"> {
      const [visible] = await db
        .select()
        .from(schema.blogs)
        .where(and(eq(schema.blogs.id, blogId), visibleBlog(now)))
        .limit(1);
      const sent = await db.query.apPosts.findFirst({ where: eq(schema.apPosts.blogId, blogId) });
      if (visible && (!sent || sent.deleted)) {
        // The actors' ids, not their rows: keys are made when someone follows (a delivery needs them then).
        const writer = { id: visible.authorId };
        const site = { id: SITE_ACTOR };
        const article = toArticle(visible, u);
        const create = {
          "@context": OBJECT_CONTEXT,
          id: `${u.post(blogId)}/create/${visible.updatedAt}`,
          type: "Create",
          actor: u.actor(writer.id),
          published: article.published,
          to: article.to,
          cc: article.cc,
          object: article,
        };
        const claimed = await db
          .insert(schema.apPosts)
          .values({
            blogId,
            authorId: visible.authorId,
            version: visible.updatedAt,
            deleted: false,
            activity: JSON.stringify(create),
            publishedAt: now,
          })
          .onConflictDoUpdate({
            target: schema.apPosts.blogId,
            set: { version: visible.updatedAt, deleted: false, activity: JSON.stringify(create), publishedAt: now },
            setWhere: eq(schema.apPosts.deleted, true),
          })
          .returning({ blogId: schema.apPosts.blogId });
        if (!claimed.length) return "unchanged";
        await send(create, writer.id, [writer.id]);
        // The site's followers get it as the site's boost (a server only takes a Create from someone followed there).
        await send(
          {
            "@context": OBJECT_CONTEXT,
            id: `${u.post(blogId)}/announce/${visible.updatedAt}`,
            type: "Announce",
            actor: u.actor(site.id),
            published: article.published,
            to: [PUBLIC],
            cc: [u.followers(site.id), u.actor(writer.id)],
            object: article.id,
          },
          site.id,
          [site.id],
        );
        return "created";
      }
      if (visible && sent && visible.updatedAt !== sent.version) {
        const changed = await db
          .update(schema.apPosts)
          .set({ version: visible.updatedAt })
          .where(and(eq(schema.apPosts.blogId, blogId), eq(schema.apPosts.version, sent.version)))
          .returning({ blogId: schema.apPosts.blogId });
        if (!changed.length) return "unchanged";
        const article = toArticle(visible, u);
        await send(
          {
            "@context": OBJECT_CONTEXT,
            id: `${u.post(blogId)}/update/${visible.updatedAt}`,
            type: "Update",
            actor: u.actor(visible.authorId),
            to: article.to,
            cc: article.cc,
            object: article,
          },
          visible.authorId,
          [visible.authorId, SITE_ACTOR],
        );
        return "updated";
      }
      if (!visible && sent && !sent.deleted) {
        const changed = await db
          .update(schema.apPosts)
          .set({ deleted: true })
          .where(and(eq(schema.apPosts.blogId, blogId), eq(schema.apPosts.deleted, false)))
          .returning({ blogId: schema.apPosts.blogId });
        if (!changed.length) return "unchanged";
        await send(
          {
            "@context": OBJECT_CONTEXT,
            id: `${u.post(blogId)}/delete/${now}`,
            type: "Delete",
            actor: u.actor(sent.authorId),
            to: [PUBLIC],
            cc: [u.followers(sent.authorId), u.followers(SITE_ACTOR)],
            object: { type: "Tombstone", id: u.post(blogId) },
          },
          sent.authorId,
          [sent.authorId, SITE_ACTOR],
        );
        return "deleted";
      }
      return "unchanged";
    },
  };
}

export type Publishing = ReturnType<typeof createPublishing>;
