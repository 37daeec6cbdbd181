import { ValidationError } from "#worker/services/shared/errors.ts";
import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import { createServices } from "#worker/services/index.ts";
import type { Actor } from "#worker/services/shared/policy.ts";
import { anyWordQuery, ftsQuery, markedHtml, searchTerms } from "#worker/services/search.ts";
import { makeBlog, makeUser } from "../support/factories";

const services = () => createServices(env);
const at = (day: number) => new Date(Date.UTC(2026, 1, day, 9)).toISOString();
// A word no other test file writes, so totals are exact even when files share D1.
const tag = `zq${Date.now().toString(36)}${Math.random().toString(36).slice(2, 8)}`;
const titles = (page: { items: { title: string }[] }) => page.items.map((b) => b.title);
const actor = (u: { id: string; name: string; email: string; role?: "user" | "admin" | null }): Actor => ({
  id: u.id,
  name: u.name,
  email: u.email,
  role: u.role ?? "user",
  photoURL: null,
});
/** Index entries without their post, plus posts without their entry: 0 when the index is in sync. */
const indexDrift = async () =>
  (
    await env.DB.prepare(
      "select (select count(*) from blog_search where rowid not in (select rowid from blogs)) + (select count(*) from blogs where rowid not in (select rowid from blog_search)) as n",
    ).first<{ n: number }>()
  )?.n;
const blogInput = (overrides: Record<string, unknown> = {}) => ({
  title: "A title",
  short_description: "A short description.",
  blog_details: "A body.",
  category: "Science",
  date_time: "2026-01-05T10:00",
  image: "https://example.com/a.png",
  ...overrides,
});

