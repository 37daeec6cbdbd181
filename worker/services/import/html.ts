import domino from "@mixmark-io/domino";
import TurndownService from "turndown";
import { assertHtmlDepth } from "#worker/services/import/nesting.ts";

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
  // Every <pre> is a fenced code block: with or without <code> (WordPress's "preformatted" block), and
  // with whitespace before its <code> (Medium), which turndown's own rule does not see as code.
  service.addRule("pre", {
    filter: (node) => node.nodeName === "PRE",
    replacement: (_content, node) => {
      const el = node as HTMLElement;
      const lang = /(?:^|\s)(?:language|lang)-([\w+-]+)/.exec(el.querySelector("code")?.className ?? "")?.[1] ?? "";
      const code = (el.textContent ?? "").replace(/^\n+|\s+$/g, "");
      const fence = code.includes("```") ? "~~~~" : "```";
      return `\n\n${fence}${lang}\n${code}\n${fence}\n\n`;
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
      const rows = simpleTable(node as HTMLElement)!;
      const line = (cells: string[]) => `| ${cells.join(" | ")} |`;
      const [head, ...body] = rows;
      return `\n\n${[line(head!), line(head!.map(() => "---")), ...body.map(line)].join("\n")}\n\n`;
    },
  });
  return service;
}

const BLOCKS = new Set(["DIV", "P", "FIGURE", "H1", "H2", "H3", "H4", "H5", "H6", "UL", "OL", "TABLE", "BLOCKQUOTE"]);
/** Whether an element has a block element anywhere inside it. */
function holdsBlock(node: Node): boolean {
  for (let child = node.firstChild; child; child = child.nextSibling)
    if (BLOCKS.has(child.nodeName) || holdsBlock(child)) return true;
  return false;
}

/** A table's cells as text, row by row, when every row has as many cells as the first and none nests a table. */
function simpleTable(table: HTMLElement): string[][] | null {
  if (table.getElementsByTagName("table").length > 0) return null;
  const rows = Array.from(table.getElementsByTagName("tr")).map((tr) =>
    Array.from(tr.children)
      .filter((c) => c.nodeName === "TD" || c.nodeName === "TH")
      .map((c) => (c.textContent ?? "").replace(/\s+/g, " ").trim().replace(/\|/g, "\\|")),
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

/** WordPress stores paragraphs as blank lines (wpautop): block them in <p> before converting. */
export function autop(html: string): string {
  if (!/\n\s*\n/.test(html)) return html;
  return html
    .split(/\n\s*\n/)
    .map((chunk) => chunk.trim())
    .filter(Boolean)
    .map((chunk) =>
      /^<(p|h[1-6]|ul|ol|pre|blockquote|figure|div|table|hr|!--)/i.test(chunk)
        ? chunk
        : `<p>${chunk.replace(/\n/g, "<br>\n")}</p>`,
    )
    .join("\n");
}

export function htmlToMarkdown(html: string): string {
  assertHtmlDepth(html);
  shared ??= converter();
  const doc = domino.createDocument(`<!doctype html><html><body>${html}</body></html>`);
  textForBadNames(doc as unknown as Document);
  unlazyImages(doc.body as unknown as Element);
  return shared.turndown(doc.body as unknown as HTMLElement).trim();
}

/** A document's DOM, for importers that read microformats (Medium). */
export function parseHtml(html: string): Document {
  assertHtmlDepth(html);
  return domino.createDocument(html) as unknown as Document;
}

/** Plain text of some HTML, squeezed to one line and cut to `max` characters. */
export function plainText(html: string, max: number): string {
  const text = (parseHtml(`<body>${html}</body>`).body.textContent ?? "").replace(/\s+/g, " ").trim();
  return text.length > max ? `${text.slice(0, max - 1).trimEnd()}…` : text;
}

/** Every image a Markdown text shows, by URL (inline `![alt](url "title")`). */
export function markdownImages(markdown: string): string[] {
  const found = new Set<string>();
  for (const m of markdown.matchAll(/!\[[^\]]*\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)) found.add(m[1]!);
  return [...found];
}
