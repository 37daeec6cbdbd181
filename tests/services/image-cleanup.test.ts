import { env } from "cloudflare:workers";
import { createExecutionContext, waitOnExecutionContext } from "cloudflare:test";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import worker from "#worker/index.ts";
import { schema } from "#worker/db.ts";
import { createServices } from "#worker/services/index.ts";
import { ORPHAN_GRACE_MS } from "#worker/services/images/cleanup.ts";
import type { Actor } from "#worker/services/shared/policy.ts";
import { db, makeBlog, makeUser } from "../support/factories";
import { PNG } from "../support/pages";

const services = () => createServices(env);
const asActor = (u: { id: string; name: string; email: string; role: "user" | "admin" }): Actor => ({
  ...u,
  photoURL: null,
});
const stored = async (url: string) => (await env.IMAGES.head(url.slice("/images/".length))) !== null;
const rowOf = (url: string) =>
  db().query.images.findFirst({ where: eq(schema.images.key, url.slice("/images/".length)) });

/** A real upload through the service: an R2 object and its row. */
async function uploaded(owner: Actor): Promise<string> {
  const { url } = await services().images.upload(owner, async () => ({
    image: new File([PNG], "x.png", { type: "image/png" }),
    expiration: undefined,
  }));
  return url;
}

describe("images leave R2 with the records that showed them", () => {
  it("a deleted post takes its cover and the images in its text, but not one another post still shows", async () => {
    const writer = asActor(await makeUser());
    const cover = await uploaded(writer);
    const inText = await uploaded(writer);
    const shared = await uploaded(writer);
    const post = await makeBlog(writer, { image: cover, blogDetails: `Look: ![a bay](${inText}) and ![b](${shared})` });
    await makeBlog(writer, { image: shared });

    expect(await services().blogs.remove(writer, post.id)).toEqual({ deletedCount: 1 });
    expect(await stored(cover)).toBe(false);
    expect(await rowOf(cover)).toBeUndefined();
    expect(await stored(inText)).toBe(false);
    expect(await stored(shared)).toBe(true);
    expect(await rowOf(shared)).toBeDefined();
  });

  it("an image in a paid post's gated part (not in the search index, migration 0034) is still shown", async () => {
    const writer = asActor(await makeUser());
    const gatedImage = await uploaded(writer);
    const post = await makeBlog(writer, { blogDetails: "Free." });
    await makeBlog(writer, {
      blogDetails: `Free.\n\n<!--members-only-->\n\n![paid](${gatedImage})`,
      visibility: "paid",
    });
    // Deleting another post asks whether its images are shown anywhere; the gated one is.
    await makeBlog(writer, { blogDetails: `![again](${gatedImage})` }).then((p) =>
      services().blogs.remove(writer, p.id),
    );
    expect(await stored(gatedImage)).toBe(true);
    expect(await services().blogs.remove(writer, post.id)).toEqual({ deletedCount: 1 });
    expect(await rowOf(gatedImage)).toBeDefined();
  });

  it("a replaced cover stays while a kept revision can restore it, and goes with the post", async () => {
    const writer = asActor(await makeUser());
    const first = await uploaded(writer);
    const second = await uploaded(writer);
    const post = await makeBlog(writer, { image: first });
    await services().blogs.update(writer, post.id, { image: second });
    // The revision history keeps the first cover, so a restore brings back a real picture.
    expect(await stored(first)).toBe(true);
    await services().blogs.remove(writer, post.id);
    expect(await stored(first)).toBe(false);
    expect(await stored(second)).toBe(false);
    expect(await rowOf(first)).toBeUndefined();
  });

  it("a deleted review and a deleted author take their images", async () => {
    const admin = asActor(await makeUser({ role: "admin" }));
    const face = await uploaded(admin);
    const portrait = await uploaded(admin);
    const { insertedId: reviewId } = await services().reviews.create(admin, {
      name: "Rae",
      designation: "Reader",
      review: "Lovely site.",
      rating: 5,
      image: face,
    });
    const { insertedId: authorId } = await services().authors.create(admin, {
      name: "Ann Author",
      bio: "Writes.",
      image: portrait,
    });
    await services().reviews.remove(admin, reviewId);
    await services().authors.remove(admin, authorId);
    expect(await stored(face)).toBe(false);
    expect(await stored(portrait)).toBe(false);
  });

  it("a deleted account takes its photo, its posts' covers and its unused uploads", async () => {
    const admin = asActor(await makeUser({ role: "admin" }));
    const user = asActor(await makeUser());
    const photo = await uploaded(user);
    const cover = await uploaded(user);
    const spare = await uploaded(user);
    await db().update(schema.users).set({ photoUrl: photo }).where(eq(schema.users.id, user.id));
    await makeBlog(user, { image: cover });
    // An image of theirs that someone else's post shows stays.
    const kept = await uploaded(user);
    await makeBlog(admin, { image: kept });

    await services().users.remove(admin, user.id);
    for (const gone of [photo, cover, spare]) expect(await stored(gone), gone).toBe(false);
    expect(await stored(kept)).toBe(true);
  });

  it("a failing R2 delete never fails the write, and the hourly sweep removes what it left", async () => {
    const writer = asActor(await makeUser());
    const cover = await uploaded(writer);
    const post = await makeBlog(writer, { image: cover });
    const brokenR2 = new Proxy(env.IMAGES, {
      get(target, prop) {
        if (prop === "delete") return async () => Promise.reject(new Error("R2 is down"));
        return Reflect.get(target, prop);
      },
    });
    const broken = createServices({ ...env, IMAGES: brokenR2 });
    expect(await broken.blogs.remove(writer, post.id)).toEqual({ deletedCount: 1 });
    expect(await db().query.blogs.findFirst({ where: eq(schema.blogs.id, post.id) })).toBeUndefined();
    expect(await stored(cover)).toBe(true);

    // Within a day it is left alone (an upload may be on its way into a record); after that it goes.
    expect(await services().imageCleanup.sweepOrphans(Date.now())).toBe(0);
    await services().imageCleanup.sweepOrphans(Date.now() + ORPHAN_GRACE_MS * 2);
    expect(await stored(cover)).toBe(false);
  });

  it("the sweep keeps row-less objects that records still show (the seed's images)", async () => {
    const writer = await makeUser();
    const key = `seed-kept-${Date.now().toString(36)}.png`;
    await env.IMAGES.put(key, PNG, { httpMetadata: { contentType: "image/png" } });
    await makeBlog(writer, { image: `/images/${key}` });
    await services().imageCleanup.sweepOrphans(Date.now() + ORPHAN_GRACE_MS * 2);
    expect(await env.IMAGES.head(key)).not.toBeNull();
  });
});

