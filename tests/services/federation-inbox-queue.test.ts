import { env } from "cloudflare:workers";
import { and, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { schema } from "#worker/db.ts";
import { createServices } from "#worker/services/index.ts";
import { generateKeyPair, importPrivateKey, toBase64 } from "#worker/services/federation/keys.ts";
import { contentDigest } from "#worker/services/federation/rfc9421.ts";
import { createPeers, DEAD_AFTER_MS, RESTART_AFTER_MS } from "#worker/services/federation/peers.ts";
import { precheck, readSignature, signedRequest } from "#worker/services/federation/signatures.ts";
import type { Actor } from "#worker/services/shared/policy.ts";
import { db, makeUser } from "../support/factories";
import { call, json } from "../support/http";
import { receiveNow, remoteAccount, stubFediverse } from "../support/fediverse";
import { recordingQueue } from "../support/queue";
import type { FederationJob } from "#worker/queues/messages.ts";
import { federationWorld, tag } from "../support/kernel";

/** The inbox verifies and records, the queue acts (once); dead inboxes; signature parameters; every key. */

const AS = "https://www.w3.org/ns/activitystreams";
const PUBLIC = `${AS}#Public`;
const DAY = 24 * 60 * 60 * 1000;

/** A writer with their actor made (a Follow of an actor never made is ignored). */
async function writer() {
  const u = await makeUser({ name: `Ada ${tag()}` });
  await createServices(env, undefined, "https://blog.test").federation.actors.writer(u.id);
  const actor: Actor = { id: u.id, name: u.name, email: u.email, role: "user", photoURL: null };
  return { user: u, actor };
}

const followOf = (from: { id: string }, userId: string) => ({
  "@context": AS,
  id: `${from.id}/follows/${tag()}`,
  type: "Follow",
  actor: from.id,
  object: `https://blog.test/ap/users/${userId}`,
});

const followersOf = async (userId: string) =>
  (await db().select().from(schema.apFollowers).where(eq(schema.apFollowers.localId, userId))).map((r) => r.remoteId);

describe("the inbox verifies and records; the federation queue acts, once per activity", () => {
  it("a Follow is only queued by the POST; sent twice it is accepted once, and a redelivered job does nothing", async () => {
    const w = federationWorld({ keepErrors: true });
    const { user } = await writer();
    const bob = await remoteAccount(`q${tag()}.example`, "bob");
    const stub = stubFediverse([bob]);
    await w.services.federation.actors.writer(user.id);
    const follow = followOf(bob, user.id);
    expect(await w.services.federation.inbox.receive(await bob.deliver("/ap/inbox", follow))).toBe("queued");
    // Nothing done yet: only the inbox job waits, with the activity recorded.
    expect(w.queue.jobs).toEqual([
      { kind: "inbox", authorId: bob.id, activityId: follow.id, origin: "https://blog.test" },
    ]);
    expect(await followersOf(user.id)).toEqual([]);
    // The sender retries (it timed out, say): answered, nothing more queued.
    expect(await w.services.federation.inbox.receive(await bob.deliver("/ap/inbox", follow))).toBe("duplicate");
    expect(w.queue.jobs).toHaveLength(1);
    const job = w.queue.jobs.shift()!;
    expect(await w.services.federation.runJob(job)).toBe("followed");
    // The queue hands the same message over again: acted on once.
    expect(await w.services.federation.runJob(job)).toBe("duplicate");
    await w.drain();
    expect(await followersOf(user.id)).toEqual([bob.id]);
    expect(stub.posted.filter((p) => p.body.type === "Accept")).toHaveLength(1);
    // Handled: the body is not kept, the result is.
    const [row] = await db().select().from(schema.apInbox).where(eq(schema.apInbox.activityId, follow.id));
    expect(row).toMatchObject({ authorId: bob.id, body: "", result: "followed" });
  });

  it("over HTTP: 202 with what was done at the door, and the repeat is a 202 that does nothing", async () => {
    const { user } = await writer();
    const bob = await remoteAccount(`h${tag()}.example`, "bob");
    stubFediverse([bob]);
    await createServices(env, undefined, "https://blog.test").federation.actors.writer(user.id);
    const follow = followOf(bob, user.id);
    const send = async () => {
      const signed = await bob.deliver(`/ap/users/${user.id}/inbox`, follow);
      return call(signed.url, { method: "POST", headers: signed.headers, body: JSON.stringify(follow) });
    };
    const first = await send();
    expect(first.status).toBe(202);
    expect(await json(first)).toEqual({ result: "queued" });
    const again = await send();
    expect(again.status).toBe(202);
    expect(await json(again)).toEqual({ result: "duplicate" });
  });

  it("a handler that fails (not a refusal) gives the activity back: the queue retries it, and it is acted on then", async () => {
    const w = federationWorld({ keepErrors: true });
    const { user } = await writer();
    const bob = await remoteAccount(`f${tag()}.example`, "bob");
    stubFediverse([bob]);
    await w.services.federation.actors.writer(user.id);
    const follow = followOf(bob, user.id);
    expect(await w.services.federation.inbox.receive(await bob.deliver("/ap/inbox", follow))).toBe("queued");
    const job = w.queue.jobs.shift()!;
    // D1 fails under the handler once (a transient error): the job throws, so the queue retries it.
    const original = w.services.federation.actors.byId;
    w.services.federation.actors.byId = async () => {
      throw new Error("D1 is busy");
    };
    await expect(w.services.federation.runJob(job)).rejects.toThrow("D1 is busy");
    w.services.federation.actors.byId = original;
    expect(await w.services.federation.runJob(job)).toBe("followed");
  });
});

describe("without SITE_URL, the queue's consumer reads an activity as the site it was sent to", () => {
  it("a Follow received at https://blog.example is acted on by the Worker's queue handler, which has no request", async () => {
    const queue = recordingQueue<FederationJob>(10, "edge-blog-federation");
    // A deployment that never set SITE_URL: each origin comes from a request, and a queue has none.
    const bare = { ...env, SITE_URL: undefined, FEDERATION_QUEUE: queue.binding } as typeof env;
    const services = createServices(bare, undefined, "https://blog.example");
    const { user } = await writer();
    const bob = await remoteAccount(`o${tag()}.example`, "bob");
    const stub = stubFediverse([bob]);
    const follow = { ...followOf(bob, user.id), object: `https://blog.example/ap/users/${user.id}` };
    const received = await bob.deliver("https://blog.example/ap/inbox", follow);
    expect(await services.federation.inbox.receive(received)).toBe("queued");
    expect(queue.pending).toEqual([
      { kind: "inbox", authorId: bob.id, activityId: follow.id, origin: "https://blog.example" },
    ]);
    // The Worker's own queue handler runs it (and the Accept it queues), as Cloudflare Queues would.
    await queue.drain(bare);
    expect(await followersOf(user.id)).toEqual([bob.id]);
    const [accept] = stub.posted.filter((p) => p.body.type === "Accept");
    expect(accept?.body.actor).toBe(`https://blog.example/ap/users/${user.id}`);
    const [row] = await db().select().from(schema.apInbox).where(eq(schema.apInbox.activityId, follow.id));
    expect(row?.result).toBe("followed");
  });
});

describe("dead inboxes: only a week of failures with no answer in between", () => {
  it("an answer below 500 (a 4xx refusal) ends a failing spell; 408 and 429 do not", async () => {
    const peers = createPeers(db());
    const host = `p${tag()}.example`;
    const since = async () =>
      (await db().select().from(schema.apPeers).where(eq(schema.apPeers.host, host)))[0]?.failingSince;
    const t0 = Date.now() - 6 * DAY;
    await peers.failing(host, t0);
    expect(await since()).toBe(t0);
    await peers.alive(host, t0 + DAY);
    expect(await since()).toBeNull();
    // Through a delivery: a 403 from a server failing for six days ends its spell.
    const w = federationWorld({ keepErrors: true });
    const { user, actor } = await writer();
    const bob = await remoteAccount(`x${tag()}.example`, "bob");
    let status = 403;
    stubFediverse([bob], { inboxStatus: () => status });
    expect(await receiveNow(w.services, w.queue, await bob.deliver("/ap/inbox", followOf(bob, user.id)))).toBe(
      "followed",
    );
    const bobHost = new URL(bob.id).host;
    await db()
      .insert(schema.apPeers)
      .values({ host: bobHost, failingSince: t0, lastFailureAt: Date.now() - 1000 })
      .onConflictDoUpdate({ target: schema.apPeers.host, set: { failingSince: t0, lastFailureAt: Date.now() - 1000 } });
    await w.drain();
    const [peer] = await db().select().from(schema.apPeers).where(eq(schema.apPeers.host, bobHost));
    expect(peer!.failingSince).toBeNull();
    // A 429 is no sign of life: the spell goes on.
    status = 429;
    await db().update(schema.apPeers).set({ failingSince: t0 }).where(eq(schema.apPeers.host, bobHost));
    await w.services.blogs.create(actor, {
      title: `Busy ${tag()}`,
      short_description: "x",
      blog_details: "y",
      category: "Technology",
      date_time: "2026-11-21T10:00:00.000Z",
      image: "/images/cover-0001.png",
    });
    await w.drain();
    const [after] = await db().select().from(schema.apPeers).where(eq(schema.apPeers.host, bobHost));
    expect(after!.failingSince).toBe(t0);
  });

  it("a failure long after the last one starts a new spell, so the followers stay", async () => {
    const peers = createPeers(db());
    const w = federationWorld({ keepErrors: true });
    const { user } = await writer();
    const bob = await remoteAccount(`d${tag()}.example`, "bob");
    stubFediverse([bob]);
    expect(await receiveNow(w.services, w.queue, await bob.deliver("/ap/inbox", followOf(bob, user.id)))).toBe(
      "followed",
    );
    const host = new URL(bob.id).host;
    const now = Date.now();
    // Failed eight days ago, then nothing to send for three days: the failure now is a new spell.
    await db()
      .insert(schema.apPeers)
      .values({ host, failingSince: now - 8 * DAY, lastFailureAt: now - RESTART_AFTER_MS - DAY })
      .onConflictDoNothing();
    expect(await peers.failing(host, now)).toBe(false);
    expect(await followersOf(user.id)).toEqual([bob.id]);
    // Failures every day for a week: dead, its followers go.
    for (let day = 1; day <= 7; day++) {
      const gone = await peers.failing(host, now + day * DAY);
      expect(gone).toBe(day * DAY >= DEAD_AFTER_MS);
    }
    expect(await followersOf(user.id)).toEqual([]);
  });
});

describe("signature parameters and keys", () => {
  it("a cavage created or expires the signature does not cover is not believed", async () => {
    const bob = await remoteAccount(`s${tag()}.example`, "bob");
    const like = { "@context": AS, id: `${bob.id}/likes/${tag()}`, type: "Like", actor: bob.id, object: bob.id };
    const body = JSON.stringify(like);
    // Captured two hours ago, then given a fresh window by whoever relays it.
    const old = await signedRequest(
      "https://blog.test/ap/inbox",
      { method: "POST", body },
      bob.keyId,
      bob.privateKeyPem,
      Date.now() - 2 * 60 * 60 * 1000,
    );
    const headers = new Headers(old.headers);
    const nowSeconds = Math.floor(Date.now() / 1000);
    headers.set("Signature", `${headers.get("Signature")},created=${nowSeconds},expires=${nowSeconds + 300}`);
    const replayed = new Request(old.url, { method: "POST", headers, body });
    const sig = readSignature(replayed)!;
    expect(sig).toMatchObject({ created: null, expires: null });
    expect(await precheck(replayed, body, sig)).toBe("date");
  });

  it("an actor's every key is kept: its Delete verifies with its second key after it is gone", async () => {
    const w = federationWorld({ keepErrors: true });
    const { user } = await writer();
    const carol = await remoteAccount(`k${tag()}.example`, "carol");
    const second = await generateKeyPair();
    const secondId = `${carol.id}#key-2`;
    carol.doc.publicKey = [carol.doc.publicKey, { id: secondId, owner: carol.id, publicKeyPem: second.publicKeyPem }];
    const first = stubFediverse([carol]);
    expect(await receiveNow(w.services, w.queue, await carol.deliver("/ap/inbox", followOf(carol, user.id)))).toBe(
      "followed",
    );
    expect(
      (await db().select().from(schema.apRemoteKeys).where(eq(schema.apRemoteKeys.actorId, carol.id)))
        .map((k) => k.keyId)
        .sort(),
    ).toEqual([carol.keyId, secondId].sort());
    first.restore();
    // Gone: its server answers 410 for it now.
    const gone = stubFediverse([], { documents: { [carol.id]: 410 } });
    const remove = {
      "@context": AS,
      id: `${carol.id}#delete`,
      type: "Delete",
      actor: carol.id,
      object: carol.id,
      to: [PUBLIC],
    };
    const signed = await signedRequest(
      "https://blog.test/ap/inbox",
      { method: "POST", body: JSON.stringify(remove) },
      secondId,
      second.privateKeyPem,
    );
    expect(await receiveNow(w.services, w.queue, signed)).toBe("deleted");
    expect(gone.fetched).toEqual([]);
    expect(await followersOf(user.id)).toEqual([]);
  });

  it("RFC 9421 covering `host` and `@authority` (as Fedify signs) verifies without a Host header", async () => {
    const w = federationWorld({ keepErrors: true });
    const { user } = await writer();
    const bob = await remoteAccount(`r${tag()}.example`, "bob");
    stubFediverse([bob]);
    await w.services.federation.actors.writer(user.id);
    const follow = followOf(bob, user.id);
    const body = JSON.stringify(follow);
    const url = "https://blog.test/ap/inbox";
    const date = new Date().toUTCString();
    const digest = await contentDigest(body);
    const created = Math.floor(Date.now() / 1000);
    const params = `("@method" "@target-uri" "@authority" "host" "date" "content-digest");created=${created};keyid="${bob.keyId}";alg="rsa-v1_5-sha256"`;
    const base = [
      `"@method": POST`,
      `"@target-uri": ${url}`,
      `"@authority": blog.test`,
      `"host": blog.test`,
      `"date": ${date}`,
      `"content-digest": ${digest}`,
      `"@signature-params": ${params}`,
    ].join("\n");
    const key = await importPrivateKey(bob.privateKeyPem);
    const signature = toBase64(await crypto.subtle.sign("RSASSA-PKCS1-v1_5", key, new TextEncoder().encode(base)));
    const request = new Request(url, {
      method: "POST",
      body,
      headers: {
        "Content-Type": "application/activity+json",
        Date: date,
        "Content-Digest": digest,
        "Signature-Input": `sig1=${params}`,
        Signature: `sig1=:${signature}:`,
      },
    });
    expect(await receiveNow(w.services, w.queue, request)).toBe("followed");
  });
});

describe("Move: the accounts here that followed the old account follow the new one", () => {
  it("sends Undo(Follow) to the old account and a Follow to the new one, through the delivery queue", async () => {
    const w = federationWorld({ keepErrors: true });
    const reader = await writer();
    const old = await remoteAccount(`mo${tag()}.example`, "old");
    const moved = await remoteAccount(`mn${tag()}.example`, "new");
    moved.doc.alsoKnownAs = [old.id];
    const stub = stubFediverse([old, moved]);
    await w.services.federation.remoteFollows.follow(reader.actor, { target: old.id });
    await w.drain();
    const move = {
      "@context": AS,
      id: `${old.id}#moves/${tag()}`,
      type: "Move",
      actor: old.id,
      object: old.id,
      target: moved.id,
    };
    expect(await receiveNow(w.services, w.queue, await old.deliver("/ap/inbox", move))).toBe("moved");
    await w.drain();
    const actorUrl = `https://blog.test/ap/users/${reader.user.id}`;
    const undo = stub.posted.find((p) => p.url === old.inbox && p.body.type === "Undo");
    expect(undo?.body).toMatchObject({ actor: actorUrl, object: { type: "Follow", actor: actorUrl, object: old.id } });
    const follow = stub.posted.find((p) => p.url === moved.inbox && p.body.type === "Follow");
    expect(follow?.body).toMatchObject({ actor: actorUrl, object: moved.id });
    const list = await w.services.federation.remoteFollows.list(reader.actor);
    expect(list.items.map((a) => a.id)).toEqual([moved.id]);
    const rows = await db()
      .select()
      .from(schema.apFollowing)
      .where(and(eq(schema.apFollowing.userId, reader.user.id), eq(schema.apFollowing.remoteId, old.id)));
    expect(rows).toEqual([]);
  });
});
