import { and, count, desc, eq, inArray, ne, notInArray, sql } from "drizzle-orm";
import { alias } from "drizzle-orm/sqlite-core";
import type { Db } from "#worker/db.ts";
import { schema } from "#worker/db.ts";
import { toBlog, toPublicCard, type PublicBlog } from "#worker/services/blogs/model.ts";
import { countQuery, filteredList, newestPageQuery, pageIdsQuery, visibleList } from "#worker/services/blogs/lists.ts";
import { NotFound, ValidationError } from "#worker/services/shared/errors.ts";
import { isIdShaped } from "#worker/services/shared/ids.ts";
import { parsePaging, toPage, type Page } from "#worker/services/shared/pagination.ts";
import { requireAdmin, requireUser, type Actor } from "#worker/services/shared/policy.ts";
import type { Kernel } from "#worker/services/kernel.ts";
import { visibleBlogsWhere, visibleTotalOfWriter } from "#worker/services/blogs/visible.ts";

/** Posts per page of /following. */
export const FOLLOWING_PAGE_SIZE = 9;
/** Writers the "Who to Follow" sidebar suggests. */
export const SUGGESTIONS = 3;
/** Suggestions are the most active writers among this many newest visible posts: a bounded read at any size. */
export const SUGGESTION_WINDOW = 500;
/** Follows and unfollows per account and window: plenty for a person, too few for a script. */
export const FOLLOWS_PER_WINDOW = 60;
export const FOLLOW_WINDOW_SECONDS = 10 * 60;

export const FOLLOW_TEXTS = {
  self: "You cannot follow yourself.",
  notFound: "Writer not found.",
} as const;

/** A writer the sidebar suggests: a real account with visible posts. */
export interface SuggestedWriter {
  _id: string;
  name: string;
  photoURL: string | null;
  designation: string;
  posts: number;
}

export interface FollowState {
  following: boolean;
  followers: number;
}

/** A writer a reader follows, as GET /api/follows lists them. */
export interface FollowedWriter {
  _id: string;
  name: string;
  photoURL: string | null;
  /** ISO 8601, when the reader started following. */
  followed_at: string;
  /** How many of the writer's posts the public can read now (the visible-blogs rule). */
  posts: number;
}

const f = schema.follows;

/** How many people follow a writer (counted on the writer's index), as an un-sent query. */
export function followerCountQuery(db: Db, writerId: string) {
  return db.select({ total: count() }).from(f).where(eq(f.writerId, writerId));
}

/** Whether this reader follows this writer, as an un-sent query. */
export function followingQuery(db: Db, followerId: string, writerId: string) {
  return db
    .select({ one: sql<number>`1` })
    .from(f)
    .where(and(eq(f.followerId, followerId), eq(f.writerId, writerId)))
    .limit(1);
}

/** The name a writer shows: the profile's (Edit Profile) when set, else the account's. */
const shownName = sql<string>`coalesce(nullif(${schema.profiles.name}, ''), ${schema.users.name})`;

/** Writers this reader follows (a subquery). */
const followedBy = (db: Db, followerId: string) =>
  db.select({ id: f.writerId }).from(f).where(eq(f.followerId, followerId));

/**
 * Following writers. A follow is a row per reader and writer; following twice changes
 * nothing. Every change purges the writer's page (its follower count). A new follow emits
 * `user.followed`: the writer hears of it (a notification) the first time someone follows them.
 */
