import { parseXml } from "#worker/services/import/archive.ts";
import { guardPost, markdownOrText, type PostMeta } from "#worker/services/import/isolate.ts";
import { autop, htmlToMarkdown, plainText } from "#worker/services/import/html.ts";
import { titleText } from "#worker/services/import/text.ts";
import { expandShortcodes, type Attachments } from "#worker/services/import/shortcodes.ts";
import { emptyParsed, PAGE_SKIPPED, type ImportedComment, type ParsedImport } from "#worker/services/import/types.ts";
import { ValidationError } from "#worker/services/shared/errors.ts";

type Node = Record<string, unknown>;

/** A text value as fast-xml-parser gives it: a string, a number, or an element with #text and attributes. */
function str(value: unknown): string {
  if (value === undefined || value === null) return "";
  if (typeof value === "string") return value;
  if (typeof value === "number" || typeof value === "boolean") return String(value);
  if (typeof value === "object" && "#text" in (value as Node)) return str((value as Node)["#text"]);
  return "";
}

const list = (value: unknown): Node[] => (Array.isArray(value) ? (value as Node[]) : value ? [value as Node] : []);

/** WordPress dates are "YYYY-MM-DD HH:MM:SS"; the GMT one is "0000-00-00 00:00:00" for unpublished drafts. */
export function wpDate(gmt: string, local: string, fallback: string): string {
  for (const [value, zone] of [
    [gmt, "Z"],
    [local, "Z"],
  ] as const) {
    const m = /^(\d{4})-(\d{2})-(\d{2})[ T](\d{2}):(\d{2}):(\d{2})/.exec(value);
    if (m && m[1] !== "0000") {
      const ms = Date.parse(`${m[1]}-${m[2]}-${m[3]}T${m[4]}:${m[5]}:${m[6]}${zone}`);
      if (!Number.isNaN(ms)) return new Date(ms).toISOString();
    }
  }
  const parsed = Date.parse(fallback);
  return Number.isNaN(parsed) ? new Date().toISOString() : new Date(parsed).toISOString();
}

const NOT_WXR = "The XML is not a WordPress export (WXR): it has no <rss><channel>.";

/**
 * A WordPress eXtended RSS file: posts (published, drafts, scheduled), their categories and tags,
 * authors, featured images (_thumbnail_id to the attachment's URL) and approved comments.
 */