describe("images inside a post's text (The editor's uploads)", () => {
  it("an inline image stays through edits and the sweep while the text shows it, and goes when it no longer does", async () => {
    const writer = asActor(await makeUser());
    const inline = await uploaded(writer);
    const other = await uploaded(writer);
    const post = await makeBlog(writer, { image: other, blogDetails: "Words." });
    // The editor inserted it into the text; the cover is replaced by another upload.
    await services().blogs.update(writer, post.id, { blog_details: `Words.\n![harbour](${inline})` });
    await services().blogs.update(writer, post.id, { image: await uploaded(writer) });
    await services().imageCleanup.sweepOrphans(Date.now() + ORPHAN_GRACE_MS * 2);
    expect(await stored(inline)).toBe(true);
    expect(await rowOf(inline)).toBeDefined();
    // Deleted with the post that showed it (and its revisions).
    await services().blogs.remove(writer, post.id);
    expect(await stored(inline)).toBe(false);
  });
});

describe("R2 failing on upload", () => {
  it("answers 503 storage-unavailable and records no row", async () => {
    const user = await makeUser();
    const before = (await db().select().from(schema.images).where(eq(schema.images.ownerId, user.id))).length;
    const brokenR2 = new Proxy(env.IMAGES, {
      get(target, prop) {
        if (prop === "put") return async () => Promise.reject(new Error("R2 is down"));
        return Reflect.get(target, prop);
      },
    });
    const { createServices: make } = await import("#worker/services/index.ts");
    const token = (await make(env).sessions.start(user)).token;
    const body = new FormData();
    body.append("image", new File([PNG], "x.png", { type: "image/png" }));
    const ctx = createExecutionContext();
    const res = await worker.fetch(
      new Request("https://blog.test/api/images", {
        method: "POST",
        body,
        headers: { Authorization: `Bearer ${token}` },
      }) as Request<unknown, IncomingRequestCfProperties>,
      { ...env, IMAGES: brokenR2 },
      ctx,
    );
    await waitOnExecutionContext(ctx);
    expect(res.status).toBe(503);
    expect(await res.json()).toMatchObject({ error: { code: "storage-unavailable" } });
    const after = (await db().select().from(schema.images).where(eq(schema.images.ownerId, user.id))).length;
    expect(after).toBe(before);
  });
});
