import domino from "@mixmark-io/domino";
import TurndownService from "turndown";
import { MEMBERS_ONLY_MARKER } from "#worker/services/blogs/gate.ts";
import { assertHtmlDepth, assertTreeDepth } from "#worker/services/import/nesting.ts";
import { brushLanguage } from "#worker/services/import/shortcodes.ts";
import { escapeCodeTags, htmlAsText } from "#worker/services/import/text.ts";

/**
 * HTML to this site's Markdown with turndown. Workers have no DOM, and turndown's browser build (the
 * one bundlers pick) parses with `document`: so the HTML is parsed here by domino, the very DOM turndown
 * uses under Node, and turndown is handed the parsed node (docs/decisions/029-importers.md).
 */
function converter(): TurndownService {
  const service = new TurndownService({
    headingStyle: "atx",
    codeBlockStyle: "fenced",
    bulletListMarker: "-",
    emDelimiter: "_",
    hr: "---",
  });
  // Embeds, scripts and forms have no Markdown: they are dropped, their text too.
  service.remove(["script", "style", "iframe", "object", "embed", "form", "noscript"]);
  // An image's caption is the writer's words: it stays, under the image (in italics when it can be). A caption of
  // anything else (an embed, dropped above) would be left without what it describes: it goes too.
  service.addRule("figcaption", {
    filter: "figcaption",
    replacement: (content, node) => {
      const figure = node.parentNode as HTMLElement | null;
      const text = content.trim();
      if (!text || !figure || figure.getElementsByTagName("img").length === 0) return "";
      return `\n\n${text.includes("*") ? text : `*${text}*`}\n\n`;
    },
  });
  // An image with any alt text (brackets escaped: `clip_image002[6]`) and any address: one with spaces or
  // parentheses goes in <…>, so the image is still found (and copied) whole.
  const image = (el: HTMLElement) => {
    const src = (el.getAttribute("src") ?? "").trim();
    if (!src) return "";
    const alt = service.escape((el.getAttribute("alt") ?? "").replace(/\s+/g, " "));
    const title = (el.getAttribute("title") ?? "").replace(/\s+/g, " ").replace(/"/g, "”").trim();
    const url = /[\s()<>]/.test(src) ? `<${src.replace(/[<>\s]/g, encodeURIComponent)}>` : src;
    return `![${alt}](${url}${title ? ` "${title}"` : ""})`;
  };
  service.addRule("image", { filter: "img", replacement: (_content, node) => image(node as HTMLElement) });
  // Every <pre> is a fenced code block: with or without <code> (WordPress's "preformatted" block), and
  // with whitespace before its <code> (Medium), which turndown's own rule does not see as code. Its line
  // breaks (<br>, one paragraph a line) stay lines; an image in it cannot be code, so it follows the block.
  service.addRule("pre", {
    filter: (node) => node.nodeName === "PRE",
    replacement: (_content, node) => {
      const el = node as HTMLElement;
      const images: string[] = [];
      const code = preText(el, images, image).replace(/^\n+|\s+$/g, "");
      const fence = code.includes("```") ? "~~~~" : "```";
      const after = images.filter(Boolean).join("\n\n");
      return `\n\n${fence}${codeLanguage(el)}\n${code}\n${fence}\n\n${after ? `${after}\n\n` : ""}`;
    },
  });
  // A link around blocks (Squarespace wraps its image blocks in one): a linked image stays linked,
  // anything else keeps its blocks without the link, never "[" and "](…)" left on lines of their own.
  service.addRule("blockLink", {
    filter: (node) => node.nodeName === "A" && holdsBlock(node),
    replacement: (content, node) => {
      const inner = content.trim();
      const href = (node as HTMLElement).getAttribute("href") ?? "";
      if (href && /^!\[[^\]]*\]\([^)]*\)$/.test(inner)) return `[${inner}](${href})`;
      return `\n\n${inner}\n\n`;
    },
  });
  // A simple table (one cell a column in every row) is a Markdown table; any other keeps its text.
  service.addRule("table", {
    filter: (node) => node.nodeName === "TABLE" && simpleTable(node as HTMLElement) !== null,
    replacement: (_content, node) => {
      const rows = simpleTable(node as HTMLElement, (cell) => service.turndown(cell))!;
      const line = (cells: string[]) => `| ${cells.join(" | ")} |`;
      const [head, ...body] = rows;
      return `\n\n${[line(head!), line(head!.map(() => "---")), ...body.map(line)].join("\n")}\n\n`;
    },
  });
  return service;
}

