import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import type { Blog } from "#worker/services/blogs/model.ts";
import type { Comment } from "#worker/services/comments/service.ts";
import { ValidationError } from "#worker/services/shared/errors.ts";
import {
  decodeCursor,
  encodeCursor,
  MAX_PAGE_SIZE,
  pageWindow,
  parsePaging,
} from "#worker/services/shared/pagination.ts";
import { asUser, clearContent, makeUser } from "../support/factories";
import { call, json } from "../support/http";
import { getPage } from "../support/pages";

describe("the pagination helper", () => {
  it("reads page and limit, defaults to the first page, caps the limit", () => {
    expect(parsePaging({}, 10)).toEqual({ page: 1, limit: 10, offset: 0 });
    expect(parsePaging({ page: "3", limit: "7" }, 10)).toEqual({ page: 3, limit: 7, offset: 14 });
    expect(parsePaging({ page: 2, limit: 5 }, 10)).toEqual({ page: 2, limit: 5, offset: 5 });
    expect(parsePaging({ limit: "100000" }, 10).limit).toBe(MAX_PAGE_SIZE);
    expect(parsePaging({ page: null, limit: "" }, 10)).toEqual({ page: 1, limit: 10, offset: 0 });
  });

  it.each(["0", "-1", "1.5", "abc", "1e3", "0x10", " ", "99999999999", "2000000"])(
    "refuses page=%j with a ValidationError (a 400), never a fallback",
    (page) => {
      expect(() => parsePaging({ page }, 10)).toThrow(ValidationError);
    },
  );

  it.each(["0", "-5", "ten", "2.5"])("refuses limit=%j", (limit) => {
    expect(() => parsePaging({ limit }, 10)).toThrow(ValidationError);
  });

  it("shows a handful of page buttons at any size: 1 … 4 5 6 … 12500", () => {
    expect(pageWindow(5, 12_500)).toEqual([1, "gap", 4, 5, 6, "gap", 12_500]);
    expect(pageWindow(1, 12_500)).toEqual([1, 2, "gap", 12_500]);
    expect(pageWindow(12_500, 12_500)).toEqual([1, "gap", 12_499, 12_500]);
    expect(pageWindow(3, 5)).toEqual([1, 2, 3, 4, 5]);
    expect(pageWindow(1, 1)).toEqual([1]);
    // A gap of one page shows the page instead of an ellipsis.
    expect(pageWindow(4, 8)).toEqual([1, 2, 3, 4, 5, "gap", 8]);
  });

  it("round-trips cursors and refuses forged ones", () => {
    const c = encodeCursor(["2026-01-01T00:00:00.000Z", 5, "abc"]);
    expect(decodeCursor(c, ["s", "n", "s"])).toEqual(["2026-01-01T00:00:00.000Z", 5, "abc"]);
    for (const bad of ["", "!!", encodeCursor([1, 2, 3]), encodeCursor(["a", "b", "c"]), "x".repeat(300), "e30"]) {
      expect(() => decodeCursor(bad, ["s", "n", "s"]), bad).toThrow(ValidationError);
    }
  });
});

