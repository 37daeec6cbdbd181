import { and, asc, count, eq, gte, inArray, isNotNull, isNull, lt, sql, type SQL } from "drizzle-orm";
import { z } from "zod";
import { schema } from "#worker/db.ts";
import { eraseAccount, readHoldings, type AccountFederation, type Holdings } from "#worker/services/accounts/erase.ts";
import type { ImageCleanup } from "#worker/services/images/cleanup.ts";
import { ftsQuery } from "#worker/services/search.ts";
import { Conflict, Forbidden } from "#worker/services/shared/errors.ts";
import { parsePaging, toPage, type Page } from "#worker/services/shared/pagination.ts";
import { requireAdmin, requireUser, type Actor } from "#worker/services/shared/policy.ts";
import { findOr404 } from "#worker/services/shared/records.ts";
import { emailField, parse } from "#worker/services/shared/validation.ts";
import { toPublicUser, type PublicUser, type UserRow } from "#worker/services/accounts/model.ts";
import type { Kernel } from "#worker/services/kernel.ts";

/** One account as Manage Users lists it. */
export interface ManagedUser extends PublicUser {
  joinedAt: string;
  /** Published posts. */
  posts: number;
  /** An account an import made for an author or commenter: no password, Google or passkey, never confirmed. */
  placeholder: boolean;
}

/** Accounts per page of Manage Users. */
export const USERS_PAGE_SIZE = 20;

/**
 * The admin's account search: text with an @ is an email prefix (the email index); words match the
 * name or the email on the accounts' full-text index (user_search, migration 0010), the last word as a
 * prefix. Text with no letter or digit finds nobody.
 */
export function userFilter(q: unknown): SQL | undefined {
  if (typeof q !== "string" || q.trim() === "") return undefined;
  const text = q.trim().slice(0, 200).toLowerCase();
  if (text.includes("@") && !/\s/.test(text)) {
    return and(gte(schema.users.email, text), lt(schema.users.email, `${text}\uffff`));
  }
  const match = ftsQuery(text);
  if (!match) return sql`0`;
  return sql`${schema.users}.rowid in (select rowid from user_search where user_search match ${match})`;
}

const emailOnly = z.object({ email: emailField() });

export { HOLDINGS_CAP, type Holdings } from "#worker/services/accounts/erase.ts";

