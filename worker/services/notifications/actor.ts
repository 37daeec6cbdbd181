import { eq, sql } from "drizzle-orm";
import { alias } from "drizzle-orm/sqlite-core";
import { schema } from "#worker/db.ts";

const n = schema.notifications;
const remote = schema.apRemoteActors;

/** The account that caused a notification (the commenter, the follower, the writer, the latest liker). */
export const actors = alias(schema.users, "actors");

/**
 * Who caused a notification, as people know them: a reply from the fediverse names its remote author
 * (its name, else its handle), not the one local stand-in account every fediverse comment belongs to.
 * Aliased: D1 batches key rows by column name.
 */
export const actorName = sql<
  string | null
>`coalesce(nullif(${remote.name}, ''), nullif(${remote.handle}, ''), ${actors.name})`.as("actor_name");

/**
 * The joins actorName reads: the local account, and for a fediverse comment (or a private reply) its
 * remote author.
 */
export const actorJoins = [
  [actors, eq(actors.id, n.actorId)],
  [schema.apComments, eq(schema.apComments.commentId, n.commentId)],
  [schema.apPrivateReplies, eq(schema.apPrivateReplies.id, n.privateReplyId)],
  [remote, sql`${remote.id} = coalesce(${schema.apComments.remoteId}, ${schema.apPrivateReplies.remoteId})`],
] as const;
