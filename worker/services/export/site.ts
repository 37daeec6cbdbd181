import { configOf } from "#worker/config.ts";
import { asc, eq } from "drizzle-orm";
import { alias } from "drizzle-orm/sqlite-core";
import type { Db } from "#worker/db.ts";
import { schema } from "#worker/db.ts";
import { slugOf } from "#worker/services/blogs/slug.ts";
import { iso, localImages, markdownFile } from "#worker/services/export/format.ts";
import { isImageKey } from "#worker/services/images/files.ts";
import { SITE_PAGES, type SitePageSlug } from "#worker/services/site-pages.ts";
import { SITE_EXPORT_MARKER } from "#worker/services/import/edge-blog.ts";
import { requireAdmin, type Actor } from "#worker/services/shared/policy.ts";
import { zipStream } from "#worker/services/shared/zip-stream.ts";
import { KEYSET_PAGE, keysetPages } from "#worker/services/shared/keyset.ts";
import type { Kernel } from "#worker/services/kernel.ts";

export const SITE_EXPORT_LIMIT = { attempts: 5, windowSeconds: 60 * 60 } as const;

const README = `# Edge Blog site export

This zip is the whole site, in a form people and programs can read, and that Edge Blog imports back
(Dashboard, Import): importing it into an empty site gives back its posts, pages, images and comments.

- edge-blog.json          the format's name and version, the site and when it was exported
- posts/<slug>.md         every post (drafts and scheduled ones too): front matter, then the Markdown body.
                          Front matter lines are "key: <JSON value>" (valid YAML): title, id, date, status,
                          publish_at, category, tags ("a,b"), author, author_email, description, cover, likes,
                          meta_description, seo_title and social_image (the SEO fields; "" when the post has
                          none), newsletter_content (what the newsletter sends of it: "teaser", "full", or ""
                          for the site's default), newsletter_audience (who it is mailed to: "everyone", "free",
                          "paid", or "" for the site's default), visibility ("public", "members" or "paid"), slug (the
                          chosen link tail; "" when it follows the title) and email_subscribers (0 when
                          "Don't email this post" was ticked)
- pages/<slug>.md         the site's pages (privacy, terms): front matter (title, slug, edited, updated_at),
                          then the Markdown; the import restores those an admin had edited
- images/<key>            every stored image; posts refer to them as ../images/<key>
- users.json              accounts: id, name, email, role, photo, dates (never a password hash)
- profiles.json           writer profiles (bio, designation)
- comments.json           comments, with the post id, the commenter's name and email, and parentId: the _id
                          of the comment a reply answers (null for a top comment)
- likes.json, saves.json  who liked and who saved which post
- reviews.json            testimonials
- authors.json            the featured authors
- subscribers.json        newsletter subscribers and their state (pending, confirmed, unsubscribed)
- follows.json            who follows which writer: follower and writer by email (with their names), createdAt
- settings.json           the site's name, owner and address
`;

