import { ValidationError } from "#worker/services/shared/errors.ts";

/**
 * Depth caps for every tree an import reads (XML, HTML, JSON: Lexical and mobiledoc are JSON, and the HTML
 * they become). Each is checked by one linear scan of the text before any parser or converter sees it:
 * the parsers and turndown recurse per level, so a 50,000-deep file would otherwise exhaust the stack (a 500)
 * or, through HTML's error recovery, spend seconds of CPU first. Real exports nest far less: a WXR's XML
 * is about 6 deep, a page builder's HTML about 40, Lexical about 30.
 */
export const MAX_XML_DEPTH = 100;
export const MAX_HTML_DEPTH = 256;
export const MAX_JSON_DEPTH = 200;

export const NESTING_ERROR = "The file nests its content deeper than any real export does, so it is refused.";

export const tooDeep = (what: string) =>
  new ValidationError({ file: `${NESTING_ERROR} (${what})` }, `${NESTING_ERROR} (${what})`, "import-too-deep");

/** XML: elements open and close strictly (CDATA, comments and processing instructions hold no elements). */
export function assertXmlDepth(text: string, max = MAX_XML_DEPTH): void {
  let depth = 0;
  for (const m of text.matchAll(/<!\[CDATA\[[\s\S]*?\]\]>|<!--[\s\S]*?-->|<[?!][^>]*>|<(\/?)[A-Za-z_][^>]*?(\/?)>/g)) {
    if (m[1] === undefined) continue;
    if (m[1] === "/") depth -= 1;
    else if (m[2] !== "/" && ++depth > max) throw tooDeep("XML");
  }
}

/** Elements with no content, and those whose end tag a parser implies (an unclosed <p> does not nest). */
const FLAT = new Set(
  (
    "area base br col embed hr img input link meta param source track wbr " +
    "p li dt dd option optgroup tr td th thead tbody tfoot colgroup caption rb rt rp html head body"
  ).split(" "),
);

/** Elements whose content is text to an HTML parser: a tag written inside one is not a tag. */
const RAW_TEXT = "script|style|textarea|title|xmp|iframe|noembed|noframes";

/**
 * One HTML token, in the order a parser meets them: a comment (`<!-->` and `<!--->` are whole, empty
 * comments; an unclosed one runs to the end), a raw-text element with its text, a bogus comment
 * (`<!doctype>`, `<?x>`, `<![CDATA[`: up to the first `>`), then a tag. A tag ends at its first `>` even
 * inside quotes, as seen here: ending early can only show extra tags (counting deeper, never shallower).
 */
const HTML_TOKEN = new RegExp(
  `<!---?>|<!--[\\s\\S]*?(?:--!?>|$)|<(${RAW_TEXT})\\b[^>]*>[\\s\\S]*?(?:<\\/\\1\\s*>|$)|<[!?][^>]*>|<(\\/?)([A-Za-z][^\\s/>]*)[^>]*?(\\/?)>`,
  "gi",
);

/**
 * HTML: how deep the parser will nest it, never less. An end tag closes only an element that is open (a
 * stray `</div>` closes nothing, as a parser ignores it); `/>` closes an element only inside SVG or MathML
 * (HTML ignores it: `<div/>` opens a div); void elements and those with implied end tags are not counted.
 */
export function assertHtmlDepth(html: string, max = MAX_HTML_DEPTH): void {
  if (html.length < max * 3) return;
  const open: string[] = [];
  let foreign = 0;
  // Nothing after the last `>` is a tag; cut there, every `<` the scan tries ends at a `>` ahead of it,
  // so no start is scanned to the end of the text and back (the scan stays linear).
  for (const m of html.slice(0, html.lastIndexOf(">") + 1).matchAll(HTML_TOKEN)) {
    if (m[1] !== undefined) {
      // A raw-text element: one level (its text holds no tags).
      if (open.length + 1 > max) throw tooDeep("HTML");
      continue;
    }
    const name = m[3]?.toLowerCase();
    if (!name || FLAT.has(name)) continue;
    if (m[2] === "/") {
      const at = open.lastIndexOf(name);
      if (at < 0) continue;
      for (const gone of open.splice(at)) if (gone === "svg" || gone === "math") foreign -= 1;
    } else if (!(m[4] === "/" && foreign > 0)) {
      open.push(name);
      if (name === "svg" || name === "math") foreign += 1;
      if (open.length > max) throw tooDeep("HTML");
    }
  }
}

/** The depth of a parsed tree, walked without recursion: what turndown and the DOM's own walks will meet. */
export function assertTreeDepth(root: { firstChild: unknown }, max = MAX_HTML_DEPTH): void {
  type Node = { firstChild: Node | null; nextSibling: Node | null };
  const stack: [Node, number][] = [[root as Node, 0]];
  while (stack.length > 0) {
    const [node, depth] = stack.pop()!;
    if (depth > max) throw tooDeep("HTML");
    for (let child = node.firstChild; child; child = child.nextSibling) stack.push([child, depth + 1]);
  }
}

/** JSON text: brackets outside strings. */
export function assertJsonDepth(text: string, max = MAX_JSON_DEPTH, what = "JSON"): void {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 92)
        i += 1; // backslash: the next character is escaped
      else if (c === 34) inString = false;
    } else if (c === 34) inString = true;
    else if (c === 123 || c === 91) {
      if (++depth > max) throw tooDeep(what);
    } else if (c === 125 || c === 93) depth -= 1;
  }
}
