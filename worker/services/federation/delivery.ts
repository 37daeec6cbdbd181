import { and, asc, eq, gt, inArray } from "drizzle-orm";
import type { FederationJob } from "#worker/queues/messages.ts";
import { schema } from "#worker/db.ts";
import { createPeers, isAlive } from "#worker/services/federation/peers.ts";
import { withActorProof } from "#worker/services/federation/actors.ts";
import { signedRequest, type SigningStyle } from "#worker/services/federation/signatures.ts";
import { isFetchable } from "#worker/services/federation/remote.ts";
import type { Kernel } from "#worker/services/kernel.ts";

export type { FederationJob } from "#worker/queues/messages.ts";

/** Inboxes one fan-out job reads (then it queues the next page). */
export const FANOUT_PAGE = 200;
/** A delivery not done after this long is given up (the server is gone). */
export const GIVE_UP_MS = 48 * 60 * 60 * 1000;
const DELIVERY_TIMEOUT_MS = 10_000;
const SEND_BATCH = 100;

export class DeliveryFailed extends Error {}

/** Deliveries to remote inboxes: queued on FEDERATION_QUEUE (none without the binding), one signed POST each. */
export function createDelivery(k: Kernel) {
  const { db } = k;
  const queue = k.env.FEDERATION_QUEUE;
  const allowPrivate = k.config.federation.allowPrivate;
  const peers = createPeers(db);

  async function enqueue(jobs: FederationJob[]) {
    if (!queue || jobs.length === 0) return;
    for (let i = 0; i < jobs.length; i += SEND_BATCH) {
      await queue.sendBatch(jobs.slice(i, i + SEND_BATCH).map((body) => ({ body, contentType: "json" as const })));
    }
  }

  async function fanout(job: Extract<FederationJob, { kind: "fanout" }>) {
    const rows = await db
      .selectDistinct({ inbox: schema.apFollowers.inbox })
      .from(schema.apFollowers)
      .where(
        and(
          inArray(schema.apFollowers.localId, job.audiences),
          job.after ? gt(schema.apFollowers.inbox, job.after) : undefined,
        ),
      )
      .orderBy(asc(schema.apFollowers.inbox))
      .limit(FANOUT_PAGE);
    const except = new Set(job.except ?? []);
    const { kind: _kind, audiences: _a, after: _after, except: _e, ...rest } = job;
    const deliveries: FederationJob[] = rows
      .filter((row) => !except.has(row.inbox))
      .map((row) => ({ ...rest, kind: "deliver", inbox: row.inbox }));
    const last = rows[rows.length - 1];
    if (rows.length === FANOUT_PAGE && last) deliveries.push({ ...job, after: last.inbox });
    await enqueue(deliveries);
  }

  async function deliver(job: Extract<FederationJob, { kind: "deliver" }>, now = Date.now()) {
    const activityId = (JSON.parse(job.activity) as { id?: string }).id ?? job.activity.slice(0, 200);
    const key = `${activityId} ${job.inbox}`;
    const done = await db.query.apDeliveries.findFirst({ where: eq(schema.apDeliveries.key, key) });
    if (done) return "duplicate";
    if (now - job.firstAt > GIVE_UP_MS) return "given-up";
    if (!isFetchable(job.inbox, allowPrivate)) return "refused";
    const actor = await db.query.apActors.findFirst({ where: eq(schema.apActors.id, job.signer) });
    if (!actor) return "no-signer";
    const host = new URL(job.inbox).host.toLowerCase();
    const peer = await db.query.apPeers.findFirst({ where: eq(schema.apPeers.host, host) });
    const body = await withActorProof(db, job.activity, actor, job.keyId.split("#")[0]!);
    // Double knock: the style this server last accepted first (RFC 9421 for a server we never reached),
    // then the other when it answers 400 or 401.
    const styles: SigningStyle[] = peer?.signing === "cavage" ? ["cavage", "rfc9421"] : ["rfc9421", "cavage"];
    let status = 0;
    let used: SigningStyle = styles[0]!;
    for (const style of styles) {
      used = style;
      const request = await signedRequest(
        job.inbox,
        { method: "POST", body, style },
        job.keyId,
        actor.privateKeyPem,
        now,
      );
      try {
        const response = await fetch(request, { redirect: "manual", signal: AbortSignal.timeout(DELIVERY_TIMEOUT_MS) });
        status = response.status;
        await response.body?.cancel();
      } catch (err) {
        await peers.failing(host, now);
        throw new DeliveryFailed(`${job.inbox}: ${String(err)}`);
      }
      if (status !== 400 && status !== 401) break;
    }
    // Gone for good: nobody there follows anyone here any more.
    if (status === 410) {
      await peers.dead(job.inbox);
      await db.insert(schema.apDeliveries).values({ key, deliveredAt: now }).onConflictDoNothing();
      return "gone";
    }
    if (status >= 500 || status === 408 || status === 429) {
      if (await peers.failing(host, now)) return "gone";
      throw new DeliveryFailed(`${job.inbox}: HTTP ${status}`);
    }
    // A server that refuses for good (4xx other than 408/429) is not asked again; it answered, so it is alive.
    await db.insert(schema.apDeliveries).values({ key, deliveredAt: now }).onConflictDoNothing();
    if (status >= 300) {
      if (isAlive(status)) await peers.alive(host, now);
      return "refused";
    }
    await peers.accepted(host, used, peer?.signing ?? null);
    return "delivered";
  }

  return {
    enqueue,
    /** Whether a queue is bound (without one, nothing is sent: a bare configuration). */
    queued: !!queue,
    /** Runs one fan-out or delivery job from the queue; throws when it should be retried. */
    async run(job: Exclude<FederationJob, { kind: "inbox" }>): Promise<string> {
      if (job.kind === "fanout") {
        await fanout(job);
        return "fanned-out";
      }
      return deliver(job);
    },
  };
}

export type Delivery = ReturnType<typeof createDelivery>;
