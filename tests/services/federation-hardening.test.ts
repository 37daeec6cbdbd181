import { and, eq, like } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { schema } from "#worker/db.ts";
import { signedRequest } from "#worker/services/federation/signatures.ts";
import type { Actor } from "#worker/services/shared/policy.ts";
import { db, makeUser } from "../support/factories";
import { call, json } from "../support/http";
import { remoteAccount, stubFediverse, type RemoteAccount, receiveNow } from "../support/fediverse";
import { federationWorld, tag } from "../support/kernel";

/** The hardening of the inbox and of replies from the fediverse (links, order of checks, limits, audience). */

const AS = "https://www.w3.org/ns/activitystreams";
const PUBLIC = `${AS}#Public`;

async function published(accounts: RemoteAccount[] = []) {
  const w = federationWorld({ mail: true });
  const u = await makeUser({ name: `Ada ${tag()}` });
  const actor: Actor = { id: u.id, name: u.name, email: u.email, role: "user", photoURL: null };
  const bob = accounts[0] ?? (await remoteAccount(`r${tag()}.example`, "bob"));
  const stub = stubFediverse([bob, ...accounts.slice(1)]);
  const { insertedId } = await w.services.blogs.create(actor, {
    title: `Federated ${tag()}`,
    short_description: "What happened this week.",
    blog_details: "The whole story.",
    category: "Technology",
    date_time: "2026-11-20T10:00:00.000Z",
    image: "/images/cover-0001.png",
  });
  await w.drain();
  return { w, user: u, actor, bob, stub, blogId: insertedId, articleId: `https://blog.test/ap/posts/${insertedId}` };
}

