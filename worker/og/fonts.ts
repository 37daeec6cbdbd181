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

  /** The face a line is set in: the one for its script, which also carries Latin (so resvg shapes the line with one face). */
  family(text: string): string {
    if (ARABIC_SCRIPT.test(text)) return ARABIC;
    if (HEBREW_SCRIPT.test(text)) return HEBREW;
    return LATIN;
  }

  private faceFor(cp: number, family: string): Face | undefined {
    const base = this.loaded.find((l) => l.family === family);
    if (base?.face.has(cp)) return base.face;
    return this.loaded.find((l) => l.face.has(cp))?.face;
  }

  /** The text without the characters no loaded face has (emoji, rare scripts), which would draw as empty boxes. */
  drawable(text: string): string {
    let out = "";
    for (const ch of text) if (/\s/u.test(ch) || this.faceFor(ch.codePointAt(0)!, LATIN)) out += ch;
    return out;
  }

  /**
   * A line cut where resvg would need two faces that shape it differently: Arabic beside letters the
   * Arabic face lacks (Hebrew, Greek, CJK). resvg's fallback gives up on those letters (it expects the
   * fallback face to shape the line into as many glyphs, which Arabic never does), so each piece is set
   * as a text of its own. Any other line is one piece. Spaces stay with the piece before them.
   */
  pieces(line: string): string[] {
    const arabic = this.loaded.find((l) => l.family === ARABIC)?.face;
    if (!arabic || this.family(line) !== ARABIC) return [line];
    const out: { text: string; own: boolean }[] = [];
    for (const ch of line) {
      const last = out.at(-1);
      const own = /\s/u.test(ch) ? (last?.own ?? true) : arabic.has(ch.codePointAt(0)!);
      if (last && last.own === own) last.text += ch;
      else out.push({ text: ch, own });
    }
    return out.map((p) => p.text);
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
      (f.family === ARABIC && ARABIC_SCRIPT.test(all)) ||
      (f.family === HEBREW && HEBREW_SCRIPT.test(all)),
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
