import { eq, like } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { schema } from "#worker/db.ts";
import { registrableDomain } from "#worker/services/federation/domains.ts";
import { AVATARS_PER_CLIENT } from "#worker/services/federation/service.ts";
import type { Actor } from "#worker/services/shared/policy.ts";
import { db, makeUser } from "../support/factories";
import { call } from "../support/http";
import { receiveNow, remoteAccount, stubFediverse } from "../support/fediverse";
import { federationWorld, tag } from "../support/kernel";

/** What may leave and what may come in: direct messages, per-server limits, unverified accounts, blocks, avatars. */

const AS = "https://www.w3.org/ns/activitystreams";
const PUBLIC = `${AS}#Public`;

async function account(overrides: Parameters<typeof makeUser>[0] = {}) {
  const u = await makeUser({ name: `Rea ${tag()}`, ...overrides });
  const actor: Actor = { id: u.id, name: u.name, email: u.email, role: "user", photoURL: null };
  return { user: u, actor };
}

const admin = async (): Promise<Actor> => {
  const a = await makeUser({ role: "admin" });
  return { id: a.id, name: a.name, email: a.email, role: "admin", photoURL: null };
};

describe("the fediverse timeline keeps no direct message", () => {
  it("stores a public post and a followers-only one, never one addressed to people only", async () => {
    const w = federationWorld();
    const reader = await account();
    const alice = await remoteAccount(`t${tag()}.example`, "alice");
    alice.doc.followers = `${alice.id}/followers`;
    stubFediverse([alice]);
    await w.services.federation.remoteFollows.follow(reader.actor, { target: alice.id });
    const create = (audience: Record<string, unknown>, text: string) => {
      const id = `${alice.id}/statuses/${tag()}`;
      return {
        "@context": AS,
        id: `${id}/activity`,
        type: "Create",
        actor: alice.id,
        ...audience,
        object: { id, type: "Note", attributedTo: alice.id, content: `<p>${text}</p>`, ...audience },
      };
    };
    const readerUrl = `https://blog.test/ap/users/${reader.user.id}`;
    const deliver = async (activity: Record<string, unknown>) =>
      receiveNow(w.services, w.queue, await alice.deliver("/ap/inbox", activity));
    expect(await deliver(create({ to: [readerUrl] }, "Just for you"))).toBe("ignored");
    expect(await deliver(create({ to: [`${alice.id}/followers`], cc: [readerUrl] }, "For my followers"))).toBe(
      "stored",
    );
    expect(await deliver(create({ to: [PUBLIC] }, "For everyone"))).toBe("stored");
    const texts = (await w.services.federation.timeline.list(reader.actor)).items.map((p) => p.text).sort();
    expect(texts).toEqual(["For everyone", "For my followers"]);
  });
});

describe("per-server limits count a registrable domain", () => {
  it("subdomains of one operator share one count", async () => {
    expect(registrableDomain("a.b.example.social")).toBe("example.social");
    expect(registrableDomain("media.example.social:8443")).toBe("example.social");
    expect(registrableDomain("mastodon.example.co.uk")).toBe("example.co.uk");
    expect(registrableDomain("x.y.example.com.au")).toBe("example.com.au");
    expect(registrableDomain("Example.Social.")).toBe("example.social");
    expect(registrableDomain("127.0.0.1:8787")).toBe("127.0.0.1");

    const w = federationWorld();
    const base = `g${tag()}.example`;
    const one = await remoteAccount(`a.${base}`, "one");
    const two = await remoteAccount(`b.${base}`, "two");
    stubFediverse([one, two]);
    const { user } = await account();
    await w.services.federation.actors.writer(user.id);
    for (const who of [one, two]) {
      const follow = {
        "@context": AS,
        id: `${who.id}/follows/${tag()}`,
        type: "Follow",
        actor: who.id,
        object: `https://blog.test/ap/users/${user.id}`,
      };
      expect(await receiveNow(w.services, w.queue, await who.deliver("/ap/inbox", follow))).toBe("followed");
    }
    const rows = await db()
      .select()
      .from(schema.rateLimits)
      .where(like(schema.rateLimits.key, `ap-inbox:%${base}`));
    expect(rows).toEqual([expect.objectContaining({ key: `ap-inbox:${base}`, count: 2 })]);
  });
});

describe("only a verified account speaks to the fediverse", () => {
  it("an unverified account can neither follow a remote account nor reply to one", async () => {
    const w = federationWorld();
    const unverified = await account({ emailVerifiedAt: null });
    const alice = await remoteAccount(`v${tag()}.example`, "alice");
    const stub = stubFediverse([alice]);
    await expect(
      w.services.federation.remoteFollows.follow(unverified.actor, { target: alice.id }),
    ).rejects.toMatchObject({ code: "email-not-verified", kind: "forbidden" });
    await expect(
      w.services.federation.timeline.reply(unverified.actor, { in_reply_to: `${alice.id}/statuses/1`, body: "Hi" }),
    ).rejects.toMatchObject({ code: "email-not-verified" });
    expect(w.queue.jobs).toEqual([]);
    expect(stub.fetched).toEqual([]);
  });
});

