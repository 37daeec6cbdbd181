import type { schema } from "#worker/db.ts";
import type { Actor } from "#worker/services/shared/policy.ts";
import type { SessionDevice } from "#worker/services/accounts/sessions.ts";

export type UserRow = typeof schema.users.$inferSelect;

/** A user as the REST contract and the pages see it: never the password hash or Google subject. */
export interface PublicUser {
  _id: string;
  name: string;
  email: string;
  role: "user" | "admin";
  photoURL: string | null;
  /** Whether the person proved they read mail at this address. */
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
export const addressKey = (kind: string, address: string | null | undefined) =>
  `${kind}:${(address || "unknown").slice(0, 64)}`;
export const loginKey = (email: string) => `login:${email}`;
