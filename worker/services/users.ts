import { and, asc, count, eq, gte, inArray, lt, sql, type SQL } from "drizzle-orm";
import { ftsQuery } from "#worker/services/search.ts";
import { parsePaging, toPage, type Page } from "#worker/services/shared/pagination.ts";
import type { ReleaseImages } from "#worker/services/image-cleanup.ts";
import { eraseAccount } from "#worker/services/account.ts";
import type { Purge } from "#worker/cache/purge.ts";
import { z } from "zod";
import {
  hashPassword,
  passwordPolicyError,
  passwordProblem,
  UNUSABLE_HASH,
  verifyPassword,
} from "#worker/auth/passwords.ts";
import type { Db } from "#worker/db.ts";
import { schema } from "#worker/db.ts";
import type { Env } from "#worker/env.ts";
import { Conflict, DomainError, Forbidden, Unauthorized, ValidationError } from "#worker/services/shared/errors.ts";
import { newId } from "#worker/services/shared/ids.ts";
import { findOr404 } from "#worker/services/shared/records.ts";
import { inspectImage, type ImageService } from "#worker/services/images.ts";
import { requireAdmin, requireUser, type Actor } from "#worker/services/shared/policy.ts";
import type { RateLimitService } from "#worker/services/rate-limit.ts";
import type { EmailVerificationService } from "#worker/services/email-verification.ts";
import { toActor, type SessionDevice, type SessionService } from "#worker/services/sessions.ts";
import { emailField, LIMITS, optionalUrl, parse, requiredText } from "#worker/services/shared/validation.ts";
import { logError } from "#worker/log.ts";

type UserRow = typeof schema.users.$inferSelect;

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

/** A user as the REST contract and the pages see it: never the password hash or Google subject. */
export interface PublicUser {
  _id: string;
  name: string;
  email: string;
  role: "user" | "admin";
  photoURL: string | null;
  /** Whether the person proved they read mail at this address (issue 19). */
  emailVerified: boolean;
}

export function toPublicUser(user: UserRow | Actor): PublicUser {
  const photoURL = "photoUrl" in user ? user.photoUrl : user.photoURL;
  const emailVerified = "emailVerifiedAt" in user ? user.emailVerifiedAt !== null : user.emailVerified === true;
  return { _id: user.id, name: user.name, email: user.email, role: user.role, photoURL, emailVerified };
}

export interface SignedIn {
  token: string;
  expiresAt: number;
  user: PublicUser;
  /** After a sign-up: whether the verification mail went out at once (else the outbox retries it). */
  mailDelivered?: boolean;
}

/** Failed password checks per account: 10 in 15 minutes, then 429 until the window ends. */
export const LOGIN_LIMIT = { attempts: 10, windowSeconds: 15 * 60 } as const;
/** Failed sign-ins from one client address, whatever emails it tries. */
export const LOGIN_ADDRESS_LIMIT = { failures: 30, windowSeconds: 15 * 60 } as const;
/** Sign-ups from one client address (each costs a password hash). */
export const REGISTER_ADDRESS_LIMIT = { attempts: 5, windowSeconds: 60 * 60 } as const;

/**
 * Who is asking, as far as limits go: the client's address (Cloudflare's CF-Connecting-IP) and, when
 * this browser signed in before, the account it signed in to (a signed cookie, see worker/auth/cookie.ts).
 */
export interface Client {
  /** The limits' key for the address (worker/auth/cookie.ts clientAddressKey: IPv6 by /64, "unknown" when absent). */
  address?: string | null;
  knownUserId?: string | null;
  /** The origin of the request (links in mail use it when SITE_URL is not set). */
  origin?: string | null;
  /** What the session list shows about where a sign-in came from. */
  device?: SessionDevice;
}
// A client without an address is one shared client ("unknown"): limited together, never unlimited.
const addressKey = (kind: string, address: string | null | undefined) =>
  `${kind}:${(address || "unknown").slice(0, 64)}`;
export const loginKey = (email: string) => `login:${email}`;

const EMAIL_TAKEN = "An account with this email already exists.";
const emailTaken = () => new Conflict(EMAIL_TAKEN, "email-already-in-use", { email: EMAIL_TAKEN });
const INVALID_CREDENTIALS = () => new Unauthorized("Invalid email or password.", "invalid-credentials");

const registerSchema = z.object({
  name: requiredText("Name", LIMITS.name),
  email: emailField(),
  photoURL: optionalUrl("Photo URL"),
});

// No policy here: a login only compares; the bound keeps a huge string from reaching PBKDF2.
const passwordInput = z
  .string({ error: "Password is required." })
  .min(1, { error: "Password is required." })
  .max(1024, { error: "Password is too long." });

