import { describe, expect, it } from "vitest";
import type { Actor } from "#worker/services/shared/policy.ts";
import { makeUser } from "../support/factories";
import { call } from "../support/http";
import { remoteAccount, stubFediverse, receiveNow } from "../support/fediverse";
import { federationWorld, tag } from "../support/kernel";

const AS = "https://www.w3.org/ns/activitystreams";
const PUBLIC = `${AS}#Public`;
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
  blog_details: "The **whole** story.",
  category: "Technology",
  date_time: "2026-11-20T10:00:00.000Z",
  image: "/images/cover-0001.png",
  ...extra,
});

describe("a reply from the fediverse", () => {
  it("becomes a comment and its writer is notified, as of any comment", async () => {
    const w = federationWorld();
    const { user, actor } = await writer();
    const bob = await remoteAccount(`r${tag()}.example`, "bob");
    stub = stubFediverse([bob]);
    const { insertedId: blogId } = await w.services.blogs.create(actor, post());
    await w.drain();
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
        inReplyTo: `https://blog.test/ap/posts/${blogId}`,
        content: "<p>Nice one</p>",
        to: [`${AS}#Public`],
      },
    };
    expect(await receiveNow(w.services, w.queue, await bob.deliver("/ap/inbox", create))).toBe("commented");
    const mine = await w.services.notifications.list(actor);
    expect(mine.items).toHaveLength(1);
    expect(mine.items[0]).toMatchObject({ kind: "comment", blog: { _id: blogId } });
    // It names the remote author, not the stand-in account fediverse comments belong to here.
    expect(mine.items[0]!.text).toMatch(/^Bob Remote commented on “Federated /);
    expect(await w.services.notifications.unread(actor)).toBe(1);
    // The same note delivered again is neither a second comment nor a second notification.
    await receiveNow(w.services, w.queue, await bob.deliver("/ap/inbox", create));
    expect((await w.services.notifications.list(actor)).items).toHaveLength(1);
    expect(user.id).toBeTruthy();
  });
});

