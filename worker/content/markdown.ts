import { MEMBERS_ONLY_MARKER } from "#worker/services/blogs/gate.ts";
import { escapeHtml } from "#worker/content/escape.ts";
import { Marked, type Tokens } from "marked";
import xss from "xss";
import type * as XssModule from "xss";

// xss is CommonJS: its named exports hang off the default export in every bundler.
const { FilterXSS, escapeAttrValue, safeAttrValue } = xss as unknown as typeof XssModule;

/**
 * The one renderer for a post's details: Markdown (marked) to HTML, then an allow-list sanitiser (xss).
 * It runs on the server for reading pages (the post page's loader sends HTML, so readers download no
 * renderer) and in the dashboard editor's live preview, so the preview shows exactly what readers get.
 * Decision note: docs/decisions/013-markdown-and-sanitiser.md.
 */

/** Links may go to the web, to mail, or within this site; nothing else (javascript:, data:, vbscript:, ...). */
export function isAllowedHref(href: string): boolean {
  return (
    /^(https?:\/\/[^\s]|mailto:[^\s]|\/(?![/\\])|#)/i.test(href) &&
    ![...href].some((c) => c.charCodeAt(0) < 0x20 || /\s/.test(c))
  );
}

/** Images only from this site's own /images (the uploads): no tracking pixels or other hosts. */
export function isAllowedImage(src: string): boolean {
  // One path as it will be requested: no %-escapes (`/images/%2e%2e/` would be `..` to the server),
  // no dot segments, no backslashes, at most one folder (a width: /images/w640/<key>).
  return /^\/images\/(?:w\d{3,4}\/)?[A-Za-z0-9_~-][A-Za-z0-9._~-]*$/.test(src) && !src.includes("..");
}

/** What a reader sees beside a link that stands for another site's image. */
export const EXTERNAL_IMAGE_NOTE = "(an image on another site, not shown here)";

const marked = new Marked({ gfm: true, breaks: true, async: false });
marked.use({
  renderer: {
    // Raw HTML typed into a post is shown as text, never parsed as markup.
    html({ text }: Tokens.HTML | Tokens.Tag) {
      return escapeHtml(text);
    },
    // The page's own title is the only h1: a post's "# Heading" becomes an h2 like "## Heading".
    heading({ tokens, depth }: Tokens.Heading) {
      const level = Math.max(depth, 2);
      return `<h${level}>${this.parser.parseInline(tokens)}</h${level}>\n`;
    },
    link({ href, title, tokens }: Tokens.Link) {
      const text = this.parser.parseInline(tokens);
      if (!isAllowedHref(href)) return text;
      const t = title ? ` title="${escapeHtml(title)}"` : "";
      return `<a href="${escapeHtml(href)}"${t} rel="nofollow ugc noopener">${text}</a>`;
    },
    image({ href, title, text }: Tokens.Image) {
      // Another host's picture is never loaded (no tracking pixels, the CSP allows none): it becomes a
      // link named by its alt text, with a note, so the writer and the reader see it was not lost.
      if (!isAllowedImage(href) && /^https?:\/\//i.test(href) && isAllowedHref(href)) {
        const label = escapeHtml(text.trim() || new URL(href).host);
        return `<a href="${escapeHtml(href)}" rel="nofollow ugc noopener">${label}</a> <small>${EXTERNAL_IMAGE_NOTE}</small>`;
      }
      if (!isAllowedImage(href)) return escapeHtml(text);
      const t = title ? ` title="${escapeHtml(title)}"` : "";
      return `<img src="${escapeHtml(href)}" alt="${escapeHtml(text)}"${t} loading="lazy">`;
    },
  },
});

const TEXT: string[] = [];
const ALLOWED: Record<string, string[]> = {
  p: TEXT,
  br: TEXT,
  hr: TEXT,
  h2: TEXT,
  h3: TEXT,
  h4: TEXT,
  h5: TEXT,
  h6: TEXT,
  strong: TEXT,
  em: TEXT,
  small: TEXT,
  del: TEXT,
  ul: TEXT,
  ol: ["start"],
  li: TEXT,
  blockquote: TEXT,
  pre: TEXT,
  code: TEXT,
  a: ["href", "title", "rel"],
  img: ["src", "alt", "title", "loading"],
  table: TEXT,
  thead: TEXT,
  tbody: TEXT,
  tr: TEXT,
  th: TEXT,
  td: TEXT,
};

/** The allow-list: these tags and attributes only; everything else is escaped to text or dropped. */
const sanitizer = new FilterXSS({
  whiteList: ALLOWED,
  stripIgnoreTagBody: ["script", "style", "iframe", "object", "embed", "svg", "math", "template", "noscript"],
  allowCommentTag: false,
  css: false,
  safeAttrValue(tag, name, value, cssFilter) {
    const safe = safeAttrValue(tag, name, value, cssFilter);
    if (tag === "a" && name === "href") return isAllowedHref(safe) ? escapeAttrValue(safe) : "";
    if (tag === "img" && name === "src") return isAllowedImage(safe) ? escapeAttrValue(safe) : "";
    if (name === "start") return /^\d{1,6}$/.test(safe) ? safe : "";
    return safe;
  },
});

/**
 * Input caps: a post's details are at most MARKDOWN_MAX_CHARS (the write limit), and a text with more
 * than MARKDOWN_MAX_MARKS emphasis marks (`_`, `*`, `~`) has them all shown as plain characters: marked's
 * emphasis matching is quadratic in them ("_a" x 25,000 took seconds), while escaped marks are linear.
 */
export const MARKDOWN_MAX_CHARS = 50_000;
export const MARKDOWN_MAX_MARKS = 1_000;

/** The last few renders by their source: a page renders a post's HTML and its text once, not twice. */
const rendered = new Map<string, string>();
const RENDERED_ENTRIES = 16;

/** A post's details as safe HTML. Plain text (the posts written before Markdown) becomes paragraphs with its line breaks. */
const MARKER_LINE = new RegExp(`^[ \\t]*${MEMBERS_ONLY_MARKER}[ \\t]*$`, "gm");

export function renderMarkdown(source: string): string {
  const known = rendered.get(source);
  if (known !== undefined) return known;
  // The members' marker (worker/services/blogs/gate.ts) ends the preview; in the whole post it is no text.
  let text = source.slice(0, MARKDOWN_MAX_CHARS).replace(/\r\n?/g, "\n").replace(MARKER_LINE, "");
  let marks = 0;
  for (let i = 0; i < text.length && marks <= MARKDOWN_MAX_MARKS; i++) {
    const c = text.charCodeAt(i);
    if (c === 95 || c === 42 || c === 126) marks++;
  }
  if (marks > MARKDOWN_MAX_MARKS) text = text.replace(/[_*~]/g, "\\$&");
  const html = sanitizer.process(marked.parse(text) as string);
  if (rendered.size >= RENDERED_ENTRIES) rendered.delete(rendered.keys().next().value!);
  rendered.set(source, html);
  return html;
}

/**
 * Every block takes its direction from its own text (`dir="auto"`, issue 43): a paragraph in Arabic
 * inside an English post reads right to left, and the other way round. For what renderMarkdown gave: the
 * sanitiser removed every attribute of these tags, so their opening tags are exactly `<p>` (a writer's
 * own `<p>` is text by then, escaped); `<ol start>` keeps its one attribute. Pages (stored.ts), mail
 * (mail-post.ts) and the editor's preview use it; federated notes are left as Mastodon expects them.
 */
export function withAutoDirection(html: string): string {
  return html.replace(/<(p|h[2-6]|li|blockquote|td|th|ul|ol)(?=[ >])/g, '<$1 dir="auto"');
}

/** The words a reader reads: the rendered text without markup (reading time, word count). */
export function markdownText(source: string): string {
  return htmlText(renderMarkdown(source));
}

/** The text of rendered HTML (reading time, word count). */
export function htmlText(html: string): string {
  return html
    .replace(/<[^>]*>/g, " ")
    .replace(/&(?:[a-z]+|#\d+|#x[0-9a-f]+);/gi, "")
    .replace(/\s+/g, " ")
    .trim();
}
