import { strFromU8, unzipSync } from "fflate";
import { describe, expect, it } from "vitest";
import { schema } from "#worker/db.ts";
import { postPath } from "#worker/services/blogs/slug.ts";
import { asUser, db, makeBlog, makeUser } from "../support/factories";
import { call } from "../support/http";
import { mailbox, sendWith } from "../support/mail";
import { recordingQueue } from "../support/queue";

/**
 * The members' gate (docs/decisions/053, 060) on every surface that shows a post's text, for every kind of
 * reader: the personal answers (the post's record and page) are whole only for those who may read it; every
 * shared copy (lists, cards, feeds, search, the fediverse, meta tags, the cached page) carries the preview
 * for everyone; the admin's site export keeps the whole post.
 */
/**
 * A post's words, unique to each world (the edge cache keeps earlier answers of the same search): a Latin word
 * for the word index, Japanese for the every-script index (migrations 0005 and 0032).
 */
function words() {
  const tag = [...crypto.getRandomValues(new Uint8Array(8))].map((b) => "abcdefghijklmnopqrstuvwxyz"[b % 26]).join("");
  const free = `opening${tag}`;
  const secret = [
    `zanzibar${tag}`,
    `会員だけが読める${[...tag.slice(0, 3)].map((c) => "一二三四五六七八九十"[c.charCodeAt(0) % 10]).join("")}`,
  ];
  const details = `Everyone reads this ${free} paragraph.\n\n<!--members-only-->\n\nOnly ${secret[0]} members read this. ${secret[1]}の段落`;
  return { free, secret, details };
}

type Kind = "anonymous" | "signed-in" | "free member" | "paid" | "comped" | "lapsed" | "writer" | "admin";
const KINDS: Kind[] = ["anonymous", "signed-in", "free member", "paid", "comped", "lapsed", "writer", "admin"];
/** Who reads a post of each visibility whole. */
const WHOLE: Record<"members" | "paid", Kind[]> = {
  paid: ["paid", "comped", "writer", "admin"],
  members: ["signed-in", "free member", "paid", "comped", "lapsed", "writer", "admin"],
};

async function world(visibility: "members" | "paid") {
  const writer = await makeUser();
  const admin = await makeUser({ role: "admin" });
  const said = words();
  const blog = await makeBlog(writer, { blogDetails: said.details, visibility, title: `Gated ${visibility} post` });
  const tierId = `tier-${crypto.randomUUID()}`;
  await db()
    .insert(schema.memberTiers)
    .values({ id: tierId, name: "Supporter", monthlyPrice: 500, yearlyPrice: 5000, currency: "usd" });
  const member = async (values: Partial<typeof schema.members.$inferInsert>) => {
    const user = await makeUser();
    await db()
      .insert(schema.members)
      .values({ userId: user.id, ...values });
    return user;
  };
  const day = 86_400_000;
  const readers: Record<Kind, Record<string, string>> = {
    anonymous: {},
    "signed-in": await asUser(await makeUser()),
    "free member": await asUser(await member({ status: "free", stripeCustomerId: `cus_${crypto.randomUUID()}` })),
    paid: await asUser(
      await member({ status: "paid", subscriptionStatus: "active", tierId, currentPeriodEnd: Date.now() + 30 * day }),
    ),
    comped: await asUser(await member({ status: "comped", compTierId: tierId, compUntil: Date.now() + day })),
    // Cancelled, and the period is over: Stripe deleted the subscription.
    lapsed: await asUser(
      await member({ status: "free", subscriptionStatus: "canceled", tierId, currentPeriodEnd: Date.now() - day }),
    ),
    writer: await asUser(writer),
    admin: await asUser(admin),
  };
  /** Whether an answer carries any of the gated words. */
  const hasSecret = (body: string) => said.secret.some((part) => body.includes(part));
  return { blog, readers, admin, ...said, hasSecret };
}

const text = async (path: string, headers: Record<string, string>, accept = "text/html") => {
  const res = await call(path, { headers: { Accept: accept, ...headers } });
  expect(res.status, path).toBe(200);
  return res.text();
};
/** The search hits of a /allBlogs page (none: its "nothing found" part, which lists the latest posts). */
const HITS = '<ul class="mt-6 grid grid-cols-1 gap-6 sm:grid-cols-2">';
const hitsOf = (html: string) =>
  html.includes(HITS) ? html.slice(html.indexOf(HITS), html.indexOf("</section>", html.indexOf(HITS))) : "";

