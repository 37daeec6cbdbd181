import { readBytesUpTo } from "#worker/http/bytes.ts";
import { and, eq, isNull, lt, or } from "drizzle-orm";
import { schema } from "#worker/db.ts";
import type { FederationJob } from "#worker/queues/messages.ts";
import { isObjectUrl, parseActivity, type AnyActivity } from "#worker/services/federation/activities.ts";
import { createAuthenticator, SIGNATURE_REFUSED } from "#worker/services/federation/authenticate.ts";
import { isBlocked } from "#worker/services/federation/blocks.ts";
import { createHandlers, type HandlerDeps } from "#worker/services/federation/handlers.ts";
import { readProof } from "#worker/services/federation/proofs.ts";
import type { RemoteActor } from "#worker/services/federation/remote.ts";
import { idOf } from "#worker/services/federation/vocab.ts";
import { logError } from "#worker/log.ts";
import { DomainError, Forbidden, tooLarge, Unauthorized } from "#worker/services/shared/errors.ts";
import type { Kernel } from "#worker/services/kernel.ts";

export { INBOX_PER_SERVER, INBOX_WINDOW_SECONDS, SIGNATURE_REFUSED } from "#worker/services/federation/authenticate.ts";
export { SENSITIVE_TEXT } from "#worker/services/federation/handlers.ts";

/** The largest activity an inbox reads. */
export const INBOX_MAX_BYTES = 256 * 1024;
/** A handler that started this long ago without finishing (its Worker died) may be run again. */
export const INBOX_LEASE_MS = 10 * 60 * 1000;
/** Received activities are remembered (so a repeat does nothing) this long. */
export const INBOX_KEEP_MS = 14 * 24 * 60 * 60 * 1000;
/** A forwarded activity's proof is believed this long after it was made: well inside INBOX_KEEP_MS. */
export const PROOF_MAX_AGE_MS = 7 * 24 * 60 * 60 * 1000;
/** ...and up to this far ahead of our clock (Mastodon accepts a signed Date 1 h ahead). */
const PROOF_SKEW_MS = 60 * 60 * 1000;

type InboxJob = Extract<FederationJob, { kind: "inbox" }>;

/**
 * The inbox in two steps. The POST (`receive`) verifies and records: body cap, limits, signature, proof,
 * blocks, the activity's shape; then one row per (author, activity id) in ap_inbox, a job on the
 * federation queue, and 202. A repeat finds its row and does nothing (a Follow sent twice is accepted
 * once). The queue's consumer (`handle`) runs the type's handler once per row.
 */