function reply(
  from: RemoteAccount,
  inReplyTo: string,
  extra: Record<string, unknown> = {},
  note: Record<string, unknown> = {},
) {
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

/** POSTs a signed delivery through the Worker, from one connection (its address). */
async function post(signed: Request, body: unknown, address = "203.0.113.7") {
  const headers = new Headers(signed.headers);
  headers.set("CF-Connecting-IP", address);
  return call(signed.url, { method: "POST", headers, body: JSON.stringify(body) });
}

describe("remote links are never javascript:", () => {
  it("an actor whose profile URL is javascript: shows no such link in the comments API or on the post page", async () => {
    const evil = await remoteAccount(`e${tag()}.example`, "eve");
    evil.doc.url = "javascript:alert(document.cookie)//";
    evil.doc.icon = { type: "Image", url: "javascript:alert(2)" };
    const { w, blogId, articleId } = await published([evil]);
    const create = reply(evil, articleId, { to: [PUBLIC] });
    expect(await receiveNow(w.services, w.queue, await evil.deliver("/ap/inbox", create))).toBe("commented");
    const [stored] = await db().select().from(schema.apRemoteActors).where(eq(schema.apRemoteActors.id, evil.id));
    expect(stored).toMatchObject({ profileUrl: evil.id, iconUrl: null });
    // An older row stored before the rule: the answer still never carries it.
    await db()
      .update(schema.apRemoteActors)
      .set({ profileUrl: "javascript:alert(1)" })
      .where(eq(schema.apRemoteActors.id, evil.id));
    const api = await json<{ author: { remote?: { url: string | null } } }[]>(
      await call(`/api/blogs/${blogId}/comments`),
    );
    expect(api[0]!.author.remote!.url).toBe(evil.id);
    const page = await (await call(`/blogs/${blogId}`)).text();
    expect(page).toContain("Eve Remote");
    expect(page.toLowerCase()).not.toMatch(/(href|src)="\s*javascript:/);
    expect(page).not.toContain("alert(document.cookie)");
  });
});

describe("the inbox checks the request before it fetches anything", () => {
  it("a stale Date, a wrong Digest or a missing signed header costs no fetch of the keyId", async () => {
    const { bob, stub, articleId } = await published();
    stub.fetched.length = 0;
    const like = { "@context": AS, id: `${bob.id}/likes/${tag()}`, type: "Like", actor: bob.id, object: articleId };
    const unknownKey = `https://x${tag()}.example/users/mallory#main-key`;
    const stale = await signedRequest(
      "https://blog.test/ap/inbox",
      { method: "POST", body: JSON.stringify(like) },
      unknownKey,
      bob.privateKeyPem,
      Date.now() - 3 * 60 * 60 * 1000,
    );
    expect((await post(stale, like)).status).toBe(401);
    const fresh = await signedRequest(
      "https://blog.test/ap/inbox",
      { method: "POST", body: JSON.stringify(like) },
      unknownKey,
      bob.privateKeyPem,
    );
    // The digest names another body.
    expect((await post(fresh, { ...like, id: `${like.id}x` })).status).toBe(401);
    // No Digest covered at all.
    const headers = new Headers(fresh.headers);
    headers.set("Signature", headers.get("Signature")!.replace(' digest"', '"').replace(" digest ", " "));
    expect((await call(fresh.url, { method: "POST", headers, body: JSON.stringify(like) })).status).toBe(401);
    expect(stub.fetched).toEqual([]);
  });

  it("a forged delivery stores no actor, proxies no avatar, and counts against its connection, not the host it names", async () => {
    const { bob, articleId } = await published();
    const mallory = await remoteAccount(`m${tag()}.example`, "mallory");
    const stub2 = stubFediverse([bob, mallory]);
    const like = {
      "@context": AS,
      id: `${mallory.id}/likes/${tag()}`,
      type: "Like",
      actor: mallory.id,
      object: articleId,
    };
    // Signed with bob's key, naming mallory's: the signature does not verify.
    const forged = await mallory.deliver("/ap/inbox", like, bob.privateKeyPem);
    const refused = await post(forged, like, "203.0.113.99");
    expect(refused.status).toBe(401);
    expect(refused.headers.get("Accept-Signature")).toContain('"@method"');
    expect(stub2.fetched.length).toBeGreaterThan(0);
    expect(await db().select().from(schema.apRemoteActors).where(eq(schema.apRemoteActors.id, mallory.id))).toEqual([]);
    expect((await call(`/ap/avatars?actor=${encodeURIComponent(mallory.id)}`)).status).toBe(404);
    const keys = (await db().select().from(schema.rateLimits).where(like_("ap-inbox%"))).map((r) => r.key);
    expect(keys).toContain("ap-inbox-conn:203.0.113.99");
    expect(keys).not.toContain(`ap-inbox:${new URL(mallory.id).host}`);
    // A verified delivery counts against its actor's server.
    const good = { ...like, id: `${bob.id}/likes/${tag()}`, actor: bob.id };
    expect((await post(await bob.deliver("/ap/inbox", good), good)).status).toBe(202);
    const after = (await db().select().from(schema.rateLimits).where(like_("ap-inbox:%"))).map((r) => r.key);
    expect(after).toContain(`ap-inbox:${new URL(bob.id).host}`);
  });

  it("a signed reply whose Note id is not an https URL is a 400, not a 500", async () => {
    const { bob, articleId } = await published();
    for (const id of ["not a url", "javascript:alert(1)", "urn:uuid:1234"]) {
      const create = reply(bob, articleId, { to: [PUBLIC] }, { id });
      const res = await post(await bob.deliver("/ap/inbox", create), create);
      expect(res.status).toBe(400);
    }
  });
});

const like_ = (pattern: string) => like(schema.rateLimits.key, pattern);

describe("replies from the fediverse", () => {
  it("are limited like local comments, per account and per server; their writer gets one mail quoting them", async () => {
    const { w, user, bob, articleId, blogId } = await published();
    const results: string[] = [];
    for (let i = 0; i < 21; i++) {
      const create = reply(bob, articleId, { to: [PUBLIC] }, { content: `<p>Reply number ${i}</p>` });
      results.push(await receiveNow(w.services, w.queue, await bob.deliver("/ap/inbox", create)));
    }
    expect(results.filter((r) => r === "commented")).toHaveLength(20);
    // Refused by the handler (in the queue's consumer): final, never retried.
    expect(results[20]).toBe("refused:rate-limited");
    expect((await w.services.comments.list(blogId, { limit: 50 })).total).toBe(20);
    // The server's count (every account of it together) counts them too.
    const [server] = await db()
      .select()
      .from(schema.rateLimits)
      .where(eq(schema.rateLimits.key, `comment:ap-host:${new URL(bob.id).host}`));
    expect(server!.count).toBe(20);
    expect(w.box.to(user.email)).toHaveLength(0);
    expect(await w.services.notifications.flushBatches(Date.now() + 61_000)).toBeGreaterThanOrEqual(1);
    const mails = w.box.to(user.email);
    expect(mails).toHaveLength(1);
    expect(mails[0]!.subject).toBe("20 new comments on your posts");
    expect(mails[0]!.text).toContain("Reply number 0");
    expect(mails[0]!.text).toContain("Reply number 19");
    expect(mails[0]!.text).toContain("/settings#notifications");
    const unsubscribe = mails[0]!.headers?.["List-Unsubscribe"] ?? "";
    expect(unsubscribe).toMatch(/^<https:\/\/blog\.test\/notifications\/unsubscribe\?token=/);
    // A second flush sends nothing more.
    await w.services.notifications.flushBatches(Date.now() + 122_000);
    expect(w.box.to(user.email)).toHaveLength(1);
    // The link turns that kind of mail off (one click, a POST).
    const link = unsubscribe.slice(1, -1);
    expect((await call(link)).status).toBe(200);
    expect((await w.services.notifications.prefs({ id: user.id } as Actor)).comment).toBe("instant");
    const res = await call(link, {
      method: "POST",
      body: "List-Unsubscribe=One-Click",
      headers: { "Content-Type": "application/x-www-form-urlencoded" },
    });
    expect(res.status).toBe(200);
    expect((await w.services.notifications.prefs({ id: user.id } as Actor)).comment).toBe("off");
    expect((await call(`${link}x`, { method: "POST" })).status).toBe(400);
  }, 30_000);

  it("only public replies (to or cc, any spelling of Public) become comments; a direct one reaches the writer alone", async () => {
    const { w, user, actor, bob, articleId, blogId } = await published();
    const asPublic = reply(bob, articleId, { cc: ["as:Public"] });
    expect(await receiveNow(w.services, w.queue, await bob.deliver("/ap/inbox", asPublic))).toBe("commented");
    const bare = reply(bob, articleId, {}, { to: "Public" });
    expect(await receiveNow(w.services, w.queue, await bob.deliver("/ap/inbox", bare))).toBe("commented");
    const direct = reply(
      bob,
      articleId,
      { to: [`https://blog.test/ap/users/${user.id}`] },
      {
        content: "<p>Just between us</p>",
        to: [`https://blog.test/ap/users/${user.id}`],
      },
    );
    expect(await receiveNow(w.services, w.queue, await bob.deliver("/ap/inbox", direct))).toBe("replied-privately");
    const followersOnly = reply(
      bob,
      articleId,
      // Followers-only, mentioning the writer (as Mastodon addresses a mention).
      { to: [`${bob.id}/followers`], cc: [`https://blog.test/ap/users/${user.id}`] },
      { content: "<p>For my followers</p>" },
    );
    expect(await receiveNow(w.services, w.queue, await bob.deliver("/ap/inbox", followersOnly))).toBe(
      "replied-privately",
    );
    // Never shown to anyone: not in the API, not on the page.
    const res = await call(`/api/blogs/${blogId}/comments`);
    expect(res.headers.get("X-Total-Count")).toBe("2");
    expect(await res.text()).not.toContain("Just between us");
    expect(await (await call(`/blogs/${blogId}`)).text()).not.toContain("Just between us");
    // The writer reads it in their notifications.
    const mine = await w.services.notifications.list(actor);
    const privately = mine.items.filter((i) => i.private_reply);
    expect(privately).toHaveLength(2);
    expect(privately.map((i) => i.private_reply!.text).sort()).toEqual(["For my followers", "Just between us"]);
    expect(privately[0]!.text).toMatch(/^Bob Remote replied privately to “Federated /);
    // Someone else sees nothing of it.
    const other = await makeUser();
    const theirs = await w.services.notifications.list({
      id: other.id,
      name: "",
      email: other.email,
      role: "user",
      photoURL: null,
    });
    expect(JSON.stringify(theirs)).not.toContain("Just between us");
    // Its author's Delete takes it away.
    const remove = {
      "@context": AS,
      id: `${direct.object.id}#delete`,
      type: "Delete",
      actor: bob.id,
      object: direct.object.id,
    };
    expect(await receiveNow(w.services, w.queue, await bob.deliver("/ap/inbox", remove))).toBe("deleted");
    expect(
      await db()
        .select()
        .from(schema.apPrivateReplies)
        .where(and(eq(schema.apPrivateReplies.userId, user.id), eq(schema.apPrivateReplies.noteId, direct.object.id))),
    ).toEqual([]);
  });
});

describe("server blocks", () => {
  it("cover the server's subdomains and every port", async () => {
    const base = `b${tag()}.example`;
    const sub = await remoteAccount(`media.${base}:8443`, "sam");
    const { w, articleId } = await published([sub]);
    const admin = await makeUser({ role: "admin" });
    await w.services.federation.block(
      { id: admin.id, name: admin.name, email: admin.email, role: "admin", photoURL: null },
      { target: `${base}:443`, confirm: true },
    );
    const like = { "@context": AS, id: `${sub.id}/likes/${tag()}`, type: "Like", actor: sub.id, object: articleId };
    await expect(receiveNow(w.services, w.queue, await sub.deliver("/ap/inbox", like))).rejects.toMatchObject({
      code: "blocked",
    });
    expect(await db().select().from(schema.apBlocks).where(eq(schema.apBlocks.target, base))).toHaveLength(1);
  });
});
