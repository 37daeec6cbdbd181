import { escapeHtml } from "#worker/content/escape.ts";
import { MEMBERS_ONLY_MARKER } from "#worker/services/blogs/gate.ts";
import { htmlToMarkdown } from "#worker/services/import/html.ts";
import { assertJsonDepth, MAX_JSON_DEPTH } from "#worker/services/import/nesting.ts";

type Row = Record<string, unknown>;
const s = (v: unknown) => (typeof v === "string" ? v : typeof v === "number" ? String(v) : "");
const rows = (v: unknown): Row[] => (Array.isArray(v) ? (v as Row[]) : []);
const esc = escapeHtml;

/** One Lexical node (Ghost 5's editor state) as HTML: the common nodes and Ghost's cards. */
function render(node: Row): string {
  const kids = rows(node.children).map(render).join("");
  switch (node.type) {
    case "root":
      return kids;
    // Ghost's editor writes its text nodes as "extended-text".
    case "text":
    case "extended-text": {
      let t = esc(s(node.text));
      const format = typeof node.format === "number" ? node.format : 0;
      if (format & 1) t = `<strong>${t}</strong>`;
      if (format & 2) t = `<em>${t}</em>`;
      if (format & 4) t = `<s>${t}</s>`;
      if (format & 16) t = `<code>${t}</code>`;
      return t;
    }
    case "linebreak":
      return "<br>";
    case "paragraph":
      return `<p>${kids}</p>`;
    case "heading":
    case "extended-heading": {
      const tag = /^h[1-6]$/.test(s(node.tag)) ? s(node.tag) : "h2";
      return `<${tag}>${kids}</${tag}>`;
    }
    case "quote":
    case "extended-quote":
    case "aside":
      return `<blockquote>${kids}</blockquote>`;
    case "list":
      return node.listType === "number" ? `<ol>${kids}</ol>` : `<ul>${kids}</ul>`;
    case "listitem":
      return `<li>${kids}</li>`;
    case "link":
    case "autolink":
      return `<a href="${esc(s(node.url))}">${kids}</a>`;
    case "image":
      return `<figure><img src="${esc(s(node.src))}" alt="${esc(s(node.alt))}">${s(node.caption) ? `<figcaption>${s(node.caption)}</figcaption>` : ""}</figure>`;
    case "gallery":
      return rows(node.images)
        .map((i) => `<p><img src="${esc(s(i.src))}" alt="${esc(s(i.alt))}"></p>`)
        .join("");
    case "codeblock":
      return `<pre><code class="language-${esc(s(node.language))}">${esc(s(node.code))}</code></pre>`;
    case "horizontalrule":
      return "<hr>";
    case "html":
    case "embed":
      return s(node.html);
    case "callout":
      return `<blockquote>${s(node.calloutText)}</blockquote>`;
    case "toggle":
      return `<h3>${s(node.heading)}</h3>${s(node.content)}`;
    case "bookmark": {
      const url = s(node.url);
      const title = s((node.metadata as Row | undefined)?.title) || url;
      return url ? `<p><a href="${esc(url)}">${esc(title)}</a></p>` : "";
    }
    case "button":
      return s(node.buttonUrl) ? `<p><a href="${esc(s(node.buttonUrl))}">${esc(s(node.buttonText))}</a></p>` : "";
    case "header":
      return `<h2>${s(node.header)}</h2>${s(node.subheader) ? `<p>${s(node.subheader)}</p>` : ""}`;
    case "video":
    case "audio":
    case "file":
      return s(node.src) ? `<p><a href="${esc(s(node.src))}">${esc(s(node.fileName) || s(node.src))}</a></p>` : "";
    default:
      return kids;
  }
}

/**
 * Lexical (Ghost 5's editor state) to Markdown, for posts exported without `html`: each top-level node
 * through HTML, except Ghost's Markdown card, which is Markdown already, and its paywall card (where a members'
 * post's free preview ends), which becomes this site's marker line (worker/services/blogs/gate.ts).
 */
export function lexicalToMarkdown(source: string): string {
  let root: Row | undefined;
  assertJsonDepth(source, MAX_JSON_DEPTH, "Lexical");
  try {
    root = (JSON.parse(source) as Row).root as Row | undefined;
  } catch {
    return "";
  }
  if (!root || typeof root !== "object") return "";
  return rows(root.children)
    .map((node) =>
      node.type === "markdown"
        ? s(node.markdown).trim()
        : node.type === "paywall"
          ? MEMBERS_ONLY_MARKER
          : htmlToMarkdown(render(node)),
    )
    .filter(Boolean)
    .join("\n\n");
}
