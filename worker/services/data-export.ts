import { Zip, ZipDeflate, ZipPassThrough } from "fflate";
import { and, asc, eq, sql } from "drizzle-orm";
import type { Db } from "#worker/db.ts";
import { schema } from "#worker/db.ts";
import type { Env } from "#worker/env.ts";
import { imageUrlsIn } from "#worker/services/image-cleanup.ts";
import { imageKeyOf } from "#worker/services/images.ts";
import { requireUser, type Actor } from "#worker/services/shared/policy.ts";
import type { RateLimitService } from "#worker/services/rate-limit.ts";
import { visibleBlog } from "#worker/services/visible-blogs.ts";
import { logError } from "#worker/log.ts";

/**
 * What one download holds at most. The zip is streamed (one file at a time, images in R2-sized
 * chunks), so memory stays flat whatever the account holds; these caps bound the work of one request.
 */
export const EXPORT_CAPS = { posts: 2000, images: 1000, imageBytes: 512 * 1024 * 1024, rows: 10_000 } as const;
/** Downloads per account: 5 an hour (each reads every post and image of the account). */
export const EXPORT_LIMIT = { attempts: 5, windowSeconds: 60 * 60 } as const;

const PAGE = 200;
const enc = new TextEncoder();

export interface DataExport {
  filename: string;
  body: ReadableStream<Uint8Array>;
}

/** A value as front matter: JSON strings, numbers and null are valid YAML scalars, so nothing needs escaping by hand. */
const yaml = (value: string | number | null) => JSON.stringify(value);

export function slugOf(title: string): string {
  const slug = title
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "")
    .slice(0, 60);
  return slug || "post";
}

/** Our own image URLs point into the zip's images/ folder, so the Markdown reads offline. */
const localImages = (text: string) => text.replace(/\/images\/([0-9a-z][0-9a-z_-]{7,80}\.[a-z]{3,4})/g, "../images/$1");

type BlogRow = typeof schema.blogs.$inferSelect;

export function postMarkdown(blog: BlogRow): string {
  const cover = imageKeyOf(blog.image) ? localImages(blog.image) : blog.image;
  const front = [
    "---",
    `title: ${yaml(blog.title)}`,
    `id: ${yaml(blog.id)}`,
    `status: ${yaml(blog.status)}`,
    `date: ${yaml(blog.dateTime)}`,
    `publish_at: ${yaml(blog.publishAt === null ? null : new Date(blog.publishAt).toISOString())}`,
    `category: ${yaml(blog.category)}`,
    `description: ${yaml(blog.shortDescription)}`,
    `image: ${yaml(cover)}`,
    `likes: ${yaml(blog.likes)}`,
    `created_at: ${yaml(new Date(blog.createdAt).toISOString())}`,
    `updated_at: ${yaml(new Date(blog.updatedAt).toISOString())}`,
    "---",
    "",
  ];
  return `${front.join("\n")}${localImages(blog.blogDetails)}\n`;
}

/**
 * GET /api/auth/export: the account's own data as one zip: every post it wrote (drafts too) as
 * Markdown with front matter, the images those posts and the account show (from R2), and JSON of the
 * profile, comments, likes and saves. Nothing of another person: titles of other people's posts
 * appear only while those posts are public.
 */
