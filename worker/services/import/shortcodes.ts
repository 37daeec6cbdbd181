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
  as3: "actionscript",
  actionscript3: "actionscript",
  bash: "bash",
  shell: "bash",
  sh: "bash",
  c: "c",
  cpp: "cpp",
  "c-sharp": "csharp",
  csharp: "csharp",
  css: "css",
  clojure: "clojure",
  delphi: "delphi",
  pascal: "pascal",
  diff: "diff",
  patch: "diff",
  erlang: "erlang",
  fsharp: "fsharp",
  go: "go",
  golang: "go",
  groovy: "groovy",
  haskell: "haskell",
  html: "html",
  java: "java",
  javafx: "java",
  js: "javascript",
  jscript: "javascript",
  javascript: "javascript",
  json: "json",
  latex: "latex",
  matlab: "matlab",
  objc: "objectivec",
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
  ruby: "ruby",
  rb: "ruby",
  rails: "ruby",
  sass: "scss",
  scss: "scss",
  scala: "scala",
  sql: "sql",
  swift: "swift",
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

/** A code shortcode as a <pre><code> block with its language; its text kept exactly (entities decode once). */
export function codeShortcodes(html: string): string {
  if (!html.includes("[")) return html;
  return html.replace(CODE_SHORTCODE, (_all, name: string, attrs: string, code: string) => {
    const a = attributes(attrs);
    const named = (a.language ?? a.lang ?? "").toLowerCase();
    const brush = name.toLowerCase();
    const lang = named ? brushLanguage(named) : (BRUSHES[brush] ?? "");
    const text = code
      .replace(/^\r?\n/, "")
      .replace(/\s+$/, "")
      .replace(/</g, "&lt;")
      .replace(/>/g, "&gt;");
    return `\n\n<pre><code${lang ? ` class="language-${lang}"` : ""}>${text}</code></pre>\n\n`;
  });
}

export function expandShortcodes(html: string, postId: string, attachments: Attachments): string {
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
