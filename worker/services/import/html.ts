import domino from "@mixmark-io/domino";
import TurndownService from "turndown";

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
  service.remove(["script", "style", "iframe", "object", "embed", "form", "noscript", "figcaption"]);
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
  return service;
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
  shared ??= converter();
  const doc = domino.createDocument(`<!doctype html><html><body>${html}</body></html>`);
  return shared.turndown(doc.body as unknown as HTMLElement).trim();
}

/** A document's DOM, for importers that read microformats (Medium). */
export function parseHtml(html: string): Document {
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
