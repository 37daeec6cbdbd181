import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { schema } from "#worker/db.ts";
import { MSG } from "#app/lib/messages.ts";
import { db, makeBlog, makeUser, sessionFor } from "../support/factories";
import { flashOf } from "../support/flash";
import { call } from "../support/http";
import { postPath } from "#worker/services/blogs/slug.ts";

const get = (path: string, cookie?: string) =>
  call(path, { headers: cookie ? { Cookie: cookie } : {}, redirect: "manual" });
/** Posts a form the way a browser without JavaScript does. */
function postForm(path: string, fields: Record<string, string>, cookie?: string) {
  const body = new URLSearchParams(fields);
  return call(path, {
    method: "POST",
    body,
    headers: { "Content-Type": "application/x-www-form-urlencoded", ...(cookie ? { Cookie: cookie } : {}) },
    redirect: "manual",
  });
}
const cookieOf = async (user: { id: string; email: string }) => `__Host-session=${await sessionFor(user)}`;
const likesOf = async (id: string) => (await db().select().from(schema.blogs).where(eq(schema.blogs.id, id)))[0]?.likes;
const commentsOf = (id: string) => db().select().from(schema.comments).where(eq(schema.comments.blogId, id));
const savedOf = (id: string) => db().select().from(schema.savedBlogs).where(eq(schema.savedBlogs.blogId, id));
const ldJson = (html: string) => html.match(/<script type="application\/ld\+json">(.*?)<\/script>/s)?.[1];

