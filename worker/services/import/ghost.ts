import { MEMBERS_ONLY_MARKER } from "#worker/services/blogs/gate.ts";
import { htmlToGatedMarkdown, htmlToMarkdown, plainText } from "#worker/services/import/html.ts";
import { guardPost, type PostMeta } from "#worker/services/import/isolate.ts";
import { lexicalToMarkdown } from "#worker/services/import/lexical.ts";
import { mobiledocToMarkdown } from "#worker/services/import/mobiledoc.ts";
import { emptyParsed, PAGE_SKIPPED, type ParsedImport } from "#worker/services/import/types.ts";
import { ValidationError } from "#worker/services/shared/errors.ts";

type Row = Record<string, unknown>;
const s = (v: unknown) => (typeof v === "string" ? v : typeof v === "number" ? String(v) : "");
const rows = (v: unknown): Row[] => (Array.isArray(v) ? (v as Row[]) : []);

/** A Ghost time: an ISO string (Ghost 1 and later) or milliseconds since 1970 (Ghost 0.x), else NaN. */
function ghostTime(value: unknown): number {
  if (typeof value === "number") return value;
  const text = s(value).trim();
  return /^\d{10,}$/.test(text) ? Number(text) : Date.parse(text);
}

/** A page, in any Ghost version: `type: "page"` (3 and later) or `page: true` / `1` (0.x to 2). */
const isPage = (post: Row) => s(post.type) === "page" || post.page === true || post.page === 1 || post.page === "1";

/** A public post's Markdown without the marker line a paywall card left in it. */
const withoutMarker = (markdown: string) =>
  markdown
    .split(/\n{2,}/)
    .filter((block) => block.trim() !== MEMBERS_ONLY_MARKER)
    .join("\n\n");

/** A gated post's Markdown above its marker line, or null when it has none (all of it is for members). */
function freeMarkdown(markdown: string): string | null {
  const at = markdown.indexOf(MEMBERS_ONLY_MARKER);
  return at >= 0 ? markdown.slice(0, at).trim() : null;
}

const NOT_GHOST = "The JSON is not a Ghost export: it has no db[0].data.posts.";

/** Where a Ghost members' post's free preview ends (the same words as this site's marker). */
const GHOST_MARKER = /<!--\s*members-only\s*-->/i;

/**
 * A Ghost export (Settings, Labs, Export): posts with html (preferred) or lexical, status, feature
 * images, tags (the first ones, by sort order, try as categories; the rest are tags) and authors.
 */