describe("full-text search", () => {
  beforeAll(async () => {
    const author = await makeUser({ name: "Grace Hopper" });
    // Newer, but the word is only in the body: the title match must still rank first.
    await makeBlog(author, {
      title: `Notes from a trip ${tag}`,
      shortDescription: "Mountains and rivers",
      blogDetails: "We walked up to the volcano crater at dawn.",
      category: "Travel",
      dateTime: at(9),
    });
    await makeBlog(author, {
      title: `The volcano handbook ${tag}`,
      shortDescription: "Everything about eruptions",
      blogDetails: "Lava, ash and gas.",
      category: "Science",
      dateTime: at(1),
    });
    await makeBlog(author, {
      title: `Café culture in Lisbon ${tag}`,
      shortDescription: "Pastéis and espresso",
      blogDetails: 'Order a bica. <script>alert("x")</script> & more "quotes" at the crêperie.',
      category: "Food",
      dateTime: at(2),
    });
    await makeBlog(author, {
      title: `Hidden draft ${tag}`,
      blogDetails: "secretword",
      status: "draft",
      dateTime: at(3),
    });
    await makeBlog(author, {
      title: `Future post ${tag}`,
      blogDetails: "secretword",
      status: "scheduled",
      publishAt: Date.now() + 86_400_000,
      dateTime: at(4),
    });
    await makeBlog(author, {
      title: `Due post ${tag}`,
      blogDetails: "secretword",
      status: "scheduled",
      publishAt: Date.now() - 60_000,
      dateTime: at(5),
    });
    for (let day = 10; day <= 14; day++) {
      await makeBlog(author, { title: `Paging post ${day} ${tag}`, blogDetails: "pagingword", dateTime: at(day) });
    }
  });

  it("ranks a title match above a body match, whatever the dates", async () => {
    const hits = await services().blogs.search({ q: `volcano ${tag}` });
    expect(titles(hits)).toEqual([`The volcano handbook ${tag}`, `Notes from a trip ${tag}`]);
    expect(hits.total).toBe(2);
  });

  it("matches the last word as a prefix, as a reader types", async () => {
    expect(titles(await services().blogs.search({ q: `${tag} volc` }))).toHaveLength(2);
    expect(titles(await services().blogs.search({ q: `${tag} handb` }))).toEqual([`The volcano handbook ${tag}`]);
    // Only the last word is a prefix: a finished word must match whole.
    expect((await services().blogs.search({ q: `volc ${tag}` })).total).toBe(0);
  });

  it("folds case and accents both ways", async () => {
    for (const q of [`cafe ${tag}`, `CAFÉ ${tag}`, `café ${tag}`, `pasteis ${tag}`, `${tag} crepe`]) {
      expect(titles(await services().blogs.search({ q })), q).toEqual([`Café culture in Lisbon ${tag}`]);
    }
  });

  it("finds words in the category and the writer's name", async () => {
    expect((await services().blogs.search({ q: `Travel ${tag}` })).items.map((b) => b.category)).toContain("Travel");
    expect((await services().blogs.search({ q: `hopper ${tag}` })).total).toBe(9);
  });

  it("highlights the title and a snippet with <mark>, escaping everything the writer wrote", async () => {
    const [hit] = (await services().blogs.search({ q: `${tag} bica` })).items;
    expect(hit?.highlight?.title).toBe(`Café culture in Lisbon <mark>${tag}</mark>`);
    const snippet = hit?.highlight?.snippet ?? "";
    expect(snippet).toContain("<mark>bica</mark>");
    expect(snippet).toContain("&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; more &quot;quotes&quot;");
    expect(snippet.replaceAll(/<\/?mark>/g, "")).not.toMatch(/[<>]/);
    // Only our own markers become tags, always balanced; stray ones are dropped.
    expect(markedHtml("\u0001a\u0001<b>\u0002\u0002 c\u0001d")).toBe("<mark>a&lt;b&gt;</mark> c<mark>d</mark>");
    // Without words there is nothing to highlight.
    expect((await services().blogs.search({ page: 1 })).items[0]?.highlight).toBeUndefined();
  });

  it('answers reader input that is FTS syntax as plain words, never an error: " AND * ( NEAR( - : ^', async () => {
    const odd = ['"', "AND", "*", "(", "NEAR(", "-", ":", "^", "OR", "NOT", ")", '"unclosed', "title:x", "a*b", "{x}"];
    for (const q of odd) {
      await expect(services().blogs.search({ q }), q).resolves.toMatchObject({ page: 1 });
      await expect(services().blogs.search({ q: `${tag} ${q}` }), q).resolves.toMatchObject({ page: 1 });
      await expect(services().blogs.search({ q: `${q} ${tag}` }), q).resolves.toMatchObject({ page: 1 });
    }
    // Punctuation alone is no word: the tag alone decides.
    expect((await services().blogs.search({ q: `( ${tag} - : *` })).total).toBe(9);
    // A quoted phrase with its quotes is still just the words.
    expect(titles(await services().blogs.search({ q: `"volcano handbook" ${tag}` }))).toEqual([
      `The volcano handbook ${tag}`,
    ]);
    expect(ftsQuery('a"b NEAR( xy')).toBe('"a""b" "NEAR(" "xy"*');
    expect(ftsQuery(" - : ")).toBeNull();
    // Punctuation alone finds nothing (not everything).
    expect((await services().blogs.search({ q: ' ( "* : - ' })).total).toBe(0);
    expect(searchTerms("aa bb cc dd ee ff gg hh ii jj kk")).toHaveLength(8);
    expect(anyWordQuery("The Sky, and a sea!")).toBe('"the" OR "sky" OR "and" OR "sea"');
  });

  it("never finds drafts or posts scheduled for later; finds a scheduled post whose time came", async () => {
    expect(titles(await services().blogs.search({ q: `secretword ${tag}` }))).toEqual([`Due post ${tag}`]);
    expect((await services().blogs.search({ q: `hidden ${tag}` })).total).toBe(0);
    expect((await services().blogs.search({ q: `future ${tag}` })).total).toBe(0);
  });

  it("filters by category and paginates ranked results with the total", async () => {
    expect(titles(await services().blogs.search({ q: `volcano ${tag}`, category: "Travel" }))).toEqual([
      `Notes from a trip ${tag}`,
    ]);
    expect((await services().blogs.search({ q: `volcano ${tag}`, category: "Cooking" })).total).toBe(0);
    const first = await services().blogs.search({ q: `pagingword ${tag}`, page: 1 });
    expect(first).toMatchObject({ total: 5, page: 1, limit: 4, pages: 2 });
    // Equal relevance falls back to newest first.
    expect(titles(first)).toEqual([14, 13, 12, 11].map((d) => `Paging post ${d} ${tag}`));
    const second = await services().blogs.search({ q: `pagingword ${tag}`, page: "2" });
    expect(titles(second)).toEqual([`Paging post 10 ${tag}`]);
  });

  it("says nothing matched rather than failing on odd input", async () => {
    const odd = await services().blogs.search({ q: { $ne: 1 }, category: ["AI"] });
    expect(odd).toMatchObject({ items: [], total: 0, page: 1 });
    // A page that is not a page number is a 400 (the pagination helper), never a 500 nor a guess.
    await expect(services().blogs.search({ q: tag, page: "x" })).rejects.toBeInstanceOf(ValidationError);
    const huge = await services().blogs.search({ q: `${tag} ${"x".repeat(100_000)}` });
    expect(huge.items).toEqual([]);
  });

  it("keeps page() as the unfiltered search", async () => {
    const all = await services().blogs.page({ page: 1, limit: 4 });
    const search = await services().blogs.search({ page: 1, limit: 4 });
    expect(all).toEqual(search);
  });
});