/** GET /dashboard/export.zip and /api/site/export: the whole site as one streamed zip (admins only). */
export function createSiteExportService(k: Kernel) {
  const { db, env, rateLimit } = k;
  return {
    async create(actor: Actor | null): Promise<{ filename: string; body: ReadableStream<Uint8Array> }> {
      const admin = requireAdmin(actor);
      await rateLimit.hit(`site-export:${admin.id}`, SITE_EXPORT_LIMIT.attempts, SITE_EXPORT_LIMIT.windowSeconds);
      const config = configOf(env);
      const site = config.siteName;
      const day = new Date().toISOString().slice(0, 10);
      const b = schema.blogs;
      const u = schema.users;
      const c = schema.comments;
      const body = zipStream(async (zip) => {
        await zip.text(
          SITE_EXPORT_MARKER,
          `${JSON.stringify({ format: "edge-blog-export", version: 1, site: slugOf(site), exportedAt: new Date().toISOString() }, null, 2)}\n`,
        );
        await zip.text("README.md", README);
        for await (const rows of keysetPages(
          (after) =>
            db
              .select({ blog: b, k1: b.createdAt, k2: b.id })
              .from(b)
              .where(after)
              .orderBy(asc(b.createdAt), asc(b.id))
              .limit(KEYSET_PAGE),
          b.createdAt,
          b.id,
        ))
          for (const { blog } of rows) {
            const front: [string, string | number | null][] = [
              ["title", blog.title],
              ["id", blog.id],
              ["date", blog.dateTime],
              ["status", blog.status],
              ["publish_at", iso(blog.publishAt)],
              ["category", blog.category],
              ["tags", blog.tags],
              ["author", blog.authorName],
              ["author_email", blog.email],
              ["description", blog.shortDescription],
              ["cover", localImages(blog.image)],
              ["likes", blog.likes],
              ["meta_description", blog.metaDescription],
              ["seo_title", blog.seoTitle],
              ["social_image", localImages(blog.socialImage)],
              // What the newsletter sends of it: "" (the site's default), "teaser" or "full".
              ["newsletter_content", blog.newsletterContent],
              // Who the newsletter mails it to: "" (the site's default), "everyone", "free" or "paid".
              ["newsletter_audience", blog.newsletterAudience],
              // Who reads it in full: "public", "members" or "paid" (the body is always whole here).
              ["visibility", blog.visibility],
              // The writer's chosen link tail ("" when it follows the title) and "Don't email this post".
              ["slug", blog.slug],
              ["email_subscribers", blog.emailSubscribers ? 1 : 0],
            ];
            await zip.text(
              `posts/${slugOf(blog.title)}-${blog.id}.md`,
              markdownFile(front, localImages(blog.blogDetails)),
            );
          }

        const edited = new Map((await db.select().from(schema.sitePages)).map((p) => [p.slug, p]));
        for (const slug of Object.keys(SITE_PAGES) as SitePageSlug[]) {
          const row = edited.get(slug);
          const front: [string, string | number | boolean | null][] = [
            ["title", SITE_PAGES[slug].title],
            ["slug", slug],
            ["edited", Boolean(row)],
            ["updated_at", row ? iso(row.updatedAt) : null],
          ];
          await zip.text(`pages/${slug}.md`, markdownFile(front, row?.body ?? SITE_PAGES[slug].body));
        }

        await zip.json(
          "users.json",
          (async function* () {
            for await (const rows of keysetPages(
              (after) =>
                db
                  .select({ k1: u.createdAt, k2: u.id, name: u.name, email: u.email, role: u.role, photo: u.photoUrl })
                  .from(u)
                  .where(after)
                  .orderBy(asc(u.createdAt), asc(u.id))
                  .limit(KEYSET_PAGE),
              u.createdAt,
              u.id,
            ))
              yield rows.map(({ k1, k2, ...r }) => ({ _id: k2, ...r, createdAt: iso(k1) }));
          })(),
        );
        await zip.json(
          "comments.json",
          (async function* () {
            for await (const rows of keysetPages(
              (after) =>
                db
                  .select({
                    k1: c.createdAt,
                    k2: c.id,
                    blogId: c.blogId,
                    parentId: c.parentId,
                    body: c.body,
                    authorName: u.name,
                    authorEmail: u.email,
                  })
                  .from(c)
                  .innerJoin(u, eq(u.id, c.userId))
                  .where(after)
                  .orderBy(asc(c.createdAt), asc(c.id))
                  .limit(KEYSET_PAGE),
              c.createdAt,
              c.id,
            ))
              yield rows.map(({ k1, k2, ...r }) => ({ _id: k2, ...r, createdAt: iso(k1) }));
          })(),
        );
        await zip.json("follows.json", followPairs(db));
        // The smaller tables, each in pages on its own key.
        const simple = async (name: string, table: keyof typeof tables) => {
          const { t, key } = tables[table];
          await zip.json(
            name,
            (async function* () {
              for await (const rows of keysetPages(
                (after) =>
                  db
                    .select()
                    .from(t)
                    .where(after)
                    .orderBy(asc(t.createdAt), asc(key))
                    .limit(KEYSET_PAGE)
                    .then((r) =>
                      r.map((row) => ({
                        ...row,
                        k1: row.createdAt as number,
                        k2: String((row as Record<string, unknown>)[keyName[table]]),
                      })),
                    ),
                t.createdAt,
                key,
              ))
                yield rows.map(({ k1, k2, ...r }) => (void k2, { ...r, createdAt: iso(k1) }));
            })(),
          );
        };
        const tables = {
          profiles: { t: schema.profiles, key: schema.profiles.id },
          likes: { t: schema.blogLikes, key: schema.blogLikes.blogId },
          saves: { t: schema.savedBlogs, key: schema.savedBlogs.id },
          reviews: { t: schema.reviews, key: schema.reviews.id },
          authors: { t: schema.authors, key: schema.authors.id },
          subscribers: { t: schema.newsletterSubscriptions, key: schema.newsletterSubscriptions.id },
        } as const;
        const keyName = {
          profiles: "id",
          likes: "blogId",
          saves: "id",
          reviews: "id",
          authors: "id",
          subscribers: "id",
        } as const;
        for (const name of Object.keys(tables) as (keyof typeof tables)[]) await simple(`${name}.json`, name);
        await zip.text(
          "settings.json",
          `${JSON.stringify({ siteName: site, ownerName: config.ownerName, siteUrl: config.siteUrl }, null, 2)}\n`,
        );

        // Images last, straight from R2 a page of keys at a time (variants are remade on demand).
        let cursor: string | undefined;
        do {
          const page = await env.IMAGES.list({ cursor, limit: 500 });
          for (const object of page.objects) {
            if (!isImageKey(object.key)) continue;
            const stored = await env.IMAGES.get(object.key);
            if (stored) await zip.stream(`images/${object.key}`, stored.body);
          }
          cursor = page.truncated ? page.cursor : undefined;
        } while (cursor);
      }, "site export");
      return { filename: `${slugOf(site)}-site-${day}.zip`, body };
    },
  };
}

/** Every follow as a pair of addresses (what another installation can match), walked on the primary key. */
async function* followPairs(db: Db) {
  const f = schema.follows;
  const follower = alias(schema.users, "follower");
  const writer = alias(schema.users, "writer");
  for await (const rows of keysetPages(
    (after) =>
      db
        .select({
          k1: f.followerId,
          k2: f.writerId,
          follower: follower.email,
          followerName: follower.name,
          writer: writer.email,
          writerName: writer.name,
          createdAt: f.createdAt,
        })
        .from(f)
        .innerJoin(follower, eq(follower.id, f.followerId))
        .innerJoin(writer, eq(writer.id, f.writerId))
        .where(after)
        .orderBy(asc(f.followerId), asc(f.writerId))
        .limit(KEYSET_PAGE),
    f.followerId,
    f.writerId,
  ))
    yield rows.map(({ k1, k2, createdAt, ...r }) => (void k1, void k2, { ...r, createdAt: iso(createdAt) }));
}

export type SiteExportService = ReturnType<typeof createSiteExportService>;
