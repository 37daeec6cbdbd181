/**
 * HTML read as text without a DOM: what a post falls back to when its converter failed (the DOM may be
 * what failed), and the line between markup and a writer's tag-like text (`List<int>`, `IEnumerable<T>`,
 * `<et@everet.org>`) in code and titles, where nobody means an element.
 */

/** Named character references real exports use (numeric ones are decoded by number). */
const ENTITIES: Record<string, string> = {
  amp: "&",
  lt: "<",
  gt: ">",
  quot: '"',
  apos: "'",
  nbsp: "\u00a0",
  hellip: "…",
  mdash: "—",
  ndash: "–",
  lsquo: "‘",
  rsquo: "’",
  sbquo: "‚",
  ldquo: "“",
  rdquo: "”",
  bdquo: "„",
  laquo: "«",
  raquo: "»",
  bull: "•",
  middot: "·",
  copy: "©",
  reg: "®",
  trade: "™",
  deg: "°",
  times: "×",
  divide: "÷",
  euro: "€",
  pound: "£",
  yen: "¥",
  cent: "¢",
  sect: "§",
  para: "¶",
  shy: "",
  zwj: "\u200d",
  zwnj: "\u200c",
  larr: "←",
  rarr: "→",
  uarr: "↑",
  darr: "↓",
  iexcl: "¡",
  iquest: "¿",
};

/** Character references decoded: numeric ones by number, the common named ones by name; others kept. */
export function decodeEntities(text: string): string {
  if (!text.includes("&")) return text;
  return text.replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (all, e: string) => {
    if (e[0] !== "#") return ENTITIES[e] ?? ENTITIES[e.toLowerCase()] ?? all;
    const code = e[1] === "x" || e[1] === "X" ? parseInt(e.slice(2), 16) : parseInt(e.slice(1), 10);
    return code > 0 && code < 0x110000 ? String.fromCodePoint(code) : all;
  });
}

/** Every element name HTML has (and the old ones exports still carry): any other `<name>` is text. */
const HTML_ELEMENTS = new Set(
  (
    "a abbr acronym address area article aside audio b base bdi bdo big blockquote body br button canvas caption " +
    "center cite code col colgroup data datalist dd del details dfn dialog dir div dl dt em embed fieldset " +
    "figcaption figure font footer form frame frameset h1 h2 h3 h4 h5 h6 head header hgroup hr html i iframe img " +
    "input ins kbd label legend li link main map mark math menu meta meter nav nobr noscript object ol optgroup " +
    "option output p param picture pre progress q rp rt ruby s samp script search section select small source " +
    "span strike strong style sub summary sup svg table tbody td template textarea tfoot th thead time title tr " +
    "track tt u ul var video wbr"
  ).split(" "),
);
const VOID = new Set("area base br col embed hr img input link meta param source track wbr".split(" "));

/**
 * `text` with every `<…>` that is not markup escaped (`&lt;`), so a parser keeps it as the text it was.
 * Markup is a known element's end tag, a void element, one with attributes, or one whose end tag follows;
 * `List<object>` (a known name, bare, never closed) is text like `List<int>`.
 */
export function escapeTagLikeText(text: string): string {
  if (!text.includes("<")) return text;
  const closed = new Set([...text.matchAll(/<\/([A-Za-z][\w-]*)/g)].map((m) => m[1]!.toLowerCase()));
  // A whole tag, or a "<" before a name that never becomes one (`Map<string, List<int>>`): text.
  return text.replace(
    /<(\/?)([A-Za-z][^\s/<>]*)((?:\s[^<>]*?)?)\/?>|<(?=\/?[A-Za-z])/g,
    (all, end: string | undefined, tag: string | undefined, attrs: string | undefined) => {
      const name = tag?.toLowerCase() ?? "";
      const markup =
        HTML_ELEMENTS.has(name) && (Boolean(end) || VOID.has(name) || /=/.test(attrs ?? "") || closed.has(name));
      return markup ? all : `&lt;${all.slice(1)}`;
    },
  );
}

/**
 * `html` with the tag-like text inside its code (<pre>, <code>) escaped (escapeTagLikeText): in code a
 * writer's `List<int>` is text, never an element that would hide it, nest what follows, or (with a name no
 * DOM allows) stop the converter. One pass, linear: a code element that never closes is left as it is.
 */
export function escapeCodeTags(html: string): string {
  if (!/<(pre|code)\b/i.test(html)) return html;
  const lower = html.toLowerCase();
  let out = "";
  let at = 0;
  const open = /<(pre|code)\b[^>]*>/gi;
  for (let m = open.exec(html); m; m = open.exec(html)) {
    const start = m.index + m[0].length;
    const end = lower.indexOf(`</${m[1]!.toLowerCase()}`, start);
    if (end < 0) break;
    out += html.slice(at, start) + escapeTagLikeText(html.slice(start, end));
    at = end;
    open.lastIndex = end;
  }
  return out + html.slice(at);
}

/** A title written as HTML ("Title <em>With</em> Markup", "&amp;", "IEnumerable<T>") as its text. */
export function titleText(raw: string): string {
  if (!/[<&]/.test(raw)) return raw.replace(/\s+/g, " ").trim();
  return decodeEntities(escapeTagLikeText(raw).replace(/<[^>]*>/g, ""))
    .replace(/\s+/g, " ")
    .trim();
}

/**
 * Some HTML as paragraphs of text, without any DOM (the DOM is what failed): code blocks kept as fenced
 * code (their tag-like text and all), other tags out, entities decoded.
 */
export function htmlAsText(html: string): string {
  const code: string[] = [];
  const text = escapeCodeTags(html)
    .replace(/<(script|style)\b[\s\S]*?<\/\1>/gi, "")
    .replace(/<pre\b[^>]*>([\s\S]*?)<\/pre>/gi, (_all, inner: string) => {
      const body = decodeEntities(inner.replace(/<br\s*\/?>/gi, "\n").replace(/<[^>]*>/g, "")).replace(
        /^\n+|\s+$/g,
        "",
      );
      const fence = body.includes("```") ? "~~~~" : "```";
      return `\n\n\uE000${code.push(`${fence}\n${body}\n${fence}`) - 1}\uE000\n\n`;
    })
    .replace(/<br\s*\/?>/gi, "\n")
    .replace(/<\/?(p|div|h[1-6]|li|ul|ol|blockquote|tr|table|figure|section|article|svg)\b[^>]*>/gi, "\n\n")
    .replace(/<[^>]*>/g, "");
  return decodeEntities(text)
    .replace(/\u00a0/g, " ")
    .replace(/[ \t]+\n/g, "\n")
    .replace(/\n{3,}/g, "\n\n")
    .trim()
    .replace(/\uE000(\d+)\uE000/g, (_all, i: string) => code[Number(i)]!);
}