export function parseGhost(data: unknown): ParsedImport {
  const root = data as Row;
  const db = rows(root.db)[0] ?? (root.data ? root : null);
  const tables = (db?.data ?? null) as Row | null;
  if (!tables || !Array.isArray(tables.posts))
    throw new ValidationError({ file: NOT_GHOST }, NOT_GHOST, "import-not-ghost");
  const meta = (db?.meta ?? {}) as Row;
  const siteUrl = s(meta.url ?? (root as Row).url).replace(/\/+$/, "");
  const out = emptyParsed("ghost", siteUrl.replace(/^https?:\/\//, "") || "ghost");
  if (/^https?:\/\//.test(siteUrl)) out.origin = siteUrl;

  const tags = new Map(rows(tables.tags).map((t) => [s(t.id), s(t.name)]));
  const users = new Map(rows(tables.users).map((u) => [s(u.id), { name: s(u.name), email: s(u.email).toLowerCase() }]));
  const postTags = new Map<string, { name: string; order: number }[]>();
  for (const pt of rows(tables.posts_tags)) {
    const name = tags.get(s(pt.tag_id));
    if (!name || name.startsWith("#")) continue; // "#internal" tags are Ghost's own plumbing
    const entry = postTags.get(s(pt.post_id)) ?? [];
    entry.push({ name, order: Number(pt.sort_order ?? 0) });
    postTags.set(s(pt.post_id), entry);
  }
  const postAuthor = new Map<string, { id: string; order: number }>();
  for (const pa of rows(tables.posts_authors)) {
    const order = Number(pa.sort_order ?? 0);
    const current = postAuthor.get(s(pa.post_id));
    if (!current || order < current.order) postAuthor.set(s(pa.post_id), { id: s(pa.author_id), order });
  }

  for (const post of rows(tables.posts)) {
    const title = s(post.title) || "(untitled)";
    if (isPage(post)) {
      out.skipped.push({ title, reason: PAGE_SKIPPED, sourceKey: `ghost:${out.site}:${s(post.uuid) || s(post.id)}` });
      continue;
    }
    // __GHOST_URL__ (Ghost's own address) is resolved when the posts are staged: ./ghost-urls.ts.
    const ghostStatus = s(post.status);
    const at = ghostTime(post.published_at ?? null) || ghostTime(post.created_at);
    const date = new Date(Number.isNaN(at) || !at ? Date.now() : at).toISOString();
    const status = ghostStatus === "published" ? "published" : ghostStatus === "scheduled" ? "scheduled" : "draft";
    const names = (postTags.get(s(post.id)) ?? []).sort((a, b) => a.order - b.order).map((t) => t.name);
    const author = users.get(postAuthor.get(s(post.id))?.id ?? s(post.author_id));
    const html = s(post.html);
    // Ghost's visibility: "members", "paid", or "tiers" (some paid tiers: here, paying members).
    const ghostVisibility = s(post.visibility);
    const visibility =
      ghostVisibility === "members"
        ? "members"
        : ghostVisibility === "paid" || ghostVisibility === "tiers"
          ? "paid"
          : null;
    const meta: PostMeta = {
      ...(visibility ? { visibility } : {}),
      sourceKey: `ghost:${out.site}:${s(post.uuid) || s(post.id)}`,
      title,
      ...(s(post.custom_excerpt) ? { description: s(post.custom_excerpt) } : {}),
      status: status === "scheduled" && !(Date.parse(date) > Date.now()) ? "published" : status,
      date,
      // Ghost has only tags: every tag may name a category; those that do not are kept as tags.
      categories: names,
      tags: names,
      author: author ? { name: author.name, email: author.email || null } : null,
      slug: s(post.slug) || undefined,
      // Ghost 0.x called the feature image `image`.
      cover: s(post.feature_image) || s(post.image) || null,
      comments: [],
    };
    // The body: html when exported, else the editor's own state: lexical (Ghost 5), mobiledoc (1 to 4),
    // or the Markdown Ghost 0.x kept beside its html.
    guardPost(out, meta, html || s(post.plaintext) || s(post.markdown), () => {
      // A gated post keeps where its preview ends: Ghost's own marker comment (in html) or paywall card (in
      // Lexical and mobiledoc) becomes this site's marker line. A public post has no preview: Ghost ignores
      // the card there, and so does this site.
      const gated = html && visibility ? htmlToGatedMarkdown(html, GHOST_MARKER) : null;
      const converted = gated
        ? gated.markdown
        : html
          ? htmlToMarkdown(html)
          : post.lexical
            ? lexicalToMarkdown(s(post.lexical))
            : post.mobiledoc
              ? mobiledocToMarkdown(s(post.mobiledoc))
              : s(post.markdown).trim();
      const markdown = visibility ? converted : withoutMarker(converted);
      // The short description is what a visitor reads of a gated post (worker/services/blogs/gate.ts's preview
      // when it has no marker): Ghost's own excerpt, else the free part's text, never the members' part (Ghost
      // itself shows a visitor no generated excerpt of a gated post). Empty, the post's title stands in.
      const squeezed = (text: string) => text.replace(/\s+/g, " ").trim().slice(0, 300);
      const description =
        meta.description ??
        (!visibility
          ? html
            ? plainText(html, 300)
            : squeezed(markdown)
          : gated
            ? plainText(gated.free ?? "", 300)
            : squeezed(freeMarkdown(markdown) ?? ""));
      return { markdown, description };
    });
  }
  return out;
}
