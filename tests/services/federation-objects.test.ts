import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { schema } from "#worker/db.ts";
import { DEAD_AFTER_MS } from "#worker/services/federation/peers.ts";
import type { Actor } from "#worker/services/shared/policy.ts";
import { db, makeUser } from "../support/factories";
import { call } from "../support/http";
import { remoteAccount, stubFediverse, type RemoteAccount, receiveNow } from "../support/fediverse";
import { federationWorld, tag } from "../support/kernel";

/** Objects as people write them: by reference, behind content warnings; accounts that move; inboxes that die. */

const AS = "https://www.w3.org/ns/activitystreams";
const PUBLIC = `${AS}#Public`;

async function published() {
  const w = federationWorld({ keepErrors: true });
  const u = await makeUser({ name: `Ada ${tag()}` });
  const actor: Actor = { id: u.id, name: u.name, email: u.email, role: "user", photoURL: null };
  await w.services.federation.actors.writer(u.id);
  const { insertedId } = await w.services.blogs.create(actor, {
    title: `Objects ${tag()}`,
    short_description: "x",
    blog_details: "y",
    category: "Technology",
    date_time: "2026-11-20T10:00:00.000Z",
    image: "/images/cover-0001.png",
  });
  return { w, user: u, actor, blogId: insertedId, articleId: `https://blog.test/ap/posts/${insertedId}` };
}

const follow = (from: RemoteAccount, userId: string) => ({
  "@context": AS,
  id: `${from.id}/follows/${tag()}`,
  type: "Follow",
  actor: from.id,
  object: `https://blog.test/ap/users/${userId}`,
});

describe("objects", () => {
  it("a Create whose object is a URL is fetched from its author's server and kept with its content warning", async () => {
    const { w, blogId, articleId } = await published();
    const bob = await remoteAccount(`o${tag()}.example`, "bob");
    const noteId = `${bob.id}/statuses/${tag()}`;
    const note = {
      "@context": AS,
      id: noteId,
      type: "Note",
      attributedTo: bob.id,
      inReplyTo: articleId,
      summary: "Spoilers for the ending",
      sensitive: true,
      content: "<p>The butler did it.</p>",
      to: [PUBLIC],
    };
    const stub = stubFediverse([bob], { documents: { [noteId]: note } });
    const create = {
      "@context": AS,
      id: `${noteId}/activity`,
      type: "Create",
      actor: bob.id,
      to: [PUBLIC],
      object: noteId,
    };
    expect(await receiveNow(w.services, w.queue, await bob.deliver("/ap/inbox", create))).toBe("commented");
    expect(stub.fetched).toContain(noteId);
    const comments = await w.services.comments.list(blogId);
    expect(comments.items[0]).toMatchObject({ body: "The butler did it.", content_warning: "Spoilers for the ending" });
    // The post page shows it collapsed behind its warning.
    const page = await (await call(`/blogs/${blogId}`)).text();
    expect(page).toMatch(/<details[^>]*><summary[^>]*>Content warning: Spoilers for the ending<\/summary>/);
    // A reference to another server's object is not fetched (nor believed).
    const elsewhere = `https://elsewhere${tag()}.example/notes/1`;
    const foreign = { ...create, id: `${noteId}/other`, object: elsewhere };
    expect(await receiveNow(w.services, w.queue, await bob.deliver("/ap/inbox", foreign))).toBe("ignored");
    expect(stub.fetched).not.toContain(elsewhere);
    // A sensitive note without a summary still says so.
    const bare = { ...create, id: `${noteId}/bare`, object: { ...note, id: `${noteId}b`, summary: null } };
    expect(await receiveNow(w.services, w.queue, await bob.deliver("/ap/inbox", bare))).toBe("commented");
    expect((await w.services.comments.list(blogId)).items[0]).toMatchObject({ content_warning: "Sensitive content" });
  });
});

describe("accounts and inboxes", () => {
  it("Move replaces the follower with the new account, only when that account names the old one", async () => {
    const { w, user } = await published();
    const old = await remoteAccount(`mv${tag()}.example`, "old");
    const moved = await remoteAccount(`nw${tag()}.example`, "new");
    const stranger = await remoteAccount(`st${tag()}.example`, "stranger");
    moved.doc.alsoKnownAs = [old.id];
    stubFediverse([old, moved, stranger]);
    await receiveNow(w.services, w.queue, await old.deliver("/ap/inbox", follow(old, user.id)));
    const move = (target: string) => ({
      "@context": AS,
      id: `${old.id}#moves/${tag()}`,
      type: "Move",
      actor: old.id,
      object: old.id,
      target,
    });
    expect(await receiveNow(w.services, w.queue, await old.deliver("/ap/inbox", move(stranger.id)))).toBe("ignored");
    expect(await receiveNow(w.services, w.queue, await old.deliver("/ap/inbox", move(moved.id)))).toBe("moved");
    const rows = await db().select().from(schema.apFollowers).where(eq(schema.apFollowers.localId, user.id));
    expect(rows).toMatchObject([{ remoteId: moved.id, inbox: moved.sharedInbox }]);
  });

  it("an inbox that answers 410 Gone, or fails for a week, loses its followers", async () => {
    const { w, user, actor } = await published();
    const gone = await remoteAccount(`gn${tag()}.example`, "gone");
    const flaky = await remoteAccount(`fl${tag()}.example`, "flaky");
    const hostOf = (url: string) => new URL(url).host;
    const status = (r: Request) =>
      hostOf(r.url) === hostOf(gone.id) ? 410 : hostOf(r.url) === hostOf(flaky.id) ? 503 : 202;
    stubFediverse([gone, flaky], { inboxStatus: status });
    for (const who of [gone, flaky])
      await receiveNow(w.services, w.queue, await who.deliver("/ap/inbox", follow(who, user.id)));
    await w.drain();
    const followers = async () =>
      (await db().select().from(schema.apFollowers).where(eq(schema.apFollowers.localId, user.id))).map(
        (r) => r.remoteId,
      );
    expect(await followers()).toEqual([flaky.id]);
    // The flaky server has been failing since a week ago: the next failure lets it go.
    await db()
      .update(schema.apPeers)
      .set({ failingSince: Date.now() - DEAD_AFTER_MS - 1000 })
      .where(eq(schema.apPeers.host, new URL(flaky.id).host));
    await w.services.blogs.create(actor, {
      title: `Another ${tag()}`,
      short_description: "x",
      blog_details: "y",
      category: "Technology",
      date_time: "2026-11-21T10:00:00.000Z",
      image: "/images/cover-0001.png",
    });
    await w.drain();
    expect(await followers()).toEqual([]);
  });
});
