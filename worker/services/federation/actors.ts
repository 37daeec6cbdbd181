import { and, desc, eq, isNull, like, sql } from "drizzle-orm";
import { z } from "zod";
import { escapeHtml } from "#worker/content/escape.ts";
import type { Db } from "#worker/db.ts";
import { schema } from "#worker/db.ts";
import { generateEd25519, generateKeyPair } from "#worker/services/federation/keys.ts";
import { withProof } from "#worker/services/federation/proofs.ts";
import { ACTOR_CONTEXT, SITE_ACTOR, type Urls } from "#worker/services/federation/vocab.ts";
import { Conflict, Forbidden, NotFound } from "#worker/services/shared/errors.ts";
import { FEDIVERSE_NEEDS_VERIFIED_EMAIL } from "#worker/services/texts.ts";
import { isIdShaped } from "#worker/services/shared/ids.ts";
import { parse } from "#worker/services/shared/validation.ts";
import { newestFirst, visibleBlogsWhere } from "#worker/services/blogs/visible.ts";
import type { Kernel } from "#worker/services/kernel.ts";

export type LocalActor = typeof schema.apActors.$inferSelect;

/** Handles: 1-30 of a-z, 0-9, "_" and "-", starting and ending with a letter or digit. */
export const HANDLE_PATTERN = /^[a-z0-9](?:[a-z0-9_-]{0,28}[a-z0-9])?$/;
export const HANDLE_TEXT =
  "A handle is 1 to 30 letters, digits, '-' or '_', starting and ending with a letter or digit.";
export const HANDLE_TAKEN_TEXT = "That handle is taken. Please choose another.";

export const handleInput = z.object({
  handle: z
    .string({ error: HANDLE_TEXT })
    .trim()
    .transform((value) => value.replace(/^@/, "").toLowerCase())
    .pipe(z.string().regex(HANDLE_PATTERN, HANDLE_TEXT)),
});

/** A handle made of a name: "Zoë O'Neil" -> "zoe-o-neil". */
export function slugHandle(name: string): string {
  const slug = name
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "")
    .slice(0, 26)
    .replace(/-+$/, "");
  return slug || "writer";
}

/**
 * The actor's Ed25519 pair (its `assertionMethod`, which signs object integrity proofs), made on first
 * need for an actor that predates it; answers the row with it.
 */
export async function ensureEd25519(
  db: Db,
  actor: LocalActor,
): Promise<LocalActor & { edPublicMultibase: string; edPrivateKeyPem: string }> {
  if (actor.edPublicMultibase && actor.edPrivateKeyPem) {
    return actor as LocalActor & { edPublicMultibase: string; edPrivateKeyPem: string };
  }
  const keys = await generateEd25519();
  await db
    .update(schema.apActors)
    .set(keys)
    .where(and(eq(schema.apActors.id, actor.id), isNull(schema.apActors.edPrivateKeyPem)));
  const row = await db.query.apActors.findFirst({ where: eq(schema.apActors.id, actor.id) });
  return { ...actor, ...keys, ...(row?.edPrivateKeyPem ? row : {}) } as LocalActor & {
    edPublicMultibase: string;
    edPrivateKeyPem: string;
  };
}

/**
 * The outreach rule (worker/services/blogs/outreach.ts) for what an account itself sends to the fediverse
 * (a Follow, a reply): only from a proven address, as anyone can sign up with any address.
 */
export async function requireVerifiedAddress(db: Db, userId: string): Promise<void> {
  const row = await db.query.users.findFirst({
    where: eq(schema.users.id, userId),
    columns: { emailVerifiedAt: true },
  });
  if (!row?.emailVerifiedAt) throw new Forbidden(FEDIVERSE_NEEDS_VERIFIED_EMAIL, "email-not-verified");
}

/** An activity (JSON) with its actor's eddsa-jcs-2022 proof (FEP-8b32), as JSON. */
export async function withActorProof(db: Db, activity: string, actor: LocalActor, actorUrl: string): Promise<string> {
  const parsed = JSON.parse(activity) as Record<string, unknown>;
  if (parsed.proof) return activity;
  const keyed = await ensureEd25519(db, actor);
  return JSON.stringify(await withProof(parsed, `${actorUrl}#ed25519-key`, keyed.edPrivateKeyPem));
}

