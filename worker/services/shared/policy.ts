import { Forbidden, Unauthorized } from "#worker/services/shared/errors.ts";

/** The signed-in person as every service receives them (never a password hash). */
export interface Actor {
  id: string;
  name: string;
  email: string;
  role: "user" | "admin";
  photoURL: string | null;
  /** Whether the account's email address is proven; absent means not known to be. */
  emailVerified?: boolean;
}

export const isAdmin = (actor: Actor | null): actor is Actor => actor?.role === "admin";

export function requireUser(actor: Actor | null): Actor {
  if (!actor) throw new Unauthorized();
  return actor;
}

export function requireAdmin(actor: Actor | null): Actor {
  const user = requireUser(actor);
  if (user.role !== "admin") throw new Forbidden("Only an admin can do that.");
  return user;
}

/** Owners edit and delete their own blogs; admins any. */
export function canEditBlog(actor: Actor | null, blog: { authorId: string }): boolean {
  return !!actor && (actor.role === "admin" || actor.id === blog.authorId);
}

/**
 * A comment can be removed by the person who wrote it, by the writer of the post it is under (any
 * comment on their own posts), or by an admin (any post). The one rule: the service and the UI read it.
 */
export function canRemoveComment(
  actor: Pick<Actor, "id" | "role"> | null,
  comment: { userId: string; blogAuthorId: string },
): boolean {
  return !!actor && (actor.role === "admin" || actor.id === comment.userId || actor.id === comment.blogAuthorId);
}

/** Anyone signed in can report a comment, except their own. */
export function canReportComment(actor: Pick<Actor, "id"> | null, comment: { userId: string }): boolean {
  return !!actor && actor.id !== comment.userId;
}