export function createDataExportService(db: Db, env: Env, rateLimit: RateLimitService) {
  /** Reads a table page by page (keyset on created_at, id), never more than `EXPORT_CAPS.rows` rows. */
  async function* pages<T extends { createdAt: number; key: string }>(
    read: (after: { createdAt: number; key: string } | null) => Promise<T[]>,
    cap: number = EXPORT_CAPS.rows,
  ): AsyncGenerator<T[]> {
    let after: { createdAt: number; key: string } | null = null;
    let seen = 0;
    while (seen < cap) {
      const rows: T[] = (await read(after)).slice(0, cap - seen);
      if (rows.length === 0) return;
      seen += rows.length;
      yield rows;
      if (rows.length < PAGE) return;
      const last: T = rows[rows.length - 1]!;
      after = { createdAt: last.createdAt, key: last.key };
    }
  }

  const afterKey = (
    createdAt: ReturnType<typeof sql>,
    key: ReturnType<typeof sql>,
    a: { createdAt: number; key: string } | null,
  ) => (a ? sql`(${createdAt} > ${a.createdAt} or (${createdAt} = ${a.createdAt} and ${key} > ${a.key}))` : sql`1 = 1`);

  /** The public title of a post, or null when it is not public (a draft of someone else stays unknown). */
  const publicTitle = sql<string | null>`case when ${visibleBlog()} then ${schema.blogs.title} else null end`;

  return {
    async create(actor: Actor | null): Promise<DataExport> {
      const user = requireUser(actor);
      await rateLimit.hit(`export:${user.id}`, EXPORT_LIMIT.attempts, EXPORT_LIMIT.windowSeconds);
      const account = await db.query.users.findFirst({ where: eq(schema.users.id, user.id) });
      const profile = await db.query.profiles.findFirst({ where: eq(schema.profiles.userId, user.id) });
      const day = new Date().toISOString().slice(0, 10);
      const site = slugOf(env.SITE_NAME ?? "edge-blog");
      const filename = `${site}-data-${day}.zip`;

      const { readable, writable } = new TransformStream<Uint8Array, Uint8Array>();
      const writer = writable.getWriter();
      let failed: unknown = null;
      const zip = new Zip((err, chunk, final) => {
        if (err) {
          failed = err;
          return;
        }
        void writer.write(chunk).catch((e: unknown) => (failed ??= e));
        if (final) void writer.close().catch(() => undefined);
      });

      const textFile = async (name: string, text: string) => {
        const file = new ZipDeflate(name, { level: 6 });
        zip.add(file);
        file.push(enc.encode(text), true);
        await writer.ready;
      };

      /** A JSON array written page by page, so a long list is never held whole. */
      const jsonFile = async (name: string, source: AsyncGenerator<unknown[]>) => {
        const file = new ZipDeflate(name, { level: 6 });
        zip.add(file);
        file.push(enc.encode("["));
        let first = true;
        for await (const rows of source) {
          for (const row of rows) {
            file.push(enc.encode(`${first ? "" : ","}\n  ${JSON.stringify(row)}`));
            first = false;
          }
          await writer.ready;
        }
        file.push(enc.encode(first ? "]\n" : "\n]\n"), true);
        await writer.ready;
      };

      const images = new Set<string>();
      const wantImage = (url: string | null | undefined) => {
        const key = url ? imageKeyOf(url) : null;
        if (key) images.add(key);
      };

      async function produce() {
        wantImage(account?.photoUrl);
        await textFile(
          "profile.json",
          `${JSON.stringify(
            {
              account: account && {
                _id: account.id,
                name: account.name,
                email: account.email,
                role: account.role,
                photoURL: account.photoUrl,
                signsInWithGoogle: Boolean(account.googleSub),
                createdAt: new Date(account.createdAt).toISOString(),
              },
              profile: profile && {
                _id: profile.id,
                name: profile.name,
                email: profile.email,
                bio: profile.bio,
                designation: profile.designation,
                createdAt: new Date(profile.createdAt).toISOString(),
                updatedAt: new Date(profile.updatedAt).toISOString(),
              },
            },
            null,
            2,
          )}\n`,
        );

        const b = schema.blogs;
        const usedNames = new Set<string>();
        for await (const posts of pages(
          (a) =>
            db
              .select({ blog: b, createdAt: b.createdAt, key: b.id })
              .from(b)
              .where(and(eq(b.authorId, user.id), afterKey(sql`${b.createdAt}`, sql`${b.id}`, a)))
              .orderBy(asc(b.createdAt), asc(b.id))
              .limit(PAGE),
          EXPORT_CAPS.posts,
        )) {
          for (const { blog } of posts) {
            let name = `posts/${blog.dateTime.slice(0, 10)}-${slugOf(blog.title)}.md`;
            if (usedNames.has(name)) name = name.replace(/\.md$/, `-${blog.id}.md`);
            usedNames.add(name);
            wantImage(blog.image);
            wantImage(blog.authorImage);
            for (const url of imageUrlsIn(blog.blogDetails)) wantImage(url);
            await textFile(name, postMarkdown(blog));
          }
        }

        const c = schema.comments;
        await jsonFile(
          "comments.json",
          (async function* () {
            for await (const rows of pages((a) =>
              db
                .select({ key: c.id, createdAt: c.createdAt, blogId: c.blogId, body: c.body, blogTitle: publicTitle })
                .from(c)
                .innerJoin(b, eq(b.id, c.blogId))
                .where(and(eq(c.userId, user.id), afterKey(sql`${c.createdAt}`, sql`${c.id}`, a)))
                .orderBy(asc(c.createdAt), asc(c.id))
                .limit(PAGE),
            ))
              yield rows.map((r) => ({
                _id: r.key,
                blogId: r.blogId,
                blogTitle: r.blogTitle,
                body: r.body,
                createdAt: new Date(r.createdAt).toISOString(),
              }));
          })(),
        );

        const l = schema.blogLikes;
        await jsonFile(
          "likes.json",
          (async function* () {
            for await (const rows of pages((a) =>
              db
                .select({ key: l.blogId, createdAt: l.createdAt, blogTitle: publicTitle })
                .from(l)
                .innerJoin(b, eq(b.id, l.blogId))
                .where(and(eq(l.userId, user.id), afterKey(sql`${l.createdAt}`, sql`${l.blogId}`, a)))
                .orderBy(asc(l.createdAt), asc(l.blogId))
                .limit(PAGE),
            ))
              yield rows.map((r) => ({
                blogId: r.key,
                blogTitle: r.blogTitle,
                likedAt: new Date(r.createdAt).toISOString(),
              }));
          })(),
        );

        const s = schema.savedBlogs;
        await jsonFile(
          "saves.json",
          (async function* () {
            for await (const rows of pages((a) =>
              db
                .select({ key: s.id, createdAt: s.createdAt, blogId: s.blogId, blogTitle: publicTitle })
                .from(s)
                .innerJoin(b, eq(b.id, s.blogId))
                .where(and(eq(s.userId, user.id), afterKey(sql`${s.createdAt}`, sql`${s.id}`, a)))
                .orderBy(asc(s.createdAt), asc(s.id))
                .limit(PAGE),
            ))
              yield rows.map((r) => ({
                blogId: r.blogId,
                blogTitle: r.blogTitle,
                savedAt: new Date(r.createdAt).toISOString(),
              }));
          })(),
        );

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
          const file = new ZipPassThrough(`images/${key}`);
          zip.add(file);
          const reader = object.body.getReader();
          for (;;) {
            const { done, value } = await reader.read();
            if (done) break;
            file.push(value);
            await writer.ready;
          }
          file.push(new Uint8Array(0), true);
          await writer.ready;
        }

        await textFile(
          "README.txt",
          [
            `Your data from ${env.SITE_NAME ?? "the site"}, exported ${new Date().toISOString()}.`,
            "",
            "profile.json   your account and profile",
            "posts/         every post you wrote (drafts and scheduled ones too), Markdown with front matter",
            "images/        the images your posts and your account show",
            "comments.json  the comments you wrote",
            "likes.json     the posts you liked",
            "saves.json     the posts you saved to read later",
            "",
            "A post title is null where that post is not public (another writer's draft).",
            ...(skipped.length
              ? ["", "Images not included (missing, or past the size cap of one download):", ...skipped]
              : []),
            "",
          ].join("\n"),
        );
        zip.end();
      }

      void produce().catch(async (err: unknown) => {
        logError("data export failed", err ?? failed);
        // A cut stream is an error the browser shows as a failed download, never a zip that looks complete.
        await writer.abort(err).catch(() => undefined);
      });

      return { filename, body: readable };
    },
  };
}

export type DataExportService = ReturnType<typeof createDataExportService>;
