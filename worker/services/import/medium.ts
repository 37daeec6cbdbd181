import { textOf } from "#worker/services/import/archive.ts";
import { htmlToMarkdown, parseHtml, plainText } from "#worker/services/import/html.ts";
import { guardPost, type PostMeta } from "#worker/services/import/isolate.ts";
import { decodeEntities, htmlAsText } from "#worker/services/import/text.ts";
import { emptyParsed, type ParsedImport } from "#worker/services/import/types.ts";
import { archiveRef, takeArchiveImages } from "#worker/services/import/zip-images.ts";

const text = (el: Element | null) => (el?.textContent ?? "").replace(/\s+/g, " ").trim();

/** A body's HTML without the title and subtitle Medium repeats at its start. */
const withoutRepeats = (body: string) =>
  body.replace(/<(h[1-6]|p)\b[^>]*\bgraf--(?:title|subtitle)\b[^>]*>[\s\S]*?<\/\1>/gi, "");

/** Text compared without its spacing: Medium's paragraphs join with none, and its titles cut with "…". */
const squashed = (t: string) =>
  t
    .toLowerCase()
    .replace(/[\s…]+/g, "")
    .replace(/\.+$/, "");

/**
 * Whether a post is one of the writer's responses. Ghost's migrator tells them as one paragraph, nothing
 * else (and no tags, checked by the caller). And a response's title is not written by anyone: Medium makes
 * it from the response's first words, and gives it no title heading. So a body that begins with its own
 * title, without a title heading, is a response, whatever its length ("Hi Rohan, …" over several
 * paragraphs, the title running on past the first). Read from the body's HTML, without a DOM.
 */
function isResponse(title: string, body: string): boolean {
  const kept = withoutRepeats(body);
  const paragraphs = kept.match(/<p\b/gi)?.length ?? 0;
  if (paragraphs <= 1 && !/<(img|figure|h[1-6]|pre|blockquote|ul|ol|iframe)\b/i.test(kept)) return true;
  const head = squashed(title);
  return head.length > 0 && !/\bgraf--title\b/.test(body) && squashed(htmlAsText(kept)).startsWith(head);
}

/**
 * A Medium export: each post is posts/<name>.html (drafts are the draft_ files), marked up with
 * microformats: p-name (title), p-summary (subtitle), e-content (body), dt-published, p-canonical.
 */
export function parseMedium(files: Map<string, Uint8Array>): ParsedImport {
  const out = emptyParsed("medium", "medium.com");
  const names = [...files.keys()].filter((n) => /(^|\/)posts\/[^/]+\.html$/.test(n)).sort();
  for (const name of names) {
    const source = textOf(files.get(name)!);
    const file = name.split("/").pop()!;
    // The metadata is read from the file without its body (small, and never what fails to convert).
    const bodyAt = /<section[^>]*class="e-content"[^>]*>([\s\S]*)<\/section>/.exec(source);
    const raw = bodyAt?.[1] ?? source;
    const shell = bodyAt ? source.slice(0, bodyAt.index) + source.slice(bodyAt.index + bodyAt[0].length) : source;
    let doc: Document;
    try {
      doc = parseHtml(shell);
    } catch {
      doc = parseHtml("");
    }
    const title =
      text(doc.querySelector(".p-name")) ||
      text(doc.querySelector("title")) ||
      htmlAsText(/<title>([\s\S]*?)<\/title>/i.exec(source)?.[1] ?? "") ||
      "(untitled)";
    const published = doc.querySelector(".dt-published")?.getAttribute("datetime") ?? "";
    const canonical = doc.querySelector(".p-canonical")?.getAttribute("href") ?? "";
    const tags = Array.from(doc.querySelectorAll(".p-tag"))
      .map((a) => text(a))
      .filter(Boolean);
    const subtitle = text(doc.querySelector(".p-summary"));
    const author = text(doc.querySelector(".p-author"));
    // Medium names drafts draft_*.html; a draft has no publication time either. Responses (comments on
    // others' stories, which Medium's export keeps among the posts) come in as drafts: isResponse.
    const draft = file.startsWith("draft_") || !published || (tags.length === 0 && isResponse(title, raw));
    const figure = /<img\b[^>]*?\ssrc="([^"]*)"/i.exec(raw)?.[1];
    const cover = figure ? decodeEntities(figure) : null;
    const meta: PostMeta = {
      // The file name with the canonical link: Medium's links are the identity, but drafts share none.
      sourceKey: `medium:${file}:${canonical}`,
      title,
      ...(subtitle ? { description: subtitle } : {}),
      status: draft ? "draft" : "published",
      date: new Date(Date.parse(published) || Date.now()).toISOString(),
      categories: tags,
      tags,
      author: author ? { name: author, email: null } : null,
      cover: cover ? (archiveRef(cover, name, files, out) ?? cover) : null,
      comments: [],
    };
    guardPost(out, meta, withoutRepeats(raw), () => {
      const full = parseHtml(source);
      const body = full.querySelector(".e-content") ?? full.body;
      // Medium repeats the title and subtitle as the body's first paragraphs.
      for (const dup of Array.from(body.querySelectorAll(".graf--title, .graf--subtitle, .section-divider")))
        dup.parentNode?.removeChild(dup);
      takeArchiveImages(full, name, files, out);
      const html = body.innerHTML;
      return { markdown: htmlToMarkdown(html), description: subtitle || plainText(html, 300) };
    });
  }
  return out;
}
