import { unzipSync, type UnzipFileInfo } from "fflate";
import { XMLParser, XMLValidator } from "fast-xml-parser";
import { tooLarge, unsupportedType, ValidationError } from "#worker/services/shared/errors.ts";

/** The largest export file accepted in one upload (a Worker request body may be 100 MB). */
export const MAX_IMPORT_BYTES = 40 * 1024 * 1024;
/** What a zip may unpack to in all, how many entries it may hold, and how far one entry may inflate. */
export const MAX_UNZIPPED_BYTES = 200 * 1024 * 1024;
export const MAX_ZIP_ENTRIES = 20_000;
const MAX_RATIO = 200;

export const IMPORT_ERRORS = {
  empty: "Choose an export file to import.",
  tooLarge: `The file is larger than ${MAX_IMPORT_BYTES / 1024 / 1024} MB.`,
  unknown:
    "This is not an export file we can read: upload a WordPress .xml (WXR), a Ghost .json, or a Medium, Substack or Edge Blog .zip.",
  notXml: "The file is not well-formed XML, so it is not a WordPress export.",
  entities: "The XML declares a DOCTYPE or entities (entity expansion, external entities): it is refused.",
  notZip: "The file is not a readable zip archive.",
  bomb: "The zip unpacks to far more than it holds (a zip bomb): it is refused.",
  traversal: "The zip holds a path that leaves its folder (../ or an absolute path): it is refused.",
  notJson: "The file is not valid JSON, so it is not a Ghost export.",
} as const;

const refuse = (message: string, code: string) => new ValidationError({ file: message }, message, code);

export type ExportKind = "xml" | "json" | "zip";

/** What the bytes are, from the bytes (the name and the browser's type are claims). */
export function sniffExport(bytes: Uint8Array): ExportKind {
  if (bytes.byteLength === 0) throw refuse(IMPORT_ERRORS.empty, "import-empty");
  if (bytes.byteLength > MAX_IMPORT_BYTES) throw tooLarge(IMPORT_ERRORS.tooLarge, "import-too-large");
  if (bytes[0] === 0x50 && bytes[1] === 0x4b && (bytes[2] === 0x03 || bytes[2] === 0x05)) return "zip";
  const head = new TextDecoder()
    .decode(bytes.subarray(0, 512))
    .replace(/^\uFEFF/, "")
    .trimStart();
  if (head.startsWith("<")) return "xml";
  if (head.startsWith("{")) return "json";
  throw unsupportedType(IMPORT_ERRORS.unknown, "import-unknown-format");
}

/**
 * Parses an export's XML, refusing any DOCTYPE first: entity expansion ("billion laughs") and
 * external entities need one, and no WordPress export has one.
 */
export function parseXml(text: string): unknown {
  if (/<!DOCTYPE|<!ENTITY/i.test(text)) throw refuse(IMPORT_ERRORS.entities, "import-xml-entities");
  text = escapeBareAmpersands(text);
  if (XMLValidator.validate(text) !== true) throw refuse(IMPORT_ERRORS.notXml, "import-not-xml");
  const parser = new XMLParser({
    ignoreAttributes: false,
    attributeNamePrefix: "@_",
    parseTagValue: false,
    parseAttributeValue: false,
    trimValues: true,
    processEntities: true,
    // WordPress writes text outside CDATA (titles, names, terms) with numeric references ("&#039;",
    // "&#8217;"): they are characters, decoded like &amp; is (CDATA is left exactly as it is).
    htmlEntities: true,
    isArray: (name) => ["item", "category", "wp:author", "wp:comment", "wp:postmeta"].includes(name),
  });
  return parser.parse(text);
}

/**
 * Real WordPress exports carry bare "&" in URLs outside CDATA (query strings), which strict XML
 * refuses; they are escaped (outside CDATA only, where "&" is already literal) before parsing.
 */
function escapeBareAmpersands(text: string): string {
  return text
    .split(/(<!\[CDATA\[[\s\S]*?\]\]>)/)
    .map((part, i) =>
      i % 2 === 1 ? part : part.replace(/&(?!(?:#\d+|#x[0-9a-fA-F]+|[a-zA-Z][a-zA-Z0-9]*);)/g, "&amp;"),
    )
    .join("");
}

export function parseJson(text: string): unknown {
  try {
    return JSON.parse(text.replace(/^\uFEFF/, ""));
  } catch {
    throw refuse(IMPORT_ERRORS.notJson, "import-not-json");
  }
}

/** A zip entry's name must stay inside the archive: no "..", no leading slash or drive, no backslashes. */
function safeName(name: string): boolean {
  if (name.startsWith("/") || /^[a-zA-Z]:/.test(name) || name.includes("\\") || name.includes("\0")) return false;
  return !name.split("/").some((part) => part === "..");
}

/**
 * Unpacks a zip with its sizes checked before anything is inflated: the entries' declared sizes
 * (total, count, ratio) and then the real ones, so neither a bomb nor a lying header gets through.
 */
export function unzipExport(bytes: Uint8Array): Map<string, Uint8Array> {
  let declared = 0;
  let entries = 0;
  let problem: ValidationError | null = null;
  const check = (file: UnzipFileInfo) => {
    if (problem) return false;
    entries += 1;
    declared += file.originalSize;
    if (!safeName(file.name)) problem = refuse(IMPORT_ERRORS.traversal, "import-zip-traversal");
    else if (
      entries > MAX_ZIP_ENTRIES ||
      declared > MAX_UNZIPPED_BYTES ||
      (file.originalSize > 1024 * 1024 && file.originalSize > file.size * MAX_RATIO)
    )
      problem = refuse(IMPORT_ERRORS.bomb, "import-zip-bomb");
    return !problem && !file.name.endsWith("/");
  };
  let files: Record<string, Uint8Array>;
  try {
    files = unzipSync(bytes, { filter: check });
  } catch {
    throw problem ?? refuse(IMPORT_ERRORS.notZip, "import-not-zip");
  }
  if (problem) throw problem;
  let real = 0;
  const out = new Map<string, Uint8Array>();
  for (const [name, data] of Object.entries(files)) {
    real += data.byteLength;
    if (real > MAX_UNZIPPED_BYTES) throw refuse(IMPORT_ERRORS.bomb, "import-zip-bomb");
    // macOS archivers add resource forks beside every file; they are never content.
    if (name.startsWith("__MACOSX/") || name.split("/").pop()?.startsWith("._")) continue;
    out.set(name, data);
  }
  return out;
}

const decoder = new TextDecoder();
export const textOf = (data: Uint8Array) => decoder.decode(data).replace(/^\uFEFF/, "");