describe.each(["paid", "members"] as const)(
  "the gate on a %s post, for every reader, on every surface",
  (visibility) => {
    it("the post's record and page are whole only for those who may read it", async () => {
      const w = await world(visibility);
      const page = postPath({ id: w.blog.id, title: w.blog.title, slug: "" });
      for (const kind of KINDS) {
        const whole = WHOLE[visibility].includes(kind);
        const record = JSON.parse(await text(`/api/blogs/${w.blog.id}`, w.readers[kind], "application/json")) as {
          access: boolean;
          blog_details: string;
        };
        expect(record.access, `${kind}: access`).toBe(whole);
        expect(w.hasSecret(JSON.stringify(record)), `${kind}: record`).toBe(whole);
        const html = await text(page, w.readers[kind]);
        expect(html, `${kind}: page`).toContain(w.free);
        expect(w.hasSecret(html), `${kind}: page`).toBe(whole);
        expect(html.includes("data-members-cta"), `${kind}: call to action`).toBe(!whole);
      }
      // The shared, cached copy (asked again as a visitor after every member) never holds a whole answer.
      for (let i = 0; i < 3; i++) expect(w.hasSecret(await text(page, {}))).toBe(false);
    });

    it("every shared copy carries the preview only, whoever asks", async () => {
      const w = await world(visibility);
      const shared = [
        ["/api/blogs?limit=50", "application/json"],
        [`/api/blogs?category=Technology&limit=50`, "application/json"],
        ["/", "text/html"],
        ["/allBlogs", "text/html"],
        ["/rss.xml", "application/rss+xml"],
        ["/sitemap.xml", "application/xml"],
        [`/ap/posts/${w.blog.id}`, "application/activity+json"],
        [`/blogs/${w.blog.id}`, "application/activity+json"],
      ] as const;
      for (const kind of KINDS)
        for (const [path, accept] of shared) {
          const body = await text(path, w.readers[kind], accept);
          expect(w.hasSecret(body), `${kind}: ${path}`).toBe(false);
        }
      // The fediverse does carry the post, with its free part.
      expect(await text(`/ap/posts/${w.blog.id}`, {}, "application/activity+json")).toContain(w.free);
    });

    it("search finds a gated post by its free words and never by, or with a snippet of, its gated words", async () => {
      const w = await world(visibility);
      // Search is the posts page's (/allBlogs?q=): the word index for Latin words, the every-script index for others.
      const search = async (q: string, kind: Kind) =>
        hitsOf(await text(`/allBlogs?q=${encodeURIComponent(q)}`, w.readers[kind]));
      for (const kind of KINDS) {
        const found = await search(w.free, kind);
        expect(found, `${kind}: free word`).toContain(`/blogs/${w.blog.id}/`);
        expect(w.hasSecret(found), `${kind}: snippet`).toBe(false);
        for (const part of w.secret)
          expect(await search(part, kind), `${kind}: ${part}`).not.toContain(`/blogs/${w.blog.id}/`);
      }
      // Made public, the whole text is searchable (the index follows the visibility).
      await call(`/api/blog/${w.blog.id}`, {
        method: "PUT",
        headers: { "Content-Type": "application/json", ...w.readers.writer },
        body: JSON.stringify({ visibility: "public" }),
      });
      for (const part of w.secret) expect(await search(part, "anonymous")).toContain(`/blogs/${w.blog.id}/`);
    });

    it("the newsletter mails the whole post to subscribers who may read it, the preview and link to the others", async () => {
      const box = mailbox();
      const queue = recordingQueue();
      const env = box.env({ NEWSLETTER_QUEUE: queue.binding });
      const writer = await makeUser();
      const paid = await makeUser();
      await db().insert(schema.members).values({ userId: paid.id, status: "paid", subscriptionStatus: "active" });
      const comped = await makeUser();
      await db()
        .insert(schema.memberTiers)
        .values({ id: `tier-${comped.id}`, name: "Gift", monthlyPrice: 500, yearlyPrice: 5000, currency: "usd" });
      await db()
        .insert(schema.members)
        .values({ userId: comped.id, status: "comped", compTierId: `tier-${comped.id}` });
      const free = await makeUser();
      // An account that never proved its address is treated as a stranger (someone may have typed another's).
      const unproven = await makeUser({ emailVerifiedAt: null });
      const stranger = `stranger-${crypto.randomUUID()}@example.com`;
      const subscribers = [paid.email, comped.email, free.email, unproven.email, stranger];
      const whole = visibility === "paid" ? [paid.email, comped.email] : [paid.email, comped.email, free.email];
      await db()
        .insert(schema.newsletterSubscriptions)
        .values(
          subscribers.map((email) => ({
            id: crypto.randomUUID(),
            email,
            state: "confirmed" as const,
            confirmedAt: Date.now(),
          })),
        );
      const said = words();
      const created = await sendWith(
        env,
        "POST",
        "/api/blogs",
        {
          title: `Mailed ${visibility} post`,
          short_description: "Short.",
          blog_details: said.details,
          category: "Technology",
          date_time: "2026-11-20T10:00",
          image: "https://example.com/a.png",
          visibility,
          newsletter_content: "full",
        },
        await asUser(writer),
      );
      expect(created.status).toBe(201);
      await queue.drain(env);
      for (const email of subscribers) {
        const mail = box.to(email).find((m) => m.subject === `Mailed ${visibility} post`);
        expect(mail, email).toBeDefined();
        const body = JSON.stringify(mail);
        expect(body).toContain(said.free);
        expect(
          said.secret.some((part) => body.includes(part)),
          email,
        ).toBe(whole.includes(email));
        expect(body, email).not.toContain("members-only");
      }
    });

    it("the admin's site export keeps the whole post; nobody else gets it", async () => {
      const w = await world(visibility);
      for (const kind of KINDS.filter((k) => k !== "admin")) {
        const res = await call("/dashboard/export.zip", { headers: w.readers[kind], redirect: "manual" });
        expect(res.status, kind).not.toBe(200);
      }
      const res = await call("/dashboard/export.zip", { headers: w.readers.admin });
      expect(res.status).toBe(200);
      const files = unzipSync(new Uint8Array(await res.arrayBuffer()));
      const post = Object.entries(files).find(([, bytes]) => strFromU8(bytes).includes(w.free));
      expect(post).toBeTruthy();
      expect(w.hasSecret(strFromU8(post![1]))).toBe(true);
      expect(strFromU8(post![1])).toContain(`visibility: "${visibility}"`);
    });
  },
);
