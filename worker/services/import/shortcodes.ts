import { escapeHtml } from "#worker/content/escape.ts";
/**
 * WordPress shortcodes that hold content, as HTML: without this they reach the Markdown as literal text
 * ("[caption id=…]", "[gallery]"). Captions keep their image and their words, galleries show their
 * attachments' images, embeds, audio and video become links. Other bracketed text is left as it is
 * (a writer's "[sic]" is not a shortcode).
 */
export interface Attachments {
  /** An attachment's URL by its post id. */
  byId: Map<string, string>;
  /** The attachments of each post, by the post's id, in the file's order. */
  byParent: Map<string, string[]>;
}

const escAttr = escapeHtml;

/** A shortcode's attributes: name="value", name='value' or name=value. */
function attributes(text: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const m of text.matchAll(/([\w-]+)\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s"']+))/g))
    out[m[1]!.toLowerCase()] = m[2] ?? m[3] ?? m[4] ?? "";
  return out;
}

const images = (urls: string[]) => urls.map((url) => `<p><img src="${escAttr(url)}" alt=""></p>`).join("\n");
const link = (url: string) => (url ? `<p><a href="${escAttr(url)}">${escAttr(url)}</a></p>` : "");

/**
 * SyntaxHighlighter's shortcodes (the plugins WordPress.com and most self-hosted blogs used): [code],
 * [sourcecode] and one per language ([csharp], [php]…), with language= or lang=. The brush names map to the
 * names Markdown fences use.
 */
const BRUSHES: Record<string, string> = {
  applescript: "applescript",
  as3: "actionscript",
  actionscript3: "actionscript",
  bash: "bash",
  shell: "bash",
  sh: "bash",
  c: "c",
  cf: "coldfusion",
  coldfusion: "coldfusion",
  cpp: "cpp",
  "c-sharp": "csharp",
  csharp: "csharp",
  "c#": "csharp",
  css: "css",
  clojure: "clojure",
  clj: "clojure",
  delphi: "delphi",
  pascal: "pascal",
  pas: "pascal",
  diff: "diff",
  patch: "diff",
  erlang: "erlang",
  erl: "erlang",
  fsharp: "fsharp",
  "f#": "fsharp",
  go: "go",
  golang: "go",
  groovy: "groovy",
  haskell: "haskell",
  html: "html",
  java: "java",
  javafx: "java",
  jfx: "java",
  js: "javascript",
  jscript: "javascript",
  javascript: "javascript",
  json: "json",
  latex: "latex",
  tex: "latex",
  matlab: "matlab",
  objc: "objectivec",
  "obj-c": "objectivec",
  perl: "perl",
  pl: "perl",
  php: "php",
  plain: "",
  text: "",
  powershell: "powershell",
  ps: "powershell",
  py: "python",
  python: "python",
  r: "r",
  splus: "r",
  ruby: "ruby",
  rb: "ruby",
  rails: "ruby",
  ror: "ruby",
  sass: "scss",
  scss: "scss",
  scala: "scala",
  sql: "sql",
  swift: "swift",
  ts: "typescript",
  typescript: "typescript",
  vb: "vbnet",
  vbnet: "vbnet",
  xml: "xml",
  xhtml: "html",
  xslt: "xml",
  yaml: "yaml",
  yml: "yaml",
};
/** A SyntaxHighlighter brush (or a language written in its place) as a Markdown fence's language. */
export function brushLanguage(name: string): string {
  const lower = name.toLowerCase();
  return BRUSHES[lower] ?? lower.replace(/[^\w+-]/g, "");
}

const CODE_SHORTCODE = new RegExp(
  `\\[(code|sourcecode|${Object.keys(BRUSHES)
    .map((b) => b.replace(/[-+]/g, "\\$&"))
    .join("|")})\\b([^\\]]*)\\]([\\s\\S]*?)\\[\\/\\1\\]`,
  "gi",
);

/**
 * A shortcode's code as the writer typed it. WordPress's visual editor writes the lines of a shortcode's
 * body as paragraphs and line breaks (`line one<br />`, `</p><p>`), and escapes the code itself (`&lt;`): those
 * <p> and <br> are the editor's, and become line breaks. A body with other raw markup was typed in the text
 * editor (an [html] sample): it is kept as it is.
 */
function withoutEditorMarkup(code: string): string {
  if (!/<\/?(?:p|br)\b/i.test(code)) return code;
  const typed = /<(?!\/?(?:p|br)\b)\/?[A-Za-z]/.test(code) && !/&lt;|&gt;/.test(code);
  if (typed) return code;
  return code
    .replace(/<\/p>\s*<p\b[^>]*>/gi, "\n\n")
    .replace(/<br\s*\/?>\r?\n?/gi, "\n")
    .replace(/<\/?p\b[^>]*>/gi, "");
}

/**
 * The block editor's SyntaxHighlighter block (`<!-- wp:syntaxhighlighter/code {"language":"csharp"} -->` and
 * a <pre>) names its language in the comment's JSON: it goes on the <pre> as the class the converter reads.
 */
export function syntaxHighlighterBlocks(html: string): string {
  if (!html.includes("wp:syntaxhighlighter/code")) return html;
  return html.replace(
    /(<!--\s*wp:syntaxhighlighter\/code\s+(\{[^]*?\})\s*-->\s*<pre\b)([^>]*)>/g,
    (all, open: string, json: string, attrs: string) => {
      let language = "";
      try {
        const value = (JSON.parse(json) as { language?: unknown }).language;
        language = typeof value === "string" ? brushLanguage(value) : "";
      } catch {
        return all;
      }
      if (!language) return all;
      const classed = /\bclass="/.test(attrs)
        ? attrs.replace(/\bclass="/, `class="language-${language} `)
        : `${attrs} class="language-${language}"`;
      return `${open}${classed}>`;
    },
  );
}

/** A code shortcode as a <pre><code> block with its language; its text kept exactly (entities decode once). */
export function codeShortcodes(html: string): string {
  if (!html.includes("[")) return html;
  return html.replace(CODE_SHORTCODE, (_all, name: string, attrs: string, code: string) => {
    const a = attributes(attrs);
    const named = (a.language ?? a.lang ?? "").toLowerCase();
    const brush = name.toLowerCase();
    const lang = named ? brushLanguage(named) : (BRUSHES[brush] ?? "");
    const text = withoutEditorMarkup(code)
      .replace(/^\r?\n/, "")
      .replace(/\s+$/, "")
      .replace(/</g, "&lt;")
      .replace(/>/g, "&gt;");
    return `\n\n<pre><code${lang ? ` class="language-${lang}"` : ""}>${text}</code></pre>\n\n`;
  });
}

export function expandShortcodes(source: string, postId: string, attachments: Attachments): string {
  const html = syntaxHighlighterBlocks(source);
  if (!html.includes("[")) return html;
  return (
    codeShortcodes(html)
      // [caption id="…" align="…"]<a><img></a> The words[/caption] (older ones: caption="The words").
      .replace(/\[(?:wp_)?caption([^\]]*)\]([\s\S]*?)\[\/(?:wp_)?caption\]/g, (_all, attrs: string, inner: string) => {
        const m = /^\s*((?:<a\b[^>]*>\s*)?<img\b[^>]*>(?:\s*<\/a>)?)([\s\S]*)$/i.exec(inner);
        const words = (m ? m[2]! : inner).trim() || attributes(attrs).caption || "";
        return `\n\n<p>${m ? m[1] : ""}</p>\n\n${words ? `<p>${words}</p>\n\n` : ""}`;
      })
      // [gallery ids="1,2"] (or include=…), else every image attached to the post.
      .replace(/\[gallery\b([^\]]*)\]/g, (_all, attrs: string) => {
        const a = attributes(attrs);
        const ids = (a.ids ?? a.include ?? "").split(",").map((id) => id.trim());
        const urls = ids.some(Boolean)
          ? ids.map((id) => attachments.byId.get(id)).filter((u): u is string => Boolean(u))
          : (attachments.byParent.get(postId) ?? []);
        return urls.length ? `\n\n${images(urls)}\n\n` : "";
      })
      .replace(/\[embed\b[^\]]*\]([\s\S]*?)\[\/embed\]/g, (_all, url: string) => `\n\n${link(url.trim())}\n\n`)
      // [audio mp3="…"], [video src="…" mp4="…"][/video]: a link to the file.
      .replace(/\[(audio|video)\b([^\]]*)\](?:[\s\S]*?\[\/\1\])?/g, (_all, _kind: string, attrs: string) => {
        const a = attributes(attrs);
        const url = a.src ?? Object.values(a).find((v) => /^https?:\/\//.test(v)) ?? "";
        return `\n\n${link(url)}\n\n`;
      })
      .replace(/\[playlist\b[^\]]*\]/g, "")
  );
}
