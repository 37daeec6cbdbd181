import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { schema } from "#worker/db.ts";
import { fromBase64, toBase64 } from "#worker/services/federation/keys.ts";
import { readProof } from "#worker/services/federation/proofs.ts";
import { contentDigest, rfc9421Base } from "#worker/services/federation/rfc9421.ts";
import { precheck, readSignature, signedRequest } from "#worker/services/federation/signatures.ts";
import type { Actor } from "#worker/services/shared/policy.ts";
import { db, makeUser } from "../support/factories";
import { call } from "../support/http";
import { remoteAccount, stubFediverse, type RemoteAccount, receiveNow, eventually } from "../support/fediverse";
import { federationWorld, tag } from "../support/kernel";

/** Signatures, keys and proofs as the big servers speak them (RFC 9421, Mastodon's time window, FEP-8b32). */

const AS = "https://www.w3.org/ns/activitystreams";
const PUBLIC = `${AS}#Public`;
const HOUR = 60 * 60 * 1000;

async function writer() {
  const u = await makeUser({ name: `Ada ${tag()}` });
  const actor: Actor = { id: u.id, name: u.name, email: u.email, role: "user", photoURL: null };
  return { user: u, actor, actorUrl: `https://blog.test/ap/users/${u.id}` };
}

const pemBody = (pem: string) => fromBase64(pem.replace(/-----(BEGIN|END) [A-Z ]+-----/g, "").replace(/\s+/g, ""));

/** An RFC 9421 delivery signed with any of the three algorithms (as Mastodon, Fedify or GoToSocial would). */
async function rfc9421Delivery(
  url: string,
  activity: unknown,
  keyId: string,
  alg: "rsa-v1_5-sha256" | "rsa-pss-sha512" | "ed25519",
  privateKeyPem: string,
  created = Date.now(),
) {
  const body = JSON.stringify(activity);
  const headers = new Headers({
    "Content-Type": "application/activity+json",
    "Content-Digest": await contentDigest(body),
  });
  const params = `("@method" "@target-uri" "content-digest");created=${Math.floor(created / 1000)};keyid="${keyId}";alg="${alg}"`;
  const base = rfc9421Base(
    new Request(url, { method: "POST", headers }),
    ["@method", "@target-uri", "content-digest"],
    params,
  )!;
  const algorithm =
    alg === "ed25519"
      ? { name: "Ed25519" }
      : alg === "rsa-pss-sha512"
        ? { name: "RSA-PSS", hash: "SHA-512" }
        : { name: "RSASSA-PKCS1-v1_5", hash: "SHA-256" };
  const key = await crypto.subtle.importKey("pkcs8", pemBody(privateKeyPem), algorithm, false, ["sign"]);
  const signParams = alg === "rsa-pss-sha512" ? { name: "RSA-PSS", saltLength: 64 } : algorithm;
  const signature = await crypto.subtle.sign(signParams, key, new TextEncoder().encode(base));
  headers.set("Signature-Input", `sig1=${params}`);
  headers.set("Signature", `sig1=:${toBase64(signature)}:`);
  return call(url, { method: "POST", headers, body });
}

async function followed(bob: RemoteAccount) {
  const w = federationWorld();
  const { user, actorUrl } = await writer();
  await w.services.federation.actors.writer(user.id);
  const follow = (id = tag()) => ({
    "@context": AS,
    id: `${bob.id}/follows/${id}`,
    type: "Follow",
    actor: bob.id,
    object: actorUrl,
  });
  return { w, user, actorUrl, follow };
}

