import { initWasm, Resvg } from "@resvg/resvg-wasm";
import resvgWasm from "@resvg/resvg-wasm/index_bg.wasm";
import { type CardFonts, EMOJI, type FontFile, fontsFor, LATIN } from "#worker/og/fonts.ts";
import { CARD_HEIGHT, CARD_WIDTH } from "#worker/og/size.ts";
import { ellipsize, isRtl, tidy, wrap, xml } from "#worker/og/text.ts";

/**
 * A post's Open Graph card (1200x630 PNG): an SVG laid out here, drawn by resvg (Rust, as WebAssembly)
 * with Noto fonts, so every script is set in its own letters, Arabic and Hebrew right to left. This
 * module is imported lazily (only a card miss pays for it); wrangler bundles the .wasm as a
 * WebAssembly.Module, which is the one way Workers instantiate wasm. See docs/decisions/039.
 */
export { CARD_HEIGHT, CARD_WIDTH };

export type CardInputs = { title: string; category: string; writer: string; site: string };

let ready: Promise<void> | undefined;

/** resvg's wasm, instantiated once per isolate. */
function resvg(): Promise<void> {
  ready ??= initWasm(resvgWasm).catch((err: unknown) => {
    ready = undefined;
    throw err;
  });
  return ready;
}

const BRAND = "#2f43c4";
const BAND = "#1e2978";
const WHITE = "#ffffff";
const SOFT = "#dbe6fe";
const MARGIN = 80;
const INNER = CARD_WIDTH - MARGIN * 2;
/** Measured widths ignore kerning and Arabic joining forms: keep a little room for them. */
const SLACK = 0.96;

type Text = { x: number; y: number; size: number; fill: string; rtl?: boolean; anchor?: "start" | "middle" | "end" };

/** Right-to-left isolate: resvg orders every line as a left-to-right paragraph (its `direction` changes nothing), so an RTL line is wrapped in RLI…PDI. */
const RTL = (s: string) => `\u2067${s}\u2069`;

function text(fonts: CardFonts, content: string, t: Text): string {
  const anchor = t.anchor ?? "start";
  return (
    `<text x="${t.x}" y="${t.y}" font-family="${fonts.family(content)}" font-weight="700" font-size="${t.size}"` +
    ` fill="${t.fill}" text-anchor="${anchor}">${xml(t.rtl ? RTL(content) : content)}</text>`
  );
}

/** The title's size: the largest that fits in three lines, else the smallest, cut with "…". */
function titleLines(fonts: CardFonts, title: string) {
  const sizes = [72, 64, 56];
  for (const size of sizes) {
    const { lines, cut } = wrap(title, (s) => fonts.width(s, size), INNER * SLACK, 3);
    if (!cut || size === sizes.at(-1)) return { size, lines };
  }
  throw new Error("unreachable");
}

/** How wide a piece of text draws, in pixels: the fonts' advance widths unless resvg measures it. */
type Ink = (text: string, size: number) => number;

/** A title line; one cut into pieces (see CardFonts.pieces) is set piece by piece, in reading order from its margin. */
function titleLine(fonts: CardFonts, line: string, t: Text & { rtl: boolean }, ink: Ink): string[] {
  const pieces = fonts.pieces(line);
  if (pieces.length === 1) return [text(fonts, line, t)];
  const out: string[] = [];
  let x = t.x;
  for (const piece of pieces) {
    const words = piece.trim();
    if (!words) continue;
    out.push(text(fonts, words, { ...t, x: Math.round(x) }));
    // Arabic, Devanagari and Thai are shaped (joined letters, conjuncts, stacked marks), so their drawn
    // width is measured; Noto Sans's and the emoji face's advances are exact (an ink box would leave out
    // a glyph's side bearings).
    const family = fonts.family(words);
    const drawn = family === LATIN || family === EMOJI ? fonts.width(words, t.size) : ink(words, t.size);
    const advance = drawn + (piece === piece.trimEnd() ? 0 : fonts.width(" ", t.size));
    x += t.rtl ? -advance : advance;
  }
  return out;
}