/** The language of a code block: its <code>'s or its own `language-x` class, or SyntaxHighlighter's `brush: x`. */
function codeLanguage(pre: HTMLElement): string {
  const classes = `${pre.querySelector("code")?.className ?? ""} ${pre.className}`;
  const named = /(?:^|\s)(?:language|lang)-([\w+-]+)/.exec(classes)?.[1];
  if (named) return named;
  const brush = /(?:^|[\s;])brush:\s*([\w+#-]+)/i.exec(pre.className)?.[1];
  return brush ? brushLanguage(brush) : "";
}

/** A code block's text: <br> and each paragraph or line element a line break; its images set aside. */
function preText(node: Node, images: string[], image: (el: HTMLElement) => string): string {
  let text = "";
  for (let child = node.firstChild; child; child = child.nextSibling) {
    if (child.nodeType === 3) text += child.nodeValue ?? "";
    else if (child.nodeType !== 1 || child.nodeName === "SCRIPT" || child.nodeName === "STYLE") continue;
    else if (child.nodeName === "BR") text += "\n";
    else if (child.nodeName === "IMG") images.push(image(child as HTMLElement));
    else {
      text += preText(child, images, image);
      if ((child.nodeName === "P" || child.nodeName === "DIV") && text && !text.endsWith("\n")) text += "\n";
    }
  }
  return text;
}

const BLOCKS = new Set(["DIV", "P", "FIGURE", "H1", "H2", "H3", "H4", "H5", "H6", "UL", "OL", "TABLE", "BLOCKQUOTE"]);
/** Whether an element has a block element anywhere inside it. */
function holdsBlock(node: Node): boolean {
  for (let child = node.firstChild; child; child = child.nextSibling)
    if (BLOCKS.has(child.nodeName) || holdsBlock(child)) return true;
  return false;
}

/**
 * A table's cells, row by row, when every row has as many cells as the first and none nests a table: each
 * cell as inline Markdown (`cell`), so its images, links and emphasis stay; on one line, pipes escaped.
 */
function simpleTable(
  table: HTMLElement,
  cell: (el: HTMLElement) => string = (el) => el.textContent ?? "",
): string[][] | null {
  if (table.getElementsByTagName("table").length > 0) return null;
  const rows = Array.from(table.getElementsByTagName("tr")).map((tr) =>
    Array.from(tr.children)
      .filter((c) => c.nodeName === "TD" || c.nodeName === "TH")
      .map((c) =>
        cell(c as HTMLElement)
          .replace(/\s+/g, " ")
          .trim()
          .replace(/\|/g, "\\|"),
      ),
  );
  if (rows.length === 0 || rows[0]!.length === 0 || rows.some((r) => r.length !== rows[0]!.length)) return null;
  return rows;
}

/** Lazy-loaded images (Squarespace, WordPress plugins) keep their address in a data attribute, not src. */
function unlazyImages(root: Element) {
  for (const img of Array.from(root.querySelectorAll("img"))) {
    const src = img.getAttribute("src") ?? "";
    if (src && !src.startsWith("data:")) continue;
    const lazy = ["data-src", "data-lazy-src", "data-image", "data-original"]
      .map((name) => img.getAttribute(name))
      .find((value) => value && /^(https?:)?\/\//.test(value));
    if (lazy) img.setAttribute("src", lazy);
  }
}

/**
 * A tag name no DOM can create (`<et@everet.org>`, an address written bare in a code block): the parser
 * keeps it, but turndown clones nodes and domino refuses to clone it (INVALID_CHARACTER_ERR). The writer
 * meant text: it becomes the text it was, its content after it.
 */
function textForBadNames(doc: Document) {
  for (const el of Array.from(doc.body.getElementsByTagName("*"))) {
    const name = el.localName;
    if (/^[a-z][a-z0-9-]*$/.test(name)) continue;
    try {
      doc.createElement(name);
      continue;
    } catch {
      // not a name an element may have
    }
    const attrs = Array.from(el.attributes)
      .map((a) => (a.value ? ` ${a.name}="${a.value}"` : ` ${a.name}`))
      .join("");
    const parent = el.parentNode!;
    parent.insertBefore(doc.createTextNode(`<${name}${attrs}>`), el);
    while (el.firstChild) parent.insertBefore(el.firstChild, el);
    parent.removeChild(el);
  }
}

let shared: TurndownService | null = null;

/**
 * WordPress stores paragraphs as blank lines (wpautop): block them in <p> before converting. Code blocks
 * keep their blank lines (a <pre> is never split), and block-editor content (Gutenberg's `<!-- wp:… -->`
 * comments) already holds its own markup, which WordPress itself does not autop.
 */
export function autop(html: string): string {
  if (!/\n\s*\n/.test(html) || html.includes("<!-- wp:")) return html;
  const kept: string[] = [];
  const guarded = html.replace(/<pre\b[\s\S]*?<\/pre>/gi, (pre) => `\uE000${kept.push(pre) - 1}\uE000`);
  return guarded
    .split(/\n\s*\n/)
    .map((chunk) => chunk.trim())
    .filter(Boolean)
    .map((chunk) =>
      /^<(p|h[1-6]|ul|ol|pre|blockquote|figure|div|table|hr|!--)/i.test(chunk)
        ? chunk
        : /^\uE000\d+\uE000$/.test(chunk)
          ? chunk
          : `<p>${chunk.replace(/\n/g, "<br>\n")}</p>`,
    )
    .join("\n")
    .replace(/\uE000(\d+)\uE000/g, (_all, i: string) => kept[Number(i)]!);
}

export function htmlToMarkdown(source: string): string {
  const html = escapeCodeTags(source);
  assertHtmlDepth(html);
  shared ??= converter();
  const doc = domino.createDocument(`<!doctype html><html><body>${html}</body></html>`);
  // What the parser built, measured: turndown recurses per level, whatever the scan above believed.
  assertTreeDepth(doc.body);
  textForBadNames(doc as unknown as Document);
  unlazyImages(doc.body as unknown as Element);
  return shared.turndown(doc.body as unknown as HTMLElement).trim();
}

/**
 * A members' post from another platform: the HTML before its paywall (`at`, the first match: Ghost's
 * `<!--members-only-->` comment, Substack's paywall element) and after it, each made Markdown, joined by this
 * site's marker line (worker/services/blogs/gate.ts). `free` is the HTML above the paywall (its preview).
 */
export function htmlToGatedMarkdown(source: string, at: RegExp): { markdown: string; free: string | null } {
  const found = at.exec(source);
  if (!found) return { markdown: htmlToMarkdown(source), free: null };
  const free = source.slice(0, found.index);
  const rest = source.slice(found.index + found[0].length);
  return { markdown: `${htmlToMarkdown(free)}\n\n${MEMBERS_ONLY_MARKER}\n\n${htmlToMarkdown(rest)}`, free };
}

/** A document's DOM, for importers that read microformats (Medium). */
export function parseHtml(source: string): Document {
  const html = escapeCodeTags(source);
  assertHtmlDepth(html);
  const doc = domino.createDocument(html);
  assertTreeDepth(doc);
  return doc as unknown as Document;
}

/**
 * Plain text of some HTML, squeezed to one line and cut to `max` characters. It never throws: HTML the DOM
 * cannot take (nested past the cap) is read as text without it.
 */
export function plainText(html: string, max: number): string {
  let text: string;
  try {
    text = parseHtml(`<body>${html}</body>`).body.textContent ?? "";
  } catch {
    text = htmlAsText(html);
  }
  text = text.replace(/\s+/g, " ").trim();
  return text.length > max ? `${text.slice(0, max - 1).trimEnd()}…` : text;
}

/** Every image a Markdown text shows, by URL (inline `![alt](url "title")`). */
export function markdownImages(markdown: string): string[] {
  const found = new Set<string>();
  for (const m of markdown.matchAll(MARKDOWN_IMAGE)) found.add(m[2] ?? m[3]!);
  return [...found];
}

/**
 * An inline Markdown image: alt text with any characters (escaped brackets too: `clip_image002\[6\]`),
 * the URL bare or in <…> (which may hold spaces and parentheses), and an optional "title".
 * Groups: 1 alt, 2 URL in <…>, 3 bare URL, 4 title (with its leading space).
 */
export const MARKDOWN_IMAGE = /!\[((?:\\.|[^\]\\])*)\]\(\s*(?:<([^>\n]+)>|([^)\s]+))((?:\s+"[^"]*")?)\s*\)/g;
