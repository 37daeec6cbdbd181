import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import { createDb } from "#worker/db.ts";
import { countQuery, visibleList } from "#worker/services/blogs/lists.ts";
import { createServices } from "#worker/services/index.ts";
import type { Actor } from "#worker/services/shared/policy.ts";
import { clearContent, makeBlog, makeUser } from "../support/factories";

/**
 * Every hot list's queries run with EXPLAIN QUERY PLAN: none may read a whole table of
 * blogs, users, comments, likes, saves or views. A covering-index scan (an aggregate or an ordered
 * LIMIT walking an index) is allowed; "SCAN <table>" with no index is the failure this test exists for.
 */
const WATCHED = new Set(["blogs", "users", "comments", "blog_likes", "saved_blogs", "blog_views_daily"]);

type Recorded = { sql: string; params: unknown[] };

/** A D1 binding that remembers every statement the services run (SQL and bound values). */
function recordingD1(d1: D1Database): { db: D1Database; statements: Recorded[] } {
  const statements: Recorded[] = [];
  const meta = new WeakMap<object, Recorded>();
  const originals = new WeakMap<object, D1PreparedStatement>();
  const RUNS = new Set<PropertyKey>(["all", "raw", "first", "run"]);
  const wrap = (statement: D1PreparedStatement, rec: Recorded): D1PreparedStatement => {
    const proxy = new Proxy(statement, {
      get(target, prop) {
        const value = Reflect.get(target, prop, target);
        if (prop === "bind") return (...args: unknown[]) => wrap(target.bind(...args), { sql: rec.sql, params: args });
        if (RUNS.has(prop)) {
          return (...args: unknown[]) => {
            statements.push(rec);
            return (value as (...a: unknown[]) => unknown).apply(target, args);
          };
        }
        return typeof value === "function" ? value.bind(target) : value;
      },
    });
    meta.set(proxy, rec);
    originals.set(proxy, statement);
    return proxy;
  };
  const handler: ProxyHandler<D1Database> = {
    get(target, prop) {
      const value = Reflect.get(target, prop, target);
      if (prop === "withSession") {
        return (start?: string) => new Proxy(target.withSession(start) as unknown as D1Database, handler);
      }
      if (prop === "prepare") return (query: string) => wrap(target.prepare(query), { sql: query, params: [] });
      if (prop === "batch") {
        return (list: D1PreparedStatement[]) => {
          for (const s of list) statements.push(meta.get(s) ?? { sql: "?", params: [] });
          return target.batch(list.map((s) => originals.get(s) ?? s));
        };
      }
      return typeof value === "function" ? value.bind(target) : value;
    },
  };
  return { db: new Proxy(d1, handler), statements };
}

/** Table aliases a statement declares ("from blog_views_daily v", "join comments c"). */
function aliasesOf(sql: string): Map<string, string> {
  const map = new Map<string, string>();
  for (const m of sql.matchAll(/\b(?:from|join)\s+"?(\w+)"?\s+(?:as\s+)?"?(\w+)"?/gi)) {
    const [, table, alias] = m;
    if (table && alias && !/^(where|on|order|group|limit|inner|left|cross|join|as|select)$/i.test(alias)) {
      map.set(alias, table);
    }
  }
  return map;
}

/** The plan lines that read a whole watched table without an index. */
async function fullScans({ sql, params }: Recorded): Promise<string[]> {
  if (!/^\s*(select|with)\b/i.test(sql) && !/\bwhere\b/i.test(sql)) return [];
  const plan = await env.DB.prepare(`EXPLAIN QUERY PLAN ${sql}`)
    .bind(...params)
    .all<{ detail: string }>();
  const aliases = aliasesOf(sql);
  const lines = plan.results.map((r) => r.detail);
  return lines.filter((detail, i) => {
    const m = /^SCAN "?(\w+)"?/.exec(detail);
    if (!m || /VIRTUAL TABLE/.test(detail)) return false;
    if (!WATCHED.has(aliases.get(m[1]!) ?? m[1]!)) return false;
    // Once per row of an outer query, even walking a whole index is a full scan per row.
    if (lines[i - 1]?.startsWith("CORRELATED")) return true;
    return !/USING/.test(detail);
  });
}

const actor = (u: { id: string; name: string; email: string; role?: string }): Actor => ({
  id: u.id,
  name: u.name,
  email: u.email,
  role: u.role === "admin" ? "admin" : "user",
  photoURL: null,
});

