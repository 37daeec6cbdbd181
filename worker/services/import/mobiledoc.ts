import { escapeHtml } from "#worker/content/escape.ts";
import { MEMBERS_ONLY_MARKER } from "#worker/services/blogs/gate.ts";
import { htmlToMarkdown } from "#worker/services/import/html.ts";
import { assertJsonDepth, MAX_JSON_DEPTH } from "#worker/services/import/nesting.ts";

type Row = Record<string, unknown>;
const s = (v: unknown) => (typeof v === "string" ? v : typeof v === "number" ? String(v) : "");
const arr = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);
const esc = escapeHtml;

const SAFE_TAGS = /^(p|h[1-6]|blockquote|aside|pre|ul|ol|a|b|strong|i|em|u|s|code|sub|sup)$/i;

/** A markup section's or list item's markers (text and atoms) with their opening and closing markups. */
function markersHtml(markers: unknown[], markups: unknown[], atoms: unknown[]): string {
  const open: string[] = [];
  let html = "";
  for (const marker of markers.map(arr)) {
    // Mobiledoc 0.3: [type, opened, closed, value]; 0.2 has no type: [opened, closed, text].
    const [type, opened, closed, value] = marker.length === 3 ? [0, ...marker] : marker;
    for (const index of arr(opened)) {
      const [tag, attrs] = arr(markups[Number(index)]);
      const name = SAFE_TAGS.test(s(tag)) ? s(tag).toLowerCase() : "span";
      const pairs = arr(attrs);
      let attributes = "";
      for (let i = 0; i + 1 < pairs.length; i += 2)
        if (s(pairs[i]) === "href") attributes += ` href="${esc(s(pairs[i + 1]))}"`;
      html += `<${name}${attributes}>`;
      open.push(name);
    }
    if (type === 1) {
      const [name, text] = arr(atoms[Number(value)]);
      html += s(name) === "soft-return" ? "<br>" : esc(s(text));
    } else html += esc(s(value));
    for (let n = Number(closed) || 0; n > 0 && open.length > 0; n--) html += `</${open.pop()}>`;
  }
  while (open.length > 0) html += `</${open.pop()}>`;
  return html;
}

/** One card as Markdown: Ghost's markdown card is Markdown already; the others go through HTML. */
function cardMarkdown(name: string, payload: Row): string {
  switch (name) {
    case "markdown":
    case "card-markdown":
      return s(payload.markdown).trim();
    case "html":
    case "embed":
      return htmlToMarkdown(s(payload.html));
    case "image": {
      // The caption is HTML in Ghost's card.
      const caption = s(payload.caption) ? `<figcaption>${s(payload.caption)}</figcaption>` : "";
      return htmlToMarkdown(
        `<figure><img src="${esc(s(payload.src))}" alt="${esc(s(payload.alt))}">${caption}</figure>`,
      );
    }
    case "gallery":
      return htmlToMarkdown(
        arr(payload.images)
          .map((i) => `<img src="${esc(s((i as Row).src))}">`)
          .join("\n"),
      );
    case "code":
      return htmlToMarkdown(
        `<pre><code class="language-${esc(s(payload.language))}">${esc(s(payload.code))}</code></pre>`,
      );
    case "hr":
      return "---";
    // Where a members' post's free preview ends: this site's marker line (worker/services/blogs/gate.ts).
    case "paywall":
      return MEMBERS_ONLY_MARKER;
    case "bookmark": {
      const url = s((payload.metadata as Row | undefined)?.url) || s(payload.url);
      return url ? htmlToMarkdown(`<p><a href="${esc(url)}">${esc(url)}</a></p>`) : "";
    }
    default:
      return "";
  }
}

/**
 * Mobiledoc (Ghost 1 to 4's editor state) to Markdown, for posts exported without `html`: markup
 * sections, lists, images and the common cards (markdown, html, image, gallery, code, hr, bookmark, paywall).
 */
export function mobiledocToMarkdown(source: string): string {
  let doc: Row;
  assertJsonDepth(source, MAX_JSON_DEPTH, "mobiledoc");
  try {
    doc = JSON.parse(source) as Row;
  } catch {
    return "";
  }
  if (!doc || typeof doc !== "object") return "";
  const markups = arr(doc.markups);
  const atoms = arr(doc.atoms);
  const cards = arr(doc.cards);
  const blocks: string[] = [];
  for (const section of arr(doc.sections).map(arr)) {
    const [kind, a, b] = section;
    if (kind === 1) {
      const tag = /^(p|h[1-6]|blockquote|aside)$/i.test(s(a)) ? s(a).toLowerCase() : "p";
      const name = tag === "aside" ? "blockquote" : tag;
      blocks.push(htmlToMarkdown(`<${name}>${markersHtml(arr(b), markups, atoms)}</${name}>`));
    } else if (kind === 3) {
      const tag = s(a).toLowerCase() === "ol" ? "ol" : "ul";
      const items = arr(b).map((item) => `<li>${markersHtml(arr(item), markups, atoms)}</li>`);
      blocks.push(htmlToMarkdown(`<${tag}>${items.join("")}</${tag}>`));
    } else if (kind === 2) {
      blocks.push(htmlToMarkdown(`<img src="${esc(s(a))}">`));
    } else if (kind === 10) {
      const [name, payload] = arr(cards[Number(a)]);
      blocks.push(cardMarkdown(s(name), (payload ?? {}) as Row));
    }
  }
  return blocks.filter(Boolean).join("\n\n");
}