export function parseWordPress(text: string): ParsedImport {
  const doc = parseXml(text) as Node;
  const channel = (doc.rss as Node | undefined)?.channel as Node | undefined;
  if (!channel || typeof channel !== "object") throw new ValidationError({ file: NOT_WXR }, NOT_WXR, "import-not-wxr");
  const base = str(channel["wp:base_site_url"]) || str(channel.link) || "wordpress";
  const site = base.replace(/^https?:\/\//, "").replace(/\/+$/, "");
  const out = emptyParsed("wordpress", site);
  // Relative image addresses (`/wp-content/…`) are the blog's: its own address (a WordPress.com or multisite
  // export names the network's as base_site_url), else the site's.
  const home = [str(channel["wp:base_blog_url"]), base].find((u) => /^https?:\/\/[^/]/.test(u));
  try {
    if (home) out.origin = new URL(home).origin;
  } catch {
    // not an address: relative images stay as they are, and are reported when they cannot be fetched
  }

  const authors = new Map<string, { name: string; email: string | null }>();
  for (const a of list(channel["wp:author"])) {
    const login = str(a["wp:author_login"]);
    authors.set(login, {
      name: str(a["wp:author_display_name"]) || login,
      email: str(a["wp:author_email"]).toLowerCase() || null,
    });
  }

  const items = list(channel.item);
  const attachments: Attachments = { byId: new Map(), byParent: new Map() };
  for (const item of items)
    if (str(item["wp:post_type"]) === "attachment") {
      const url = str(item["wp:attachment_url"]) || str(item.guid);
      attachments.byId.set(str(item["wp:post_id"]), url);
      const parent = str(item["wp:post_parent"]);
      if (/\.(jpe?g|png|gif|webp|avif)(\?|$)/i.test(url))
        attachments.byParent.set(parent, [...(attachments.byParent.get(parent) ?? []), url]);
    }

  for (const item of items) {
    const type = str(item["wp:post_type"]);
    // WordPress shows a title as HTML ("Title <em>With</em> Markup", "&amp;"): here a title is text, and
    // what is not a tag stays ("IEnumerable<T>").
    const title = titleText(str(item.title)) || "(untitled)";
    if (type === "attachment") continue;
    const wpStatus = str(item["wp:status"]);
    if (type === "page" && ["publish", "draft", "pending", "private", "future"].includes(wpStatus)) {
      const id = str(item["wp:post_id"]) || str(item.guid);
      out.skipped.push({ title, reason: PAGE_SKIPPED, sourceKey: `wp:${site}:page:${id}` });
      continue;
    }
    if (type !== "post") {
      out.skipped.push({ title, reason: `a ${type || "record"} of another kind than a post` });
      continue;
    }
    if (!["publish", "draft", "pending", "private", "future"].includes(wpStatus)) {
      out.skipped.push({ title, reason: `status "${wpStatus}" (trash, revisions and auto-drafts are not posts)` });
      continue;
    }
    const sourceKey = `wp:${site}:${str(item["wp:post_id"]) || str(item.guid)}`;
    const content = str(item["content:encoded"]);
    const date = wpDate(str(item["wp:post_date_gmt"]), str(item["wp:post_date"]), str(item.pubDate));
    const status =
      wpStatus === "publish"
        ? "published"
        : wpStatus === "future"
          ? Date.parse(date) > Date.now()
            ? "scheduled"
            : "published"
          : "draft";
    // WXR 1.0 names tags domain="tag" (1.1 and later "post_tag") and repeats each term without a
    // domain: each name is kept once. Other taxonomies (post_format, custom ones) are not this site's.
    const categories = new Set<string>();
    const tags = new Set<string>();
    const plain: string[] = [];
    for (const c of list(item.category)) {
      const name = str(c).trim();
      const domain = c["@_domain"];
      if (!name) continue;
      if (domain === "post_tag" || domain === "tag") tags.add(name);
      else if (domain === "category") categories.add(name);
      else if (domain === undefined) plain.push(name);
    }
    for (const name of plain) if (!tags.has(name)) categories.add(name);
    let cover: string | null = null;
    for (const meta of list(item["wp:postmeta"]))
      if (str(meta["wp:meta_key"]) === "_thumbnail_id")
        cover = attachments.byId.get(str(meta["wp:meta_value"])) ?? null;

    const comments: ImportedComment[] = [];
    for (const c of list(item["wp:comment"])) {
      const kind = str(c["wp:comment_type"]);
      if (str(c["wp:comment_approved"]) !== "1" || (kind !== "" && kind !== "comment")) continue;
      const body = markdownOrText(autop(str(c["wp:comment_content"])));
      if (!body) continue;
      comments.push({
        authorName: str(c["wp:comment_author"]) || "Anonymous",
        authorEmail: str(c["wp:comment_author_email"]).toLowerCase() || null,
        date: wpDate(str(c["wp:comment_date_gmt"]), str(c["wp:comment_date"]), date),
        body,
      });
    }
    const excerpt = str(item["excerpt:encoded"]);
    const login = str(item["dc:creator"]);
    const meta: PostMeta = {
      sourceKey,
      title,
      ...(excerpt.trim() ? { description: plainText(excerpt, 300) } : {}),
      status,
      date,
      categories: [...categories],
      tags: [...tags],
      // A creator the file lists no <wp:author> for (Squarespace, hand-made files) may be an email address.
      author:
        authors.get(login) ??
        (/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(login)
          ? { name: login.split("@")[0]!, email: login.toLowerCase() }
          : login
            ? { name: login, email: null }
            : null),
      cover,
      comments,
    };
    guardPost(out, meta, content, () => {
      const html = autop(expandShortcodes(content, str(item["wp:post_id"]), attachments));
      return { markdown: htmlToMarkdown(html), description: meta.description ?? plainText(html, 300) };
    });
  }
  return out;
}