describe("RFC 9421 signatures", () => {
  it("are verified with rsa-v1_5-sha256, rsa-pss-sha512 and ed25519 (the Multikey), and a refusal names what we accept", async () => {
    const bob = await remoteAccount(`s${tag()}.example`, "bob");
    const stub = stubFediverse([bob]);
    const { user, follow } = await followed(bob);
    const inbox = `https://blog.test/ap/users/${user.id}/inbox`;
    expect((await rfc9421Delivery(inbox, follow(), bob.keyId, "rsa-v1_5-sha256", bob.privateKeyPem)).status).toBe(202);
    expect((await rfc9421Delivery(inbox, follow(), bob.keyId, "rsa-pss-sha512", bob.privateKeyPem)).status).toBe(202);
    const ed = await rfc9421Delivery(inbox, follow(), `${bob.id}#ed25519-key`, "ed25519", bob.edPrivateKeyPem);
    expect(ed.status).toBe(202);
    // The wrong key for the algorithm, or a body the digest does not name: 401, saying what we accept.
    const wrong = await rfc9421Delivery(inbox, follow(), bob.keyId, "ed25519", bob.edPrivateKeyPem);
    expect(wrong.status).toBe(401);
    expect(wrong.headers.get("Accept-Signature")).toBe('sig1=("@method" "@target-uri" "content-digest");created;keyid');
    expect(stub.fetched.length).toBeGreaterThan(0);
    // Acted on by the federation queue's consumer (the local queue runs the Worker's queue handler).
    const followers = () => db().select().from(schema.apFollowers).where(eq(schema.apFollowers.localId, user.id));
    await eventually(async () => (await followers()).length > 0);
    expect(await followers()).toHaveLength(1);
  });

  it("our deliveries knock with RFC 9421 first, fall back to draft-cavage on 401, and remember the server's choice", async () => {
    const carol = await remoteAccount(`c${tag()}.example`, "carol");
    // A server that speaks only draft-cavage.
    const stub = stubFediverse([carol], { inboxStatus: (r) => (r.headers.has("Signature-Input") ? 401 : 202) });
    const { w, follow } = await followed(carol);
    await receiveNow(w.services, w.queue, await carol.deliver("/ap/inbox", follow()));
    await w.drain();
    expect(stub.posted.map((p) => (p.request.headers.has("Signature-Input") ? "rfc9421" : "cavage"))).toEqual([
      "rfc9421",
      "cavage",
    ]);
    const host = new URL(carol.id).host;
    expect(await db().select().from(schema.apPeers).where(eq(schema.apPeers.host, host))).toMatchObject([
      { signing: "cavage" },
    ]);
    // Next time: cavage at once.
    stub.posted.length = 0;
    await receiveNow(w.services, w.queue, await carol.deliver("/ap/inbox", follow()));
    await w.drain();
    expect(stub.posted).toHaveLength(1);
    expect(stub.posted[0]!.request.headers.get("Signature")).toContain('algorithm="rsa-sha256"');
  });
});

describe("Mastodon's time window", () => {
  const activity = {
    "@context": AS,
    id: "https://a.example/1",
    type: "Like",
    actor: "https://a.example/u",
    object: "x",
  };
  const body = JSON.stringify(activity);
  async function cavage(at: number, times: { created?: number; expires?: number } = {}) {
    const request = await signedRequest(
      "https://blog.test/ap/inbox",
      { method: "POST", body },
      "https://a.example/u#k",
      (await remoteAccount("a.example", "u")).privateKeyPem,
      at,
    );
    if (!times.created) return request;
    // hs2019 with (created) and (expires), as Mastodon and GoToSocial read them.
    const headers = new Headers(request.headers);
    headers.set(
      "Signature",
      `keyId="https://a.example/u#k",algorithm="hs2019",created=${times.created},expires=${times.expires},headers="(request-target) host (created) (expires) digest",signature="AAAA"`,
    );
    return new Request(request.url, { method: "POST", headers, body });
  }
  const window = async (request: Request, now = Date.now()) => precheck(request, body, readSignature(request)!, now);

  it("accepts a Date 30 minutes ahead and a 6-hour-old signature that declares a 12-hour life", async () => {
    expect(await window(await cavage(Date.now() + 30 * 60 * 1000))).toBeNull();
    const created = Math.floor((Date.now() - 6 * HOUR) / 1000);
    expect(await window(await cavage(Date.now(), { created, expires: created + 12 * 3600 }))).toBeNull();
  });

  it("refuses a plain Date 2 hours old, anything made 13 hours ago, and a Date more than an hour ahead", async () => {
    expect(await window(await cavage(Date.now() - 2 * HOUR))).toBe("date");
    const created = Math.floor((Date.now() - 13 * HOUR) / 1000);
    expect(await window(await cavage(Date.now(), { created, expires: created + 24 * 3600 }))).toBe("date");
    expect(await window(await cavage(Date.now() + 2 * HOUR))).toBe("date");
  });
});

