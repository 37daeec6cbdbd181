import { and, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { schema } from "#worker/db.ts";
import { withProof } from "#worker/services/federation/proofs.ts";
import { signedRequest } from "#worker/services/federation/signatures.ts";
import type { Actor } from "#worker/services/shared/policy.ts";
import { db, makeUser } from "../support/factories";
import { receiveNow, remoteAccount, stubFediverse, type RemoteAccount } from "../support/fediverse";
import { federationWorld, tag, type FederationWorld } from "../support/kernel";

/**
 * Issue 42, fourth hardening pass: keys that are not an actor's own, documents served through a
 * redirect to another host, and private replies that were not addressed to the post's writer. Every
 * case goes through the real inbox with signed deliveries from a fake peer (fetch stubbed).
 */

const AS = "https://www.w3.org/ns/activitystreams";
const PUBLIC = `${AS}#Public`;

async function writer(w: FederationWorld) {
  const u = await makeUser({ name: `Ada ${tag()}` });
  await w.services.federation.actors.writer(u.id);
  const actor: Actor = { id: u.id, name: u.name, email: u.email, role: "user", photoURL: null };
  return { user: u, actor };
}

async function publish(w: FederationWorld, actor: Actor) {
  const { insertedId } = await w.services.blogs.create(actor, {
    title: `Federated ${tag()}`,
    short_description: "What happened this week.",
    blog_details: "The whole story.",
    category: "Technology",
    date_time: "2026-11-20T10:00:00.000Z",
    image: "/images/cover-0001.png",
  });
  await w.drain();
  return { blogId: insertedId, articleId: `https://blog.test/ap/posts/${insertedId}` };
}

const followOf = (from: { id: string }, userId: string) => ({
  "@context": AS,
  id: `${from.id}/follows/${tag()}`,
  type: "Follow",
  actor: from.id,
  object: `https://blog.test/ap/users/${userId}`,
});

function reply(from: { id: string }, inReplyTo: string, extra: Record<string, unknown>, note = extra) {
  const noteId = `${from.id}/statuses/${tag()}`;
  return {
    "@context": AS,
    id: `${noteId}/activity`,
    type: "Create",
    actor: from.id,
    ...extra,
    object: { id: noteId, type: "Note", attributedTo: from.id, inReplyTo, content: "<p>Hello</p>", ...note },
  };
}

const followersOf = async (userId: string) =>
  (await db().select().from(schema.apFollowers).where(eq(schema.apFollowers.localId, userId))).map((r) => r.remoteId);

const ownerOfKey = async (keyId: string) =>
  (await db().select().from(schema.apRemoteKeys).where(eq(schema.apRemoteKeys.keyId, keyId)))[0]?.actorId ?? null;

const storedActor = async (id: string) =>
  (await db().select().from(schema.apRemoteActors).where(eq(schema.apRemoteActors.id, id)))[0] ?? null;

/** Mallory's document lists Alice's key id first (with Mallory's own PEM), then Mallory's own key. */
function listVictimsKey(mallory: RemoteAccount, victim: RemoteAccount) {
  mallory.doc.publicKey = [
    { id: victim.keyId, publicKeyPem: mallory.publicKeyPem },
    { id: mallory.keyId, owner: mallory.id, publicKeyPem: mallory.publicKeyPem },
  ];
}

const updateOfSelf = (who: RemoteAccount) => ({
  "@context": AS,
  id: `${who.id}#updates/${tag()}`,
  type: "Update",
  actor: who.id,
  object: who.id,
  to: [PUBLIC],
});

describe("a key id listed by another actor is never taken from its owner (finding 1)", { timeout: 30_000 }, () => {
  for (const sameServer of [false, true]) {
    it(`an Update of an actor listing another account's key id leaves that account whole (${sameServer ? "same server" : "another server"})`, async () => {
      const w = federationWorld({ mail: true });
      const { user } = await writer(w);
      const host = `v${tag()}.example`;
      const alice = await remoteAccount(host, "alice");
      const mallory = await remoteAccount(sameServer ? host : `m${tag()}.example`, "mallory");
      listVictimsKey(mallory, alice);
      stubFediverse([alice, mallory]);
      expect(await receiveNow(w.services, w.queue, await alice.deliver("/ap/inbox", followOf(alice, user.id)))).toBe(
        "followed",
      );
      // Mallory signs with its own key: known to nobody, fetched, verified, stored.
      expect(await receiveNow(w.services, w.queue, await mallory.deliver("/ap/inbox", updateOfSelf(mallory)))).toBe(
        "updated",
      );
      // And again, now that it is stored (the re-fetch of an Update of itself).
      expect(await receiveNow(w.services, w.queue, await mallory.deliver("/ap/inbox", updateOfSelf(mallory)))).toBe(
        "updated",
      );
      expect(await storedActor(alice.id)).toMatchObject({ keyId: alice.keyId, publicKeyPem: alice.publicKeyPem });
      expect(await followersOf(user.id)).toContain(alice.id);
      expect(await ownerOfKey(alice.keyId)).toBe(alice.id);
      expect((await storedActor(mallory.id))?.keyId).toBe(mallory.keyId);
      // Alice's next correctly signed delivery is still hers.
      expect(await receiveNow(w.services, w.queue, await alice.deliver("/ap/inbox", followOf(alice, user.id)))).toBe(
        "followed",
      );
    });
  }

  it("a Move to an account that lists another account's key id removes nobody", async () => {
    const w = federationWorld({ mail: true });
    const { user } = await writer(w);
    const alice = await remoteAccount(`v${tag()}.example`, "alice");
    const bob = await remoteAccount(`b${tag()}.example`, "bob");
    const mallory = await remoteAccount(`m${tag()}.example`, "mallory");
    listVictimsKey(mallory, alice);
    mallory.doc.publicKey = [(mallory.doc.publicKey as unknown[])[0]];
    stubFediverse([alice, bob, mallory]);
    for (const who of [alice, bob]) {
      expect(await receiveNow(w.services, w.queue, await who.deliver("/ap/inbox", followOf(who, user.id)))).toBe(
        "followed",
      );
    }
    const move = {
      "@context": AS,
      id: `${bob.id}#moves/${tag()}`,
      type: "Move",
      actor: bob.id,
      object: bob.id,
      target: mallory.id,
    };
    expect(await receiveNow(w.services, w.queue, await bob.deliver("/ap/inbox", move))).toBe("ignored");
    expect(await storedActor(alice.id)).toMatchObject({ keyId: alice.keyId });
    expect((await followersOf(user.id)).sort()).toEqual([alice.id, bob.id].sort());
  });
});

describe("documents are believed only for the host that served them (findings 2 and 7)", { timeout: 30_000 }, () => {
  it("an open redirect on a server does not let another server speak as its accounts", async () => {
    const w = federationWorld({ mail: true });
    const { actor } = await writer(w);
    const { articleId, blogId } = await publish(w, actor);
    const victimHost = `v${tag()}.example`;
    const alice = await remoteAccount(victimHost, "alice");
    const mallory = await remoteAccount(`m${tag()}.example`, "mallory");
    const forged = `https://${mallory.id.split("/")[2]}/alice.json`;
    const redirect = `https://${victimHost}/redirect?to=${encodeURIComponent(forged)}`;
    const keyId = `${redirect}#main-key`;
    const stub = stubFediverse([alice, mallory], {
      redirects: { [redirect]: forged },
      documents: {
        [forged]: { ...alice.doc, publicKey: { id: keyId, owner: alice.id, publicKeyPem: mallory.publicKeyPem } },
      },
    });
    const create = reply(alice, articleId, { to: [PUBLIC] });
    const signed = await signedRequest(
      "https://blog.test/ap/inbox",
      { method: "POST", body: JSON.stringify(create) },
      keyId,
      mallory.privateKeyPem,
    );
    await expect(receiveNow(w.services, w.queue, signed)).rejects.toMatchObject({ code: "signature-invalid" });
    // The redirect was not followed to the other host.
    expect(stub.fetched).not.toContain(forged);
    expect(await storedActor(alice.id)).toBeNull();
    expect(
      await db()
        .select()
        .from(schema.comments)
        .where(and(eq(schema.comments.blogId, blogId))),
    ).toHaveLength(0);
  });

  it("a note by reference is not taken from another host through its author's redirect", async () => {
    const w = federationWorld({ mail: true });
    const { actor } = await writer(w);
    const { articleId, blogId } = await publish(w, actor);
    const bob = await remoteAccount(`b${tag()}.example`, "bob");
    const elsewhere = `https://o${tag()}.example/note`;
    const objectUrl = `${bob.id}/statuses/${tag()}/redirect`;
    stubFediverse([bob], {
      redirects: { [objectUrl]: elsewhere },
      documents: {
        [elsewhere]: {
          "@context": AS,
          id: objectUrl,
          type: "Note",
          attributedTo: bob.id,
          inReplyTo: articleId,
          content: "<p>Not from Bob's server</p>",
          to: [PUBLIC],
        },
      },
    });
    const create = {
      "@context": AS,
      id: `${objectUrl}/activity`,
      type: "Create",
      actor: bob.id,
      object: objectUrl,
      to: [PUBLIC],
    };
    expect(await receiveNow(w.services, w.queue, await bob.deliver("/ap/inbox", create))).toBe("ignored");
    expect(await db().select().from(schema.comments).where(eq(schema.comments.blogId, blogId))).toHaveLength(0);
  });

  it("a same-host redirect is still followed (a server moving its documents about)", async () => {
    const w = federationWorld({ mail: true });
    const { actor } = await writer(w);
    const { articleId, blogId } = await publish(w, actor);
    const bob = await remoteAccount(`b${tag()}.example`, "bob");
    const noteId = `${bob.id}/statuses/${tag()}`;
    const moved = `${noteId}/moved`;
    stubFediverse([bob], {
      redirects: { [noteId]: moved },
      documents: {
        [moved]: {
          "@context": AS,
          id: noteId,
          type: "Note",
          attributedTo: bob.id,
          inReplyTo: articleId,
          content: "<p>Hi</p>",
          to: [PUBLIC],
        },
      },
    });
    const create = {
      "@context": AS,
      id: `${noteId}/activity`,
      type: "Create",
      actor: bob.id,
      object: noteId,
      to: [PUBLIC],
    };
    expect(await receiveNow(w.services, w.queue, await bob.deliver("/ap/inbox", create))).toBe("commented");
    expect(await db().select().from(schema.comments).where(eq(schema.comments.blogId, blogId))).toHaveLength(1);
  });
});

describe(
  "a private reply reaches only the local accounts among its recipients (finding 3)",
  { timeout: 30_000 },
  () => {
    it("a direct message to one account, in reply to another writer's post, is not shown to that writer", async () => {
      const w = federationWorld({ mail: true });
      const { user: ada, actor } = await writer(w);
      const { user: other } = await writer(w);
      const { articleId } = await publish(w, actor);
      const bob = await remoteAccount(`b${tag()}.example`, "bob");
      stubFediverse([bob]);
      const toOther = { to: [`https://blog.test/ap/users/${other.id}`] };
      expect(
        await receiveNow(w.services, w.queue, await bob.deliver("/ap/inbox", reply(bob, articleId, toOther))),
      ).toBe("ignored");
      const toNobodyHere = { to: [`${bob.id}/followers`] };
      expect(
        await receiveNow(w.services, w.queue, await bob.deliver("/ap/inbox", reply(bob, articleId, toNobodyHere))),
      ).toBe("ignored");
      expect(
        await db().select().from(schema.apPrivateReplies).where(eq(schema.apPrivateReplies.userId, ada.id)),
      ).toEqual([]);
      // Addressed to the writer, or to the writer's followers: theirs.
      const toAda = { to: [`https://blog.test/ap/users/${ada.id}`] };
      expect(await receiveNow(w.services, w.queue, await bob.deliver("/ap/inbox", reply(bob, articleId, toAda)))).toBe(
        "replied-privately",
      );
      const toAdasFollowers = { to: [`https://blog.test/ap/users/${ada.id}/followers`] };
      expect(
        await receiveNow(w.services, w.queue, await bob.deliver("/ap/inbox", reply(bob, articleId, toAdasFollowers))),
      ).toBe("replied-privately");
    });

    it("a followers-only reply reaches the writer when the writer follows its sender", async () => {
      const w = federationWorld({ mail: true });
      const { user: ada, actor } = await writer(w);
      const { articleId } = await publish(w, actor);
      const bob = await remoteAccount(`b${tag()}.example`, "bob");
      bob.doc.followers = `${bob.id}/followers`;
      stubFediverse([bob]);
      await w.services.federation.remote.get(bob.id, true);
      await db()
        .insert(schema.apFollowing)
        .values({ userId: ada.id, remoteId: bob.id, followId: `https://blog.test/f/${tag()}`, accepted: true });
      const followersOnly = { to: [`${bob.id}/followers`] };
      expect(
        await receiveNow(w.services, w.queue, await bob.deliver("/ap/inbox", reply(bob, articleId, followersOnly))),
      ).toBe("replied-privately");
    });
  },
);

describe(
  "blocks: a handle is one account, a server is asked first, an unblock takes the block's text (finding 6)",
  { timeout: 30_000 },
  () => {
    const asAdmin = async () => {
      const u = await makeUser({ role: "admin" });
      return { id: u.id, name: u.name, email: u.email, role: "admin", photoURL: null } satisfies Actor;
    };

    it("blocking @troll@server blocks that account alone, resolved by WebFinger", async () => {
      const w = federationWorld({ mail: true });
      const { user } = await writer(w);
      const host = `t${tag()}.example`;
      const troll = await remoteAccount(host, "troll");
      const friend = await remoteAccount(host, "friend");
      stubFediverse([troll, friend]);
      for (const who of [troll, friend]) {
        expect(await receiveNow(w.services, w.queue, await who.deliver("/ap/inbox", followOf(who, user.id)))).toBe(
          "followed",
        );
      }
      // Not stored under its handle yet: found through WebFinger.
      await db().delete(schema.apRemoteActors).where(eq(schema.apRemoteActors.id, troll.id));
      const admin = await asAdmin();
      expect(await w.services.federation.block(admin, { target: `@troll@${host}` })).toEqual({ insertedId: troll.id });
      expect((await db().select().from(schema.apBlocks).where(eq(schema.apBlocks.target, host))).length).toBe(0);
      expect(await followersOf(user.id)).toEqual([friend.id]);
      await expect(
        receiveNow(w.services, w.queue, await troll.deliver("/ap/inbox", followOf(troll, user.id))),
      ).rejects.toMatchObject({ code: "blocked" });
      expect(await receiveNow(w.services, w.queue, await friend.deliver("/ap/inbox", followOf(friend, user.id)))).toBe(
        "followed",
      );
      // The same text lifts it.
      expect(await w.services.federation.unblock(admin, `@troll@${host}`)).toEqual({ deletedCount: 1 });
    });

    it("a handle that cannot be resolved is refused with how to block that account", async () => {
      const w = federationWorld({ mail: true });
      stubFediverse([]);
      const host = `n${tag()}.example`;
      await expect(w.services.federation.block(await asAdmin(), { target: `@ghost@${host}` })).rejects.toMatchObject({
        code: "handle-unresolved",
        fields: { target: expect.stringContaining("profile URL") as unknown },
      });
      expect(await db().select().from(schema.apBlocks).where(eq(schema.apBlocks.target, host))).toEqual([]);
    });

    it("a whole server is blocked only once confirmed, and is lifted with the text it was blocked with", async () => {
      const w = federationWorld({ mail: true });
      const { user } = await writer(w);
      const host = `s${tag()}.example`;
      const bob = await remoteAccount(host, "bob");
      stubFediverse([bob]);
      expect(await receiveNow(w.services, w.queue, await bob.deliver("/ap/inbox", followOf(bob, user.id)))).toBe(
        "followed",
      );
      const admin = await asAdmin();
      const typed = `${host.toUpperCase()}.`;
      await expect(w.services.federation.block(admin, { target: typed })).rejects.toMatchObject({
        code: "confirm-server-block",
        message: expect.stringContaining("their follows of writers here end and their replies are removed") as unknown,
      });
      expect(await followersOf(user.id)).toEqual([bob.id]);
      expect(await db().select().from(schema.apBlocks).where(eq(schema.apBlocks.target, host))).toEqual([]);
      expect(await w.services.federation.block(admin, { target: typed, confirm: true })).toEqual({ insertedId: host });
      expect(await followersOf(user.id)).toEqual([]);
      expect(await w.services.federation.unblock(admin, typed)).toEqual({ deletedCount: 1 });
    });
  },
);

describe(
  "a forwarded activity's proof has an age limit inside the inbox's memory (finding 11)",
  { timeout: 30_000 },
  () => {
    it("a proof made longer ago than the window (or undated) is refused; a fresh one is believed", async () => {
      const w = federationWorld({ mail: true });
      const { actor } = await writer(w);
      const { articleId, blogId } = await publish(w, actor);
      const bob = await remoteAccount(`p${tag()}.example`, "bob");
      const relay = await remoteAccount(`g${tag()}.example`, "relay");
      stubFediverse([bob, relay]);
      const create = reply(bob, articleId, { to: [PUBLIC] });
      const old = await withProof(create, `${bob.id}#ed25519-key`, bob.edPrivateKeyPem, Date.now() - 15 * 86_400_000);
      await expect(receiveNow(w.services, w.queue, await relay.deliver("/ap/inbox", old))).rejects.toMatchObject({
        code: "proof-stale",
      });
      const fresh = await bob.prove(create);
      const undated = { ...fresh, proof: { ...(fresh.proof as Record<string, unknown>), created: undefined } };
      await expect(receiveNow(w.services, w.queue, await relay.deliver("/ap/inbox", undated))).rejects.toMatchObject({
        code: "proof-stale",
      });
      expect(await receiveNow(w.services, w.queue, await relay.deliver("/ap/inbox", fresh))).toBe("commented");
      expect(await db().select().from(schema.comments).where(eq(schema.comments.blogId, blogId))).toHaveLength(1);
    });
  },
);
