import { count, desc, eq, inArray, like, or } from "drizzle-orm";
import { z } from "zod";
import type { Db } from "#worker/db.ts";
import { schema } from "#worker/db.ts";
import type { RemoteComments } from "#worker/services/federation/replies.ts";
import { ValidationError } from "#worker/services/shared/errors.ts";
import { parsePaging, toPage } from "#worker/services/shared/pagination.ts";
import { requireAdmin, type Actor } from "#worker/services/shared/policy.ts";
import { parse } from "#worker/services/shared/validation.ts";

/** Blocks listed per page. */
const BLOCKS_PAGE = 20;

export const BLOCK_TEXT = "Enter an account URL (https://server/users/name) or a server name (server.example).";
const blockInput = z.object({ target: z.string({ error: BLOCK_TEXT }).trim().min(1, BLOCK_TEXT).max(500, BLOCK_TEXT) });

/** A block's target as stored: an actor URL as given, a server as its lower-cased host name (no port). */
function blockTarget(text: string): { target: string; kind: "actor" | "host" } | null {
  if (/^https?:\/\//i.test(text)) {
    try {
      return { target: new URL(text).href, kind: "actor" };
    } catch {
      return null;
    }
  }
  const host = text
    .replace(/^@?[^@]*@/, "")
    .toLowerCase()
    .replace(/:\d{1,5}$/, "")
    .replace(/\.$/, "");
  return /^[a-z0-9.-]+$/.test(host) && host.includes(".") && !host.startsWith(".")
    ? { target: host, kind: "host" }
    : null;
}

/** A host name and every domain above it: a.b.example -> a.b.example, b.example, example. */
export function hostAndParents(hostname: string): string[] {
  const labels = hostname.toLowerCase().replace(/\.$/, "").split(".");
  return labels.map((_, i) => labels.slice(i).join(".")).filter((h) => h.length > 0);
}

/**
 * Whether an admin blocked this actor or its server: a server's block covers its subdomains and
 * every port (blocking example.social blocks media.example.social:8443 too).
 */
export async function isBlocked(db: Db, actorId: string): Promise<boolean> {
  let url: URL;
  try {
    url = new URL(actorId);
  } catch {
    return true;
  }
  const targets = [actorId, url.host.toLowerCase(), ...hostAndParents(url.hostname)];
  const row = await db.query.apBlocks.findFirst({ where: inArray(schema.apBlocks.target, targets) });
  return !!row;
}

/** The admin's blocks of remote accounts and whole servers (the inbox refuses them: isBlocked). */
export function createBlocks(db: Db, replies: RemoteComments) {
  return {
    /** Admin: the blocked accounts and servers, newest first, a page at a time. */
    async blocks(actor: Actor | null, input: { page?: unknown } = {}) {
      requireAdmin(actor);
      const paging = parsePaging({ page: input.page }, BLOCKS_PAGE);
      return db
        .select()
        .from(schema.apBlocks)
        .orderBy(desc(schema.apBlocks.createdAt))
        .limit(paging.limit)
        .offset(paging.offset);
    },

    /** Admin: the same list as a page with its total (the dashboard's Fediverse page). */
    async blocksPage(actor: Actor | null, input: { page?: unknown } = {}) {
      requireAdmin(actor);
      const paging = parsePaging({ page: input.page }, BLOCKS_PAGE);
      const [rows, totals] = await db.batch([
        db
          .select()
          .from(schema.apBlocks)
          .orderBy(desc(schema.apBlocks.createdAt))
          .limit(paging.limit)
          .offset(paging.offset),
        db.select({ total: count() }).from(schema.apBlocks),
      ]);
      return toPage(
        rows.map((row) => ({ ...row, createdAt: new Date(row.createdAt).toISOString() })),
        totals[0]?.total ?? 0,
        paging,
      );
    },

    /** Admin: block a remote account (its URL) or a whole server (its name). Its follows and replies go. */
    async block(actor: Actor | null, input: unknown): Promise<{ insertedId: string }> {
      requireAdmin(actor);
      const { target: text } = parse(blockInput, input);
      const block = blockTarget(text);
      if (!block) throw new ValidationError({ target: BLOCK_TEXT }, BLOCK_TEXT);
      const { target, kind } = block;
      await db.insert(schema.apBlocks).values({ target, kind }).onConflictDoNothing();
      const who =
        kind === "actor"
          ? [target]
          : (
              await db
                .select({ id: schema.apRemoteActors.id })
                .from(schema.apRemoteActors)
                .where(
                  or(
                    eq(schema.apRemoteActors.host, target),
                    like(schema.apRemoteActors.host, `${target}:%`),
                    like(schema.apRemoteActors.host, `%.${target}`),
                    like(schema.apRemoteActors.host, `%.${target}:%`),
                  ),
                )
                .limit(500)
            ).map((r) => r.id);
      for (const remoteId of who) await db.delete(schema.apFollowers).where(eq(schema.apFollowers.remoteId, remoteId));
      await replies.removeAllOf(who);
      return { insertedId: target };
    },

    async unblock(actor: Actor | null, target: string): Promise<{ deletedCount: number }> {
      requireAdmin(actor);
      const gone = await db.delete(schema.apBlocks).where(eq(schema.apBlocks.target, target)).returning();
      return { deletedCount: gone.length };
    },
  };
}
