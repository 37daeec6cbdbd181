import { configOf } from "#worker/config.ts";
import { and, asc, eq, sql } from "drizzle-orm";
import type { Db } from "#worker/db.ts";
import { schema } from "#worker/db.ts";
import { imageUrlsIn } from "#worker/services/images/cleanup.ts";
import { imageKeyOf } from "#worker/services/images/files.ts";
import { slugOf } from "#worker/services/blogs/slug.ts";
import { iso, localImages, markdownFile } from "#worker/services/export/format.ts";
import { KEYSET_PAGE, keysetPages } from "#worker/services/shared/keyset.ts";
import { requireUser, type Actor } from "#worker/services/shared/policy.ts";
import { visibleBlog } from "#worker/services/blogs/visible.ts";
import { zipStream } from "#worker/services/shared/zip-stream.ts";
import type { Kernel } from "#worker/services/kernel.ts";

/**
 * What one download holds at most. The zip is streamed (one file at a time, images in R2-sized
 * chunks), so memory stays flat whatever the account holds; these caps bound the work of one request.
 */
export const EXPORT_CAPS = { posts: 2000, images: 1000, imageBytes: 512 * 1024 * 1024, rows: 10_000 } as const;
/** Downloads per account: 5 an hour (each reads every post and image of the account). */
export const EXPORT_LIMIT = { attempts: 5, windowSeconds: 60 * 60 } as const;

export interface DataExport {
  filename: string;
  body: ReadableStream<Uint8Array>;
}

type BlogRow = typeof schema.blogs.$inferSelect;

export function postMarkdown(blog: BlogRow): string {
  const cover = imageKeyOf(blog.image) ? localImages(blog.image) : blog.image;
  return markdownFile(
    [
      ["title", blog.title],
      ["id", blog.id],
      ["status", blog.status],
      ["date", blog.dateTime],
      ["publish_at", iso(blog.publishAt)],
      ["category", blog.category],
      ["tags", blog.tags],
      ["description", blog.shortDescription],
      ["image", cover],
      ["meta_description", blog.metaDescription],
      ["social_image", imageKeyOf(blog.socialImage) ? localImages(blog.socialImage) : blog.socialImage],
      // Every field of the post form (issue 47): the SEO title, the chosen link tail, the newsletter choice
      // ("" the site's default, "teaser" or "full") and "Don't email this post".
      ["seo_title", blog.seoTitle],
      ["slug", blog.slug],
      ["newsletter_content", blog.newsletterContent],
      ["email_subscribers", blog.emailSubscribers ? 1 : 0],
      ["likes", blog.likes],
      ["created_at", iso(blog.createdAt)],
      ["updated_at", iso(blog.updatedAt)],
    ],
    localImages(blog.blogDetails),
  );
}

const README = (site: string, skipped: string[]) =>
  [
    `Your data from ${site}, exported ${new Date().toISOString()}.`,
    "",
    "profile.json   your account and profile",
    "posts/         every post you wrote (drafts and scheduled ones too), Markdown with front matter",
    "images/        the images your posts and your account show",
    "               (front matter: title, id, status, date, publish_at, category, tags, description, image,",
    "               meta_description, social_image, seo_title, slug, newsletter_content, email_subscribers,",
    "               likes, created_at, updated_at)",
    "comments.json  the comments you wrote; parentId is the comment a reply answers (null for a top comment)",
    "follows.json   the writers you follow and the people who follow you (id, name, since when)",
    "likes.json     the posts you liked",
    "saves.json     the posts you saved to read later",
    "",
    "A post title is null where that post is not public (another writer's draft).",
    ...(skipped.length ? ["", "Images not included (missing, or past the size cap of one download):", ...skipped] : []),
    "",
  ].join("\n");

/**
 * GET /api/auth/export: the account's own data as one zip: every post it wrote (drafts too) as
 * Markdown with front matter, the images those posts and the account show (from R2), and JSON of the
 * profile, comments, likes and saves. Nothing of another person: titles of other people's posts
 * appear only while those posts are public.
 */