describe("the fediverse in miniature: a local account follows remote actors", () => {
  async function following() {
    const w = federationWorld();
    const reader = await writer(`Rea Der ${tag()}`);
    const alice = await remoteAccount(`a${tag()}.example`, "alice");
    const carol = await remoteAccount(`c${tag()}.example`, "carol");
    stub = stubFediverse([alice, carol]);
    return { w, reader, alice, carol };
  }

  it("follows by actor URL and by handle (WebFinger): a signed Follow goes out, the Accept confirms it", async () => {
    const { w, reader, alice, carol } = await following();
    const followed = await w.services.federation.remoteFollows.follow(reader.actor, { target: alice.id });
    expect(followed).toMatchObject({ id: alice.id, accepted: false, handle: `@alice@${new URL(alice.id).host}` });
    await w.drain();
    const sent = stub!.posted.find((p) => p.url === alice.inbox)!;
    expect(sent.body).toMatchObject({
      type: "Follow",
      actor: `https://blog.test/ap/users/${reader.user.id}`,
      object: alice.id,
    });
    expect(parseSignatureHeader(sent.request)).toContain(
      `keyId="https://blog.test/ap/users/${reader.user.id}#main-key"`,
    );

    // The Accept (from the account followed) marks it accepted.
    const accept = { "@context": AS, id: `${alice.id}#accepts/1`, type: "Accept", actor: alice.id, object: sent.body };
    expect(await receiveNow(w.services, w.queue, await alice.deliver("/ap/inbox", accept))).toBe("accepted");
    const list = await w.services.federation.remoteFollows.list(reader.actor);
    expect(list.items).toEqual([expect.objectContaining({ id: alice.id, accepted: true })]);

    const byHandle = await w.services.federation.remoteFollows.follow(reader.actor, {
      target: `@carol@${new URL(carol.id).host}`,
    });
    expect(byHandle.id).toBe(carol.id);
    await expect(
      w.services.federation.remoteFollows.follow(reader.actor, { target: "@nobody@nowhere.example" }),
    ).rejects.toMatchObject({ code: "validation-failed" });
    await expect(w.services.federation.remoteFollows.follow(null, { target: alice.id })).rejects.toMatchObject({
      kind: "unauthenticated",
    });
    expect((await w.services.federation.following(reader.user.id)).orderedItems).toEqual([alice.id]);
  });

  it("keeps the posts of followed actors (not others'), lists them, and a reply goes out as a signed Create(Note)", async () => {
    const { w, reader, alice, carol } = await following();
    await w.services.federation.remoteFollows.follow(reader.actor, { target: alice.id });
    const articleId = `${alice.id}/articles/${tag()}`;
    const create = (account: typeof alice, id: string) => ({
      "@context": AS,
      id: `${id}/activity`,
      type: "Create",
      actor: account.id,
      object: {
        id,
        type: "Article",
        attributedTo: account.id,
        name: "Hello from A",
        content: "<p>Whole <b>post</b><script>x()</script></p>",
        url: `javascript:alert(1)`,
        published: "2026-11-20T10:00:00Z",
        to: [`${AS}#Public`],
      },
    });
    expect(await receiveNow(w.services, w.queue, await alice.deliver("/ap/inbox", create(alice, articleId)))).toBe(
      "stored",
    );
    // Someone nobody here follows: nothing kept.
    const stray = `${carol.id}/notes/${tag()}`;
    expect(await receiveNow(w.services, w.queue, await carol.deliver("/ap/inbox", create(carol, stray)))).toBe(
      "ignored",
    );
    const page = await w.services.federation.timeline.list(reader.actor);
    expect(page.total).toBe(1);
    expect(page.items[0]).toMatchObject({ id: articleId, name: "Hello from A", text: "Whole post", url: null });
    expect(page.items[0]!.author).toMatchObject({ id: alice.id, name: "Alice Remote" });
    // Another account here, following nobody, sees nothing.
    const other = await writer();
    expect((await w.services.federation.timeline.list(other.actor)).items).toEqual([]);

    const reply = await w.services.federation.timeline.reply(reader.actor, {
      in_reply_to: articleId,
      body: "Nice <post>",
    });
    await w.drain();
    const sent = stub!.posted.find((p) => (p.body as { type?: string }).type === "Create")!;
    expect(sent.url).toBe(alice.inbox);
    expect(sent.body).toMatchObject({
      type: "Create",
      actor: `https://blog.test/ap/users/${reader.user.id}`,
      object: { id: reply.id, type: "Note", inReplyTo: articleId, content: "<p>Nice &lt;post&gt;</p>" },
    });
    expect(parseSignatureHeader(sent.request)).toContain(`/ap/users/${reader.user.id}#main-key`);
    expect((await w.services.federation.timeline.list(reader.actor)).items[0]!.replies).toHaveLength(1);
    await expect(
      w.services.federation.timeline.reply(other.actor, { in_reply_to: articleId, body: "hi" }),
    ).rejects.toMatchObject({ kind: "not-found" });
    await expect(
      w.services.federation.timeline.reply(reader.actor, { in_reply_to: articleId, body: "" }),
    ).rejects.toMatchObject({ code: "validation-failed" });

    // Its author's Delete removes it.
    const remove = { "@context": AS, id: `${articleId}#delete`, type: "Delete", actor: alice.id, object: articleId };
    expect(await receiveNow(w.services, w.queue, await alice.deliver("/ap/inbox", remove))).toBe("deleted");
    expect((await w.services.federation.timeline.list(reader.actor)).total).toBe(0);
  });

  it("keeps a bounded number of posts per actor", async () => {
    const { w, reader, alice } = await following();
    await w.services.federation.remoteFollows.follow(reader.actor, { target: alice.id });
    const { REMOTE_POSTS_PER_ACTOR } = await import("#worker/services/federation/timeline.ts");
    // What a verified Create hands over (the signed path is the test above).
    const sender = (await w.services.federation.remote.get(alice.id))!;
    for (let i = 0; i < REMOTE_POSTS_PER_ACTOR + 3; i++) {
      const id = `${alice.id}/notes/${tag()}`;
      const published = new Date(Date.UTC(2026, 0, 1, 0, i)).toISOString();
      await w.services.federation.timeline.receive(sender, {
        id,
        type: "Note",
        content: `n${i}`,
        published,
        to: PUBLIC,
      });
    }
    const page = await w.services.federation.timeline.list(reader.actor);
    expect(page.total).toBe(REMOTE_POSTS_PER_ACTOR);
    expect(page.items[0]!.text).toBe(`n${REMOTE_POSTS_PER_ACTOR + 2}`);
  }, 30_000);
});

