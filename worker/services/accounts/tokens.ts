import { and, eq, gt, isNull, lte, or, sql, type SQL } from "drizzle-orm";
import type { BatchItem } from "drizzle-orm/batch";
import { schema } from "#worker/db.ts";
import { ValidationError } from "#worker/services/shared/errors.ts";
import type { Kernel } from "#worker/services/kernel.ts";

/**
 * What each single-use link is for, and how long it lives (SECURITY.md, "Tokens in links").
 * A new link of a kind replaces the person's earlier unused one of that kind.
 */
export const TOKEN_KINDS = {
  "verify-email": { ttlMs: 24 * 60 * 60 * 1000 },
  "password-reset": { ttlMs: 60 * 60 * 1000 },
  "email-change": { ttlMs: 24 * 60 * 60 * 1000 },
} as const;
export type TokenKind = keyof typeof TOKEN_KINDS;

/** 32 random bytes, base64url: 43 characters, 256 bits. Anything else cannot be one of ours. */
const TOKEN_SHAPE = /^[A-Za-z0-9_-]{43}$/;

export const TOKEN_TEXTS = {
  invalid: "This link is not valid. Check that you copied all of it, or ask for a new one.",
  expired: "This link has expired. Ask for a new one.",
  used: "This link has already been used. Ask for a new one if you still need it.",
} as const;

const refuse = (code: keyof typeof TOKEN_TEXTS) =>
  new ValidationError({ token: TOKEN_TEXTS[code] }, TOKEN_TEXTS[code], `token-${code}`);

function base64url(bytes: Uint8Array): string {
  return btoa(String.fromCharCode(...bytes))
    .replace(/\+/g, "-")
    .replace(/\//g, "_")
    .replace(/=+$/, "");
}

/** The only form in which a token is stored: its SHA-256, hex. */
export async function hashToken(token: string): Promise<string> {
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(token));
  return [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, "0")).join("");
}

type Row = typeof schema.accountTokens.$inferSelect;

export interface IssuedToken {
  /** The secret for the link; never stored. */
  token: string;
  expiresAt: number;
  /** Drop the person's earlier unused token of this kind, store this one's hash: batch them with the change. */
  statements: [BatchItem<"sqlite">, BatchItem<"sqlite">];
}

/** A redeemed token: who it was for and what it carried. */
export interface Redeemed<T> {
  userId: string;
  data: T;
}

/**
 * A claim being redeemed: `guard` holds only inside the batch in which this very request marked the
 * token used, so the statements a redemption adds take effect together with it or not at all.
 */
export interface Claim<T> extends Redeemed<T> {
  guard: SQL;
}

export function createAccountTokenService(k: Kernel) {
  const { db } = k;
  const t = schema.accountTokens;

  /** The stored row for a token of this kind, or a refusal saying why it cannot be used. */
  async function usable(kind: TokenKind, token: unknown, now: number): Promise<Row> {
    if (typeof token !== "string" || !TOKEN_SHAPE.test(token)) throw refuse("invalid");
    const row = await db.query.accountTokens.findFirst({
      where: and(eq(t.tokenHash, await hashToken(token)), eq(t.kind, kind)),
    });
    if (!row) throw refuse("invalid");
    if (row.usedAt !== null) throw refuse("used");
    if (row.expiresAt <= now) throw refuse("expired");
    return row;
  }

  const dataOf = <T>(row: Row): T => JSON.parse(row.data) as T;

  return {
    /** A new single-use token for `userId`; nothing is stored until the caller runs `statements`. */
    async issue(kind: TokenKind, userId: string, data: object = {}, now = Date.now()): Promise<IssuedToken> {
      const token = base64url(crypto.getRandomValues(new Uint8Array(32)));
      const expiresAt = now + TOKEN_KINDS[kind].ttlMs;
      return {
        token,
        expiresAt,
        statements: [
          db.delete(t).where(and(eq(t.userId, userId), eq(t.kind, kind), isNull(t.usedAt))),
          db.insert(t).values({
            tokenHash: await hashToken(token),
            kind,
            userId,
            data: JSON.stringify(data),
            expiresAt,
          }),
        ],
      };
    },

    /** Who a token is for, without using it up (a page showing its form); refuses like `redeem`. */
    async inspect<T = Record<string, unknown>>(
      kind: TokenKind,
      token: unknown,
      now = Date.now(),
    ): Promise<Redeemed<T>> {
      const row = await usable(kind, token, now);
      return { userId: row.userId, data: dataOf<T>(row) };
    },

    /**
     * Uses a token up and, in the same D1 batch, runs what `then` adds (guarded by the claim):
     * two requests racing with one token cannot both succeed, and a failure leaves the token unused.
     */
    async redeem<T = Record<string, unknown>>(
      kind: TokenKind,
      token: unknown,
      then: (claim: Claim<T>) => BatchItem<"sqlite">[] = () => [],
      now = Date.now(),
    ): Promise<Redeemed<T>> {
      const row = await usable(kind, token, now);
      const redemption = crypto.randomUUID();
      const guard = sql`exists (select 1 from ${t} where ${t.tokenHash} = ${row.tokenHash} and ${t.redemption} = ${redemption})`;
      const claim: Claim<T> = { userId: row.userId, data: dataOf<T>(row), guard };
      const [marked] = await db.batch([
        db
          .update(t)
          .set({ usedAt: now, redemption })
          .where(and(eq(t.tokenHash, row.tokenHash), isNull(t.usedAt), gt(t.expiresAt, now)))
          .returning({ userId: t.userId }),
        ...then(claim),
      ]);
      // Another request used it between our read and our write.
      if (marked.length === 0) throw refuse("used");
      return { userId: claim.userId, data: claim.data };
    },

    /** Hourly: tokens past their expiry, and used ones, are of no further use. */
    async sweep(now = Date.now()): Promise<number> {
      const gone = await db
        .delete(t)
        .where(or(lte(t.expiresAt, now), lte(t.usedAt, now - 24 * 60 * 60 * 1000)))
        .returning({ h: t.tokenHash });
      return gone.length;
    },
  };
}

export type AccountTokenService = ReturnType<typeof createAccountTokenService>;
