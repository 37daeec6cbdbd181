/**
 * Text as HTML (or SVG/XML character data and double-quoted attribute values): the one escaper the
 * server's own HTML builders use (Markdown's code and image notes, imported Lexical and mobiledoc,
 * shortcodes, search highlights, share cards, the API reference page). Feeds use app/lib/feeds.server.ts's
 * xmlEscape, which also drops characters XML cannot carry.
 */
const ESCAPES: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" };

export const escapeHtml = (text: string): string => text.replace(/[&<>"']/g, (c) => ESCAPES[c]!);
