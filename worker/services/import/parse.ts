import { IMPORT_ERRORS, parseJson, sniffExport, textOf, unzipExport } from "#worker/services/import/archive.ts";
import { parseEdgeBlog, SITE_EXPORT_MARKER } from "#worker/services/import/edge-blog.ts";
import { settleNesting } from "#worker/services/import/isolate.ts";
import { parseGhost } from "#worker/services/import/ghost.ts";
import { parseMedium } from "#worker/services/import/medium.ts";
import { parseSubstack } from "#worker/services/import/substack.ts";
import type { ParsedImport } from "#worker/services/import/types.ts";
import { parseWordPress } from "#worker/services/import/wordpress.ts";
import { unsupportedType } from "#worker/services/shared/errors.ts";

/**
 * Reads any supported export file into the normalised records, or refuses it with a clear error
 * before anything is written: the platform is told by the content, not by the file's name.
 */
export function parseExport(bytes: Uint8Array): ParsedImport {
  return settleNesting(parseAny(bytes));
}

function parseAny(bytes: Uint8Array): ParsedImport {
  const kind = sniffExport(bytes);
  if (kind === "xml") return parseWordPress(textOf(bytes));
  if (kind === "json") return parseGhost(parseJson(textOf(bytes)));
  const files = unzipExport(bytes);
  const names = [...files.keys()];
  if (files.has(SITE_EXPORT_MARKER)) return parseEdgeBlog(files);
  if (names.some((n) => /(^|\/)posts\.csv$/.test(n))) return parseSubstack(files);
  if (names.some((n) => /(^|\/)posts\/[^/]+\.html$/.test(n))) return parseMedium(files);
  const inner = names.find((n) => /\.(xml|json)$/i.test(n));
  // A zipped WXR or Ghost file (how some hosts hand them out).
  if (inner && names.length === 1) return parseAny(files.get(inner)!);
  throw unsupportedType(IMPORT_ERRORS.unknown, "import-unknown-format");
}