describe("the search index follows every write", () => {
  it("indexes a created post, re-indexes an edit, and drops a deleted post", async () => {
    const word = `sync${tag}`;
    const writer = actor(await makeUser({ name: "Sync Writer" }));
    const { insertedId } = await services().blogs.create(writer, blogInput({ title: `Original ${word}` }));
    expect(titles(await services().blogs.search({ q: `original ${word}` }))).toEqual([`Original ${word}`]);

    await services().blogs.update(writer, insertedId, {
      title: `Renamed ${word}`,
      blog_details: "Fresh tidepool text",
    });
    expect((await services().blogs.search({ q: `original ${word}` })).total).toBe(0);
    expect(titles(await services().blogs.search({ q: `renamed tidepool ${word}` }))).toEqual([`Renamed ${word}`]);

    // A likes-only change leaves the index alone, and the post still found once.
    await env.DB.prepare("update blogs set likes = likes + 1 where id = ?").bind(insertedId).run();
    expect(await indexDrift()).toBe(0);
    expect((await services().blogs.search({ q: word })).total).toBe(1);

    await services().blogs.remove(writer, insertedId);
    expect((await services().blogs.search({ q: word })).total).toBe(0);
    expect(await indexDrift()).toBe(0);
  });

  it("drops a deleted user's posts, and follows a changed writer name", async () => {
    const word = `gone${tag}`;
    const admin = actor(await makeUser({ role: "admin" }));
    const user = await makeUser({ name: "Leaving Writer" });
    const blog = await makeBlog(user, { title: `Soon gone ${word}` });
    expect((await services().blogs.search({ q: `leaving ${word}` })).total).toBe(1);

    await env.DB.prepare("update blogs set author_name = 'Renamed Person' where id = ?").bind(blog.id).run();
    expect((await services().blogs.search({ q: `leaving ${word}` })).total).toBe(0);
    expect((await services().blogs.search({ q: `renamed person ${word}` })).total).toBe(1);

    await services().users.remove(admin, user.id);
    expect((await services().blogs.search({ q: word })).total).toBe(0);
    expect(await indexDrift()).toBe(0);
  });

  it("is rebuilt from the blogs table by scripts/search-rebuild.sql", async () => {
    const word = `rebuild${tag}`;
    const user = await makeUser();
    await makeBlog(user, { title: `Rebuilt ${word}` });
    await env.DB.prepare("delete from blog_search where rowid in (select rowid from blogs where title like ?)")
      .bind(`%${word}`)
      .run();
    expect((await services().blogs.search({ q: word })).total).toBe(0);
    // The same statements as the script (tests cannot read files; scripts/search-rebuild.sql is the source).
    await env.DB.batch([
      env.DB.prepare("DELETE FROM blog_search"),
      env.DB.prepare(
        "INSERT INTO blog_search (rowid, title, short_description, blog_details, category, author_name) SELECT rowid, title, short_description, blog_details, category, author_name FROM blogs",
      ),
      env.DB.prepare("INSERT INTO blog_search (blog_search) VALUES ('optimize')"),
    ]);
    expect((await services().blogs.search({ q: word })).total).toBe(1);
  });
});

describe("related posts", () => {
  it("shows at most three visible posts, never the post itself: same category first, then the most similar", async () => {
    const word = `rel${tag}`;
    const author = await makeUser({ name: "Related Writer" });
    const post = await makeBlog(author, { title: `Lisbon trams ${word}`, category: "Travel", dateTime: at(1) });
    // Same category and similar title: these two come first, the closer one (two shared words) on top.
    const closest = await makeBlog(author, {
      title: `Lisbon trams at night ${word}`,
      category: "Travel",
      dateTime: at(2),
    });
    const close = await makeBlog(author, { title: `Porto ${word}`, category: "Travel", dateTime: at(3) });
    // Similar, but another category: below every post of the same category.
    await makeBlog(author, { title: `Lisbon trams economics ${word}`, category: "Finance", dateTime: at(4) });
    // Same category and very similar, but a draft: never shown.
    await makeBlog(author, {
      title: `Lisbon trams draft ${word}`,
      category: "Travel",
      status: "draft",
      dateTime: at(5),
    });
    const other = await makeBlog(author, { title: `Travel without a match`, category: "Travel", dateTime: at(6) });

    const { related } = await services().reading.post(null, post.id);
    expect(related).toHaveLength(3);
    expect(related.map((b) => b._id)).not.toContain(post.id);
    expect(related.every((b) => b.category === "Travel")).toBe(true);
    expect(related.every((b) => b.status === "published")).toBe(true);
    expect(related.slice(0, 2).map((b) => b._id)).toEqual([closest.id, close.id]);
    expect(related.map((b) => b.title)).not.toContain(`Lisbon trams draft ${word}`);
    void other;

    // A post alone in its category is followed by the most similar posts of other categories.
    const lonely = await makeBlog(author, {
      title: `Lisbon trams lonely ${word}`,
      category: "Finance",
      dateTime: at(7),
    });
    const next = await services().reading.post(null, lonely.id);
    expect(next.related[0]?.title).toBe(`Lisbon trams economics ${word}`);
    expect(next.related.map((b) => b._id)).not.toContain(lonely.id);
  });
});

describe("search caps", () => {
  it("needs at least two characters a term: a one-letter search ranks nothing", () => {
    expect(ftsQuery("a")).toBeNull();
    expect(ftsQuery("a b c")).toBeNull();
    expect(ftsQuery("a go")).toBe('"go"*');
  });
});
