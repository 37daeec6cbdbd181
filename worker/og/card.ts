import { encode } from "fast-png";
import font from "#worker/og/hershey.json";
import { CARD_HEIGHT, CARD_WIDTH } from "#worker/og/size.ts";

/**
 * A post's Open Graph card (1200x630 PNG), drawn at the edge without wasm: the text is set in the
 * Hershey stroke fonts (hersheytext, extracted by scripts/og-font.mjs), each stroke rasterised as an
 * anti-aliased thick line, and the pixels are encoded by fast-png. See docs/decisions/017.
 */
export { CARD_HEIGHT, CARD_WIDTH };

type Glyph = { strokes: [number, number][][]; advance: number };
type Face = Map<string, Glyph>;

/** Font units: a capital is ~21 units tall (y 1..22); the baseline sits at y=22. */
const CAP = 21;
const BASELINE = 22;

function parseFace(chars: [string, number][]): Face {
  const face: Face = new Map();
  chars.forEach(([d, o], i) => {
    const strokes: [number, number][][] = [];
    for (const part of d.split("M").slice(1)) {
      const points = part
        .replace("L", " ")
        .trim()
        .split(/\s+/)
        .map((p) => p.split(",").map(Number) as [number, number]);
      strokes.push(points);
    }
    face.set(String.fromCharCode(33 + i), { strokes, advance: o * 2 });
  });
  face.set(" ", { strokes: [], advance: 16 });
  return face;
}

const FACES = {
  regular: parseFace(font.regular as [string, number][]),
  bold: parseFace(font.bold as [string, number][]),
};

/** Accents folded ("Café" → "Cafe"), typographic quotes and dashes made ASCII, anything else a "?". */
export function plain(text: string): string {
  return text
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .replace(/[\u2018\u2019]/g, "'")
    .replace(/[\u201c\u201d]/g, '"')
    .replace(/[\u2013\u2014]/g, "-")
    .replace(/\s+/g, " ")
    .replace(/[^\x20-\x7e]/g, "?")
    .trim();
}

function textWidth(face: Face, text: string, size: number): number {
  let w = 0;
  for (const ch of text) w += face.get(ch)?.advance ?? 16;
  return (w * size) / CAP;
}

/** Greedy word wrap into at most `maxLines` lines; the last line ends with "..." when text is cut. */
export function wrap(face: Face, text: string, size: number, maxWidth: number, maxLines: number): string[] {
  const words = text.split(" ").filter(Boolean);
  const word = (k: number) => words[k] ?? "";
  const lines: string[] = [];
  let line = "";
  let i = 0;
  for (; i < words.length; i++) {
    const next = line ? `${line} ${word(i)}` : word(i);
    if (textWidth(face, next, size) <= maxWidth || !line) {
      line = next;
      continue;
    }
    lines.push(line);
    line = word(i);
    if (lines.length === maxLines) break;
  }
  if (lines.length < maxLines && line) {
    lines.push(line);
    line = "";
    i = words.length;
  }
  if (i < words.length || line) {
    let last = lines[maxLines - 1] ?? "";
    while (last && textWidth(face, `${last}...`, size) > maxWidth) last = last.slice(0, -1);
    lines[maxLines - 1] = `${last.trimEnd()}...`;
  }
  // A single word longer than the line is cut too.
  return lines.map((l) => {
    let out = l;
    while (textWidth(face, out, size) > maxWidth && out.length > 4) out = `${out.slice(0, -4)}...`;
    return out;
  });
}

type Rgb = [number, number, number];

class Canvas {
  readonly pixels: Uint8Array;
  constructor(
    readonly width: number,
    readonly height: number,
  ) {
    this.pixels = new Uint8Array(width * height * 3);
  }

  /** A vertical gradient from `top` to `bottom`. */
  gradient(top: Rgb, bottom: Rgb) {
    for (let y = 0; y < this.height; y++) {
      const t = y / (this.height - 1);
      const row = y * this.width * 3;
      for (let k = 0; k < 3; k++) this.pixels[row + k] = Math.round(top[k]! + (bottom[k]! - top[k]!) * t);
      for (let x = 1; x < this.width; x++) this.pixels.copyWithin(row + x * 3, row, row + 3);
    }
  }

  rect(x0: number, y0: number, w: number, h: number, color: Rgb, radius = 0) {
    for (let y = Math.max(0, y0); y < Math.min(this.height, y0 + h); y++) {
      for (let x = Math.max(0, x0); x < Math.min(this.width, x0 + w); x++) {
        // Rounded corners: distance from the corner circle's centre, softened over one pixel.
        const dx = Math.max(x0 + radius - x - 0.5, 0, x + 0.5 - (x0 + w - radius));
        const dy = Math.max(y0 + radius - y - 0.5, 0, y + 0.5 - (y0 + h - radius));
        const cover = radius ? Math.min(1, Math.max(0, radius + 0.5 - Math.hypot(dx, dy))) : 1;
        if (cover > 0) this.blend(x, y, color, cover);
      }
    }
  }

  blend(x: number, y: number, color: Rgb, alpha: number) {
    const i = (y * this.width + x) * 3;
    for (let k = 0; k < 3; k++) this.pixels[i + k] = Math.round(this.pixels[i + k]! * (1 - alpha) + color[k]! * alpha);
  }