export function createFollowService(k: Kernel) {
  const { db, purge, rateLimit, events } = k;

  async function state(followerId: string, writerId: string): Promise<FollowState> {
    const [mine, totals] = await db.batch([followingQuery(db, followerId, writerId), followerCountQuery(db, writerId)]);
    return { following: mine.length > 0, followers: totals[0]?.total ?? 0 };
  }

  async function checked(actor: Actor | null, writerId: string): Promise<Actor> {
    const user = requireUser(actor);
    if (!isIdShaped(writerId)) throw new NotFound(FOLLOW_TEXTS.notFound);
    if (writerId === user.id)
      throw new ValidationError({ writerId: FOLLOW_TEXTS.self }, FOLLOW_TEXTS.self, "follow-self");
    await rateLimit.hit(`follow:${user.id}`, FOLLOWS_PER_WINDOW, FOLLOW_WINDOW_SECONDS);
    return user;
  }

  return {
    async follow(actor: Actor | null, writerId: string): Promise<FollowState> {
      const user = await checked(actor, writerId);
      // Insert-select from users: an unknown writer inserts nothing instead of failing the foreign key.
      const inserted = await db
        .insert(f)
        .select(
          db
            .select({
              followerId: sql<string>`${user.id}`.as("follower_id"),
              writerId: schema.users.id,
              createdAt: sql<number>`${Date.now()}`.as("created_at"),
            })
            .from(schema.users)
            .where(eq(schema.users.id, writerId)),
        )
        .onConflictDoNothing()
        .returning({ writerId: f.writerId });
      if (inserted.length) {
        await purge({ kind: "follow.changed", writerId });
        await events.emit("user.followed", { actor: user, writerId });
      } else if (!(await db.query.users.findFirst({ where: eq(schema.users.id, writerId), columns: { id: true } }))) {
        throw new NotFound(FOLLOW_TEXTS.notFound);
      }
      return state(user.id, writerId);
    },

    async unfollow(actor: Actor | null, writerId: string): Promise<FollowState> {
      const user = await checked(actor, writerId);
      const gone = await db
        .delete(f)
        .where(and(eq(f.followerId, user.id), eq(f.writerId, writerId)))
        .returning({ writerId: f.writerId });
      if (gone.length) await purge({ kind: "follow.changed", writerId });
      return state(user.id, writerId);
    },

    /**
     * An admin's import of this site's export: follows by email, each only where both accounts exist (a
     * follow never makes an account), one statement each in one batch; present ones stay as they are, so
     * importing twice adds nothing. Nobody is notified: these follows are old news.
     */
    async restore(
      actor: Actor | null,
      pairs: { follower: string; writer: string; date: string | null }[],
    ): Promise<{ restored: number; skipped: number }> {
      requireAdmin(actor);
      if (pairs.length === 0) return { restored: 0, skipped: 0 };
      const follower = alias(schema.users, "follower");
      const writer = alias(schema.users, "writer");
      const statements = pairs.map((p) =>
        db
          .insert(f)
          .select(
            db
              .select({
                followerId: sql<string>`${follower.id}`.as("follower_id"),
                writerId: sql<string>`${writer.id}`.as("writer_id"),
                createdAt: sql<number>`${(p.date && Date.parse(p.date)) || Date.now()}`.as("created_at"),
              })
              .from(follower)
              .innerJoin(writer, sql`${writer.email} = ${p.writer.toLowerCase()}`)
              .where(and(eq(follower.email, p.follower.toLowerCase()), ne(follower.id, writer.id))),
          )
          .onConflictDoNothing()
          .returning({ writerId: f.writerId }),
      );
      const results = await db.batch(statements as [(typeof statements)[0], ...typeof statements]);
      const writers = new Set(results.flat().map((r) => r.writerId));
      for (const writerId of writers) await purge({ kind: "follow.changed", writerId });
      const restored = results.reduce((n, r) => n + r.length, 0);
      return { restored, skipped: pairs.length - restored };
    },

    /** The reader's follow of a writer and the writer's follower count (for the writer page's button). */
    async stateOf(actor: Actor | null, writerId: string): Promise<FollowState> {
      if (!isIdShaped(writerId)) throw new NotFound(FOLLOW_TEXTS.notFound);
      if (!actor) {
        const [totals] = await db.batch([followerCountQuery(db, writerId)]);
        return { following: false, followers: totals[0]?.total ?? 0 };
      }
      return state(actor.id, writerId);
    },

    /** Which of these writers the reader follows (for bylines and lists). */
    async followedAmong(actor: Actor | null, writerIds: string[]): Promise<string[]> {
      if (!actor || writerIds.length === 0) return [];
      const rows = await db
        .select({ id: f.writerId })
        .from(f)
        .where(and(eq(f.followerId, actor.id), inArray(f.writerId, writerIds.slice(0, 90))));
      return rows.map((r) => r.id);
    },

    /** /following and GET /api/following: the newest visible posts of the writers the reader follows. */
    async feed(actor: Actor | null, input: { page?: unknown; limit?: unknown } = {}): Promise<Page<PublicBlog>> {
      const user = requireUser(actor);
      const paging = parsePaging(input, FOLLOWING_PAGE_SIZE);
      const theirs = filteredList(visibleBlogsWhere(inArray(schema.blogs.authorId, followedBy(db, user.id))));
      const [rows, totals] = await db.batch([newestPageQuery(db, theirs, paging), countQuery(db, theirs)]);
      return toPage(
        rows.map((row) => toPublicCard(toBlog(row))),
        totals[0]?.total ?? 0,
        paging,
      );
    },

    /** A writer's shown name (the profile's when set), for "Unfollowed {name}."; 404 when unknown. */
    async writerName(writerId: string): Promise<string> {
      if (!isIdShaped(writerId)) throw new NotFound(FOLLOW_TEXTS.notFound);
      const [row] = await db
        .select({ name: shownName })
        .from(schema.users)
        .leftJoin(schema.profiles, eq(schema.profiles.userId, schema.users.id))
        .where(eq(schema.users.id, writerId))
        .limit(1);
      if (!row) throw new NotFound(FOLLOW_TEXTS.notFound);
      return row.name;
    },

    /** /following and GET /api/follows: the writers the reader follows, newest follow first, with their visible posts. */
    async writers(actor: Actor | null, input: { page?: unknown; limit?: unknown } = {}): Promise<Page<FollowedWriter>> {
      const user = requireUser(actor);
      const paging = parsePaging(input, 20);
      const [rows, totals] = await db.batch([
        db
          .select({
            id: schema.users.id,
            name: shownName,
            photoUrl: schema.users.photoUrl,
            at: f.createdAt,
            posts: visibleTotalOfWriter(sql`"users"."id"`),
          })
          .from(f)
          .innerJoin(schema.users, eq(schema.users.id, f.writerId))
          .leftJoin(schema.profiles, eq(schema.profiles.userId, f.writerId))
          .where(eq(f.followerId, user.id))
          .orderBy(desc(f.createdAt), desc(f.writerId))
          .limit(paging.limit)
          .offset(paging.offset),
        db.select({ total: count() }).from(f).where(eq(f.followerId, user.id)),
      ]);
      return toPage(
        rows.map((r) => ({
          _id: r.id,
          name: r.name,
          photoURL: r.photoUrl,
          followed_at: new Date(r.at).toISOString(),
          posts: r.posts,
        })),
        totals[0]?.total ?? 0,
        paging,
      );
    },

    /**
     * "Who to Follow": real writers with visible posts, most of the newest posts first, that the reader is not and
     * does not follow. A visitor gets the same list for everyone (the page is shared and cached).
     */
    async suggestions(actor: Actor | null, limit = SUGGESTIONS): Promise<SuggestedWriter[]> {
      const b = schema.blogs;
      const rows = await db
        .select({
          id: schema.users.id,
          name: shownName,
          photoUrl: schema.users.photoUrl,
          designation: sql<string>`coalesce(${schema.profiles.designation}, '')`,
          posts: count(),
        })
        .from(b)
        .innerJoin(schema.users, eq(schema.users.id, b.authorId))
        .leftJoin(schema.profiles, eq(schema.profiles.userId, b.authorId))
        .where(
          visibleBlogsWhere(
            inArray(b.id, pageIdsQuery(db, visibleList({ by: "all" }), SUGGESTION_WINDOW, 0)),
            actor ? sql`${b.authorId} <> ${actor.id}` : undefined,
            actor ? notInArray(b.authorId, followedBy(db, actor.id)) : undefined,
          ),
        )
        .groupBy(b.authorId)
        .orderBy(desc(count()), desc(sql`max(${b.dateTime})`))
        .limit(limit);
      return rows.map((r) => ({
        _id: r.id,
        name: r.name,
        photoURL: r.photoUrl,
        designation: r.designation,
        posts: r.posts,
      }));
    },
  };
}

export type FollowService = ReturnType<typeof createFollowService>;
