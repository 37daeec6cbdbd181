import { env } from "cloudflare:workers";
import { decode } from "fast-png";
import { describe, expect, it } from "vitest";
import { cardSvg, renderCard } from "#worker/og/card.ts";
import { assetFonts, fontsFor, MISSING_GLYPH } from "#worker/og/fonts.ts";

// Issue 43: share cards draw every script a writer can type; a line mixing scripts is set run by run.
const fonts = () => assetFonts(env.ASSETS);
const card = (title: string) => ({ title, category: "Travel", writer: "Ada", site: "Edge Blog" });

export const SCRIPT_TITLES: [script: string, title: string][] = [
  ["Chinese", "茶与咖啡的故事"],
  ["Japanese", "日本語のブログを始めました"],
  ["Korean", "서울의 커피 이야기"],
  ["Greek", "Καλημέρα κόσμε"],
  ["Cyrillic", "Москва утром"],
  ["Arabic", "مرحبا بالعالم"],
  ["Hebrew", "שלום עולם"],
  ["Hindi", "नमस्ते दुनिया"],
  ["Thai", "สวัสดีชาวโลก"],
  ["five scripts on one line", "커피 नमस्ते สวัสดี Καλημέρα 咖啡"],
  ["emoji", "Coffee ☕ and travel ✈️ 🚀"],
];

/** White (title) pixels in the title area: a card whose title was dropped has none. */
function titleInk(png: Uint8Array): number {
  const image = decode(png);
  let ink = 0;
  for (let row = 150; row < 500; row++)
    for (let col = 0; col < 1200; col++) {
      const i = (row * 1200 + col) * image.channels;
      if (image.data[i]! > 200 && image.data[i + 1]! > 200 && image.data[i + 2]! > 200) ink++;
    }
  return ink;
}

describe("share cards in every script", () => {
  it.each(SCRIPT_TITLES)("%s: every code point of %s finds a glyph, and the card draws it", async (_script, title) => {
    const loaded = await fontsFor([title], fonts());
    expect(loaded.missing(title).map((cp) => cp.toString(16))).toEqual([]);
    expect(cardSvg(card(title), loaded)).not.toContain(MISSING_GLYPH);
    const png = await renderCard(card(title), fonts());
    expect(titleInk(png)).toBeGreaterThan(2_000);
  });

  it("sets a line that mixes scripts run by run, each in its own face", async () => {
    const title = "커피 नमस्ते สวัสดี";
    const loaded = await fontsFor([title], fonts());
    expect(loaded.pieces(title).map((p) => p.trim())).toEqual(["커피", "नमस्ते", "สวัสดี"]);
    const svg = cardSvg(card(title), loaded);
    expect(svg).toContain('font-family="Noto Sans Devanagari"');
    expect(svg).toContain('font-family="Noto Sans Thai"');
  });

  it("draws a character no face has as a visible stand-in, never dropping it", async () => {
    const title = "Old Italic 𐌀𐌁 letters";
    const loaded = await fontsFor([title], fonts());
    expect(loaded.missing(title).length).toBeGreaterThan(0);
    expect(loaded.missing(MISSING_GLYPH)).toEqual([]);
    expect(loaded.drawable(title)).toBe(`Old Italic ${MISSING_GLYPH}${MISSING_GLYPH} letters`);
  });
});
