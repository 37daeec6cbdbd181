import { env } from "cloudflare:workers";
import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { HEADLINE_PHRASES } from "#app/components/TypedHeadline.tsx";
import { CATEGORIES } from "#worker/services/categories.ts";
import { FEATURED_BLOGS } from "#app/lib/content.ts";
import { MSG } from "#app/lib/messages.ts";
import { schema } from "#worker/db.ts";
import { newId } from "#worker/services/shared/ids.ts";
import { createHomeService } from "#worker/services/queries/home.ts";
import { countingD1 } from "../support/d1-counter";
import { clearContent, db, makeBlog, makeUser } from "../support/factories";
import { call } from "../support/http";
import { testKernel } from "../support/kernel";

const tag = Date.now().toString(36);
const names = { all: `Ada Links ${tag}`, github: `Grace Github ${tag}`, none: `Nora Nolinks ${tag}` };
const reviewer = `Rita Reviewer ${tag}`;

const post = (fields: Record<string, string>) =>
  call("/?index", {
    method: "POST",
    headers: { "Content-Type": "application/x-www-form-urlencoded", Accept: "text/html" },
    body: new URLSearchParams(fields).toString(),
  });

/** The newsletter field as rendered (value attribute included when there is one). */
const emailInput = (html: string) => html.match(/<input[^>]*id="newsletter-email"[^>]*>/)?.[0] ?? "";