describe("/blogs/{id}", () => {
  let author: Awaited<ReturnType<typeof makeUser>>;
  let reader: Awaited<ReturnType<typeof makeUser>>;
  let other: Awaited<ReturnType<typeof makeUser>>;
  let blog: Awaited<ReturnType<typeof makeBlog>>;
  const hostileTitle = `Tags </script><script>alert("t")</script> in a title`;

  beforeAll(async () => {
    author = await makeUser({ name: "Ada Author", photoUrl: "/images/ada-avatar-00001.jpg" });
    reader = await makeUser({ name: "Rita Reader" });
    other = await makeUser({ name: "Otto Other" });
    blog = await makeBlog(author, {
      title: hostileTitle,
      shortDescription: "Why escaping matters.",
      blogDetails: `First paragraph with <script>alert("x")</script> inside.\n\nSecond paragraph,\nwith a line break.\n\n\n<b>Third</b> one.`,
      category: "Science",
      dateTime: "2026-03-04T05:06:00.000Z",
      authorImage: "/images/ada-avatar-00001.jpg",
    });
  });

  it("is served to a visitor without the framework, and to a signed-in reader with it (issue 45)", async () => {
    const visitor = await get(postPath(blog));
    const html = await visitor.text();
    expect(html).not.toContain('type="module"');
    expect(html).not.toContain('rel="modulepreload"');
    expect(html).not.toContain("__remixContext");
    // The islands, inline with the render's nonce: the shared copy's CSP lists their hash.
    const islands = html.match(/<script nonce="[^"]+" data-slider="\/[^"]+">([\s\S]*?)<\/script>/);
    expect(islands?.[1]).toContain("data-local-time");
    expect(visitor.headers.get("Cache-Control")).toMatch(/^public/);
    expect(visitor.headers.get("Content-Security-Policy")).toMatch(/script-src 'self'( 'sha256-[^']+')+;/);
    // A visitor's Like is the form post that leads to sign in (no local like any more).
    expect(html).not.toContain("Sign in to keep your like");
    const reader_ = await get(postPath(blog), await cookieOf(reader));
    const signedIn = await reader_.text();
    expect(signedIn).toContain('type="module"');
    expect(signedIn).toContain("__remixContext");
    expect(signedIn).not.toContain("data-slider=");
    expect(reader_.headers.get("Cache-Control")).toBe("private, no-store");
  });

  it("renders the post's details on the server (Markdown), with typed HTML as escaped text", async () => {
    const res = await get(postPath(blog));
    expect(res.status).toBe(200);
    const html = await res.text();
    expect(html).toContain('<p dir="auto">First paragraph with &lt;script&gt;alert("x")&lt;/script&gt; inside.</p>');
    expect(html).toContain('<p dir="auto">Second paragraph,<br>with a line break.</p>');
    expect(html).toContain("&lt;b&gt;Third&lt;/b&gt; one.</p>");
    expect(html).not.toContain('<script>alert("x")');
    expect(html).not.toContain("<b>Third</b>");
    expect(html).not.toContain('<script>alert("t")');
    expect(html).toContain("Ada Author");
    expect(html).toContain("Why escaping matters.");
    expect(html).toContain('src="/images/ada-avatar-00001.jpg"');
    expect(html).toContain('dateTime="2026-03-04T05:06:00.000Z"');
    expect(html).toContain("March 4, 2026 at 5:06 AM UTC");
    expect(html).toContain('<span class="whitespace-nowrap">1<!-- --> min read</span>');
    expect(html).toMatch(/href="\/allBlogs\?category=Science"/);
  });

  it("carries SEO tags with the blog's image and a safe JSON-LD BlogPosting", async () => {
    const html = await (await get(postPath(blog))).text();
    expect(html).toContain('<meta property="og:type" content="article"/>');
    // The share card drawn for the post (app/routes/blogs.$id_.og[.]png.ts).
    expect(html).toContain(`<meta property="og:image" content="https://blog.test/blogs/${blog.id}/og.png"/>`);
    expect(html).toContain(`<link rel="canonical" href="https://blog.test${postPath(blog)}"/>`);
    // The cover, the largest paint, is fetched first.
    expect(html).toMatch(/<img src="\/images\/test-image-0001\.png"[^>]*fetchpriority="high"/);
    const raw = ldJson(html);
    expect(raw).toBeDefined();
    // The title's </script> cannot end the element early: < is escaped inside the JSON.
    expect(raw).not.toContain("<");
    const ld = JSON.parse(raw!);
    expect(ld).toMatchObject({
      "@type": "BlogPosting",
      headline: hostileTitle,
      datePublished: "2026-03-04T05:06:00.000Z",
      author: { "@type": "Person", name: "Ada Author" },
      image: ["https://blog.test/images/test-image-0001.png"],
      url: `https://blog.test${postPath(blog)}`,
    });
  });

  it("answers 404 pages for unknown and malformed ids", async () => {
    for (const id of ["zzzzzzzzzzzzzzzzzzzz", "not-an-id!", "%3Cscript%3E"]) {
      const res = await get(`/blogs/${id}`);
      expect(res.status).toBe(404);
      expect(await res.text()).toContain("Page not found");
    }
  });

  it("redirects the shared link /blog/{id} permanently to /blogs/{id}", async () => {
    const res = await get(`/blog/${blog.id}`);
    expect(res.status).toBe(301);
    expect(res.headers.get("Location")).toBe(`/blogs/${blog.id}`);
  });

  it("shows visitors the share links built from the readable link and a sign-in invitation", async () => {
    const html = await (await get(postPath(blog))).text();
    const shared = encodeURIComponent(`https://blog.test${postPath(blog)}`);
    expect(html).toContain(`https://www.facebook.com/sharer/sharer.php?u=${shared}`);
    expect(html).toContain(`https://twitter.com/intent/tweet?url=${shared}`);
    expect(html).toContain(`https://www.linkedin.com/sharing/share-offsite/?url=${shared}`);
    expect(html).toContain("https://api.whatsapp.com/send?text=");
    expect(html).toContain(`href="/login?redirectTo=${encodeURIComponent(postPath(blog))}"`);
    expect(html).toContain("Sign in to join the conversation");
    expect(html).not.toContain('name="body"');
  });

  it("sends a visitor's like, comment and save to /login and changes nothing", async () => {
    for (const intent of ["like", "comment"]) {
      const res = await postForm(postPath(blog), { intent, body: "Hello" });
      expect(res.status).toBe(302);
      expect(res.headers.get("Location")).toBe(`/login?redirectTo=${encodeURIComponent(postPath(blog))}`);
    }
    const save = await postForm(postPath(blog), { intent: "save" });
    expect(save.status).toBe(302);
    // The way back carries the save asked for (?save=1): signed in (or registered), the post page saves it.
    expect(save.headers.get("Location")).toBe(`/login?redirectTo=${encodeURIComponent(`${postPath(blog)}?save=1`)}`);
    // The spec's message rides along for the login page.
    expect(flashOf(save)).toMatchObject({ title: MSG.save.needLogin });
    expect(await likesOf(blog.id)).toBe(0);
    expect(await commentsOf(blog.id)).toHaveLength(0);
    expect(await savedOf(blog.id)).toHaveLength(0);
  });

  it("stores a signed-in reader's like, shows it, and takes it back on the second press", async () => {
    const cookie = await cookieOf(reader);
    const res = await postForm(postPath(blog), { intent: "like" }, cookie);
    expect(res.status).toBe(200);
    expect(await likesOf(blog.id)).toBe(1);
    const html = await (await get(postPath(blog), cookie)).text();
    expect(html).toMatch(
      /aria-pressed="true"[^>]*>(?:(?!<\/button>).)*<span>Liked<\/span>(?:(?!<\/button>).)*data-testid="like-count">1<\/span><span class="sr-only"> like</s,
    );
    // Another reader sees the stored count but not as their own like.
    const otherHtml = await (await get(postPath(blog), await cookieOf(other))).text();
    expect(otherHtml).toMatch(
      /aria-pressed="false"[^>]*>(?:(?!<\/button>).)*<span>Like<\/span>(?:(?!<\/button>).)*data-testid="like-count">1<\/span>/s,
    );
    await postForm(postPath(blog), { intent: "like" }, cookie);
    expect(await likesOf(blog.id)).toBe(0);
  });

  it("stores a signed-in reader's comment, lists it newest first, and refuses an empty one beside the field", async () => {
    const cookie = await cookieOf(reader);
    // Without JavaScript the page opens at the new comment: 303 to #comment-{id}.
    const sent = await postForm(postPath(blog), { intent: "comment", body: "First <i>comment</i>" }, cookie);
    expect(sent.status).toBe(303);
    const [mine] = await commentsOf(blog.id);
    expect(sent.headers.get("Location")).toBe(`${postPath(blog)}#comment-${mine!.id}`);
    expect(
      (await postForm(postPath(blog), { intent: "comment", body: "Second comment" }, await cookieOf(other))).status,
    ).toBe(303);
    const html = await (await get(postPath(blog), cookie)).text();
    // The polite live region the page says "Your comment was posted." in, with JavaScript.
    expect(html).toMatch(/<p id="comment-announcer" aria-live="polite" class="sr-only">/);
    const second = html.indexOf("Second comment");
    const first = html.indexOf("First &lt;i&gt;comment&lt;/i&gt;");
    expect(second).toBeGreaterThan(0);
    expect(first).toBeGreaterThan(second);
    expect(html).toContain("Rita Reader");
    // Rita may delete her own comment, not Otto's.
    expect(html.match(/aria-label="Delete comment by Rita Reader"/g)).toHaveLength(1);
    expect(html).not.toContain('aria-label="Delete comment by Otto Other"');

    const empty = await postForm(postPath(blog), { intent: "comment", body: "   " }, cookie);
    expect(empty.status).toBe(400);
    expect(await empty.text()).toContain("Comment is required.");
    const long = await postForm(postPath(blog), { intent: "comment", body: "y".repeat(3000) }, cookie);
    expect(long.status).toBe(400);
    expect(await long.text()).toContain("Comment must be at most 2000 characters.");
    expect(await commentsOf(blog.id)).toHaveLength(2);
    // With JavaScript the hydrated form posts through the fetcher (single fetch strips `.data` before the
    // action runs) and says so; the answer is data naming the new comment, not a redirect, so the page can
    // scroll to it and announce it.
    const byFetch = await postForm(
      `${postPath(blog)}.data`,
      { intent: "comment", body: "By fetch", via: "fetch" },
      cookie,
    );
    expect(byFetch.status).toBe(200);
    expect(byFetch.headers.get("X-Remix-Redirect")).toBeNull();
    const fetched = (await commentsOf(blog.id)).find((c) => c.body === "By fetch");
    expect(await byFetch.text()).toContain(fetched!.id);
    // The next case counts the two comments above.
    await db().delete(schema.comments).where(eq(schema.comments.id, fetched!.id));
  });

  it("lets only a comment's author (or an admin) delete it", async () => {
    const [otto] = (await commentsOf(blog.id)).filter((c) => c.userId === other.id);
    const refused = await postForm(
      postPath(blog),
      { intent: "delete-comment", commentId: otto!.id },
      await cookieOf(reader),
    );
    expect(refused.status).toBe(403);
    expect(await commentsOf(blog.id)).toHaveLength(2);
    const admin = await makeUser({ role: "admin" });
    const ok = await postForm(postPath(blog), { intent: "delete-comment", commentId: otto!.id }, await cookieOf(admin));
    expect(ok.status).toBe(200);
    expect(await commentsOf(blog.id)).toHaveLength(1);
  });

  it("saves the post for a signed-in reader once and shows it as saved", async () => {
    const cookie = await cookieOf(reader);
    const res = await postForm(postPath(blog), { intent: "save" }, cookie);
    expect(res.status).toBe(200);
    expect(await res.text()).toContain(MSG.save.success);
    await postForm(postPath(blog), { intent: "save" }, cookie);
    expect(await savedOf(blog.id)).toHaveLength(1);
    const html = await (await get(postPath(blog), cookie)).text();
    expect(html).toMatch(/<span>Saved<\/span><\/button>/);
  });

  it("refuses an unknown intent and actions on unknown blogs without a 500", async () => {
    const cookie = await cookieOf(reader);
    expect((await postForm(postPath(blog), { intent: "explode" }, cookie)).status).toBe(400);
    expect((await postForm("/blogs/zzzzzzzzzzzzzzzzzzzz", { intent: "like" }, cookie)).status).toBe(404);
    expect((await postForm("/blogs/zzzzzzzzzzzzzzzzzzzz", { intent: "comment", body: "hi" }, cookie)).status).toBe(404);
  });
});

describe("/allBlogs and /contact", () => {
  const tag = `pg${Date.now().toString(36)}`;
  let writer: Awaited<ReturnType<typeof makeUser>>;

  beforeAll(async () => {
    writer = await makeUser({ name: "Pat Writer" });
    for (let i = 1; i <= 5; i++) {
      await makeBlog(writer, {
        title: `Listing ${i} ${tag}`,
        category: i === 5 ? "Travel" : "Finance",
        dateTime: `2020-01-0${i}T00:00:00.000Z`,
      });
    }
  });

  it("searches, filters by category and paginates through the URL", async () => {
    const page1 = await (await get(`/allBlogs?q=${tag}`)).text();
    expect(page1).toContain(`5<!-- --> <!-- -->blogs<!-- --> matching “<!-- -->${tag}`);
    // A card's title is its link (the byline links to the writer's page).
    expect(page1.match(/<h3[^>]*><a[^>]*><span>Listing \d <mark>pg/g)).toHaveLength(4);
    expect(page1).toMatch(/<span role="link" aria-disabled="true"[^>]*>Prev<\/span>/);
    const page2 = await (await get(`/allBlogs?q=${tag}&page=2`)).text();
    expect(page2).toContain(`Listing 1 <mark>${tag}</mark>`);
    expect(page2).toMatch(/<span role="link" aria-disabled="true"[^>]*>Next<\/span>/);
    const travel = await (await get(`/allBlogs?q=${tag}&category=Travel`)).text();
    // Search results mark the searched words in the title (escaped HTML, only our own <mark>s).
    expect(travel.match(/<h3[^>]*><a[^>]*><span>Listing \d <mark>pg[^<]*<\/mark>/g)).toHaveLength(1);
    expect(travel).toContain(`Listing 5 <mark>${tag}</mark>`);
    expect(travel).toMatch(/aria-current="true"[^>]*>Travel/);
    const none = await (await get(`/allBlogs?q=${tag}&category=Health`)).text();
    expect(none).toContain("No blogs found");
  });

  it("shows a visitor a sign-in prompt and a reader their recently saved blogs", async () => {
    expect(await (await get("/allBlogs")).text()).toContain("to save blogs and find them here.");
    const [blog] = await db()
      .select()
      .from(schema.blogs)
      .where(eq(schema.blogs.title, `Listing 3 ${tag}`));
    const cookie = await cookieOf(writer);
    await postForm(postPath(blog!), { intent: "save" }, cookie);
    const html = await (await get("/allBlogs", cookie)).text();
    const saved = html.slice(html.indexOf("Recently Saved"));
    const card = saved.slice(saved.indexOf(`href="${postPath(blog!)}"`), saved.indexOf("</li>"));
    expect(card).toContain(`Listing 3 ${tag}`);
    expect(card).toContain(">Finance<");
  });

  it("stores a visitor's contact message (no sign-in); a filled honeypot is dropped", async () => {
    const before = (await db().select().from(schema.contactMessages)).length;
    const res = await postForm("/contact", { name: "V", email: "v@example.com", message: "Hi", website: "" });
    expect(res.status).toBe(200);
    expect((await db().select().from(schema.contactMessages)).length).toBe(before + 1);
    const trapped = await postForm("/contact", { name: "B", email: "b@example.com", message: "Buy", website: "x" });
    expect(trapped.status).toBe(200);
    expect((await db().select().from(schema.contactMessages)).length).toBe(before + 1);
    const page = await (await get("/contact")).text();
    expect(page).toContain('name="website"');
    expect(page).not.toContain("You need to be signed in");
  });

  it("prefills, stores a signed-in message, and keeps values beside errors", async () => {
    const cookie = await cookieOf(writer);
    const page = await (await get("/contact", cookie)).text();
    expect(page).toMatch(/name="name"[^>]*value="Pat Writer"/);
    const bad = await postForm(
      "/contact",
      { name: "Pat Writer", email: "not-an-email", subject: "", message: "Kept text" },
      cookie,
    );
    expect(bad.status).toBe(400);
    const badHtml = await bad.text();
    expect(badHtml).toContain("Please enter a valid email");
    expect(badHtml).toContain("Kept text</textarea>");
    const ok = await postForm(
      "/contact",
      { name: "Pat Writer", email: writer.email, subject: "Hello", message: `Message ${tag}` },
      cookie,
    );
    expect(ok.status).toBe(200);
    expect(await ok.text()).toContain(MSG.contact.successText);
    const stored = await db()
      .select()
      .from(schema.contactMessages)
      .where(eq(schema.contactMessages.message, `Message ${tag}`));
    expect(stored).toHaveLength(1);
  });
});
