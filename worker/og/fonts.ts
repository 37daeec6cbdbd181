import { log } from "#worker/log.ts";
import { Face } from "#worker/og/sfnt.ts";

/**
 * The share card's fonts, fetched from the static assets (/og-fonts/, written by scripts/og-fonts.mjs)
 * only when a card is drawn, and only those its text needs: Noto Sans always, Noto Sans Arabic or Hebrew
 * when the text has those scripts, and for CJK the few Google Fonts slices holding its characters.
 * Fetched files are kept for the isolate's next card (a bounded cache of immutable bytes).
 */
export type FontFile = (file: string) => Promise<Uint8Array>;

type Manifest = { faces: { file: string; family: string }[]; slices: { file: string; ranges: number[] }[] };

/** One weight throughout: resvg's fallback takes the first loaded face that has a character, whatever its weight. */
export const LATIN = "Noto Sans";
const ARABIC = "Noto Sans Arabic";
const HEBREW = "Noto Sans Hebrew";
const ARABIC_SCRIPT = /\p{Script=Arabic}/u;
const HEBREW_SCRIPT = /\p{Script=Hebrew}/u;
/** The faces a card loads only when its text has their script (issue 43: Thai, Devanagari, emoji). */
export const EMOJI = "Noto Emoji";
const SCRIPT_FACES: [family: string, script: RegExp][] = [
  [ARABIC, ARABIC_SCRIPT],
  [HEBREW, HEBREW_SCRIPT],
  ["Noto Sans Thai", /\p{Script=Thai}/u],
  ["Noto Sans Devanagari", /\p{Script=Devanagari}/u],
];
const PICTOGRAPH = /\p{Extended_Pictographic}/u;
/** Joiners and variation selectors: they shape their neighbours and have no glyph of their own to find. */
const SHAPING_ONLY = new Set([0x200c, 0x200d, 0xfe0e, 0xfe0f]);
/** What is drawn for a character no face has: visible, never dropped silently (and logged). */
export const MISSING_GLYPH = "\ufffd";

const KEEP_BYTES = 24 * 1024 * 1024;
const kept = new Map<string, Promise<Uint8Array>>();
const sizes = new Map<string, number>();

function keptFile(read: FontFile, file: string): Promise<Uint8Array> {
  const hit = kept.get(file);
  if (hit) {
    kept.delete(file);
    kept.set(file, hit);
    return hit;
  }
  const loading = read(file).then(
    (bytes) => {
      sizes.set(file, bytes.byteLength);
      let total = 0;
      for (const n of sizes.values()) total += n;
      for (const old of kept.keys()) {
        if (total <= KEEP_BYTES || old === file) break;
        total -= sizes.get(old) ?? 0;
        kept.delete(old);
        sizes.delete(old);
      }
      return bytes;
    },
    (err: unknown) => {
      kept.delete(file);
      throw err;
    },
  );
  kept.set(file, loading);
  return loading;
}

/** Reads /og-fonts/<file> through the static-assets binding. */
export function assetFonts(assets: Fetcher | undefined): FontFile {
  return async (file) => {
    if (!assets) throw new Error("the ASSETS binding is missing: the card's fonts live in the static assets");
    const res = await assets.fetch(new Request(`https://assets.local/og-fonts/${file}`));
    if (!res.ok) throw new Error(`og font ${file}: ${res.status}`);
    return new Uint8Array(await res.arrayBuffer());
  };
}

type Loaded = { family: string; face: Face };

/** The faces loaded for one card, in the order resvg falls back through them. */
export class CardFonts {
  constructor(private readonly loaded: Loaded[]) {}

  get buffers(): Uint8Array[] {
    return this.loaded.map((l) => l.face.bytes);
  }

  /**
   * The face a line (or a piece of one) is set in: the one for its script, which also carries Latin (so
   * resvg shapes the line with one face); emoji alone in the emoji face; anything else Noto Sans, from
   * which resvg falls back to the CJK slices.
   */
  family(text: string): string {
    for (const [family, script] of SCRIPT_FACES) if (script.test(text)) return family;
    if (PICTOGRAPH.test(text) && !/[\p{L}\p{N}]/u.test(text)) return EMOJI;
    return LATIN;
  }

  private faceFor(cp: number, family: string): Face | undefined {
    const base = this.loaded.find((l) => l.family === family);
    if (base?.face.has(cp)) return base.face;
    return this.loaded.find((l) => l.face.has(cp))?.face;
  }

  /** The code points of `text` that no loaded face has (the test of issue 43: none, for every script a writer types). */
  missing(text: string): number[] {
    const out = new Set<number>();
    for (const ch of text) {
      const cp = ch.codePointAt(0)!;
      if (/\s/u.test(ch) || SHAPING_ONLY.has(cp) || this.faceFor(cp, LATIN)) continue;
      out.add(cp);
    }
    return [...out];
  }

