import { eq } from "drizzle-orm";
import { schema } from "#worker/db.ts";
import { toBlog, toPublicCard, type PublicBlog } from "#worker/services/blogs/model.ts";
import { countQuery, newestPageQuery, visibleList } from "#worker/services/blogs/lists.ts";
import { parsePaging, toPage, type Page } from "#worker/services/shared/pagination.ts";
import { NotFound } from "#worker/services/shared/errors.ts";
import { isIdShaped } from "#worker/services/shared/ids.ts";
import { followerCountQuery, followingQuery } from "#worker/services/follows.ts";
import type { Actor } from "#worker/services/shared/policy.ts";
import type { Kernel } from "#worker/services/kernel.ts";

/** Posts per page of a writer's page. */
export const WRITER_PAGE_SIZE = 6;

/** A writer as their public page shows them: the account's name and photo, the profile's words. */
export interface Writer {
  _id: string;
  name: string;
  photoURL: string | null;
  designation: string;
  bio: string;
}

export interface WriterPage {
  writer: Writer;
  /** How many people follow the writer (the shared page shows it; a follow purges `writer:{id}`). */
  followers: number;
  /** Whether the signed-in reader follows them (false for a visitor: the page they get is shared). */
  following: boolean;
  blogs: Page<PublicBlog>;
}

/**
 * /writers/{id}: a writer's public page. Any real account has one (a reader with no posts gets the
 * page with an empty list); an unknown or malformed id is a 404. Posts are the visible ones only,
 * so drafts and posts scheduled for later never show. One D1 round trip.
 */
export function createWriterService(k: Kernel) {
  const { db } = k;
  return {
    async page(id: string, input: { page?: unknown }, actor: Actor | null = null): Promise<WriterPage> {
      if (!isIdShaped(id)) throw new NotFound("Writer not found.");
      const paging = parsePaging({ page: input.page }, WRITER_PAGE_SIZE);
      const theirs = visibleList({ by: "author", key: id });
      const [users, profiles, rows, totals, followers, mine] = await db.batch([
        db
          .select({ id: schema.users.id, name: schema.users.name, photoUrl: schema.users.photoUrl })
          .from(schema.users)
          .where(eq(schema.users.id, id))
          .limit(1),
        db
          .select({
            name: schema.profiles.name,
            designation: schema.profiles.designation,
            bio: schema.profiles.bio,
          })
          .from(schema.profiles)
          .where(eq(schema.profiles.userId, id))
          .limit(1),
        newestPageQuery(db, theirs, paging),
        countQuery(db, theirs),
        followerCountQuery(db, id),
        // A visitor's answer must not depend on anyone: the same always-empty query keeps one batch shape.
        followingQuery(db, actor?.id ?? "", id),
      ]);
      const user = users[0];
      if (!user) throw new NotFound("Writer not found.");
      const profile = profiles[0];
      const total = totals[0]?.total ?? 0;
      return {
        writer: {
          _id: user.id,
          // Edit Profile changes the profile's name: that is the name the writer chose to show.
          name: profile?.name || user.name,
          photoURL: user.photoUrl,
          designation: profile?.designation ?? "",
          bio: profile?.bio ?? "",
        },
        followers: followers[0]?.total ?? 0,
        following: actor !== null && mine.length > 0,
        blogs: toPage(
          rows.map((row) => toPublicCard(toBlog(row))),
          total,
          paging,
        ),
      };
    },
  };
}

export type WriterService = ReturnType<typeof createWriterService>;