export function createDataExportService(k: Kernel) {
  const { db, env, rateLimit } = k;
  /** The public title of a post, or null when it is not public (a draft of someone else stays unknown). */
  const publicTitle = sql<string | null>`case when ${visibleBlog()} then ${schema.blogs.title} else null end`;

  return {
    async create(actor: Actor | null): Promise<DataExport> {
      const user = requireUser(actor);
      await rateLimit.hit(`export:${user.id}`, EXPORT_LIMIT.attempts, EXPORT_LIMIT.windowSeconds);
      const account = await db.query.users.findFirst({ where: eq(schema.users.id, user.id) });
      const profile = await db.query.profiles.findFirst({ where: eq(schema.profiles.userId, user.id) });
      const day = new Date().toISOString().slice(0, 10);
      const filename = `${slugOf(configOf(env).siteName)}-data-${day}.zip`;

      const images = new Set<string>();
      const wantImage = (url: string | null | undefined) => {
        const key = url ? imageKeyOf(url) : null;
        if (key) images.add(key);
      };
      const b = schema.blogs;
      const c = schema.comments;
      const l = schema.blogLikes;
      const s = schema.savedBlogs;

      const body = zipStream(async (zip) => {
        wantImage(account?.photoUrl);
        const profileJson = {
          account: account && {
            _id: account.id,
            name: account.name,
            email: account.email,
            role: account.role,
            photoURL: account.photoUrl,
            signsInWithGoogle: Boolean(account.googleSub),
            createdAt: iso(account.createdAt),
          },
          profile: profile && {
            _id: profile.id,
            name: profile.name,
            email: profile.email,
            bio: profile.bio,
            designation: profile.designation,
            createdAt: iso(profile.createdAt),
            updatedAt: iso(profile.updatedAt),
          },
        };
        await zip.text("profile.json", `${JSON.stringify(profileJson, null, 2)}\n`);

        const usedNames = new Set<string>();
        for await (const posts of keysetPages(
          (after) =>
            db
              .select({ blog: b, k1: b.createdAt, k2: b.id })
              .from(b)
              .where(and(eq(b.authorId, user.id), after))
              .orderBy(asc(b.createdAt), asc(b.id))
              .limit(KEYSET_PAGE),
          b.createdAt,
          b.id,
          EXPORT_CAPS.posts,
        )) {
          for (const { blog } of posts) {
            let name = `posts/${blog.dateTime.slice(0, 10)}-${slugOf(blog.title)}.md`;
            if (usedNames.has(name)) name = name.replace(/\.md$/, `-${blog.id}.md`);
            usedNames.add(name);
            wantImage(blog.image);
            wantImage(blog.authorImage);
            wantImage(blog.socialImage);
            for (const url of imageUrlsIn(blog.blogDetails)) wantImage(url);
            await zip.text(name, postMarkdown(blog));
          }
        }

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
                    blogTitle: publicTitle,
                  })
                  .from(c)
                  .innerJoin(b, eq(b.id, c.blogId))
                  .where(and(eq(c.userId, user.id), after))
                  .orderBy(asc(c.createdAt), asc(c.id))
                  .limit(KEYSET_PAGE),
              c.createdAt,
              c.id,
              EXPORT_CAPS.rows,
            ))
              yield rows.map((r) => ({
                _id: r.k2,
                blogId: r.blogId,
                blogTitle: r.blogTitle,
                parentId: r.parentId,
                body: r.body,
                createdAt: iso(r.k1),
              }));
          })(),
        );

        await zip.json(
          "likes.json",
          (async function* () {
            for await (const rows of keysetPages(
              (after) =>
                db
                  .select({ k1: l.createdAt, k2: l.blogId, blogTitle: publicTitle })
                  .from(l)
                  .innerJoin(b, eq(b.id, l.blogId))
                  .where(and(eq(l.userId, user.id), after))
                  .orderBy(asc(l.createdAt), asc(l.blogId))
                  .limit(KEYSET_PAGE),
              l.createdAt,
              l.blogId,
              EXPORT_CAPS.rows,
            ))
              yield rows.map((r) => ({ blogId: r.k2, blogTitle: r.blogTitle, likedAt: iso(r.k1) }));
          })(),
        );

        await zip.json(
          "saves.json",
          (async function* () {
            for await (const rows of keysetPages(
              (after) =>
                db
                  .select({ k1: s.createdAt, k2: s.id, blogId: s.blogId, blogTitle: publicTitle })
                  .from(s)
                  .innerJoin(b, eq(b.id, s.blogId))
                  .where(and(eq(s.userId, user.id), after))
                  .orderBy(asc(s.createdAt), asc(s.id))
                  .limit(KEYSET_PAGE),
              s.createdAt,
              s.id,
              EXPORT_CAPS.rows,
            ))
              yield rows.map((r) => ({ blogId: r.blogId, blogTitle: r.blogTitle, savedAt: iso(r.k1) }));
          })(),
        );

        await zip.text("follows.json", `${JSON.stringify(await followsOf(db, user.id), null, 2)}\n`);

        // Images last, one at a time, streamed from R2 chunk by chunk; past the caps they are listed instead.
        let bytes = 0;
        let count = 0;
        const skipped: string[] = [];
        for (const key of images) {
          const object = count < EXPORT_CAPS.images ? await env.IMAGES.get(key) : null;
          if (!object || bytes + object.size > EXPORT_CAPS.imageBytes) {
            await object?.body.cancel();
            skipped.push(`/images/${key}`);
            continue;
          }
          count += 1;
          bytes += object.size;
          await zip.stream(`images/${key}`, object.body);
        }

        await zip.text("README.txt", README(configOf(env).siteName, skipped));
      }, "data export");

      return { filename, body };
    },
  };
}

/**
 * The account's follows both ways, by id and name (names are public on the site; the other people's
 * addresses are theirs and stay out). Capped like the other lists.
 */
async function followsOf(db: Db, userId: string) {
  const f = schema.follows;
  const u = schema.users;
  const [following, followers] = await db.batch([
    db
      .select({ writerId: f.writerId, name: u.name, since: f.createdAt })
      .from(f)
      .innerJoin(u, eq(u.id, f.writerId))
      .where(eq(f.followerId, userId))
      .orderBy(asc(f.createdAt))
      .limit(EXPORT_CAPS.rows),
    db
      .select({ followerId: f.followerId, name: u.name, since: f.createdAt })
      .from(f)
      .innerJoin(u, eq(u.id, f.followerId))
      .where(eq(f.writerId, userId))
      .orderBy(asc(f.createdAt))
      .limit(EXPORT_CAPS.rows),
  ]);
  return {
    following: following.map((r) => ({ writerId: r.writerId, name: r.name, followedAt: iso(r.since) })),
    followers: followers.map((r) => ({ followerId: r.followerId, name: r.name, followedAt: iso(r.since) })),
  };
}

export type DataExportService = ReturnType<typeof createDataExportService>;