describe("a blocked server", () => {
  it("is refused before its key is fetched", async () => {
    const w = federationWorld();
    const host = `bk${tag()}.example`;
    const mal = await remoteAccount(host, "mal");
    const stub = stubFediverse([mal]);
    await w.services.federation.block(await admin(), { target: host, confirm: true });
    const like_ = { "@context": AS, id: `${mal.id}/likes/${tag()}`, type: "Like", actor: mal.id, object: mal.id };
    await expect(w.services.federation.inbox.receive(await mal.deliver("/ap/inbox", like_))).rejects.toMatchObject({
      code: "blocked",
    });
    expect(stub.fetched).toEqual([]);
  });
});

describe("/ap/avatars", () => {
  async function knownWithAvatar(host: string) {
    const w = federationWorld();
    const bob = await remoteAccount(host, "bob");
    const stub = stubFediverse([bob]);
    const png = new Uint8Array([0x89, 0x50, 0x4e, 0x47]);
    const inner = globalThis.fetch;
    let avatarFetches = 0;
    const spy = (globalThis.fetch = (async (input: RequestInfo | URL, init?: RequestInit) => {
      const url = new Request(input as RequestInfo, init).url;
      if (url.endsWith("/avatars/bob.png")) {
        avatarFetches++;
        return new Response(png, { headers: { "Content-Type": "image/png" } });
      }
      return inner(input as RequestInfo, init);
    }) as typeof fetch);
    await w.services.federation.remote.get(bob.id);
    return { w, bob, stub, spy, restore: () => (globalThis.fetch = inner), fetches: () => avatarFetches };
  }

  it("answers one URL per avatar (any other query is redirected to it), refuses blocked servers, and limits each client", async () => {
    const host = `av${tag()}.example`;
    const known = await knownWithAvatar(host);
    try {
      const canonical = `/ap/avatars?actor=${encodeURIComponent(known.bob.id)}`;
      const ok = await call(canonical, { headers: { "CF-Connecting-IP": "203.0.113.50" } });
      expect(ok.status).toBe(200);
      expect(ok.headers.get("Content-Type")).toBe("image/png");
      expect(known.fetches()).toBe(1);
      // A cache-busting parameter fetches nothing: it is sent to the one URL.
      const busted = await call(`${canonical}&bust=${tag()}`, { redirect: "manual" });
      expect(busted.status).toBe(301);
      expect(busted.headers.get("Location")?.endsWith(canonical)).toBe(true);
      expect(known.fetches()).toBe(1);
      // Each client has AVATARS_PER_CLIENT a minute.
      const client = "203.0.113.51";
      const now = Date.now();
      await db()
        .insert(schema.rateLimits)
        .values({ key: `ap-avatar:${client}`, windowStart: now - (now % 60_000), count: AVATARS_PER_CLIENT });
      expect((await call(canonical, { headers: { "CF-Connecting-IP": client } })).status).toBe(429);
      // Blocked: no avatar, nothing fetched.
      await known.w.services.federation.block(await admin(), { target: host, confirm: true });
      expect((await call(canonical, { headers: { "CF-Connecting-IP": "203.0.113.52" } })).status).toBe(404);
      expect(known.fetches()).toBe(1);
    } finally {
      known.restore();
    }
  });
});

describe("/api/fediverse/following", () => {
  it("never answers a profile link that is not http(s), even from a row stored before the rule", async () => {
    const w = federationWorld();
    const reader = await account();
    const id = `https://old${tag()}.example/users/eve`;
    await db()
      .insert(schema.apRemoteActors)
      .values({
        id,
        host: new URL(id).host,
        handle: "eve",
        name: "Eve",
        profileUrl: "javascript:alert(1)",
        inbox: `${id}/inbox`,
        keyId: `${id}#main-key`,
        publicKeyPem: "-",
        fetchedAt: Date.now(),
      });
    await db()
      .insert(schema.apFollowing)
      .values({ userId: reader.user.id, remoteId: id, followId: `f-${tag()}` });
    const page = await w.services.federation.remoteFollows.list(reader.actor);
    expect(page.items).toEqual([expect.objectContaining({ id, profileUrl: null })]);
    expect(await db().select().from(schema.apFollowing).where(eq(schema.apFollowing.remoteId, id))).toHaveLength(1);
  });
});