/** The key a delivery names, as its signature parameters say it (RFC 9421's Signature-Input, or cavage's Signature). */
function parseSignatureHeader(request: Request): string {
  return (request.headers.get("Signature-Input") ?? request.headers.get("Signature") ?? "").replace("keyid=", "keyId=");
}

describe("deletes reach the followers", () => {
  async function followedWriter() {
    const w = federationWorld();
    const { user, actor } = await writer();
    const bob = await remoteAccount(`r${tag()}.example`, "bob");
    stub = stubFediverse([bob]);
    const follow = {
      "@context": AS,
      id: `${bob.id}/follows/${tag()}`,
      type: "Follow",
      actor: bob.id,
      object: `https://blog.test/ap/users/${user.id}`,
    };
    await w.services.federation.actors.writer(user.id);
    expect(await receiveNow(w.services, w.queue, await bob.deliver("/ap/inbox", follow))).toBe("followed");
    return { w, user, actor, bob };
  }
  const deletesTo = (posted: { url: string; body: Record<string, unknown> }[], inbox: string) =>
    posted.filter((p) => p.url === inbox && p.body.type === "Delete").map((p) => p.body);

  it("an unpublished post is Deleted (a Tombstone)", async () => {
    const { w, actor, bob } = await followedWriter();
    const { insertedId } = await w.services.blogs.create(actor, post());
    await w.drain();
    await w.services.blogs.update(actor, insertedId, { ...post(), status: "draft" });
    await w.drain();
    expect(deletesTo(stub!.posted, bob.sharedInbox)).toEqual([
      expect.objectContaining({ object: { type: "Tombstone", id: `https://blog.test/ap/posts/${insertedId}` } }),
    ]);
  });

  it("a deleted account sends Delete(Tombstone) for its posts and Delete of its actor, signed with its key; the actor is gone", async () => {
    const { w, user, actor, bob } = await followedWriter();
    const { insertedId } = await w.services.blogs.create(actor, post());
    await w.drain();
    const admin = await makeUser({ role: "admin" });
    const adminActor: Actor = { id: admin.id, name: admin.name, email: admin.email, role: "admin", photoURL: null };
    expect(await w.services.users.remove(adminActor, user.id)).toEqual({ deletedCount: 1 });
    await w.drain();
    const actorUrl = `https://blog.test/ap/users/${user.id}`;
    const deletes = deletesTo(stub!.posted, bob.sharedInbox);
    expect(deletes).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          actor: actorUrl,
          object: { type: "Tombstone", id: `https://blog.test/ap/posts/${insertedId}` },
        }),
        expect.objectContaining({ actor: actorUrl, object: actorUrl }),
      ]),
    );
    const signed = stub!.posted.find((p) => p.body.object === actorUrl)!;
    expect(signed.request.headers.get("Signature-Input")).toContain(`keyid="${actorUrl}#main-key"`);
    await expect(w.services.federation.actorDocument(user.id)).rejects.toMatchObject({ kind: "gone" });
    // Asked over HTTP, the actor URL answers 410 Gone (servers forget it); an id never seen stays a 404.
    const asked = (id: string) =>
      call(`/ap/users/${id}`, { headers: { Accept: "application/activity+json" } }).then((r) => r.status);
    expect(await asked(user.id)).toBe(410);
    expect(await asked("zzzzzzzzzzzzzzzzzzzz")).toBe(404);
    expect(await w.services.federation.actors.writer(user.id)).toBeNull();
  });
});
