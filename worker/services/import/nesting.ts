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

/** HTML: as XML, but void elements and elements with implied end tags are not counted as nesting. */
export function assertHtmlDepth(html: string, max = MAX_HTML_DEPTH): void {
  if (html.length < max * 3) return;
  let depth = 0;
  for (const m of html.matchAll(/<!--[\s\S]*?-->|<(\/?)([A-Za-z][\w:-]*)\b[^>]*?(\/?)>/g)) {
    const name = m[2]?.toLowerCase();
    if (!name || FLAT.has(name)) continue;
    if (m[1] === "/") depth = Math.max(0, depth - 1);
    else if (m[3] !== "/" && ++depth > max) throw tooDeep("HTML");
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