describe("query plans of every list", () => {
  let writer: Actor;
  let reader: Actor;
  let admin: Actor;
  let blogId: string;

  beforeAll(async () => {
    await clearContent();
    writer = actor(await makeUser({ name: "Plan Writer" }));
    reader = actor(await makeUser({ name: "Plan Reader" }));
    admin = actor(await makeUser({ name: "Plan Admin", role: "admin" }));
    for (let i = 0; i < 5; i++) {
      blogId = (await makeBlog(writer, { title: `Plan post ${i}`, tags: "Plan" })).id;
      await env.DB.prepare("insert into blog_tags (tag, blog_id, name) values ('plan', ?, 'Plan')").bind(blogId).run();
    }
    const s = createServices(env);
    await s.comments.create(reader, blogId, { body: "A comment" });
    await s.savedBlogs.save(reader, { blogId });
    await s.likes.toggle(reader, blogId);
  });

  it("reads no whole table of blogs, users, comments, likes, saves or views", async () => {
    const { db, statements } = recordingD1(env.DB);
    const s = createServices({ ...env, DB: db });
    const first = await s.blogs.list({ limit: 2 });
    const lists: [string, () => Promise<unknown>][] = [
      ["GET /api/blogs", () => s.blogs.list({})],
      ["GET /api/blogs?page=3", () => s.blogs.list({ page: 3, limit: 1 })],
      ["GET /api/blogs?cursor", () => s.blogs.list({ cursor: first.next, limit: 2 })],
      ["GET /api/blog?email= (the writer's own)", () => s.blogs.byAuthorEmail({ email: writer.email }, writer)],
      ["GET /api/blog?email= (a contact address)", () => s.blogs.byAuthorEmail({ email: "contact@public.example" })],
      ["/allBlogs", () => s.reading.listing(null, { page: 2 })],
      ["/allBlogs signed in", () => s.reading.listing(reader, {})],
      ["/allBlogs?category=", () => s.reading.listing(null, { category: "Technology" })],
      ["/allBlogs?q=", () => s.reading.listing(null, { q: "plan post" })],
      ["/allBlogs?tag= and /tags/{tag}", () => s.blogs.search({ tag: "plan", page: 2 }, 12)],
      ["/allBlogs?q=#tag words", () => s.reading.listing(null, { q: "#plan post" })],
      ["/tags/{tag}/rss.xml", () => s.feeds.latestForRss(undefined, "plan")],
      ["/tags", () => s.tags.index({})],
      ["/tags?page=2", () => s.tags.index({ page: 2, limit: 1 })],
      ["/tags/{tag} with its spelling", () => s.tags.page("plan", { page: 1 }, 12)],
      ["a tag's feed title", () => s.tags.find("Plan")],
      ["/blogs/{id}", () => s.reading.post(reader, blogId)],
      ["comments", () => s.comments.list(blogId, { limit: 1 })],
      ["/dashboard/comments (writer)", () => s.comments.onMyPosts(writer, { page: 1 })],
      ["/dashboard/comments (admin)", () => s.commentReports.reported(admin, {})],
      ["dashboard menu counts", () => s.dashboard.menuCounts(admin)],
      ["/writers/{id}", () => s.writers.page(writer.id, { page: 1 })],
      ["/Profile", () => s.profiles.overview(writer)],
      ["My Blogs / Manage Blogs", () => s.blogs.ownPage(writer, { page: 1 })],
      ["Manage All Blogs", () => s.blogs.adminPage(admin, {})],
      ["Manage All Blogs ?q=title", () => s.blogs.adminPage(admin, { q: "plan" })],
      ["Manage All Blogs ?q=email", () => s.blogs.adminPage(admin, { q: writer.email.slice(0, 8) + "@" })],
      ["Manage Users", () => s.users.list(admin, {})],
      ["Manage Users ?q=name", () => s.users.list(admin, { q: "plan rea" })],
      ["Manage Users ?q=email", () => s.users.list(admin, { q: reader.email.slice(0, 10) + "@" })],
      ["/saved", () => s.savedBlogs.page(reader, {})],
      ["GET /api/saved-blogs", () => s.savedBlogs.list(reader, { email: reader.email })],
      ["Stats (writer)", () => s.views.stats(writer)],
      ["Stats (admin)", () => s.views.stats(admin)],
      ["home", () => s.home.load()],
      ["rss", () => s.feeds.latestForRss()],
      ["sitemap index", () => s.feeds.sitemapFiles()],
      ["sitemap file", () => s.feeds.postsForSitemap(1)],
      ["publisher cron", () => s.blogs.publishDue()],
      ["image release", () => s.imageCleanup.release(["/images/plan-image-0001.png"])],
    ];
    const failures: string[] = [];
    for (const [name, run] of lists) {
      statements.length = 0;
      await run();
      expect(statements.length, name).toBeGreaterThan(0);
      for (const statement of statements) {
        const scans = await fullScans(statement);
        if (scans.length) failures.push(`${name}: ${scans.join("; ")}\n    ${statement.sql}`);
      }
    }
    expect(failures).toEqual([]);
  });

  it("counts the due scheduled posts of a writer, email, category or tag on the scheduled index, not all their posts", async () => {
    // Left to itself SQLite took the writer's index for `author_id = ?` and walked all of a writer's
    // 100,000 posts to find the few scheduled ones: 40 to 60 ms per count (bench:scale).
    const db = createDb(env.DB);
    const scopes = [
      { by: "all" },
      { by: "author", key: writer.id },
      { by: "email", key: writer.email },
      { by: "category", key: "Technology" },
      { by: "tag", key: "plan" },
    ] as const;
    for (const scope of scopes) {
      const { sql, params } = countQuery(db, visibleList(scope)).toSQL();
      const plan = await env.DB.prepare(`EXPLAIN QUERY PLAN ${sql}`)
        .bind(...params)
        .all<{ detail: string }>();
      const reads = plan.results.map((r) => r.detail).filter((d) => /^(SEARCH|SCAN) blogs\b/.test(d));
      expect(reads, scope.by).toHaveLength(1);
      expect(reads[0], scope.by).toMatch(
        /^SEARCH blogs USING (COVERING )?INDEX blogs_scheduled_idx \(publish_at<\?\)$/,
      );
    }
  });

  it("ranks a search on the FTS index and reads only the page's rows (no row read per match)", async () => {
    // Before: every match's row was read to test the visible rule and cut a snippet, then sorted:
    // 1,000 matches of a word took 75 to 135 ms at 100,000 posts (bench:scale).
    const { db, statements } = recordingD1(env.DB);
    await createServices({ ...env, DB: db }).reading.listing(null, { q: "plan post" });
    const plans: string[][] = [];
    for (const { sql, params } of statements.filter((st) => /\bblog_search\b/.test(st.sql))) {
      const plan = await env.DB.prepare(`EXPLAIN QUERY PLAN ${sql}`)
        .bind(...params)
        .all<{ detail: string }>();
      plans.push(plan.results.map((r) => r.detail));
    }
    expect(plans).toHaveLength(2);
    const [page, total] = plans as [string[], string[]];
    // The page: a ranked co-routine of rowids on the FTS index (hidden posts from their partial index),
    // then one row read per rowid of the page.
    const inner = page.slice(page.indexOf("CO-ROUTINE ranked"), page.indexOf("SCAN ranked"));
    expect(inner.length).toBeGreaterThan(0);
    expect(inner.filter((d) => /^(SEARCH|SCAN) blogs\b/.test(d))).toEqual([
      "SCAN blogs USING COVERING INDEX blogs_hidden_idx",
    ]);
    expect(page.slice(page.indexOf("SCAN ranked"))).toContain("SEARCH blogs USING INTEGER PRIMARY KEY (rowid=?)");
    // The total: index entries only.
    expect(total.filter((d) => /^(SEARCH|SCAN) blogs\b/.test(d))).toEqual([
      "SCAN blogs USING COVERING INDEX blogs_hidden_idx",
    ]);
  });

  it("finds related posts without bm25, whose word weights read every post holding each word", async () => {
    // A title word as common as "post" is in every post: bm25 read 100,000 entries per word for each of
    // the post page's two similar lists (45 ms each at 100,000 posts). The related lists score
    // the newest matches of a window by their shared words, from their own rows.
    const { db, statements } = recordingD1(env.DB);
    await createServices({ ...env, DB: db }).reading.post(null, blogId);
    const related = statements.filter((st) => /\bblog_search\b/.test(st.sql));
    expect(related.length).toBeGreaterThan(0);
    for (const { sql } of related) {
      expect(sql).not.toMatch(/\bbm25\(/);
      expect(sql).toMatch(/order by "blog_search"\."rowid" desc limit \?/);
    }
  });

  it("fails when an index a list needs is missing (the check itself works)", async () => {
    await env.DB.exec("DROP INDEX saved_blogs_blog_idx");
    try {
      const { db, statements } = recordingD1(env.DB);
      await createServices({ ...env, DB: db }).views.stats(admin);
      const scans = (await Promise.all(statements.map(fullScans))).flat();
      expect(scans.some((line) => /^SCAN s\b/.test(line))).toBe(true);
    } finally {
      await env.DB.exec("CREATE INDEX saved_blogs_blog_idx ON saved_blogs (blog_id)");
    }
  });

  it("fails on a full scan (the check itself works)", async () => {
    const scans = await fullScans({ sql: "select count(*) from comments where body = ?", params: ["x"] });
    expect(scans).toEqual(["SCAN comments"]);
    const aliased = await fullScans({ sql: "select 1 from saved_blogs s where s.email = ?", params: ["x"] });
    expect(aliased).toEqual(["SCAN s"]);
  });
});