describe("home page (server-rendered)", () => {
  beforeAll(async () => {
    await clearContent();
    const writer = await makeUser({ name: "Linus" });
    for (let i = 1; i <= 7; i++)
      await makeBlog(writer, { title: `Home post ${i}`, dateTime: new Date(Date.UTC(2030, 0, i)).toISOString() });
    await db()
      .insert(schema.authors)
      .values([
        {
          id: newId(),
          name: names.all,
          bio: "Writes about everything.",
          img: "/images/author-all-0001.jpg",
          twitter: "https://twitter.com/ada",
          linkedin: "https://www.linkedin.com/in/ada",
          github: "https://github.com/ada",
        },
        {
          id: newId(),
          name: names.github,
          bio: "Only on GitHub.",
          img: "/images/author-gh-0001.jpg",
          github: "https://github.com/grace",
        },
        { id: newId(), name: names.none, bio: "Offline by choice.", img: "/images/author-no-0001.jpg" },
      ]);
    await db().insert(schema.reviews).values({
      id: newId(),
      name: reviewer,
      designation: "Night Editor",
      rating: 3.5,
      review: "Half a star short of perfect.",
      image: "/images/reviewer-0001.jpg",
      status: "approved",
    });
  });

  it("renders the eight sections in the spec's order", async () => {
    const res = await call("/");
    expect(res.status).toBe(200);
    const html = await res.text();
    const order = [
      "<h1",
      ">Latest Blogs</h2>",
      ">Featured Blogs</h2>",
      ">Most Popular Categories</h2>",
      ">Everyday Reading Habit</h2>",
      ">Meet Our Authors</h2>",
      ">What Our Users Say</h2>",
      ">Subscribe to Our Newsletter</h2>",
    ].map((marker) => html.indexOf(marker));
    expect(order.every((i) => i > 0)).toBe(true);
    expect([...order].sort((a, b) => a - b)).toEqual(order);
  });

  it("renders the hero with the first phrase typed in, all three for screen readers, and both buttons", async () => {
    const html = await (await call("/")).text();
    expect(html).toMatch(new RegExp(`data-testid="typed-phrase"[^>]*>${HEADLINE_PHRASES[0]}<`));
    expect(html).toContain(`<span class="sr-only">${HEADLINE_PHRASES.join(", ")}</span>`);
    expect(html).toMatch(/href="\/dashboard\/writeBlogs"[^>]*>Write a Blog</);
    expect(html).toMatch(/href="\/allBlogs"[^>]*>Read Blogs</);
  });

  it("lists the latest six blogs from D1, newest first, each linking to its post", async () => {
    const html = await (await call("/")).text();
    const latest = html.slice(html.indexOf(">Latest Blogs</h2>"), html.indexOf(">Featured Blogs</h2>"));
    const titles = [...latest.matchAll(/>(Home post \d)</g)].map((m) => m[1]);
    expect(titles).toEqual(["Home post 7", "Home post 6", "Home post 5", "Home post 4", "Home post 3", "Home post 2"]);
    expect(latest.match(/href="\/blogs\/[0-9a-z]{20}\/home-post-\d"/g)).toHaveLength(6);
  });

  it("shows the six fixed featured cards with static images", async () => {
    const html = await (await call("/")).text();
    const featured = html.slice(html.indexOf('data-testid="featured"'), html.indexOf(">Most Popular Categories</h2>"));
    expect(featured.match(/<article/g)).toHaveLength(6);
    for (const f of FEATURED_BLOGS) {
      expect(featured).toContain(f.title);
      expect(featured).toContain(`src="${f.image}"`);
    }
    expect(FEATURED_BLOGS.every((f) => /^\/featured\/[a-z-]+\.jpg$/.test(f.image))).toBe(true);
  });

  it("shows the ten category tiles, each linking to the filtered list", async () => {
    const html = await (await call("/")).text();
    const tiles = html.slice(html.indexOf('data-testid="categories"'), html.indexOf(">Everyday Reading Habit</h2>"));
    const links = [...tiles.matchAll(/href="\/allBlogs\?category=([^"]+)"/g)].map((m) =>
      decodeURIComponent(m[1] ?? ""),
    );
    expect(links).toEqual([...CATEGORIES]);
  });

  it("has the reading guide with tips, benefits and three book lists", async () => {
    const html = await (await call("/")).text();
    const guide = html.slice(html.indexOf(">Everyday Reading Habit</h2>"), html.indexOf(">Meet Our Authors</h2>"));
    expect(guide).toContain("Daily reading tips");
    expect(guide).toContain("Benefits of reading");
    expect(guide.match(/<h4/g)).toHaveLength(3);
  });

  it("shows each author's social links only for the networks they have, with accessible names", async () => {
    const html = await (await call("/")).text();
    for (const network of ["Twitter", "LinkedIn", "GitHub"])
      expect(html).toContain(`aria-label="${names.all} on ${network}"`);
    expect(html).toContain(`aria-label="${names.github} on GitHub"`);
    expect(html).not.toContain(`${names.github} on Twitter`);
    expect(html).not.toContain(`${names.github} on LinkedIn`);
    expect(html).toContain(`>${names.none}</h3>`);
    expect(html).not.toContain(`${names.none} on social media`);
    expect(html).toContain(`href="https://github.com/grace"`);
  });

  it("shows reviews with a half-star rating", async () => {
    const html = await (await call("/")).text();
    const start = html.indexOf(`>${reviewer}<`);
    expect(start).toBeGreaterThan(0);
    const slide = html.slice(html.lastIndexOf("<figure", start), html.indexOf("</figure>", start));
    expect(slide).toContain('aria-label="Rated 3.5 out of 5"');
    expect(slide.match(/data-star="full"/g)).toHaveLength(3);
    expect(slide.match(/data-star="half"/g)).toHaveLength(1);
    expect(slide.match(/data-star="empty"/g)).toHaveLength(1);
    expect(slide).toContain("Night Editor");
    expect(slide).toContain("Half a star short of perfect.");
  });

  it("carries SEO tags: canonical, Open Graph and WebSite JSON-LD", async () => {
    const html = await (await call("/")).text();
    expect(html).toContain('<link rel="canonical" href="https://blog.test/"/>');
    expect(html).toMatch(/<meta property="og:url" content="https:\/\/blog.test\/"\/>/);
    expect(html).toContain('"@type":"WebSite"');
    expect(html).toContain('href="/rss.xml"');
  });

  it("answers an empty newsletter address with the spec's message (no JavaScript needed)", async () => {
    const res = await post({ intent: "newsletter", email: "" });
    expect(res.status).toBe(400);
    const html = await res.text();
    expect(html).toContain(MSG.newsletter.empty);
    expect(html).not.toContain(MSG.newsletter.success);

    const kept = await (await post({ intent: "newsletter", email: "not-an-email" })).text();
    expect(kept).toContain(MSG.newsletter.empty);
    expect(emailInput(kept)).toContain('value="not-an-email"');
  });

  it("subscribes once, thanks the reader and clears the field", async () => {
    const email = `home-${tag}@example.com`;
    for (const sent of [email, email.toUpperCase()]) {
      const res = await post({ intent: "newsletter", email: sent });
      expect(res.status).toBe(200);
      const html = await res.text();
      expect(html).toContain(MSG.newsletter.success);
      expect(emailInput(html)).not.toMatch(/value="[^"]/);
    }
    const rows = await db()
      .select()
      .from(schema.newsletterSubscriptions)
      .where(eq(schema.newsletterSubscriptions.email, email));
    expect(rows).toHaveLength(1);
  });

  it("refuses an unknown form intent", async () => {
    const res = await post({ intent: "something-else", email: "x@example.com" });
    expect(res.status).toBe(400);
  });

  it("loads latest blogs, authors and reviews in one D1 round trip", async () => {
    const counter = countingD1(env.DB);
    const data = await createHomeService(testKernel(counter.db)).load();
    expect(counter.trips()).toBe(1);
    expect(data.latest).toHaveLength(6);
    expect(data.authors.map((a) => a.name)).toEqual(expect.arrayContaining(Object.values(names)));
    expect(data.reviews.map((r) => r.name)).toContain(reviewer);
  });
});

describe("about page (server-rendered)", () => {
  it("renders the spec's static sections with SEO tags", async () => {
    const res = await call("/about");
    expect(res.status).toBe(200);
    const html = await res.text();
    const order = [
      ">Our Mission</h2>",
      "Why <!-- -->Edge Blog<!-- -->?</h2>",
      ">Our Features</h2>",
      ">Meet the Author</h2>",
      ">Our Values</h2>",
    ].map((m) => html.indexOf(m));
    expect(order.every((i) => i > 0)).toBe(true);
    expect([...order].sort((a, b) => a - b)).toEqual(order);
    for (const feature of ["Like", "Comment", "Share", "Read &amp; Filter", "Write &amp; Edit"])
      expect(html).toContain(`>${feature}</h3>`);
    for (const value of ["Quality Content", "Creativity", "Community"]) expect(html).toContain(`>${value}</h3>`);
    expect(html).toContain("<title>About Us | Edge Blog</title>");
    expect(html).toContain('<link rel="canonical" href="https://blog.test/about"/>');
  });
});
