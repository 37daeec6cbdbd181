import { eq } from "drizzle-orm";
import { z } from "zod";
import {
  hashPassword,
  passwordPolicyError,
  passwordProblem,
  UNUSABLE_HASH,
  verifyPassword,
} from "#worker/auth/passwords.ts";
import { schema } from "#worker/db.ts";
import type { ImageCleanup } from "#worker/services/images/cleanup.ts";
import { inspectImage, type ImageService } from "#worker/services/images/service.ts";
import type { EmailVerificationService } from "#worker/services/accounts/email-verification.ts";
import { toActor, type SessionDevice, type SessionService } from "#worker/services/accounts/sessions.ts";
import { Conflict, DomainError, Forbidden, Unauthorized, ValidationError } from "#worker/services/shared/errors.ts";
import { newId } from "#worker/services/shared/ids.ts";
import { requireUser, type Actor } from "#worker/services/shared/policy.ts";
import { isUniqueViolation } from "#worker/services/shared/records.ts";
import { emailField, LIMITS, optionalUrl, parse, requiredText } from "#worker/services/shared/validation.ts";
import type { AccountFederation } from "#worker/services/accounts/erase.ts";
import { createUserAdmin } from "#worker/services/accounts/users-admin.ts";
import {
  addressKey,
  LOGIN_ADDRESS_LIMIT,
  LOGIN_LIMIT,
  loginKey,
  REGISTER_ADDRESS_LIMIT,
  toPublicUser,
  type Client,
  type PublicUser,
  type SignedIn,
  type UserRow,
} from "#worker/services/accounts/model.ts";
import { logError } from "#worker/log.ts";
import type { Kernel } from "#worker/services/kernel.ts";

const EMAIL_TAKEN = "An account with this email already exists.";
const emailTaken = () => new Conflict(EMAIL_TAKEN, "email-already-in-use", { email: EMAIL_TAKEN });
const INVALID_CREDENTIALS = () => new Unauthorized("Invalid email or password.", "invalid-credentials");

export const registerSchema = z.object({
  name: requiredText("Name", LIMITS.name),
  email: emailField(),
  photoURL: optionalUrl("Photo URL"),
});

// No policy here: a login only compares; the bound keeps a huge string from reaching PBKDF2.
const passwordInput = z
  .string({ error: "Password is required." })
  .min(1, { error: "Password is required." })
  .max(1024, { error: "Password is too long." });

export const loginSchema = z.object({ email: emailField(), password: passwordInput });

export const tokenSchema = z.object({ email: emailField(), password: passwordInput.optional() });

export const recordSchema = z.object({ name: requiredText("Name", LIMITS.name), email: emailField() });

export function createUserService(
  k: Kernel,
  deps: {
    sessions: SessionService;
    images: ImageService;
    imageCleanup: Pick<ImageCleanup, "release">;
    verification: EmailVerificationService;
    /** What an admin's delete of an account tells the fediverse. */
    federation?: AccountFederation;
  },
) {
  const { db, rateLimit, purge } = k;
  const { sessions, images, verification } = deps;

  const byEmail = (email: string) => db.query.users.findFirst({ where: eq(schema.users.email, email) });

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
    ...createUserAdmin(k, deps),

    /**
     * Creates an account (email and password) and signs it in. Creates nothing else: no profile.
     * `photo` is the register page's file: checked with the other fields before anything is stored,
     * then kept in R2 as the account's photo. An empty file (no photo chosen) is simply no photo.
     */
    /** `returnTo`: the page the sign-up started from; the verification link's Continue leads back there. */
    async register(
      input: unknown,
      photo?: unknown,
      client: Client = {},
      returnTo: string | null = null,
    ): Promise<SignedIn> {
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
          await inspectImage(photo);
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
      const verify = await verification.prepare(row, client.origin, now, returnTo);
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
  };
}

export type UserService = ReturnType<typeof createUserService>;