const loginSchema = z.object({ email: emailField(), password: passwordInput });

const tokenSchema = z.object({ email: emailField(), password: passwordInput.optional() });

const recordSchema = z.object({ name: requiredText("Name", LIMITS.name), email: emailField() });

const emailOnly = z.object({ email: emailField() });

function isUniqueViolation(err: unknown): boolean {
  const text = `${err instanceof Error ? err.message : ""} ${err instanceof Error && err.cause instanceof Error ? err.cause.message : ""}`;
  return /UNIQUE constraint failed/i.test(text);
}

export function createUserService(
  db: Db,
  env: Env,
  deps: {
    sessions: SessionService;
    rateLimit: RateLimitService;
    images: ImageService;
    purge: Purge;
    release: ReleaseImages;
    verification: EmailVerificationService;
  },
) {
  const { sessions, rateLimit, images, purge, release, verification } = deps;

  const byEmail = (email: string) => db.query.users.findFirst({ where: eq(schema.users.email, email) });

  function byId(id: string): Promise<UserRow> {
    return findOr404(id, "User not found.", (id) => db.query.users.findFirst({ where: eq(schema.users.id, id) }));
  }

  async function signIn(row: UserRow, device?: SessionDevice): Promise<SignedIn> {
    const { token, expiresAt } = await sessions.start(row, device);
    return { token, expiresAt, user: toPublicUser(row) };
  }

  /** Checks a password against an account, rate-limited per email; the same error whether or not the email exists. */
  /**
   * Failures are counted per email and per client address. Past the email's limit the account is
   * locked for the rest of the window, except from a browser that signed in to it before: a stranger
   * guessing cannot lock the owner out. Past the address's limit that client waits, whatever email it tries.
   */
  async function checkPassword(email: string, password: string, client: Client = {}): Promise<UserRow> {
    const window = LOGIN_LIMIT.windowSeconds;
    // Every try is counted BEFORE the password is checked, in one atomic upsert each (rate-limit.ts
    // hit): parallel tries each see their own count, so 200 at once still get at most the limit's worth
    // of password checks. A right password then gives its count back.
    const fromAddress = addressKey("login-address", client.address);
    await rateLimit.hit(fromAddress, LOGIN_ADDRESS_LIMIT.failures, window);
    const row = await byEmail(email);
    const knownDevice = row !== undefined && client.knownUserId === row.id;
    if (!knownDevice) await rateLimit.hit(loginKey(email), LOGIN_LIMIT.attempts, window);
    // Unknown emails and password-less (Google) accounts still pay for a PBKDF2 run: timing reveals nothing.
    const ok = await verifyPassword(password, row?.passwordHash ?? UNUSABLE_HASH);
    if (!row || !row.passwordHash || !ok) throw INVALID_CREDENTIALS();
    await Promise.all([rateLimit.reset(loginKey(email)), rateLimit.giveBack(fromAddress, window)]);
    return row;
  }

  /** The photo is stored as the new account's own upload; if storing fails, the account simply has none. */
  async function attachPhoto(row: UserRow, photo: Blob): Promise<UserRow> {
    try {
      const { url } = await images.upload(toActor(row), async () => ({ image: photo, expiration: undefined }));
      await db.update(schema.users).set({ photoUrl: url, updatedAt: Date.now() }).where(eq(schema.users.id, row.id));
      await purge({ kind: "user.photo" });
      return { ...row, photoUrl: url };
    } catch (err) {
      logError("register: the photo could not be stored", err);
      return row;
    }
  }

  return {
    /**
     * Creates an account (email and password) and signs it in. Creates nothing else: no profile.
     * `photo` is the register page's file: checked with the other fields before anything is stored,
     * then kept in R2 as the account's photo. An empty file (no photo chosen) is simply no photo.
     */
    async register(input: unknown, photo?: unknown, client: Client = {}): Promise<SignedIn> {
      const fromAddress = addressKey("register-address", client.address);
      if (fromAddress)
        await rateLimit.hit(fromAddress, REGISTER_ADDRESS_LIMIT.attempts, REGISTER_ADDRESS_LIMIT.windowSeconds);
      // Every field is checked at once, so a form can show all its messages together.
      let fields: Record<string, string> = {};
      let data: z.output<typeof registerSchema> | undefined;
      try {
        data = parse(registerSchema, input);
      } catch (err) {
        if (!(err instanceof ValidationError)) throw err;
        fields = { ...err.fields };
      }
      const password = (input as { password?: unknown } | null)?.password;
      const hasPhoto = photo instanceof Blob && photo.size > 0;
      if (hasPhoto) {
        try {
          await inspectImage(photo, env.IMAGE_TRANSFORMS);
        } catch (err) {
          if (!(err instanceof DomainError)) throw err;
          fields.image = err instanceof ValidationError ? (err.fields.image ?? err.message) : err.message;
        }
      }
      const problem = passwordProblem(password);
      if (problem && Object.keys(fields).length === 0) throw passwordPolicyError(problem);
      if (problem) fields.password = problem;
      if (!data || problem || fields.image) throw new ValidationError(fields);

      if (await byEmail(data.email)) throw emailTaken();
      const row = {
        id: newId(),
        name: data.name,
        email: data.email,
        photoUrl: data.photoURL ?? null,
        passwordHash: await hashPassword(password as string),
        // Even an ADMIN_EMAILS address: admin only once the address is verified (email-verification.ts).
        role: "user" as const,
      };
      // The account, its verification token and the message that carries it: one batch, all or nothing.
      const now = Date.now();
      const verify = await verification.prepare(row, client.origin, now);
      try {
        const [inserted] = await db.batch([db.insert(schema.users).values(row).returning(), ...verify.statements]);
        const created = inserted[0]!;
        // A mail service that is down never fails the sign-up: the outbox keeps the message for the cron.
        const mailDelivered = await verify.send();
        const signedIn = await signIn(hasPhoto ? await attachPhoto(created, photo) : created, client.device);
        return { ...signedIn, mailDelivered };
      } catch (err) {
        // Two sign-ups racing for one email: the unique index decides, the loser gets the same 409.
        if (isUniqueViolation(err)) throw emailTaken();
        throw err;
      }
    },

    async login(input: unknown, client: Client = {}): Promise<SignedIn> {
      const { email, password } = parse(loginSchema, input);
      return signIn(await checkPassword(email, password, client), client.device);
    },

    me(actor: Actor | null): PublicUser {
      return toPublicUser(requireUser(actor));
    },

    /**
     * POST /jwt: a token only with proof. The password proves any account (rate-limited like a
     * login); without it, only an existing session for that same email does.
     */
    async issueToken(
      actor: Actor | null,
      input: unknown,
      client: Client = {},
      sessionId: string | null = null,
    ): Promise<{ token: string }> {
      const { email, password } = parse(tokenSchema, input);
      if (password !== undefined)
        return { token: (await signIn(await checkPassword(email, password, client), client.device)).token };
      if (!actor || !sessionId) throw new Unauthorized("Sign in, or send the account's password, to get a token.");
      if (actor.email !== email) throw new Forbidden("You can only get a token for your own account.");
      // The token names the asking session: it ends with it, and never outlives its absolute end.
      const minted = await sessions.mint(sessionId, actor);
      if (!minted) throw new Unauthorized("Sign in, or send the account's password, to get a token.");
      return minted;
    },

    /**
     * POST /users: the account already exists (register or Google created it), so this only
     * confirms it. Never a second record; the spec's "already exists" answer has insertedId null.
     */
    async recordUser(actor: Actor | null, input: unknown): Promise<{ insertedId: null; message: string }> {
      const user = requireUser(actor);
      const { email } = parse(recordSchema, input);
      if (email !== user.email) throw new Forbidden("You can only record your own account.");
      return { insertedId: null, message: "User already exists." };
    },

    /**
     * The admin's Manage Users table and GET /api/users: a page of accounts in the order they joined,
     * optionally only those matching `q` (userFilter: on an index, never a scan), with the number of admins.
     */
    async list(
      actor: Actor | null,
      input: { page?: unknown; limit?: unknown; q?: unknown } = {},
    ): Promise<Page<PublicUser> & { admins: number }> {
      requireAdmin(actor);
      const paging = parsePaging(input, USERS_PAGE_SIZE);
      const u = schema.users;
      const where = userFilter(input.q);
      const joined = [asc(u.createdAt), asc(u.id)] as const;
      const [rows, totals, admins] = await db.batch([
        db
          .select()
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
      return { ...toPage(rows.map(toPublicUser), totals[0]?.total ?? 0, paging), admins: admins[0]?.total ?? 0 };
    },

    /**
     * Deletes an account and, through the foreign keys, everything that is theirs: sessions,
     * profile, saved entries, likes, comments and their blogs (docs/decisions/001-deleting-a-user.md).
     * Admins cannot delete themselves here, which also keeps at least one admin.
     */
    async remove(actor: Actor | null, id: string): Promise<{ deletedCount: number }> {
      const admin = requireAdmin(actor);
      if (admin.id === id) throw new Forbidden("You cannot delete your own account.", "cannot-delete-self");
      const row = await byId(id);
      return { deletedCount: await eraseAccount(db, purge, release, row) };
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

export type UserService = ReturnType<typeof createUserService>;