/** The admin's side of accounts: Manage Users, deleting an account, and who is an admin. */
export function createUserAdmin(
  k: Kernel,
  deps: { imageCleanup: Pick<ImageCleanup, "release">; federation?: AccountFederation },
) {
  const { db } = k;
  const byEmail = (email: string) => db.query.users.findFirst({ where: eq(schema.users.email, email) });

  function byId(id: string): Promise<UserRow> {
    return findOr404(id, "User not found.", (id) => db.query.users.findFirst({ where: eq(schema.users.id, id) }));
  }

  /**
   * The admin's Manage Users table (and, through `list`, GET /api/users): a page of accounts in the order they joined,
   * optionally only those matching `q` (userFilter: on an index, never a scan), a role (`admin`, `user`)
   * and whether the address is confirmed (`yes`, `no`), with the number of admins. Each account carries
   * when it joined, its published posts (blog_counts, kept by triggers) and whether it is a placeholder.
   */
  async function manage(
    actor: Actor | null,
    input: { page?: unknown; limit?: unknown; q?: unknown; role?: unknown; confirmed?: unknown } = {},
  ): Promise<Page<ManagedUser> & { admins: number }> {
    requireAdmin(actor);
    const paging = parsePaging(input, USERS_PAGE_SIZE);
    const u = schema.users;
    const role = input.role === "admin" || input.role === "user" ? input.role : null;
    const confirmed = input.confirmed === "yes" || input.confirmed === "no" ? input.confirmed : null;
    const where = and(
      userFilter(input.q),
      role ? eq(u.role, role) : undefined,
      confirmed === "yes" ? isNotNull(u.emailVerifiedAt) : confirmed === "no" ? isNull(u.emailVerifiedAt) : undefined,
    );
    const joined = [asc(u.createdAt), asc(u.id)] as const;
    const [rows, totals, admins] = await db.batch([
      db
        .select({
          user: u,
          posts: sql<number>`coalesce((select ${schema.blogCounts.n} from ${schema.blogCounts} where ${schema.blogCounts.scope} = 'author' and ${schema.blogCounts.key} = ${u.id} and ${schema.blogCounts.status} = 'published'), 0)`,
          passkeys: sql<number>`exists (select 1 from ${schema.passkeys} where ${schema.passkeys.userId} = ${u.id})`,
        })
        .from(u)
        .where(
          inArray(
            u.id,
            db
              .select({ id: u.id })
              .from(u)
              .where(where)
              .orderBy(...joined)
              .limit(paging.limit)
              .offset(paging.offset),
          ),
        )
        .orderBy(...joined),
      db.select({ total: count() }).from(u).where(where),
      db.select({ total: count() }).from(u).where(eq(u.role, "admin")),
    ]);
    const items = rows.map(({ user, posts, passkeys }) => ({
      ...toPublicUser(user),
      joinedAt: new Date(user.createdAt).toISOString(),
      posts: Number(posts),
      // No way to sign in and never confirmed: an author or commenter an import brought, not a person here.
      placeholder: !user.passwordHash && !user.googleSub && !passkeys && user.emailVerifiedAt === null,
    }));
    return { ...toPage(items, totals[0]?.total ?? 0, paging), admins: admins[0]?.total ?? 0 };
  }

  return {
    /** GET /api/users: `manage`'s page, each account as the REST contract's user record. */
    async list(
      actor: Actor | null,
      input: Parameters<typeof manage>[1] = {},
    ): Promise<Page<PublicUser> & { admins: number }> {
      const page = await manage(actor, input);
      return {
        ...page,
        items: page.items.map(({ _id, name, email, role, photoURL, emailVerified }) => ({
          _id,
          name,
          email,
          role,
          photoURL,
          emailVerified,
        })),
      };
    },

    manage,

    /**
     * Deletes an account and, through the foreign keys, everything that is theirs: sessions,
     * profile, saved entries, likes, comments and their blogs (docs/decisions/001-deleting-a-user.md).
     * Admins cannot delete themselves here, which also keeps at least one admin.
     */
    async remove(actor: Actor | null, id: string): Promise<{ deletedCount: number }> {
      const admin = requireAdmin(actor);
      if (admin.id === id) throw new Forbidden("You cannot delete your own account.", "cannot-delete-self");
      const row = await byId(id);
      return { deletedCount: await eraseAccount(k, deps, row) };
    },

    /**
     * What deleting an account takes with it, in one query: their posts, comments, likes and saved
     * posts, each counted on its user index and capped (HOLDINGS_CAP), so the question stays cheap.
     */
    async holdings(actor: Actor | null, id: string): Promise<Holdings> {
      requireAdmin(actor);
      return findOr404(id, "User not found.", (id) => readHoldings(db, id));
    },

    async makeAdmin(actor: Actor | null, id: string): Promise<{ modifiedCount: number }> {
      requireAdmin(actor);
      const row = await byId(id);
      if (row.role === "admin") return { modifiedCount: 0 };
      const changed = await db
        .update(schema.users)
        .set({ role: "admin", updatedAt: Date.now() })
        .where(and(eq(schema.users.id, row.id), eq(schema.users.role, "user")))
        .returning({ id: schema.users.id });
      return { modifiedCount: changed.length };
    },

    /** Revokes admin rights, never the last admin's: the count is checked in the same statement, so two revokes cannot race to zero. */
    async revokeAdmin(actor: Actor | null, id: string): Promise<{ modifiedCount: number }> {
      requireAdmin(actor);
      const row = await byId(id);
      if (row.role !== "admin") return { modifiedCount: 0 };
      const changed = await db
        .update(schema.users)
        .set({ role: "user", updatedAt: Date.now() })
        .where(
          and(
            eq(schema.users.id, row.id),
            eq(schema.users.role, "admin"),
            sql`(select count(*) from ${schema.users} where ${schema.users.role} = 'admin') > 1`,
          ),
        )
        .returning({ id: schema.users.id });
      if (changed.length === 0) {
        throw new Conflict("This is the last admin: make someone else an admin first.", "last-admin");
      }
      return { modifiedCount: changed.length };
    },

    /** GET /users/admin/{email}: anyone may ask about themselves; only admins about others. */
    async isAdminByEmail(actor: Actor | null, rawEmail: string): Promise<{ admin: boolean }> {
      const user = requireUser(actor);
      const { email } = parse(emailOnly, { email: rawEmail });
      if (email !== user.email && user.role !== "admin")
        throw new Forbidden("You can only look up your own admin status.");
      const row = await byEmail(email);
      return { admin: row?.role === "admin" };
    },
  };
}