/** The SVG of a card, given the fonts loaded for its text. */
export function cardSvg(card: CardInputs, fonts: CardFonts, ink: Ink = (s, size) => fonts.width(s, size)): string {
  const title = fonts.drawable(tidy(card.title)) || "Untitled";
  const category = fonts.drawable(tidy(card.category).toUpperCase()) || "BLOG";
  const writer = fonts.drawable(tidy(card.writer)) || "a writer";
  const site = fonts.drawable(tidy(card.site));
  const rtl = isRtl(title);
  const parts: string[] = [
    `<rect width="${CARD_WIDTH}" height="${CARD_HEIGHT}" fill="${BRAND}"/>`,
    `<rect y="${CARD_HEIGHT - 120}" width="${CARD_WIDTH}" height="120" fill="${BAND}"/>`,
  ];

  // The category pill sits where the title starts: top left, or top right for a right-to-left title.
  const pillSize = 26;
  const pillText = ellipsize(category, (s) => fonts.width(s, pillSize), (INNER - 48) * SLACK);
  const pillWidth = Math.ceil(fonts.width(pillText, pillSize) / SLACK) + 48;
  const pillX = rtl ? CARD_WIDTH - MARGIN - pillWidth : MARGIN;
  parts.push(`<rect x="${pillX}" y="70" width="${pillWidth}" height="56" rx="28" fill="${WHITE}"/>`);
  parts.push(
    text(fonts, pillText, { x: pillX + pillWidth / 2, y: 107, size: pillSize, fill: BRAND, anchor: "middle" }),
  );

  // The title, centred in the space between the pill and the band.
  const { size, lines } = titleLines(fonts, title);
  const lineHeight = Math.round(size * 1.3);
  const top = 150 + (360 - lines.length * lineHeight) / 2;
  lines.forEach((line, i) => {
    const y = Math.round(top + i * lineHeight + lineHeight * 0.78);
    const at = { x: rtl ? CARD_WIDTH - MARGIN : MARGIN, y, size, fill: WHITE, rtl };
    parts.push(...titleLine(fonts, line, { ...at, anchor: rtl ? "end" : "start" }, ink));
  });

  // The band: the writer on the left, the site on the right.
  const bandY = CARD_HEIGHT - 48;
  const siteWidth = fonts.width(site, 30);
  parts.push(text(fonts, site, { x: CARD_WIDTH - MARGIN, y: bandY, size: 30, fill: SOFT, anchor: "end" }));
  const by = ellipsize(`By ${writer}`, (s) => fonts.width(s, 30), (INNER - siteWidth - 48) * SLACK);
  parts.push(text(fonts, by, { x: MARGIN, y: bandY, size: 30, fill: WHITE }));

  return `<svg xmlns="http://www.w3.org/2000/svg" width="${CARD_WIDTH}" height="${CARD_HEIGHT}">${parts.join("")}</svg>`;
}

/** The card of one post: its category as a pill, its title (up to three lines), and its writer and the site. */
export async function renderCard(card: CardInputs, read: FontFile): Promise<Uint8Array> {
  const [fonts] = await Promise.all([
    fontsFor([card.title, card.category.toUpperCase(), card.writer, card.site, "By …"], read),
    resvg(),
  ]);
  const options = { font: { fontBuffers: fonts.buffers, loadSystemFonts: false, defaultFontFamily: LATIN } };
  // Pieces of a mixed Arabic line are placed by their drawn width, which resvg measures exactly.
  const ink: Ink = (s, size) => {
    const probe = new Resvg(
      `<svg xmlns="http://www.w3.org/2000/svg" width="${CARD_WIDTH * 2}" height="${size * 2}">` +
        `${text(fonts, s, { x: 0, y: size * 1.5, size, fill: WHITE })}</svg>`,
      options,
    );
    try {
      const box = probe.getBBox();
      const width = box?.width ?? fonts.width(s, size);
      box?.free();
      return width;
    } finally {
      probe.free();
    }
  };
  const renderer = new Resvg(cardSvg(card, fonts, ink), options);
  try {
    const image = renderer.render();
    try {
      return image.asPng();
    } finally {
      image.free();
    }
  } finally {
    renderer.free();
  }
}
