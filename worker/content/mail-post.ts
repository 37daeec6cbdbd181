import { renderMarkdown, withAutoDirection } from "#worker/content/markdown.ts";

/**
 * A post's whole body for newsletter mail: the one renderer's sanitised HTML (worker/content/markdown.ts,
 * what the post page shows) with every link and image made absolute, since a mail client has no base
 * URL, and a plain-text version of the same for the text part.
 */
export function postForMail(source: string, pageUrl: string): { html: string; text: string } {
  const page = new URL(pageUrl);
  page.hash = "";
  // The sanitiser leaves only double-quoted attributes, and only these relative forms: a path on
  // this site ("/images/...", "/blogs/...") or a fragment of the post itself ("#notes").
  const html = withAutoDirection(renderMarkdown(source)).replace(/<(?:a|img)\b[^>]*>/g, (tag) =>
    tag.replace(/\s(href|src)="([^"]*)"/g, (all, attr: string, value: string) => {
      if (value.startsWith("/") && !value.startsWith("//")) return ` ${attr}="${page.origin}${value}"`;
      if (value.startsWith("#")) return ` ${attr}="${page.href}${value}"`;
      return all;
    }),
  );
  return { html, text: htmlToText(html) };
}

const ENTITIES: Record<string, string> = { amp: "&", lt: "<", gt: ">", quot: '"', apos: "'", nbsp: " " };

function decode(text: string): string {
  return text.replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (all, name: string) => {
    if (name[0] === "#") {
      const code = name[1] === "x" || name[1] === "X" ? parseInt(name.slice(2), 16) : parseInt(name.slice(1), 10);
      return code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : all;
    }
    return ENTITIES[name.toLowerCase()] ?? all;
  });
}

const attr = (tag: string, name: string) => new RegExp(`\\s${name}="([^"]*)"`).exec(tag)?.[1] ?? "";

/** Rendered post HTML as readable plain text: paragraphs apart, list items dashed, links and images by their URL. */
function htmlToText(html: string): string {
  const text = html
    .replace(/<a\b[^>]*>([\s\S]*?)<\/a>/g, (tag, inner: string) => {
      // Entities are decoded once, at the end.
      const href = attr(tag, "href");
      const label = inner.replace(/<[^>]*>/g, "").trim();
      return href && decode(label) !== decode(href) ? `${label} (${href})` : label || href;
    })
    .replace(/<img\b[^>]*>/g, (tag) => {
      const alt = attr(tag, "alt");
      return `[${alt ? `${alt}: ` : "Image: "}${attr(tag, "src")}]`;
    })
    .replace(/<br\s*\/?>/g, "\n")
    .replace(/<hr\s*\/?>/g, "\n---\n")
    .replace(/<li\b[^>]*>/g, "- ")
    .replace(/<\/(?:li|tr)>/g, "\n")
    .replace(/<\/(?:td|th)>/g, "  ")
    .replace(/<\/(?:p|h[2-6]|blockquote|pre|ul|ol|table)>/g, "\n\n")
    .replace(/<[^>]*>/g, "");
  return decode(text)
    .split("\n")
    .map((line) => line.trimEnd())
    .join("\n")
    .replace(/\n{3,}/g, "\n\n")
    .trim();
}