describe("keys and proofs", () => {
  it("our actors publish an Ed25519 assertionMethod, and our activities carry eddsa-jcs-2022 proofs that verify", async () => {
    const bob = await remoteAccount(`p${tag()}.example`, "bob");
    const stub = stubFediverse([bob]);
    const { w, user, follow } = await followed(bob);
    const doc = await w.services.federation.actorDocument(user.id);
    const [method] = doc.assertionMethod as { id: string; type: string; publicKeyMultibase: string }[];
    expect(method).toMatchObject({ type: "Multikey", id: `https://blog.test/ap/users/${user.id}#ed25519-key` });
    expect(method!.publicKeyMultibase).toMatch(/^z6Mk/);
    await receiveNow(w.services, w.queue, await bob.deliver("/ap/inbox", follow()));
    await w.drain();
    const accept = stub.posted[0]!.body;
    const proof = readProof(accept)!;
    expect(proof.verificationMethod).toBe(method!.id);
    expect(await proof.verify(method!.publicKeyMultibase)).toBe(true);
    expect(await readProof({ ...accept, id: `${String(accept.id)}x` })!.verify(method!.publicKeyMultibase)).toBe(false);
  });

  it("an activity forwarded by a third server is accepted as its author's with a valid proof, refused with a broken one", async () => {
    const bob = await remoteAccount(`f${tag()}.example`, "bob");
    const relay = await remoteAccount(`g${tag()}.example`, "relay");
    stubFediverse([bob, relay]);
    const w = federationWorld();
    const { actor } = await writer();
    const { insertedId } = await w.services.blogs.create(actor, {
      title: `Forwarded ${tag()}`,
      short_description: "x",
      blog_details: "y",
      category: "Technology",
      date_time: "2026-11-20T10:00:00.000Z",
      image: "/images/cover-0001.png",
    });
    const noteId = `${bob.id}/statuses/${tag()}`;
    const create = await bob.prove({
      "@context": AS,
      id: `${noteId}/activity`,
      type: "Create",
      actor: bob.id,
      to: [PUBLIC],
      object: {
        id: noteId,
        type: "Note",
        attributedTo: bob.id,
        inReplyTo: `https://blog.test/ap/posts/${insertedId}`,
        content: "<p>Forwarded</p>",
        to: [PUBLIC],
      },
    });
    // Signed (HTTP) by the relay, whose actor is not the author.
    const broken = { ...create, object: { ...(create.object as object), content: "<p>Tampered</p>" } };
    await expect(receiveNow(w.services, w.queue, await relay.deliver("/ap/inbox", broken))).rejects.toMatchObject({
      code: "proof-invalid",
    });
    const { proof: _p, ...unproven } = create;
    await expect(receiveNow(w.services, w.queue, await relay.deliver("/ap/inbox", unproven))).rejects.toMatchObject({
      code: "actor-mismatch",
    });
    expect(await receiveNow(w.services, w.queue, await relay.deliver("/ap/inbox", create))).toBe("commented");
    const [link] = await db().select().from(schema.apComments).where(eq(schema.apComments.noteId, noteId));
    expect(link!.remoteId).toBe(bob.id);
  });

  it("accepts an actor whose publicKey is an array, and a gone actor's Delete verified with the stored key", async () => {
    const bob = await remoteAccount(`k${tag()}.example`, "bob");
    const second = await remoteAccount(`k${tag()}.example`, "spare");
    bob.doc.publicKey = [
      { id: `${bob.id}#other-key`, owner: bob.id, publicKeyPem: second.publicKeyPem },
      { id: bob.keyId, owner: bob.id, publicKeyPem: bob.publicKeyPem },
    ];
    stubFediverse([bob]);
    const { w, user, follow } = await followed(bob);
    expect(await receiveNow(w.services, w.queue, await bob.deliver("/ap/inbox", follow()))).toBe("followed");
    // The account is deleted on its server: its document answers 410, and our copy is a day old.
    stubFediverse([], { documents: { [bob.id]: 410 } });
    await db()
      .update(schema.apRemoteActors)
      .set({ fetchedAt: Date.now() - 2 * 24 * HOUR })
      .where(eq(schema.apRemoteActors.id, bob.id));
    const remove = {
      "@context": AS,
      id: `${bob.id}#delete`,
      type: "Delete",
      actor: bob.id,
      object: bob.id,
      to: [PUBLIC],
    };
    expect(await receiveNow(w.services, w.queue, await bob.deliver("/ap/inbox", remove))).toBe("deleted");
    expect(await db().select().from(schema.apFollowers).where(eq(schema.apFollowers.localId, user.id))).toEqual([]);
  });
});
