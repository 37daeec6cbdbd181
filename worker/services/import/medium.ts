import { textOf } from "#worker/services/import/archive.ts";
import { htmlToMarkdown, parseHtml, plainText } from "#worker/services/import/html.ts";
import { guardPost, htmlAsText } from "#worker/services/import/isolate.ts";
import { emptyParsed, type ParsedImport } from "#worker/services/import/types.ts";
import { archiveRef, takeArchiveImages } from "#worker/services/import/zip-images.ts";

const text = (el: Element | null) => (el?.textContent ?? "").replace(/\s+/g, " ").trim();

/**
 * A Medium export: each post is posts/<name>.html (drafts are the draft_ files), marked up with
 * microformats: p-name (title), p-summary (subtitle), e-content (body), dt-published, p-canonical.
 */
export function parseMedium(files: Map<string, Uint8Array>): ParsedImport {
  const out = emptyParsed("medium", "medium.com");
  const names = [...files.keys()].filter((n) => /(^|\/)posts\/[^/]+\.html$/.test(n)).sort();
  for (const name of names) {
    // What the fallback knows without a DOM: the file's name, its <title> and its canonical link.
    const source = textOf(files.get(name)!);
    const file = name.split("/").pop()!;
    const canonicalText = /<a\b[^>]*class="p-canonical"[^>]*>/.exec(source)?.[0] ?? "";
    const fallback = {
      sourceKey: `medium:${file}:${/href="([^"]*)"/.exec(canonicalText)?.[1] ?? ""}`,
      title: htmlAsText(/<title>([\s\S]*?)<\/title>/i.exec(source)?.[1] ?? "") || "(untitled)",
      date: new Date().toISOString(),
      raw: /<section[^>]*class="e-content"[^>]*>([\s\S]*)<\/section>/.exec(source)?.[1] ?? source,
    };
    guardPost(out, fallback, () => {
      const doc = parseHtml(source);
      const title = text(doc.querySelector(".p-name")) || text(doc.querySelector("title")) || "(untitled)";
      const body = doc.querySelector(".e-content") ?? doc.body;
      // (domino answers undefined, not null, for no match)
      const hasTitleHeading = Boolean(body.querySelector(".graf--title"));
      // Medium repeats the title and subtitle as the body's first paragraphs.
      for (const dup of Array.from(body.querySelectorAll(".graf--title, .graf--subtitle, .section-divider")))
        dup.parentNode?.removeChild(dup);
      takeArchiveImages(doc, name, files, out);
      const published = doc.querySelector(".dt-published")?.getAttribute("datetime") ?? "";
      const canonical = doc.querySelector(".p-canonical")?.getAttribute("href") ?? "";
      const tags = Array.from(doc.querySelectorAll(".p-tag"))
        .map((a) => text(a))
        .filter(Boolean);
      // Medium names drafts draft_*.html; a draft has no publication time either. Medium's export also
      // holds the writer's responses (comments on others' stories) as posts: one paragraph, nothing
      // else, no tags. They come in as drafts, never published here as stories (Ghost's tool does the same).
      const response =
        tags.length === 0 &&
        body.getElementsByTagName("p").length <= 1 &&
        ["img", "figure", "h1", "h2", "h3", "h4", "h5", "h6", "pre", "blockquote", "ul", "ol", "iframe"].every(
          (tag) => body.getElementsByTagName(tag).length === 0,
        );
      // A response's title is not written by anyone: Medium makes it from the response's first words, and
      // gives it no title heading. So a body that begins with its own title, without a title heading, is a
      // response, whatever its length ("Hi Rohan, …" over several paragraphs).
      const plain = (t: string) =>
        t
          .toLowerCase()
          .replace(/[…\s]+/g, " ")
          .replace(/\.+$/, "")
          .trim();
      const head = plain(title);
      const titledFromBody =
        head.length > 0 && !hasTitleHeading && plain(text(body)).startsWith(head.replace(/ ?\.\.\.$/, ""));
      const isResponse = response || (tags.length === 0 && titledFromBody);
      const draft = file.startsWith("draft_") || !published || isResponse;
      const subtitle = text(doc.querySelector(".p-summary"));
      const html = body.innerHTML;
      const figure = body.querySelector("img")?.getAttribute("src") ?? null;
      return {
        // The file name with the canonical link: Medium's links are the identity, but drafts share none.
        sourceKey: `medium:${file}:${canonical}`,
        title,
        markdown: htmlToMarkdown(html),
        description: subtitle || plainText(html, 300),
        status: draft ? "draft" : "published",
        date: new Date(Date.parse(published) || Date.now()).toISOString(),
        categories: tags,
        tags,
        author: text(doc.querySelector(".p-author"))
          ? { name: text(doc.querySelector(".p-author")), email: null }
          : null,
        cover: figure ? (archiveRef(figure, name, files, out) ?? figure) : null,
        comments: [],
      };
    });
  }
  return out;
}
