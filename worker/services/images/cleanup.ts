import { sql, type SQL } from "drizzle-orm";
import type { Db } from "#worker/db.ts";
import type { Env } from "#worker/env.ts";
import { imageKeyOf } from "#worker/services/images/files.ts";
import { withVariantKeys } from "#worker/services/images/service.ts";
import type { Purge } from "#worker/cache/purge.ts";
import { logError } from "#worker/log.ts";
import type { Kernel } from "#worker/services/kernel.ts";

/** An upload younger than this is never taken for an orphan: it may be on its way into a record. */
export const ORPHAN_GRACE_MS = 24 * 60 * 60 * 1000;
const LIST_PAGES_PER_SWEEP = 5;

/**
 * Whether `/images/<key>` (the SQL expression `key`) is still shown anywhere: a blog's cover, its
 * writer's picture, its social image or its text (or a kept revision of them, which a restore brings back), a
 * cover kept with a writer's autosaved text, a review, an author, an account photo. The one list of the places an
 * image can be used: a new one is added here, or its images could be deleted under it.
 */
// Each check is an index look-up at any size: covers and pictures on their own indexes, a
// post's text through the full-text index (the URL as a phrase in blog_details, then confirmed on the
// few posts it finds), so neither a release nor the hourly sweep reads every post. A members' or paid
// post's gated part is not in that index (migration 0034): the few gated posts are read on their own index.
const referenced = (key: ReturnType<typeof sql>) => sql`(
  exists (select 1 from blogs where image = '/images/' || ${key})
  or exists (select 1 from blogs where author_image = '/images/' || ${key})
  or exists (select 1 from blogs where social_image = '/images/' || ${key})
  or exists (select 1 from blog_search s cross join blogs b on b.rowid = s.rowid
             where s.blog_search match ('blog_details : "' || replace('/images/' || ${key}, '"', '""') || '"')
               and instr(b.blog_details, '/images/' || ${key}) > 0)
  or exists (select 1 from blogs indexed by blogs_gated_idx where visibility <> 'public'
                                          and visibility in ('members', 'paid') and instr(blog_details, '/images/' || ${key}) > 0)
  or exists (select 1 from blog_revisions where image = '/images/' || ${key}
                                          or social_image = '/images/' || ${key}
                                          or instr(blog_details, '/images/' || ${key}) > 0)
  or exists (select 1 from post_autosaves where cover = '/images/' || ${key})
  or exists (select 1 from reviews where image = '/images/' || ${key})
  or exists (select 1 from authors where img = '/images/' || ${key})
  or exists (select 1 from users where photo_url = '/images/' || ${key}))`;

/** Our own image URLs written into a post's text (Markdown images), so a deleted post lets them go too. */
export function imageUrlsIn(text: string): string[] {
  return text.match(/\/images\/[0-9a-z][0-9a-z_-]{7,80}\.(?:jpg|png|webp|gif|avif)/g) ?? [];
}

/**
 * Every image URL the posts matching `where` show or can bring back: their covers and text, and those of
 * their kept revisions. Read before a delete, since the foreign keys take the revisions with the posts.
 */
export async function postImageUrls(db: Db, where: SQL): Promise<string[]> {
  const rows = await db.all<{ image: string; social: string; details: string }>(sql`
    select image, social_image as social, blog_details as details from blogs where ${where}
    union all
    select blog_revisions.image, blog_revisions.social_image, blog_revisions.blog_details from blog_revisions
      join blogs on blogs.id = blog_revisions.blog_id where ${where}`);
  return rows.flatMap((r) => [r.image, r.social, ...imageUrlsIn(r.details)]);
}

/** Deletes R2 objects after their rows: an object left behind by a failed delete is swept as an orphan. */
async function deleteImages(db: Db, env: Env, keys: string[], purge?: Purge) {
  if (keys.length === 0) return;
  await db.run(sql`delete from images where key in (select value from json_each(${JSON.stringify(keys)}))`);
  // The original with every width made from it, and every cached copy of them (Cache-Tag image:<key>).
  await env.IMAGES.delete(withVariantKeys(keys));
  await purge?.({ kind: "image.removed", keys });
}

/**
 * What services call after a write that dropped images (a deleted post, review, author or account; a
 * replaced cover or photo): each of our own images that nothing shows any more leaves R2 and D1. A
 * failure is logged and never fails the write: the hourly sweep finds what is left.
 */
export type ReleaseImages = (urls: (string | null | undefined)[]) => Promise<void>;

export function createImageCleanup(k: Kernel) {
  const { db, env, purge } = k;
  const release: ReleaseImages = async (urls) => {
    const keys = [...new Set(urls.map((u) => (u ? imageKeyOf(u) : null)).filter((k): k is string => k !== null))];
    if (keys.length === 0) return;
    try {
      const unused = await db.all<{ key: string }>(
        sql`select k.value as key from json_each(${JSON.stringify(keys)}) k where not ${referenced(sql`k.value`)}`,
      );
      await deleteImages(
        db,
        env,
        unused.map((r) => r.key),
        purge,
      );
    } catch (err) {
      logError("image release failed", err, { keys });
    }
  };

  return {
    release,

    /**
     * The hourly sweep of orphans: R2 objects older than a day that have no upload row and are shown
     * nowhere (a failed write or a failed delete left them). Seeded images have no row either, but the
     * seeded records show them, so they stay.
     */
    async sweepOrphans(now = Date.now()): Promise<number> {
      let swept = 0;
      let cursor: string | undefined;
      for (let page = 0; page < LIST_PAGES_PER_SWEEP; page++) {
        const listing = await env.IMAGES.list({ cursor, limit: 1000 });
        const old = listing.objects.filter((o) => o.uploaded.getTime() < now - ORPHAN_GRACE_MS).map((o) => o.key);
        for (let at = 0; at < old.length; at += 90) {
          const slice = old.slice(at, at + 90);
          const orphans = await db.all<{ key: string }>(
            sql`select k.value as key from json_each(${JSON.stringify(slice)}) k
                where not exists (select 1 from images where images.key = k.value) and not ${referenced(sql`k.value`)}`,
          );
          if (orphans.length) await env.IMAGES.delete(withVariantKeys(orphans.map((o) => o.key)));
          swept += orphans.length;
        }
        if (!listing.truncated) break;
        cursor = listing.cursor;
      }
      return swept;
    },
  };
}

export type ImageCleanup = ReturnType<typeof createImageCleanup>;
