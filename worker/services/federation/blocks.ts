import { and, count, desc, eq, inArray, like, or } from "drizzle-orm";
import { z } from "zod";
import type { Db } from "#worker/db.ts";
import { schema } from "#worker/db.ts";
import type { Following } from "#worker/services/federation/following.ts";
import type { RemoteComments } from "#worker/services/federation/replies.ts";
import { ValidationError } from "#worker/services/shared/errors.ts";
import { CONFIRM_SERVER_BLOCK } from "#worker/services/texts.ts";
import { parsePaging, toPage } from "#worker/services/shared/pagination.ts";
import { requireAdmin, type Actor } from "#worker/services/shared/policy.ts";
import { parse } from "#worker/services/shared/validation.ts";
import type { Kernel } from "#worker/services/kernel.ts";

/** Blocks listed per page. */
const BLOCKS_PAGE = 20;

export const BLOCK_TEXT =
  "Enter an account URL (https://server/users/name), a handle (@name@server) or a server name (server.example).";
export const blockInput = z.object({
  target: z.string({ error: BLOCK_TEXT }).trim().min(1, BLOCK_TEXT).max(500, BLOCK_TEXT),
  /** A whole server is blocked only once this says so (the admin was told what it removes). */
  confirm: z.preprocess((v) => v === true || v === "true" || v === "yes", z.boolean()).optional(),
});

export { CONFIRM_SERVER_BLOCK };

/** What a server block removes, asked before it is made. */
export const serverBlockQuestion = (host: string, accounts: number) =>
  `Blocking ${host} blocks every account on it (${accounts} known here), not one person: their deliveries are refused, their follows of writers here end and their replies are removed. Block the whole server?`;

/** When a handle cannot be resolved: how to block that account instead. */
export const handleUnresolvedText = (handle: string) =>
  `${handle} could not be found through its server. To block that account, enter its profile URL (https://server/users/name); to block its whole server, enter the server name.`;

const HANDLE = /^(?:acct:)?@?([^@\s/]+)@([a-z0-9.-]+(?::\d{1,5})?)$/i;

/** A block's target as stored: an actor URL as given, a server as its lower-cased host name (no port). */
function blockTarget(text: string): { target: string; kind: "actor" | "host" } | { handle: string } | null {
  if (/^https?:\/\//i.test(text)) {
    try {
      return { target: new URL(text).href, kind: "actor" };
    } catch {
      return null;
    }
  }
  // @name@server is one account, never its server.
  if (HANDLE.test(text)) return { handle: text };
  const host = text
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

/**
 * The admin's blocks of remote accounts and whole servers (the inbox refuses them: isBlocked). A handle
 * is resolved to its account (the stored copy, else WebFinger through `following.resolveHandle`); block and unblock
 * take the same text, normalised the same way.
 */
export function createBlocks(
  k: Kernel,
  deps: { replies: RemoteComments; following: Pick<Following, "resolveHandle"> },
) {
  const { db } = k;
  const { replies, following } = deps;
  const a = schema.apRemoteActors;
  const onServer = (host: string) =>
    or(eq(a.host, host), like(a.host, `${host}:%`), like(a.host, `%.${host}`), like(a.host, `%.${host}:%`));

  /** The text an admin typed as what it blocks, or a refusal saying how to say it. */
  async function targetOf(text: string): Promise<{ target: string; kind: "actor" | "host" }> {
    const block = blockTarget(text);
    if (!block) throw new ValidationError({ target: BLOCK_TEXT }, BLOCK_TEXT);
    if (!("handle" in block)) return block;
    const [, name, server] = HANDLE.exec(block.handle)!;
    const known = await db.query.apRemoteActors.findFirst({
      columns: { id: true },
      where: and(eq(a.handle, name!), eq(a.host, server!.toLowerCase())),
    });
    const url = known?.id ?? (await following.resolveHandle(block.handle));
    if (!url) {
      const message = handleUnresolvedText(block.handle);
      throw new ValidationError({ target: message }, message, "handle-unresolved");
    }
    return { target: new URL(url).href, kind: "actor" };
  }

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

    /**
     * Admin: block a remote account (its URL or handle) or a whole server (its name, and `confirm`: until
     * then the answer asks, saying what it removes). Its follows and replies go.
     */
    async block(actor: Actor | null, input: unknown): Promise<{ insertedId: string }> {
      requireAdmin(actor);
      const { target: text, confirm } = parse(blockInput, input);
      const { target, kind } = await targetOf(text);
      const who =
        kind === "actor"
          ? [target]
          : (await db.select({ id: a.id }).from(a).where(onServer(target)).limit(500)).map((r) => r.id);
      if (kind === "host" && !confirm) {
        const question = serverBlockQuestion(target, who.length);
        throw new ValidationError({ target: question }, question, CONFIRM_SERVER_BLOCK);
      }
      await db.insert(schema.apBlocks).values({ target, kind }).onConflictDoNothing();
      for (const remoteId of who) await db.delete(schema.apFollowers).where(eq(schema.apFollowers.remoteId, remoteId));
      await replies.removeAllOf(who);
      return { insertedId: target };
    },

    /** Admin: lift a block, named by the same text it was made with (or as it is listed). */
    async unblock(actor: Actor | null, text: string): Promise<{ deletedCount: number }> {
      requireAdmin(actor);
      const { target } = await targetOf(parse(blockInput, { target: text }).target);
      const gone = await db.delete(schema.apBlocks).where(eq(schema.apBlocks.target, target)).returning();
      return { deletedCount: gone.length };
    },
  };
}