describe("paginated API lists", () => {
  let author: Awaited<ReturnType<typeof makeUser>>;
  let admin: Awaited<ReturnType<typeof makeUser>>;
  let busy: string;
  const TOTAL = 60;

  beforeAll(async () => {
    await clearContent();
    author = await makeUser({ name: "Paging Writer" });
    admin = await makeUser({ name: "Paging Admin", role: "admin" });
    const stmts = [];
    for (let i = 1; i <= TOTAL; i++) {
      stmts.push(
        env.DB.prepare(
          `insert into blogs (id, author_id, title, short_description, blog_details, category, author_name, email, date_time, image)
           values (?, ?, ?, 's', 'd', 'Technology', ?, ?, ?, '/images/x-0001.png')`,
        ).bind(
          `pagingpost${String(i).padStart(4, "0")}`,
          author.id,
          `Post ${i}`,
          author.name,
          author.email,
          new Date(Date.UTC(2026, 0, 1, 0, i)).toISOString(),
        ),
      );
    }
    await env.DB.batch(stmts);
    busy = "pagingpost0060";
    const commenters: { id: string }[] = [];
    for (let i = 0; i < 3; i++) commenters.push(await makeUser({ name: `Commenter ${i}` }));
    await env.DB.batch(
      Array.from({ length: 45 }, (_, i) =>
        env.DB.prepare("insert into comments (id, blog_id, user_id, body, created_at) values (?, ?, ?, ?, ?)").bind(
          `pagingcomment${String(i).padStart(4, "0")}`,
          busy,
          commenters[i % 3]!.id,
          `Comment ${i}`,
          1_800_000_000_000 + (i >> 1), // pairs share a millisecond: the order must still be total
        ),
      ),
    );
  });

  it("GET /api/blogs caps limit, sets X-Total-Count and Link, and pages newest first", async () => {
    const res = await call("/api/blogs?limit=1000");
    expect(res.status).toBe(200);
    const list = await json<Blog[]>(res);
    expect(list).toHaveLength(MAX_PAGE_SIZE);
    expect(list[0]!.title).toBe("Post 60");
    expect(res.headers.get("X-Total-Count")).toBe(String(TOTAL));
    const link = res.headers.get("Link")!;
    expect(link).toContain('</api/blogs?limit=50&page=1>; rel="first"');
    expect(link).toMatch(/<\/api\/blogs\?limit=50&cursor=[\w-]+>; rel="next"/);
    expect(link).toContain('</api/blogs?limit=50&page=2>; rel="last"');
    const last = await json<Blog[]>(await call("/api/blogs?limit=50&page=2"));
    expect(last.map((b) => b.title)).toEqual(Array.from({ length: 10 }, (_, i) => `Post ${10 - i}`));
  });

  it("GET /api/blogs?cursor walks every post once, in order, through the Link headers", async () => {
    const seen: string[] = [];
    let next: string | null = "/api/blogs?limit=7";
    while (next) {
      const res = await call(next);
      expect(res.status).toBe(200);
      seen.push(...(await json<Blog[]>(res)).map((b) => b.title));
      next = /<([^>]+)>; rel="next"/.exec(res.headers.get("Link") ?? "")?.[1] ?? null;
    }
    expect(seen).toEqual(Array.from({ length: TOTAL }, (_, i) => `Post ${TOTAL - i}`));
  });

  it.each([
    "/api/blogs?page=0",
    "/api/blogs?page=abc",
    "/api/blogs?limit=-1",
    "/api/blogs?page=1.5",
    "/api/blogs?cursor=%21%21",
    "/api/blogs?cursor=WzEsMiwzXQ",
    "/api/blog?email=writer%40example.com&page=x",
    "/api/blogs/pagingpost0060/comments?cursor=nope!",
    "/api/blogs/pagingpost0060/comments?limit=0",
  ])("answers 400 with a JSON error, never a 5xx: %s", async (path) => {
    const res = await call(path);
    expect(res.status).toBe(400);
    expect((await json<{ error: { code: string } }>(res)).error.code).toBe("bad-paging");
  });

  it("GET /api/blog?email= pages the writer's posts", async () => {
    const res = await call(`/api/blog?email=${encodeURIComponent(author.email)}&page=3&limit=25`, {
      headers: await asUser(author),
    });
    expect(res.headers.get("X-Total-Count")).toBe(String(TOTAL));
    expect((await json<Blog[]>(res)).map((b) => b.title)).toEqual(
      Array.from({ length: 10 }, (_, i) => `Post ${10 - i}`),
    );
  });

  it("GET /api/users pages accounts and searches by name or email on an index", async () => {
    const headers = await asUser(admin);
    const res = await call("/api/users?limit=2", { headers });
    expect(res.status).toBe(200);
    expect(await json<unknown[]>(res)).toHaveLength(2);
    expect(Number(res.headers.get("X-Total-Count"))).toBeGreaterThanOrEqual(5);
    const byName = await json<{ name: string }[]>(await call("/api/users?q=commen", { headers }));
    expect(byName.map((u) => u.name).sort()).toEqual(["Commenter 0", "Commenter 1", "Commenter 2"]);
    const byEmail = await json<{ email: string }[]>(
      await call(`/api/users?q=${encodeURIComponent(author.email.slice(0, 12))}`, { headers }),
    );
    expect(byEmail.map((u) => u.email)).toContain(author.email);
    expect((await call("/api/users?page=zero", { headers })).status).toBe(400);
  });

  it("GET /api/blogs/{id}/comments: newest first, 20 a page, every comment once through the cursor", async () => {
    const first = await call(`/api/blogs/${busy}/comments`);
    expect(first.status).toBe(200);
    expect(first.headers.get("X-Total-Count")).toBe("45");
    const page = await json<Comment[]>(first);
    expect(page).toHaveLength(20);
    expect(page[0]!.body).toBe("Comment 44");
    const seen = page.map((c) => c.body);
    let next = /<([^>]+)>; rel="next"/.exec(first.headers.get("Link") ?? "")?.[1];
    while (next) {
      const res = await call(next);
      seen.push(...(await json<Comment[]>(res)).map((c) => c.body));
      next = /<([^>]+)>; rel="next"/.exec(res.headers.get("Link") ?? "")?.[1];
    }
    expect(seen).toEqual(Array.from({ length: 45 }, (_, i) => `Comment ${44 - i}`));
    expect((await call("/api/blogs/unknownblog123/comments")).status).toBe(404);
  });

  it("the post page shows the newest 20 comments and a Show more link that works without JavaScript", async () => {
    const html = await (await call(`/blogs/${busy}`)).text();
    expect(html).toContain("Comment 44");
    expect(html).not.toContain("Comment 24<");
    const more = /href="[^"]*\?comments=([\w-]+)#comments"/.exec(html);
    expect(more).not.toBeNull();
    const older = await (await call(`/blogs/${busy}?comments=${more![1]}`)).text();
    expect(older).toContain("Comment 24<");
    expect(older).not.toContain("Comment 44<");
    expect(older).toContain("Back to the newest comments");
    expect((await call(`/blogs/${busy}?comments=forged!`)).status).toBe(400);
  });

  it("/allBlogs draws a handful of page buttons with aria-current, and a bad page is a 400 page", async () => {
    const html = await (await call("/allBlogs?page=8")).text();
    // 60 posts, 4 a page: 15 pages. Shown: 1 … 7 8 9 … 15.
    const nav = /<nav aria-label="All blogs pages"[\s\S]*?<\/nav>/.exec(html)![0];
    const numbers = [...nav.matchAll(/>(\d+|…)<\/(?:a|span)>/g)].map((m) => m[1]);
    expect(numbers).toEqual(["1", "…", "7", "8", "9", "…", "15"]);
    expect(nav).toMatch(/aria-current="page"[^>]*>8</);
    for (const bad of ["/allBlogs?page=0", "/allBlogs?page=x", "/writers/" + author.id + "?page=-2"]) {
      expect((await call(bad)).status, bad).toBe(400);
    }
  });

  /** The numbers of a pager (its links and gaps), and the current one. */
  const pagerOf = (html: string, label: string) => {
    const nav = new RegExp(`<nav aria-label="${label}"[\\s\\S]*?</nav>`).exec(html)?.[0] ?? "";
    return {
      numbers: [...nav.matchAll(/>(\d+|…)<\/(?:a|span)>/g)].map((m) => m[1]),
      current: /aria-current="page"[^>]*>(\d+)</.exec(nav)?.[1],
    };
  };

  it("the dashboard tables are pages with a handful of buttons, and refuse a bad page with a 400 page", async () => {
    const manage = await (await getPage("/dashboard/manageBlogs?page=4", author)).text();
    expect(pagerOf(manage, "Manage Blogs pages")).toEqual({ numbers: ["1", "2", "3", "4", "5", "6"], current: "4" });
    expect(manage).toContain("Post 30<");
    expect(manage).not.toContain("Post 31<");

    const profile = await (await getPage("/Profile?page=7", author)).text();
    expect(pagerOf(profile, "Your blog posts pages")).toEqual({ numbers: ["1", "…", "6", "7"], current: "7" });
    expect(profile).toContain("60 posts");

    const stats = await (await getPage("/dashboard/stats?page=2", author)).text();
    expect(pagerOf(stats, "Stats pages")).toEqual({ numbers: ["1", "2", "3"], current: "2" });

    const users = await (await getPage("/dashboard/manageUsers?q=commen", admin)).text();
    expect(users).toContain("3 accounts match");
    expect(users).toContain("Commenter 2");
    expect(users).not.toContain("Paging Writer");

    const inbox = await getPage("/dashboard/inbox", admin);
    expect(inbox.status).toBe(200);
    for (const [path, who] of [
      ["/dashboard/manageBlogs?page=x", author],
      ["/dashboard/manageUsers?page=0", admin],
      ["/dashboard/stats?page=-1", author],
      ["/Profile?page=1.5", author],
      ["/dashboard/inbox?subscribers=abc", admin],
      ["/dashboard/manageAllBlogs?page=zz", admin],
      ["/saved?page=nope", author],
    ] as const) {
      expect((await getPage(path, who)).status, path).toBe(400);
    }
  });
});