  /**
   * The text as it can be drawn: a character no loaded face has becomes MISSING_GLYPH (visible, where a
   * dropped letter would change the words without a trace), and is logged with its code point.
   */
  drawable(text: string): string {
    const missing = new Set(this.missing(text));
    if (!missing.size) return text;
    log("warn", "og card: characters without a font", {
      codePoints: [...missing].map((cp) => `U+${cp.toString(16).toUpperCase().padStart(4, "0")}`),
    });
    let out = "";
    for (const ch of text) out += missing.has(ch.codePointAt(0)!) ? MISSING_GLYPH : ch;
    return out;
  }

  /** The face that draws a character: its script's face if it has it, else the first that does. */
  private loadedFor(cp: number, family: string): Loaded | undefined {
    const base = this.loaded.find((l) => l.family === family);
    if (base?.face.has(cp)) return base;
    return this.loaded.find((l) => l.face.has(cp));
  }

  /**
   * A line cut into runs of one face each, where it needs more than one (Korean beside Devanagari, Thai
   * beside emoji, Arabic beside Hebrew): resvg's fallback gives up on a line whose faces shape it
   * differently, so each run is set as a text of its own, in the face of its script (family()). A
   * character the current run's face has stays in it (the Arabic face carries Latin), the CJK slices
   * count as one face (resvg falls back between them glyph for glyph), and spaces stay with the run
   * before them. A line of one face is one piece.
   */
  pieces(line: string): string[] {
    const out: { text: string; family: string | undefined; face: Face | undefined; closed?: boolean }[] = [];
    for (const ch of line) {
      const last = out.at(-1);
      const cp = ch.codePointAt(0)!;
      if (last && /\s/u.test(ch)) {
        last.text += ch;
        // The emoji face's space is an emoji's width: a space ends an emoji run (the line's face sets it).
        if (last.family === EMOJI) last.closed = true;
        continue;
      }
      if (last && !last.closed && last.face?.has(cp)) {
        last.text += ch;
        continue;
      }
      const loaded = this.loadedFor(cp, this.family(ch));
      if (last && !last.closed && last.family === loaded?.family) {
        last.text += ch;
        last.face = loaded?.face;
      } else out.push({ text: ch, family: loaded?.family, face: loaded?.face });
    }
    return out.length > 1 ? out.map((p) => p.text) : [line];
  }

  /** The width of a line of text at a font size, in pixels. */
  width(text: string, size: number): number {
    const family = this.family(text);
    let ems = 0;
    for (const ch of text) ems += this.faceFor(ch.codePointAt(0)!, family)?.advance(ch.codePointAt(0)!) ?? 0;
    return ems * size;
  }
}

/** One manifest per deployment (the assets change only with it), so the isolate reads it once. */
let manifestKept: Promise<Manifest> | undefined;

function manifestOf(read: FontFile): Promise<Manifest> {
  if (!manifestKept) {
    manifestKept = read("manifest.json").then((b) => JSON.parse(new TextDecoder().decode(b)) as Manifest);
    manifestKept.catch(() => (manifestKept = undefined));
  }
  return manifestKept;
}

function inRanges(ranges: number[], cp: number): boolean {
  for (let i = 0; i < ranges.length; i += 2) if (cp >= ranges[i]! && cp <= ranges[i + 1]!) return true;
  return false;
}

/** Loads the faces that draw every character of `texts` that Noto Sans (and its Arabic and Hebrew kin) can. */
export async function fontsFor(texts: string[], read: FontFile): Promise<CardFonts> {
  const all = texts.join(" ");
  const manifest = await manifestOf(read);
  const wanted = manifest.faces.filter(
    (f) =>
      f.family === LATIN ||
      SCRIPT_FACES.some(([family, script]) => f.family === family && script.test(all)) ||
      (f.family === EMOJI && PICTOGRAPH.test(all)),
  );
  const loaded: Loaded[] = await Promise.all(
    wanted.map(async (f) => ({ family: f.family, face: new Face(await keptFile(read, f.file)) })),
  );
  const slices = new Set<string>();
  for (const ch of new Set(all)) {
    const cp = ch.codePointAt(0)!;
    if (/\s/u.test(ch) || loaded.some((l) => l.face.has(cp))) continue;
    const slice = manifest.slices.find((s) => inRanges(s.ranges, cp));
    if (slice) slices.add(slice.file);
  }
  // Slices keep the manifest's order (Chinese before Korean), which is the order resvg falls back in.
  const ordered = manifest.slices.filter((s) => slices.has(s.file));
  const bytes = await Promise.all(ordered.map((s) => keptFile(read, s.file)));
  for (const b of bytes) loaded.push({ family: "CJK", face: new Face(b) });
  return new CardFonts(loaded);
}