/** The site actor's key: it signs every document this site fetches from another server (remote.ts). */
export async function siteSigner(actors: LocalActors, u: Urls): Promise<{ keyId: string; privateKeyPem: string }> {
  const site = await actors.site();
  return { keyId: u.key(site.id), privateKeyPem: site.privateKeyPem };
}

/** The local actors (the site and each writer): their handles, key pairs and documents. */
export function createLocalActors(k: Kernel) {
  const { db } = k;
  const { siteHandle } = k.config.federation;
  async function byId(id: string): Promise<LocalActor | null> {
    return (await db.query.apActors.findFirst({ where: eq(schema.apActors.id, id) })) ?? null;
  }

  /** Inserts an actor under the first free handle of base, base-2, base-3...; answers the stored row. */
  async function create(id: string, userId: string | null, base: string): Promise<LocalActor> {
    const keys = await generateKeyPair();
    const taken = new Set(
      (
        await db
          .select({ handle: schema.apActors.handle })
          .from(schema.apActors)
          .where(like(schema.apActors.handle, `${base}%`))
          .limit(200)
      ).map((row) => row.handle),
    );
    if (id !== SITE_ACTOR) taken.add(siteHandle);
    for (let n = 1; n < 1000; n++) {
      const handle = n === 1 ? base : `${base}-${n}`;
      if (taken.has(handle)) continue;
      await db
        .insert(schema.apActors)
        .values({ id, userId, handle, ...keys })
        .onConflictDoNothing();
      const row = await byId(id);
      if (row) return row;
      taken.add(handle);
    }
    throw new Conflict(HANDLE_TAKEN_TEXT, "handle-taken");
  }

  return {
    byId,

    /** The site's actor (made on first need). */
    async site(): Promise<LocalActor> {
      return (await byId(SITE_ACTOR)) ?? create(SITE_ACTOR, null, siteHandle);
    },

    /** A writer's actor, made on first need with a handle from their name; null for an unknown account. */
    async writer(userId: string): Promise<LocalActor | null> {
      if (!isIdShaped(userId)) return null;
      const found = await byId(userId);
      // A deleted account's actor stays only to sign its Delete: it is no one's any more.
      if (found) return found.deletedAt ? null : found;
      const user = await db.query.users.findFirst({ where: eq(schema.users.id, userId), columns: { name: true } });
      return user ? create(userId, userId, slugHandle(user.name)) : null;
    },

    /**
     * The actor a WebFinger handle names. A writer who never had one made is found by their name's
     * handle (the default), and theirs is made then.
     */
    async byHandle(handle: string): Promise<LocalActor | null> {
      const wanted = handle.toLowerCase();
      if (wanted === siteHandle) return this.site();
      if (!HANDLE_PATTERN.test(wanted)) return null;
      const found = await db.query.apActors.findFirst({ where: eq(schema.apActors.handle, wanted) });
      if (found) return found.deletedAt ? null : found;
      // Only the default handle of someone without an actor yet: a bounded look-up by name.
      const candidates = await db
        .select({ id: schema.users.id, name: schema.users.name })
        .from(schema.users)
        .where(sql`lower(replace(trim(${schema.users.name}), ' ', '-')) = ${wanted}`)
        .limit(5);
      for (const user of candidates) {
        if (slugHandle(user.name) !== wanted || (await byId(user.id))) continue;
        const made = await create(user.id, user.id, wanted);
        if (made.handle === wanted) return made;
      }
      return null;
    },

    /** /settings: a writer chooses their handle (unique, not the site's). */
    async setHandle(userId: string, input: unknown): Promise<{ modifiedCount: number }> {
      const { handle } = parse(handleInput, input);
      const actor = await this.writer(userId);
      if (!actor) throw new NotFound("Writer not found.");
      if (actor.handle === handle) return { modifiedCount: 0 };
      if (handle === siteHandle) throw new Conflict(HANDLE_TAKEN_TEXT, "handle-taken");
      const clash = await db.query.apActors.findFirst({ where: eq(schema.apActors.handle, handle) });
      if (clash) throw new Conflict(HANDLE_TAKEN_TEXT, "handle-taken");
      await db.update(schema.apActors).set({ handle }).where(eq(schema.apActors.id, actor.id));
      return { modifiedCount: 1 };
    },

    /** The actor document (a Person for a writer, an Organization for the site). */
    async document(actor: LocalActor, u: Urls, siteName: string): Promise<Record<string, unknown>> {
      const id = actor.id;
      let name = siteName;
      let summary = `Posts from ${siteName}.`;
      let icon: string | null = u.absolute("/favicon.svg");
      let header: string | null = null;
      if (actor.userId) {
        const [users, profiles, covers] = await db.batch([
          db
            .select({ name: schema.users.name, photo: schema.users.photoUrl })
            .from(schema.users)
            .where(eq(schema.users.id, actor.userId)),
          db
            .select({ name: schema.profiles.name, bio: schema.profiles.bio, designation: schema.profiles.designation })
            .from(schema.profiles)
            .where(eq(schema.profiles.userId, actor.userId)),
          db
            .select({ image: schema.blogs.image })
            .from(schema.blogs)
            .where(visibleBlogsWhere(eq(schema.blogs.authorId, actor.userId)))
            .orderBy(...newestFirst)
            .limit(1),
        ]);
        const profile = profiles[0];
        name = profile?.name || users[0]?.name || actor.handle;
        summary = [profile?.designation, profile?.bio].filter(Boolean).join(" · ") || `Writer at ${siteName}.`;
        icon = u.absolute(users[0]?.photo);
        header = u.absolute(covers[0]?.image);
      } else {
        const [cover] = await db
          .select({ image: schema.blogs.image })
          .from(schema.blogs)
          .where(visibleBlogsWhere())
          .orderBy(desc(schema.blogs.dateTime))
          .limit(1);
        header = u.absolute(cover?.image);
      }
      return {
        "@context": ACTOR_CONTEXT,
        id: u.actor(id),
        type: actor.userId ? "Person" : "Organization",
        preferredUsername: actor.handle,
        name,
        summary: escapeHtml(summary),
        url: u.profile(id),
        inbox: u.inbox(id),
        outbox: u.outbox(id),
        followers: u.followers(id),
        following: u.following(id),
        endpoints: { sharedInbox: u.sharedInbox },
        manuallyApprovesFollowers: false,
        discoverable: true,
        indexable: true,
        published: new Date(actor.createdAt).toISOString(),
        ...(icon ? { icon: { type: "Image", url: icon } } : {}),
        ...(header ? { image: { type: "Image", url: header } } : {}),
        publicKey: { id: u.key(id), owner: u.actor(id), publicKeyPem: actor.publicKeyPem },
        // FEP-521a: the Ed25519 key of its object integrity proofs, next to the RSA key of its HTTP signatures.
        assertionMethod: [
          {
            id: `${u.actor(id)}#ed25519-key`,
            type: "Multikey",
            controller: u.actor(id),
            publicKeyMultibase: (await ensureEd25519(db, actor)).edPublicMultibase,
          },
        ],
      };
    },

    /** How many writers have published (NodeInfo's users), and the posts that are public. */
    async usage(): Promise<{ users: number; posts: number }> {
      const [writers, posts] = await db.batch([
        db
          .select({ n: sql<number>`count(distinct ${schema.blogs.authorId})` })
          .from(schema.blogs)
          .where(visibleBlogsWhere()),
        db
          .select({ n: sql<number>`count(*)` })
          .from(schema.blogs)
          .where(visibleBlogsWhere()),
      ]);
      return { users: writers[0]?.n ?? 0, posts: posts[0]?.n ?? 0 };
    },
  };
}

export type LocalActors = ReturnType<typeof createLocalActors>;