  /** Draws `text` with its left end at x and its baseline at y; returns the width drawn. */
  text(face: Face, text: string, x: number, y: number, size: number, color: Rgb, weight: number): number {
    const scale = size / CAP;
    const half = weight / 2;
    // One coverage mask per call, so overlapping strokes of a glyph do not darken each other.
    const width = Math.ceil(textWidth(face, text, size) + weight * 2 + 4);
    const top = Math.floor(y - (BASELINE + 10) * scale - half);
    const height = Math.ceil((BASELINE + 20) * scale + weight * 2);
    const mask = new Float32Array(width * height);
    const ox = x - weight;
    let pen = 0;
    for (const ch of text) {
      const glyph = face.get(ch) ?? face.get("?")!;
      for (const stroke of glyph.strokes) {
        for (let s = 0; s < stroke.length; s++) {
          const a = stroke[s]!;
          const b = stroke[s + 1] ?? a;
          if (s > 0 && s === stroke.length - 1) break;
          const ax = (pen + a[0]) * scale + weight;
          const ay = y + (a[1] - BASELINE) * scale - top;
          const bx = (pen + b[0]) * scale + weight;
          const by = y + (b[1] - BASELINE) * scale - top;
          segment(mask, width, height, ax, ay, bx, by, half);
        }
      }
      pen += glyph.advance;
    }
    for (let my = 0; my < height; my++) {
      const cy = top + my;
      if (cy < 0 || cy >= this.height) continue;
      for (let mx = 0; mx < width; mx++) {
        const cx = Math.round(ox) + mx;
        const cover = mask[my * width + mx]!;
        if (cover > 0 && cx >= 0 && cx < this.width) this.blend(cx, cy, color, cover);
      }
    }
    return pen * scale;
  }
}

/** Coverage of a round-capped segment of half-width r, written into `mask` as the max with what is there. */
function segment(mask: Float32Array, w: number, h: number, ax: number, ay: number, bx: number, by: number, r: number) {
  const x0 = Math.max(0, Math.floor(Math.min(ax, bx) - r - 1));
  const x1 = Math.min(w - 1, Math.ceil(Math.max(ax, bx) + r + 1));
  const y0 = Math.max(0, Math.floor(Math.min(ay, by) - r - 1));
  const y1 = Math.min(h - 1, Math.ceil(Math.max(ay, by) + r + 1));
  const dx = bx - ax;
  const dy = by - ay;
  const len2 = dx * dx + dy * dy;
  for (let y = y0; y <= y1; y++) {
    for (let x = x0; x <= x1; x++) {
      const px = x + 0.5 - ax;
      const py = y + 0.5 - ay;
      const t = len2 ? Math.max(0, Math.min(1, (px * dx + py * dy) / len2)) : 0;
      const ex = px - t * dx;
      const ey = py - t * dy;
      const d = Math.sqrt(ex * ex + ey * ey);
      const cover = Math.min(1, Math.max(0, r + 0.5 - d));
      const i = y * w + x;
      if (cover > mask[i]!) mask[i] = cover;
    }
  }
}

const WHITE: Rgb = [255, 255, 255];
const BRAND_DARK: Rgb = [30, 41, 120];
const BRAND: Rgb = [47, 67, 196];
const PILL: Rgb = [255, 255, 255];
const PILL_TEXT: Rgb = [47, 67, 196];
const SOFT: Rgb = [219, 230, 254];

/** The card of one post: its category as a pill, its title (up to three lines), and its writer and the site. */
export function renderCard(card: { title: string; category: string; writer: string; site: string }): Uint8Array {
  const canvas = new Canvas(CARD_WIDTH, CARD_HEIGHT);
  canvas.gradient(BRAND, BRAND_DARK);
  const margin = 80;
  const inner = CARD_WIDTH - margin * 2;

  const category = plain(card.category).toUpperCase() || "BLOG";
  const pillSize = 26;
  const pillWidth = Math.min(inner, Math.ceil(textWidth(FACES.bold, category, pillSize)) + 48);
  canvas.rect(margin, 70, pillWidth, 56, PILL, 28);
  canvas.text(FACES.bold, category, margin + 24, 70 + 28 + pillSize / 2, pillSize, PILL_TEXT, 4);

  const titleSize = 64;
  const lines = wrap(FACES.bold, plain(card.title) || "Untitled", titleSize, inner, 3);
  lines.forEach((line, i) => canvas.text(FACES.bold, line, margin, 240 + i * 96, titleSize, WHITE, 8));

  canvas.rect(margin, CARD_HEIGHT - 130, inner, 2, SOFT);
  const by = wrap(FACES.regular, `By ${plain(card.writer) || "a writer"}`, 32, inner * 0.6, 1)[0] ?? "";
  canvas.text(FACES.regular, by, margin, CARD_HEIGHT - 64, 32, WHITE, 4);
  const site = plain(card.site);
  const siteWidth = textWidth(FACES.bold, site, 32);
  canvas.text(FACES.bold, site, CARD_WIDTH - margin - siteWidth, CARD_HEIGHT - 64, 32, SOFT, 5);

  return encode({ width: CARD_WIDTH, height: CARD_HEIGHT, data: canvas.pixels, channels: 3, depth: 8 });
}
