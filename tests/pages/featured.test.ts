import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { FEATURED_BLOGS } from "#app/lib/content.ts";
import { schema } from "#worker/db.ts";
import { db, makeBlog, makeUser } from "../support/factories";
import { flashOf } from "../support/flash";
import { getPage, postForm } from "../support/pages";

type User = Awaited<ReturnType<typeof makeUser>>;
let admin: User;
let writer: User;
let member: User;

/** The Featured Blogs section of the home page, as a visitor gets it (the shared copy). */
async function featuredSection() {
  const html = await (await getPage("/", null)).text();
  return html.slice(html.indexOf('data-testid="featured"'), html.indexOf(">Most Popular Categories</h2>"));
}

const featuredAt = async (id: string) =>
  (await db().query.blogs.findFirst({ where: eq(schema.blogs.id, id), columns: { featuredAt: true } }))?.featuredAt;

const feature = (id: string, on: boolean, who: User | null = admin) =>
  postForm("/dashboard/manageAllBlogs", who, { intent: "feature", id, featured: on ? "1" : "0" });

beforeAll(async () => {
  admin = await makeUser({ role: "admin" });
  writer = await makeUser({ name: "Fay Featured" });
  member = await makeUser();
});

describe("Featured Blogs", () => {
  it("an admin's pick shows on the home page at once (purged), before the fixed cards that fill the rest", async () => {
    const post = await makeBlog(writer, { title: "Picked by the editors" });
    expect(await featuredSection()).not.toContain("Picked by the editors");
    const res = await feature(post.id, true);
    expect(res.status).toBe(302);
    expect(flashOf(res)).toMatchObject({ title: "Featured on the home page." });
    expect(await featuredAt(post.id)).toEqual(expect.any(Number));

    const section = await featuredSection();
    expect(section).toContain("Picked by the editors");
    expect(section).toContain(`href="/blogs/${post.id}/picked-by-the-editors"`);
    // One real pick and five of the spec's fixed cards: six in all, the pick first.
    expect(section.indexOf("Picked by the editors")).toBeLessThan(section.indexOf(FEATURED_BLOGS[0]!.title));
    expect(FEATURED_BLOGS.slice(0, 5).every((f) => section.includes(f.title))).toBe(true);
    expect(section).not.toContain(FEATURED_BLOGS[5]!.title);

    await feature(post.id, false);
    expect(await featuredAt(post.id)).toBeNull();
    expect(await featuredSection()).not.toContain("Picked by the editors");
  });

  it("drafts and posts scheduled for later never show, even when picked (the visible-blogs rule)", async () => {
    const draft = await makeBlog(writer, { title: "Unfinished pick", status: "draft" });
    const later = await makeBlog(writer, {
      title: "Tomorrow's pick",
      status: "scheduled",
      publishAt: Date.now() + 86_400_000,
    });
    await feature(draft.id, true);
    await feature(later.id, true);
    const section = await featuredSection();
    expect(section).not.toContain("Unfinished pick");
    expect(section).not.toContain("Tomorrow's pick");
    await feature(draft.id, false);
    await feature(later.id, false);
  });

  it("with six or more picks shows the six newest and none of the fixed cards", async () => {
    const picks = [];
    for (let i = 0; i < 7; i++) {
      const post = await makeBlog(writer, {
        title: `Pick number ${i}`,
        dateTime: new Date(Date.UTC(2030, 0, 1 + i)).toISOString(),
      });
      await feature(post.id, true);
      picks.push(post);
    }
    const section = await featuredSection();
    for (let i = 1; i < 7; i++) expect(section).toContain(`Pick number ${i}`);
    expect(section).not.toContain("Pick number 0");
    expect(FEATURED_BLOGS.some((f) => section.includes(f.title))).toBe(false);
    for (const p of picks) await feature(p.id, false);
  });

  it("Manage All Blogs shows the toggle pressed for a pick; only admins may pick", async () => {
    const post = await makeBlog(writer, { title: "Toggle me" });
    await feature(post.id, true);
    const html = await (await getPage(`/dashboard/manageAllBlogs?q=${encodeURIComponent("Toggle me")}`, admin)).text();
    expect(html).toMatch(
      /aria-pressed="true"[^>]*>.*?Featured<span class="sr-only"> on the home page: (<!-- -->)?Toggle me/s,
    );
    const other = await makeBlog(writer, { title: "Not for members" });
    expect((await feature(other.id, true, member)).status).toBe(403);
    expect((await feature(other.id, true, null)).status).toBe(302);
    expect(await featuredAt(other.id)).toBeNull();
    expect((await feature("abcdefghij0123456789", true)).status).toBe(404);
    await feature(post.id, false);
  });
});
