import { and, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { schema } from "#worker/db.ts";
import { slugHandle } from "#worker/services/federation/actors.ts";
import { importPublicKey } from "#worker/services/federation/keys.ts";
import { precheck, readSignature, verifyWithPem } from "#worker/services/federation/signatures.ts";
import type { Actor } from "#worker/services/shared/policy.ts";
import { db, makeUser } from "../support/factories";
import { call, json } from "../support/http";
import { remoteAccount, stubFediverse, type RemoteAccount, receiveNow, eventually } from "../support/fediverse";
import { federationWorld, tag, type FederationWorld } from "../support/kernel";

const AS = "https://www.w3.org/ns/activitystreams";
type Doc = { [key: string]: unknown; publicKey?: { publicKeyPem: string }; content?: string; id?: string };
// Each stub puts fetch back itself when its test ends (tests/support/fediverse.ts).
let stub: ReturnType<typeof stubFediverse> | null = null;

async function writer(name = `Ada ${tag()}`) {
  const u = await makeUser({ name });
  const actor: Actor = { id: u.id, name: u.name, email: u.email, role: "user", photoURL: null };
  return { user: u, actor };
}

const post = (extra: Record<string, unknown> = {}) => ({
  title: `Federated ${tag()}`,
  short_description: "What happened this week.",
  blog_details: "The **whole** story, with [a link](/allBlogs).",
  category: "Technology",
  date_time: "2026-11-20T10:00:00.000Z",
  image: "/images/cover-0001.png",
  ...extra,
});

async function follow(w: FederationWorld, remote: RemoteAccount, localActorUrl: string) {
  const activity = {
    "@context": AS,
    id: `${remote.id}/follows/${tag()}`,
    type: "Follow",
    actor: remote.id,
    object: localActorUrl,
  };
  return receiveNow(w.services, w.queue, await remote.deliver("/ap/inbox", activity));
}

describe("actors and discovery", () => {
  it("WebFinger finds a writer by the handle made of their name, and the actor document carries the key", async () => {
    expect(slugHandle("Zoë O'Neil")).toBe("zoe-o-neil");
    const { user } = await writer(`Zoe Writer ${tag()}`);
    const handle = `zoe-writer-${user.name.split(" ").pop()}`;
    const res = await call(`/.well-known/webfinger?resource=acct:${handle}@blog.test`);
    expect(res.status).toBe(200);
    expect(res.headers.get("Content-Type")).toContain("application/jrd+json");
    const jrd = await json<{ subject: string; links: { rel: string; type: string; href: string }[] }>(res);
    expect(jrd.subject).toBe(`acct:${handle}@blog.test`);
    const self = jrd.links.find((l) => l.rel === "self")!;
    expect(self).toMatchObject({ type: "application/activity+json", href: `https://blog.test/ap/users/${user.id}` });

    const doc = await json<Doc>(await call(self.href, { headers: { Accept: "application/activity+json" } }));
    expect(doc["@context"]).toEqual(expect.arrayContaining([AS, "https://w3id.org/security/v1"]));
    expect(doc).toMatchObject({
      id: self.href,
      type: "Person",
      preferredUsername: handle,
      inbox: `${self.href}/inbox`,
      outbox: `${self.href}/outbox`,
      followers: `${self.href}/followers`,
      following: `${self.href}/following`,
      url: `https://blog.test/writers/${user.id}`,
      endpoints: { sharedInbox: "https://blog.test/ap/inbox" },
    });
    expect(doc.publicKey).toMatchObject({ id: `${self.href}#main-key`, owner: self.href });
    expect(doc.publicKey!.publicKeyPem).toContain("-----BEGIN PUBLIC KEY-----");
    expect(await importPublicKey(doc.publicKey!.publicKeyPem)).not.toBeNull();

    // The writer's page, asked for as ActivityStreams, is the same actor; as HTML it is the page.
    const negotiated = await call(`/writers/${user.id}`, { headers: { Accept: "application/activity+json" } });
    expect(negotiated.headers.get("Content-Type")).toContain("application/activity+json");
    expect((await json<{ id: string }>(negotiated)).id).toBe(self.href);
    expect((await call(`/writers/${user.id}`)).headers.get("Content-Type")).toContain("text/html");
  });

  it("serves the site actor, NodeInfo 2.1, and empty paginated collections", async () => {
    const jrd = await json<{ links: { rel: string; href: string }[] }>(
      await call("/.well-known/webfinger?resource=acct:site@blog.test"),
    );
    expect(jrd.links.find((l) => l.rel === "self")!.href).toBe("https://blog.test/ap/site");
    const site = await json<Doc>(await call("/ap/site"));
    expect(site).toMatchObject({ type: "Organization", preferredUsername: "site", url: "https://blog.test/about" });
    expect((await call("/.well-known/webfinger?resource=acct:nobody-at-all@blog.test")).status).toBe(404);
    expect((await call("/.well-known/webfinger?resource=acct:site@elsewhere.example")).status).toBe(404);

    const links = await json<{ links: { rel: string; href: string }[] }>(await call("/.well-known/nodeinfo"));
    expect(links.links[0]).toEqual({
      rel: "http://nodeinfo.diaspora.software/ns/schema/2.1",
      href: "https://blog.test/nodeinfo/2.1",
    });
    const info = await json<Doc>(await call("/nodeinfo/2.1"));
    expect(info).toMatchObject({ version: "2.1", protocols: ["activitypub"], software: { name: "edge-blog" } });

    const followers = await json<Doc>(await call("/ap/site/followers"));
    expect(followers).toMatchObject({ type: "OrderedCollection", first: "https://blog.test/ap/site/followers?page=1" });
    const page = await json<Doc>(await call("/ap/site/followers?page=1"));
    expect(page).toMatchObject({ type: "OrderedCollectionPage", partOf: "https://blog.test/ap/site/followers" });
    expect((await call("/ap/site/followers?page=0")).status).toBe(400);
    expect((await call("/ap/users/nosuchuser000/outbox")).status).toBe(404);
  });

  it("a writer chooses a unique handle in their settings", async () => {
    const w = federationWorld();
    const a = await writer();
    const b = await writer();
    const mine = `ada-${tag()}`;
    expect(await w.services.federation.actors.setHandle(a.user.id, { handle: `@${mine.toUpperCase()}` })).toEqual({
      modifiedCount: 1,
    });
    expect(await w.services.federation.handleOf(a.user.id)).toBe(`@${mine}@blog.test`);
    await expect(w.services.federation.actors.setHandle(b.user.id, { handle: mine })).rejects.toMatchObject({
      code: "handle-taken",
    });
    await expect(w.services.federation.actors.setHandle(b.user.id, { handle: "site" })).rejects.toMatchObject({
      code: "handle-taken",
    });
    await expect(w.services.federation.actors.setHandle(b.user.id, { handle: "no spaces!" })).rejects.toMatchObject({
      code: "validation-failed",
    });
  });
});

describe("the inbox", () => {
  it("Follow is accepted: the follower is stored and a signed Accept goes back to its inbox", async () => {
    const w = federationWorld();
    const { user } = await writer();
    const bob = await remoteAccount(`a${tag()}.example`, "bob");
    stub = stubFediverse([bob]);
    const actorUrl = `https://blog.test/ap/users/${user.id}`;
    await w.services.federation.actors.writer(user.id);
    expect(await follow(w, bob, actorUrl)).toBe("followed");
    const rows = await db().select().from(schema.apFollowers).where(eq(schema.apFollowers.localId, user.id));
    expect(rows).toMatchObject([{ remoteId: bob.id, inbox: bob.sharedInbox }]);

    await w.drain();
    const accept = stub.posted.find((p) => p.body.type === "Accept")!;
    expect(accept.url).toBe(bob.inbox);
    expect(accept.body).toMatchObject({ actor: actorUrl, object: { type: "Follow", actor: bob.id, object: actorUrl } });
    // Signed with the writer's key, as the actor document publishes it.
    const doc = await w.services.federation.actorDocument(user.id);
    // (RFC 9421 first: the double knock's first try.)
    const signature = readSignature(accept.request)!;
    expect(signature).toMatchObject({ scheme: "rfc9421", keyId: `${actorUrl}#main-key` });
    expect(await precheck(accept.request, JSON.stringify(accept.body), signature)).toBeNull();
    expect(await verifyWithPem(signature, (doc.publicKey as { publicKeyPem: string }).publicKeyPem)).toBe(true);

    // Undo(Follow) removes it.
    const undo = {
      "@context": AS,
      id: `${bob.id}/undo/${tag()}`,
      type: "Undo",
      actor: bob.id,
      object: { type: "Follow", id: rows[0]!.followId, actor: bob.id, object: actorUrl },
    };
    expect(await receiveNow(w.services, w.queue, await bob.deliver("/ap/inbox", undo))).toBe("undone");
    expect(await db().select().from(schema.apFollowers).where(eq(schema.apFollowers.localId, user.id))).toEqual([]);
  });

  it("refuses unsigned, forged and tampered deliveries with 401 and changes nothing", async () => {
    const { user } = await writer();
    const bob = await remoteAccount(`b${tag()}.example`, "bob");
    const mallory = await remoteAccount(`m${tag()}.example`, "mallory");
    stub = stubFediverse([bob]);
    const actorUrl = `https://blog.test/ap/users/${user.id}`;
    await call(actorUrl);
    const activity = {
      "@context": AS,
      id: `${bob.id}/follows/${tag()}`,
      type: "Follow",
      actor: bob.id,
      object: actorUrl,
    };

    const unsigned = await call(`/ap/users/${user.id}/inbox`, {
      method: "POST",
      headers: { "Content-Type": "application/activity+json" },
      body: JSON.stringify(activity),
    });
    expect(unsigned.status).toBe(401);

    // Signed with another key than the one bob publishes.
    const forged = await bob.deliver(`/ap/users/${user.id}/inbox`, activity, mallory.privateKeyPem);
    expect(
      (await call(forged.url, { method: "POST", headers: forged.headers, body: JSON.stringify(activity) })).status,
    ).toBe(401);

    // A good signature over another body: the digest does not match.
    const good = await bob.deliver(`/ap/users/${user.id}/inbox`, activity);
    const tampered = JSON.stringify({ ...activity, object: "https://blog.test/ap/site" });
    expect((await call(good.url, { method: "POST", headers: good.headers, body: tampered })).status).toBe(401);

    // A stale date.
    const old = await remoteAccount(`o${tag()}.example`, "old");
    stub.restore();
    stub = stubFediverse([bob, old]);
    const oldActivity = { ...activity, actor: old.id };
    const stale = await (
      await import("#worker/services/federation/signatures.ts")
    ).signedRequest(
      `https://blog.test/ap/users/${user.id}/inbox`,
      { method: "POST", body: JSON.stringify(oldActivity) },
      old.keyId,
      old.privateKeyPem,
      // Mastodon's window: a plain Date lives 5 minutes, plus an hour of clock skew.
      Date.now() - 2 * 60 * 60 * 1000,
    );
    expect(
      (await call(stale.url, { method: "POST", headers: stale.headers, body: JSON.stringify(oldActivity) })).status,
    ).toBe(401);

    // An activity whose actor is not the signer.
    const impostor = await bob.deliver(`/ap/users/${user.id}/inbox`, { ...activity, actor: mallory.id });
    expect(
      (
        await call(impostor.url, {
          method: "POST",
          headers: impostor.headers,
          body: JSON.stringify({ ...activity, actor: mallory.id }),
        })
      ).status,
    ).toBe(401);

    expect(await db().select().from(schema.apFollowers).where(eq(schema.apFollowers.localId, user.id))).toEqual([]);

    // The same delivery, signed properly, is taken.
    const real = await bob.deliver(`/ap/users/${user.id}/inbox`, activity);
    const ok = await call(real.url, { method: "POST", headers: real.headers, body: JSON.stringify(activity) });
    expect(ok.status).toBe(202);
    // Acted on by the federation queue's consumer (the Worker's own queue handler, run by the local queue).
    const followers = () => db().select().from(schema.apFollowers).where(eq(schema.apFollowers.localId, user.id));
    await eventually(async () => (await followers()).length > 0);
    expect(await followers()).toHaveLength(1);
  });
});

describe("publishing", () => {
  it("a public post is sent as a signed Create(Article) once per shared inbox; the site's followers get the site's Announce", async () => {
    const w = federationWorld();
    const { user, actor } = await writer();
    const host = `p${tag()}.example`;
    const bob = await remoteAccount(host, "bob");
    const alice = await remoteAccount(host, "alice");
    const carol = await remoteAccount(`c${tag()}.example`, "carol");
    stub = stubFediverse([bob, alice, carol]);
    const actorUrl = `https://blog.test/ap/users/${user.id}`;
    await w.services.federation.actors.writer(user.id);
    await follow(w, bob, actorUrl);
    await follow(w, alice, actorUrl);
    await follow(w, carol, "https://blog.test/ap/site");
    await w.drain();
    stub.posted.length = 0;

    const { insertedId } = await w.services.blogs.create(actor, post());
    await w.drain();
    const creates = stub.posted.filter((p) => p.body.type === "Create");
    // bob and alice share one server: one delivery.
    expect(creates.map((p) => p.url)).toEqual([bob.sharedInbox]);
    const article = creates[0]!.body.object as Doc;
    expect(article).toMatchObject({
      id: `https://blog.test/ap/posts/${insertedId}`,
      type: "Article",
      attributedTo: actorUrl,
      url: expect.stringMatching(new RegExp(`^https://blog.test/blogs/${insertedId}/federated-`)),
      attachment: [{ type: "Image", url: "https://blog.test/images/cover-0001.png" }],
      tag: [{ type: "Hashtag", name: "#Technology" }],
    });
    expect(article.content).toContain("<strong>whole</strong>");
    expect(article.content).toContain('href="https://blog.test/allBlogs"');
    expect(creates[0]!.request.headers.get("Signature-Input")).toContain(`keyid="${actorUrl}#main-key"`);
    const announces = stub.posted.filter((p) => p.body.type === "Announce");
    expect(announces.map((p) => p.url)).toEqual([carol.sharedInbox]);
    expect(announces[0]!.body).toMatchObject({ actor: "https://blog.test/ap/site", object: article.id });

    // Running the same jobs again (a queue's redelivery) sends nothing twice; a second sync sends nothing.
    expect(await w.services.federation.publishing.sync(insertedId)).toBe("unchanged");

    // An edit is an Update, a delete a Delete, to every follower's server once.
    stub.posted.length = 0;
    await w.services.blogs.update(actor, insertedId, { title: "A better title" });
    await w.drain();
    expect(
      stub.posted
        .filter((p) => p.body.type === "Update")
        .map((p) => p.url)
        .sort(),
    ).toEqual([bob.sharedInbox, carol.sharedInbox].sort());
    stub.posted.length = 0;
    await w.services.blogs.remove(actor, insertedId);
    await w.drain();
    const deletes = stub.posted.filter((p) => p.body.type === "Delete");
    expect(deletes.map((p) => p.url).sort()).toEqual([bob.sharedInbox, carol.sharedInbox].sort());
    expect(deletes[0]!.body.object).toMatchObject({ type: "Tombstone", id: article.id });
  });

  it("fans out in pages: 450 followers on 3 servers cost 3 deliveries", async () => {
    const w = federationWorld();
    const { user, actor } = await writer();
    await w.services.federation.actors.writer(user.id);
    const hosts = [`x${tag()}.example`, `y${tag()}.example`, `z${tag()}.example`];
    const remotes = Array.from({ length: 450 }, (_, i) => {
      const h = hosts[i % 3]!;
      return {
        id: `https://${h}/users/u${i}`,
        host: h,
        inbox: `https://${h}/users/u${i}/inbox`,
        sharedInbox: `https://${h}/inbox`,
        keyId: `https://${h}/users/u${i}#k`,
        publicKeyPem: "x",
        fetchedAt: Date.now(),
      };
    });
    for (let i = 0; i < remotes.length; i += 10) {
      const slice = remotes.slice(i, i + 10);
      await db().insert(schema.apRemoteActors).values(slice);
      await db()
        .insert(schema.apFollowers)
        .values(slice.map((r) => ({ localId: user.id, remoteId: r.id, inbox: r.sharedInbox, followId: `${r.id}/f` })));
    }
    stub = stubFediverse([]);
    await w.services.blogs.create(actor, post());
    await w.drain();
    expect(
      stub.posted
        .filter((p) => p.body.type === "Create")
        .map((p) => p.url)
        .sort(),
    ).toEqual(hosts.map((h) => `https://${h}/inbox`).sort());
  });

  it("drafts and posts scheduled for later never leave; a scheduled post goes when the scheduler publishes it", async () => {
    const w = federationWorld();
    const { user, actor } = await writer();
    const bob = await remoteAccount(`d${tag()}.example`, "bob");
    stub = stubFediverse([bob]);
    await w.services.federation.actors.writer(user.id);
    await follow(w, bob, `https://blog.test/ap/users/${user.id}`);
    await w.drain();
    stub.posted.length = 0;

    const draft = await w.services.blogs.create(actor, post({ status: "draft" }));
    const later = new Date(Date.now() + 60 * 60 * 1000).toISOString();
    const scheduled = await w.services.blogs.create(actor, post({ status: "scheduled", date_time: later }));
    await w.services.blogs.update(actor, draft.insertedId, { title: "Still a draft" });
    await w.drain();
    expect(stub.posted).toEqual([]);
    expect((await call(`/ap/posts/${draft.insertedId}`)).status).toBe(404);
    expect((await call(`/ap/posts/${scheduled.insertedId}`)).status).toBe(404);
    const outbox = await json<{ totalItems: number }>(await call(`/ap/users/${user.id}/outbox`));
    expect(outbox.totalItems).toBe(0);

    await w.services.blogs.publishDue(Date.now() + 2 * 60 * 60 * 1000);
    await w.drain();
    expect(
      stub.posted.filter((p) => p.body.type === "Create").map((p) => (p.body.object as { id: string }).id),
    ).toEqual([`https://blog.test/ap/posts/${scheduled.insertedId}`]);
  });
});

describe("replies, likes and blocks", () => {
  async function published() {
    const w = federationWorld();
    const { user, actor } = await writer();
    const bob = await remoteAccount(`r${tag()}.example`, "bob");
    stub = stubFediverse([bob]);
    const { insertedId } = await w.services.blogs.create(actor, post());
    await w.drain();
    return { w, user, bob, blogId: insertedId, articleId: `https://blog.test/ap/posts/${insertedId}` };
  }

  it("a reply becomes a comment with the remote author; its Delete removes it; a Like is counted", async () => {
    const { w, bob, blogId, articleId } = await published();
    const noteId = `${bob.id}/statuses/${tag()}`;
    const create = {
      "@context": AS,
      id: `${noteId}/activity`,
      type: "Create",
      actor: bob.id,
      object: {
        id: noteId,
        type: "Note",
        attributedTo: bob.id,
        inReplyTo: articleId,
        content: '<p>Great post! <script>alert(1)</script><a href="https://x">&lt;b&gt;</a></p>',
        to: [`${AS}#Public`],
      },
    };
    expect(await receiveNow(w.services, w.queue, await bob.deliver("/ap/inbox", create))).toBe("commented");
    const comments = await w.services.comments.list(blogId);
    expect(comments.items).toHaveLength(1);
    expect(comments.items[0]!.body).toBe("Great post! <b>");
    const link = await db().select().from(schema.apComments).where(eq(schema.apComments.noteId, noteId));
    expect(link).toMatchObject([{ remoteId: bob.id, commentId: comments.items[0]!._id }]);
    // The same note again is not a second comment: the inbox has seen it, and queues nothing.
    expect(await receiveNow(w.services, w.queue, await bob.deliver("/ap/inbox", create))).toBe("duplicate");

    const like = { "@context": AS, id: `${bob.id}/likes/${tag()}`, type: "Like", actor: bob.id, object: articleId };
    expect(await receiveNow(w.services, w.queue, await bob.deliver("/ap/inbox", like))).toBe("liked");
    await receiveNow(w.services, w.queue, await bob.deliver("/ap/inbox", like));
    expect(await w.services.federation.reactions(blogId)).toEqual({ likes: 1, boosts: 0 });

    const remove = {
      "@context": AS,
      id: `${noteId}#delete`,
      type: "Delete",
      actor: bob.id,
      object: { id: noteId, type: "Tombstone" },
    };
    expect(await receiveNow(w.services, w.queue, await bob.deliver("/ap/inbox", remove))).toBe("deleted");
    expect((await w.services.comments.list(blogId)).items).toEqual([]);
  });

  it("a blocked server's deliveries are refused and change nothing", async () => {
    const { w, bob, blogId, articleId } = await published();
    const admin = await makeUser({ role: "admin" });
    const adminActor: Actor = { id: admin.id, name: admin.name, email: admin.email, role: "admin", photoURL: null };
    await expect(w.services.federation.block(null, { target: "x.example" })).rejects.toMatchObject({
      kind: "unauthenticated",
    });
    await w.services.federation.block(adminActor, { target: new URL(bob.id).host, confirm: true });
    const like = { "@context": AS, id: `${bob.id}/likes/${tag()}`, type: "Like", actor: bob.id, object: articleId };
    await expect(receiveNow(w.services, w.queue, await bob.deliver("/ap/inbox", like))).rejects.toMatchObject({
      code: "blocked",
    });
    expect(await w.services.federation.reactions(blogId)).toEqual({ likes: 0, boosts: 0 });
    const rows = await db()
      .select()
      .from(schema.apReactions)
      .where(and(eq(schema.apReactions.blogId, blogId)));
    expect(rows).toEqual([]);
  });
});

describe("the REST settings", () => {
  it("a writer sets their handle; only an admin blocks, and blocks are listed and lifted", async () => {
    const { user } = await writer();
    const admin = await makeUser({ role: "admin" });
    const { asUser, send } = await import("../support/http").then(async (http) => ({
      send: http.send,
      asUser: (await import("../support/factories")).asUser,
    }));
    const mine = `h-${tag()}`;
    const set = await send("PUT", "/api/federation/handle", { handle: mine }, await asUser(user));
    expect(await json(set)).toEqual({ modifiedCount: 1 });
    expect(await json(await call("/api/federation/handle", { headers: await asUser(user) }))).toEqual({
      handle: `@${mine}@blog.test`,
    });
    expect((await send("PUT", "/api/federation/handle", { handle: "bad handle" }, await asUser(user))).status).toBe(
      400,
    );
    expect((await send("PUT", "/api/federation/handle", { handle: "x" })).status).toBe(401);

    const host = `blocked${tag()}.example`;
    expect((await send("POST", "/api/federation/blocks", { target: host }, await asUser(user))).status).toBe(403);
    expect((await send("POST", "/api/federation/blocks", { target: "not a server" }, await asUser(admin))).status).toBe(
      400,
    );
    // A whole server is blocked only once confirmed (issue 42): first the question.
    const asked = await send("POST", "/api/federation/blocks", { target: host }, await asUser(admin));
    expect(asked.status).toBe(400);
    expect((await json<{ error: { code: string } }>(asked)).error.code).toBe("confirm-server-block");
    const made = await send("POST", "/api/federation/blocks", { target: host, confirm: true }, await asUser(admin));
    expect(made.status).toBe(201);
    const list = await json<{ blocks: { target: string }[] }>(
      await call("/api/federation/blocks", { headers: await asUser(admin) }),
    );
    expect(list.blocks.map((b) => b.target)).toContain(host);
    const lifted = await call(`/api/federation/blocks/${host}`, { method: "DELETE", headers: await asUser(admin) });
    expect(await json(lifted)).toEqual({ deletedCount: 1 });
  });
});
