import { Unzip, UnzipInflate } from "fflate";
import { XMLParser, XMLValidator } from "fast-xml-parser";
import { assertJsonDepth, assertXmlDepth, NESTING_ERROR } from "#worker/services/import/nesting.ts";
import { tooLarge, unsupportedType, ValidationError } from "#worker/services/shared/errors.ts";

/** The largest export file accepted in one upload (a Worker request body may be 100 MB). */
export const MAX_IMPORT_BYTES = 40 * 1024 * 1024;
/**
 * What a zip may unpack to in all, and one entry at most: the upload (40 MB) and everything it unpacks to
 * must fit a Worker's 128 MB of memory together, with room to convert.
 */
export const MAX_UNZIPPED_BYTES = 64 * 1024 * 1024;
export const MAX_ZIP_ENTRY_BYTES = 32 * 1024 * 1024;
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
  nesting: NESTING_ERROR,
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
  assertXmlDepth(text);
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
  try {
    return parser.parse(text);
  } catch {
    throw refuse(IMPORT_ERRORS.notXml, "import-not-xml");
  }
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
  assertJsonDepth(text);
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
 * Unpacks a zip as a stream (fflate's Unzip, entry by entry, chunk by chunk), counting what each entry
 * really inflates to as it comes: past its own cap, past what its header declared, or the whole past
 * MAX_UNZIPPED_BYTES, the entry is stopped there and the file refused, so a bomb or a lying header never
 * holds more than the cap in memory.
 */
export function unzipExport(bytes: Uint8Array): Map<string, Uint8Array> {
  let total = 0;
  let entries = 0;
  let problem: ValidationError | null = null;
  const out = new Map<string, Uint8Array>();
  const bomb = () => refuse(IMPORT_ERRORS.bomb, "import-zip-bomb");
  const unzip = new Unzip((file) => {
    if (problem) return;
    entries += 1;
    if (!safeName(file.name)) problem = refuse(IMPORT_ERRORS.traversal, "import-zip-traversal");
    else if (entries > MAX_ZIP_ENTRIES) problem = bomb();
    const declared = file.originalSize ?? 0;
    const packed = file.size ?? 0;
    if (!problem && declared > 1024 * 1024 && packed > 0 && declared > packed * MAX_RATIO) problem = bomb();
    // Directories, and macOS archivers' resource forks beside every file: never content, never inflated.
    const name = file.name;
    if (problem || name.endsWith("/") || name.startsWith("__MACOSX/") || name.split("/").pop()?.startsWith("._"))
      return;
    const chunks: Uint8Array[] = [];
    let size = 0;
    file.ondata = (err, chunk, final) => {
      if (problem) return;
      if (err) {
        problem = refuse(IMPORT_ERRORS.notZip, "import-not-zip");
        return;
      }
      size += chunk.byteLength;
      total += chunk.byteLength;
      if (size > MAX_ZIP_ENTRY_BYTES || total > MAX_UNZIPPED_BYTES || (declared > 0 && size > declared)) {
        problem = bomb();
        file.terminate();
        return;
      }
      chunks.push(chunk);
      if (final) out.set(name, concat(chunks, size));
    };
    file.start();
  });
  unzip.register(UnzipInflate);
  try {
    unzip.push(bytes, true);
  } catch {
    throw problem ?? refuse(IMPORT_ERRORS.notZip, "import-not-zip");
  }
  if (problem) throw problem;
  if (entries === 0) throw refuse(IMPORT_ERRORS.notZip, "import-not-zip");
  return out;
}

function concat(chunks: Uint8Array[], size: number): Uint8Array {
  if (chunks.length === 1) return chunks[0]!;
  const all = new Uint8Array(size);
  let at = 0;
  for (const c of chunks) {
    all.set(c, at);
    at += c.byteLength;
  }
  return all;
}

const decoder = new TextDecoder();
export const textOf = (data: Uint8Array) => decoder.decode(data).replace(/^\uFEFF/, "");
