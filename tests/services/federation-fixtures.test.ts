import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { schema } from "#worker/db.ts";
import { parseActivity } from "#worker/services/federation/activities.ts";
import { importPublicKey } from "#worker/services/federation/keys.ts";
import { toRemoteActor } from "#worker/services/federation/remote.ts";
import type { Actor } from "#worker/services/shared/policy.ts";
import akkomaReply from "../fixtures/fediverse/akkoma-reply.json?raw";
import gotosocialReply from "../fixtures/fediverse/gotosocial-reply.json?raw";
import mastodonActor from "../fixtures/fediverse/mastodon-actor.txt?raw";
import misskeyNote from "../fixtures/fediverse/misskey-note.json?raw";
import wordpressActor from "../fixtures/fediverse/wordpress-actor.json?raw";
import { db, makeUser } from "../support/factories";
import { remoteAccount, stubFediverse, receiveNow } from "../support/fediverse";
import { federationWorld, tag, type FederationWorld } from "../support/kernel";

/**
 * What real servers send, copied unchanged from their projects' own test fixtures (origins in
 * tests/fixtures/fediverse/README.md): each is parsed and handled by the inbox as it arrives.
 */

async function post(w: FederationWorld) {
  const u = await makeUser({ name: `Ada ${tag()}` });
  const actor: Actor = { id: u.id, name: u.name, email: u.email, role: "user", photoURL: null };
  const { insertedId } = await w.services.blogs.create(actor, {
    title: `Fixtures ${tag()}`,
    short_description: "x",
    blog_details: "y",
    category: "Technology",
    date_time: "2026-11-20T10:00:00.000Z",
    image: "/images/cover-0001.png",
  });
  return { user: u, actor, blogId: insertedId, articleId: `https://blog.test/ap/posts/${insertedId}` };
}

/** A fixture's reply, pointed at one of our posts (the fixtures name theirs `{{LOCAL_POST_URL}}`). */
const pointedAt = (raw: string, articleId: string) =>
  JSON.parse(raw.replaceAll("{{LOCAL_POST_URL}}", articleId)) as Record<string, unknown>;

describe("actor documents as real servers publish them", () => {
  it("Mastodon (spec/fixtures/requests/activitypub-actor.txt)", async () => {
    const doc = JSON.parse(mastodonActor.slice(mastodonActor.indexOf("\n\n") + 2)) as Record<string, unknown>;
    const actor = toRemoteActor(doc, "https://ap.example.com/users/foo")!;
    expect(actor).toMatchObject({
      id: "https://ap.example.com/users/foo",
      host: "ap.example.com",
      handle: "foo",
      name: "foo",
      inbox: "https://ap.example.com/users/foo/inbox",
      sharedInbox: "https://ap.example.com/inbox",
      keyId: "https://ap.example.com/users/foo#main-key",
      profileUrl: "https://ap.example.com/@foo",
      iconUrl: "https://quitter.no/avatar/7477-300-20160211190340.png",
    });
    expect(await importPublicKey(actor.publicKeyPem)).not.toBeNull();
  });

  it("WordPress's ActivityPub plugin (its test fixture notiz-blog-author-matthias-pfefferle.json)", async () => {
    const doc = JSON.parse((JSON.parse(wordpressActor) as { body: string }).body) as Record<string, unknown>;
    const id = "https://notiz.blog/author/matthias-pfefferle/";
    // Fetched through the one outbound path and stored, as a follow or a reply would.
    stubFediverse([], { documents: { [id]: doc } });
    const w = federationWorld();
    const actor = await w.services.federation.remote.get(id);
    expect(actor).toMatchObject({
      id,
      handle: "pfefferle",
      name: "Matthias Pfefferle",
      inbox: "https://notiz.blog/wp-api/activitypub/1.0/users/1/inbox",
      keyId: "https://notiz.blog/author/matthias-pfefferle/#main-key",
    });
    expect(await importPublicKey(actor!.publicKeyPem)).not.toBeNull();
  });
});

describe("activities as real servers send them", () => {
  it("a GoToSocial reply (as the WordPress plugin's tests capture it) becomes a comment", async () => {
    const w = federationWorld();
    const { blogId, articleId } = await post(w);
    const gts = await remoteAccount("gotosocial.example.com", "testuser");
    stubFediverse([gts]);
    const activity = pointedAt(gotosocialReply, articleId);
    expect(parseActivity(activity)?.type).toBe("Create");
    expect(await receiveNow(w.services, w.queue, await gts.deliver("/ap/inbox", activity))).toBe("commented");
    const [comment] = (await w.services.comments.list(blogId)).items;
    expect(comment!.body).toBe("@someone Lorem ipsum dolor sit amet, consectetur adipiscing elit.");
    expect(comment!.content_warning).toBeUndefined();
  });

  it("an Akkoma (Pleroma) reply, marked sensitive, becomes a comment behind a content warning", async () => {
    const w = federationWorld();
    const { blogId, articleId } = await post(w);
    const akkoma = await remoteAccount("akkoma.example.com", "testuser");
    stubFediverse([akkoma]);
    const activity = pointedAt(akkomaReply, articleId);
    expect(await receiveNow(w.services, w.queue, await akkoma.deliver("/ap/inbox", activity))).toBe("commented");
    const [comment] = (await w.services.comments.list(blogId)).items;
    expect(comment!.body).toMatch(/^@someone@example.com Lorem ipsum/);
    expect(comment!.content_warning).toBe("Sensitive content");
    // Its Delete (by the same author) removes it.
    const remove = {
      id: `${String(activity.id)}#delete`,
      type: "Delete",
      actor: akkoma.id,
      object: (activity.object as { id: string }).id,
    };
    expect(await receiveNow(w.services, w.queue, await akkoma.deliver("/ap/inbox", remove))).toBe("deleted");
  });

  it("a Misskey note (misskey.io, as misskey-dev's signature tests carry it) reaches the account following its author", async () => {
    const w = federationWorld();
    const { user, actor } = await post(w);
    const misskey = await remoteAccount("misskey.io", "7rkrarq81i");
    stubFediverse([misskey]);
    await w.services.federation.remote.get(misskey.id);
    await db()
      .insert(schema.apFollowing)
      .values({ userId: user.id, remoteId: misskey.id, followId: `https://blog.test/f/${tag()}`, accepted: true });
    const note = JSON.parse(misskeyNote) as Record<string, unknown>;
    const create = {
      "@context": note["@context"],
      id: `${String(note.id)}/activity`,
      type: "Create",
      actor: misskey.id,
      to: note.to,
      object: note,
    };
    expect(await receiveNow(w.services, w.queue, await misskey.deliver("/ap/inbox", create))).not.toBe("ignored");
    const timeline = await w.services.federation.timeline.list(actor);
    expect(timeline.items.map((i) => i.text)).toContain("アライグマ vs ダライラマ");
    expect(
      await db().select().from(schema.apRemoteActors).where(eq(schema.apRemoteActors.id, misskey.id)),
    ).toHaveLength(1);
  });
});
