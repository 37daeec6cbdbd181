import { and, eq, isNull, sql } from "drizzle-orm";
import { schema } from "#worker/db.ts";
import { Conflict, Forbidden } from "#worker/services/shared/errors.ts";
import { newId } from "#worker/services/shared/ids.ts";
import { requireUser, type Actor } from "#worker/services/shared/policy.ts";
import { isConfiguredAdmin, roleOnVerifiedEmail } from "#worker/services/accounts/roles.ts";
import { LIMITS } from "#worker/services/shared/validation.ts";
import type { Kernel } from "#worker/services/kernel.ts";

type UserRow = typeof schema.users.$inferSelect;

/** Who Google says the person is: the ID token's claims, already checked by worker/auth/google.ts. */
export interface GoogleIdentity {
  /** Google's stable subject id; emails can change, this does not. */
  sub: string;
  email: string;
  emailVerified: boolean;
  name: string | null;
  picture: string | null;
}

export interface GoogleSignIn {
  user: UserRow;
  isNewUser: boolean;
}

function displayName(identity: GoogleIdentity, email: string): string {
  const name = identity.name?.trim() || email.split("@")[0] || "Google user";
  return name.slice(0, LIMITS.name);
}

/** Only an https picture we can show as-is; anything else is simply not stored. */
function photo(picture: string | null): string | null {
  if (!picture || picture.length > LIMITS.url) return null;
  try {
    return new URL(picture).protocol === "https:" ? picture : null;
  } catch {
    return null;
  }
}

export function createGoogleAccountService(k: Kernel) {
  const { db, env } = k;
  const bySub = (sub: string) => db.select().from(schema.users).where(eq(schema.users.googleSub, sub)).get();
  const byEmail = (email: string) => db.select().from(schema.users).where(eq(schema.users.email, email)).get();

  async function signIn(identity: GoogleIdentity, retried = false): Promise<GoogleSignIn> {
    const email = identity.email.trim().toLowerCase();

    const known = await bySub(identity.sub);
    if (known) {
      // Google vouches for the address this account uses: it counts as verified (and may make it admin).
      if (known.emailVerifiedAt === null && identity.emailVerified && known.email === email) {
        const now = Date.now();
        const [verified] = await db
          .update(schema.users)
          .set({ emailVerifiedAt: now, role: roleOnVerifiedEmail(env, email), updatedAt: now })
          .where(and(eq(schema.users.id, known.id), isNull(schema.users.emailVerifiedAt)))
          .returning();
        return { user: verified ?? known, isNewUser: false };
      }
      return { user: known, isNewUser: false };
    }

    const existing = await byEmail(email);
    if (existing) {
      // Linking on an unverified email would let anyone who types a victim's address into a Google
      // account take over the victim's account here.
      if (!identity.emailVerified) {
        throw new Conflict(
          "An account with this email already exists, and Google has not verified that this email is yours. Sign in with your password instead.",
          "account-exists-unverified",
        );
      }
      if (existing.googleSub) {
        throw new Conflict(
          "This account is already linked to a different Google account. Sign in with that Google account or with your password.",
          "account-linked-to-other-google",
        );
      }
      const now = Date.now();
      const link = db
        .update(schema.users)
        .set({
          googleSub: identity.sub,
          photoUrl: existing.photoUrl ?? photo(identity.picture),
          emailVerifiedAt: existing.emailVerifiedAt ?? now,
          role: roleOnVerifiedEmail(env, email),
          updatedAt: now,
          // Pre-hijacking (docs/decisions/025-pre-hijacking.md): an address never verified may have been registered by
          // someone else, so the password set then stops working; the owner can set one by reset.
          ...(existing.emailVerifiedAt === null ? { passwordHash: null } : {}),
        })
        // isNull: two concurrent callbacks must not both link (the second would overwrite the first).
        .where(and(eq(schema.users.id, existing.id), isNull(schema.users.googleSub)))
        .returning();
      // Only if this very link took effect (the first statement of the batch).
      const linkedHere = sql`exists (select 1 from ${schema.users} where ${schema.users.id} = ${existing.id} and ${schema.users.googleSub} = ${identity.sub})`;
      const linked =
        existing.emailVerifiedAt === null
          ? // ... and every session, passkey and pending link of that account ends, in the same batch.
            (
              await db.batch([
                link,
                db.delete(schema.sessions).where(and(eq(schema.sessions.userId, existing.id), linkedHere)),
                // A passkey the squatter added would be a way back in too.
                db.delete(schema.passkeys).where(and(eq(schema.passkeys.userId, existing.id), linkedHere)),
                db
                  .delete(schema.accountTokens)
                  .where(
                    and(eq(schema.accountTokens.userId, existing.id), isNull(schema.accountTokens.usedAt), linkedHere),
                  ),
              ])
            )[0]
          : await link;
      if (linked[0]) return { user: linked[0], isNewUser: false };
      if (!retried) return signIn(identity, true);
      throw new Conflict("This account changed while you were signing in. Please try again.", "conflict");
    }

    // A new account on an unverified email would squat that address (and could claim ADMIN_EMAILS).
    if (!identity.emailVerified) {
      throw new Forbidden(
        "Your Google account's email address is not verified. Verify it with Google first, or register with email and password.",
        "email-not-verified",
      );
    }
    const created = await db
      .insert(schema.users)
      .values({
        id: newId(),
        name: displayName(identity, email),
        email,
        googleSub: identity.sub,
        photoUrl: photo(identity.picture),
        // Google verified this address (checked above), so it is verified here too.
        emailVerifiedAt: Date.now(),
        role: isConfiguredAdmin(env, email) ? "admin" : "user",
      })
      // Another request may have created or linked this person a moment ago: look again instead of failing.
      .onConflictDoNothing()
      .returning();
    if (created[0]) return { user: created[0], isNewUser: true };
    if (!retried) return signIn(identity, true);
    throw new Conflict("This account changed while you were signing in. Please try again.", "conflict");
  }

  return {
    /**
     * A signed-in account proving itself again with Google (before deleting itself): Google must name
     * the very Google account linked to it. Answers the account; 401 without a session, 403 otherwise.
     */
    async reauthenticate(actor: Actor | null, identity: GoogleIdentity): Promise<UserRow> {
      const user = requireUser(actor);
      const row = await db.select().from(schema.users).where(eq(schema.users.id, user.id)).get();
      if (!row?.googleSub || row.googleSub !== identity.sub) {
        throw new Forbidden(
          "That Google account is not the one linked to your account. Choose the linked Google account.",
          "reauth-mismatch",
        );
      }
      return row;
    },

    /**
     * The account a Google identity signs in to: the one already linked to this Google subject, else
     * the account with the same (Google-verified) email, now linked and keeping its role, else a new one.
     */
    signIn: (identity: GoogleIdentity) => signIn(identity),
  };
}

export type GoogleAccountService = ReturnType<typeof createGoogleAccountService>;