export function createInbox(k: Kernel, deps: HandlerDeps) {
  const { db } = k;
  const { remote, delivery } = deps;
  const allowPrivate = k.config.federation.allowPrivate;
  const authenticate = createAuthenticator(k, { remote });
  const handlers = createHandlers(k, deps);
  const inbox = schema.apInbox;

  /**
   * The author an activity speaks for: its signer, or, for an activity another server forwarded (as
   * Mastodon forwards replies), the author whose object integrity proof (FEP-8b32) verifies.
   */
  async function authorOf(sender: RemoteActor, raw: Record<string, unknown>, actorId: string): Promise<RemoteActor> {
    if (actorId === sender.id) return sender;
    const proof = readProof(raw);
    if (!proof) throw new Unauthorized(SIGNATURE_REFUSED, "actor-mismatch");
    // A proof never expires by itself, while this inbox forgets an activity id after INBOX_KEEP_MS: one
    // older than that (or undated) could replay an activity already acted on (a deleted reply).
    const now = Date.now();
    if (proof.created === null || proof.created < now - PROOF_MAX_AGE_MS || proof.created > now + PROOF_SKEW_MS) {
      throw new Unauthorized("The activity's proof is too old or undated.", "proof-stale");
    }
    const { known, fetch } = await remote.candidates(proof.verificationMethod);
    for (const candidate of [known, known ? null : await fetch()]) {
      if (!candidate || candidate.id !== actorId || candidate.assertionKeyId !== proof.verificationMethod) continue;
      if (candidate.assertionMultibase && (await proof.verify(candidate.assertionMultibase))) {
        const author = candidate === known ? candidate : await remote.remember(candidate);
        if (author) return author;
      }
    }
    throw new Unauthorized("The activity's proof does not verify as its actor's.", "proof-invalid");
  }

  /** What the request alone can prove malformed is refused at the door (400), never queued. */
  function checkShape(activity: AnyActivity) {
    if (activity.type !== "Create") return;
    const object = activity.object;
    const id = typeof object === "string" ? object : object.id;
    if (!isObjectUrl(id, allowPrivate)) {
      throw new DomainError("invalid-activity", "A note's id must be an https URL.");
    }
  }

  async function run(author: RemoteActor, body: string): Promise<string> {
    const activity = parseActivity(JSON.parse(body));
    if (!activity) return "ignored";
    // An admin may have blocked it while it waited.
    if (await isBlocked(db, author.id)) return "blocked";
    const handle = handlers[activity.type] as (author: RemoteActor, activity: unknown) => Promise<string>;
    return handle(author, activity);
  }

  return {
    /**
     * One delivery to an inbox: the signature is checked before anything is read or written (401 when
     * missing or forged; a blocked server's key is never fetched), then the blocks, then it is recorded
     * and queued. Answers "queued", "duplicate" (seen before: nothing more is done) or "ignored".
     */
    async receive(request: Request): Promise<string> {
      const declared = Number(request.headers.get("Content-Length") ?? "0");
      if (declared > INBOX_MAX_BYTES) throw tooLarge("That activity is too large.");
      // Counted as it arrives (a chunked body has no Content-Length): never buffered past the cap.
      const body = new TextDecoder().decode(
        await readBytesUpTo(request.body, INBOX_MAX_BYTES, () => tooLarge("That activity is too large.")),
      );
      const sender = await authenticate(request, body);
      let json: unknown;
      try {
        json = JSON.parse(body);
      } catch {
        throw new DomainError("invalid-activity", "The body is not JSON.");
      }
      const activity = parseActivity(json);
      if (!activity) return "ignored";
      const author = await authorOf(sender, json as Record<string, unknown>, idOf(activity.actor)!);
      if ((await isBlocked(db, sender.id)) || (await isBlocked(db, author.id))) {
        throw new Forbidden("This account or its server is blocked here.", "blocked");
      }
      checkShape(activity);
      const key = { authorId: author.id, activityId: activity.id };
      const recorded = await db
        .insert(inbox)
        .values({ ...key, senderId: sender.id, body })
        .onConflictDoNothing()
        .returning({ authorId: inbox.authorId });
      if (!recorded.length) return "duplicate";
      const job: InboxJob = { kind: "inbox", ...key, origin: deps.u.origin };
      if (!delivery.queued) {
        // No queue bound (a bare configuration): the work is done now.
        await this.handle(job);
        return "queued";
      }
      try {
        await delivery.enqueue([job]);
      } catch (err) {
        // Not queued: forgotten, so the sender's retry is taken afresh.
        await db.delete(inbox).where(and(eq(inbox.authorId, key.authorId), eq(inbox.activityId, key.activityId)));
        throw err;
      }
      return "queued";
    },

    /**
     * The consumer's half: claims the recorded activity (once; again only after INBOX_LEASE_MS when a run
     * died), runs its handler, keeps the result and drops the body. A refusal (a limit, a malformed
     * object) is final and answered as `refused:<code>`; any other failure gives the claim back and
     * throws, so the queue retries.
     */
    async handle(job: InboxJob, now = Date.now()): Promise<string> {
      const which = and(eq(inbox.authorId, job.authorId), eq(inbox.activityId, job.activityId));
      const [claimed] = await db
        .update(inbox)
        .set({ handledAt: now })
        .where(
          and(which, or(isNull(inbox.handledAt), and(isNull(inbox.result), lt(inbox.handledAt, now - INBOX_LEASE_MS)))),
        )
        .returning();
      if (!claimed) return "duplicate";
      const author = await db.query.apRemoteActors.findFirst({ where: eq(schema.apRemoteActors.id, claimed.authorId) });
      let result: string;
      try {
        result = author ? await run(author, claimed.body) : "ignored";
      } catch (err) {
        if (!(err instanceof DomainError)) {
          await db.update(inbox).set({ handledAt: null }).where(which);
          throw err;
        }
        logError("federation: inbox activity refused", err, { activity: job.activityId });
        result = `refused:${err.code}`;
      }
      await db.update(inbox).set({ result, body: "" }).where(which);
      return result;
    },

    /** The hourly sweep: activities received more than INBOX_KEEP_MS ago are forgotten. */
    async sweep(now = Date.now()): Promise<void> {
      await db.delete(inbox).where(lt(inbox.receivedAt, now - INBOX_KEEP_MS));
    },
  };
}

export type Inbox = ReturnType<typeof createInbox>;
