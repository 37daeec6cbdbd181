import { env } from "cloudflare:workers";
import { decode } from "fast-png";
import { describe, expect, it } from "vitest";
import { cardSvg, renderCard } from "#worker/og/card.ts";
import { assetFonts, fontsFor } from "#worker/og/fonts.ts";

/**
 * Share cards set every script in its own letters (resvg with Noto fonts from the static assets), where
 * the Hershey stroke fonts before drew "?" for anything outside ASCII.
 */
const fonts = () => assetFonts(env.ASSETS);
const card = (title: string, writer = "Ada", category = "Travel") => ({ title, category, writer, site: "Edge Blog" });

/** Decoded RGB(A) pixels of a card, checked to be a 1200x630 PNG. */
function pixels(png: Uint8Array) {
  expect([...png.slice(1, 4)].map((b) => String.fromCharCode(b)).join("")).toBe("PNG");
  const image = decode(png);
  expect([image.width, image.height]).toEqual([1200, 630]);
  return image;
}

/** How many pixels of the title area (between the pill and the band) differ between two cards. */
function titleDifference(a: Uint8Array, b: Uint8Array): number {
  const x = pixels(a);
  const y = pixels(b);
  let differ = 0;
  for (let row = 150; row < 500; row++)
    for (let col = 0; col < 1200; col++) {
      const i = (row * 1200 + col) * x.channels;
      if (Math.abs(x.data[i]! - y.data[i]!) > 64) differ++;
    }
  return differ;
}

/** The leftmost and rightmost columns with white (title) ink in the title area. */
function inkColumns(png: Uint8Array): [number, number] {
  const image = pixels(png);
  let left = 1200;
  let right = -1;
  for (let row = 150; row < 500; row++)
    for (let col = 0; col < 1200; col++) {
      const i = (row * 1200 + col) * image.channels;
      if (image.data[i]! > 200 && image.data[i + 1]! > 200) {
        left = Math.min(left, col);
        right = Math.max(right, col);
      }
    }
  return [left, right];
}

describe("share cards in every script", () => {
  it("has a face for accented Latin, Greek, Cyrillic, Chinese, Japanese, Korean, Arabic and Hebrew", async () => {
    const texts = [
      "Café déjà vu — Tiếng Việt, Łódź, Ærø",
      "Ελληνικά",
      "Привет, мир",
      "我的FTP Server 测试",
      "東京のカフェ",
      "서울의 밤",
      "مقدمة إلى البرمجة",
      "שלום עולם",
    ];
    const loaded = await fontsFor(texts, fonts());
    for (const text of texts) expect(loaded.drawable(text)).toBe(text);
    // What no loaded face has (an emoji, when the card's text had none) is drawn as a visible stand-in
    // (issue 43: never dropped silently); a card whose text has emoji loads the emoji face.
    expect(loaded.drawable("Party 🎉 time")).toBe("Party \ufffd time");
  }, 60_000);

  it("draws a CJK, Greek and accented title and a Chinese name, unlike a card of question marks", async () => {
    const real = await renderCard(card("我的FTP Server 测试 — Ελληνικά café", "王小明"), fonts());
    const marks = await renderCard(card("??FTP Server ?? — ????????? cafe", "???"), fonts());
    // The ASCII letters are common to both; the Chinese and Greek letters make thousands of pixels differ.
    expect(titleDifference(real, marks)).toBeGreaterThan(5_000);
    // And a card is the same picture each time it is drawn.
    expect(
      titleDifference(real, await renderCard(card("我的FTP Server 测试 — Ελληνικά café", "王小明"), fonts())),
    ).toBe(0);
  }, 60_000);

  it("sets an Arabic or Hebrew title from the right margin, with its Latin words inside the line, and the pill on the right", async () => {
    for (const title of ["مقدمة إلى Python 3", "מבוא ל-Python 3"]) {
      const [left, right] = inkColumns(await renderCard(card(title), fonts()));
      expect(right).toBeGreaterThan(1080);
      expect(left).toBeGreaterThan(300);
      const svg = cardSvg(card(title), await fontsFor([title, "TRAVEL", "Ada", "Edge Blog", "By …"], fonts()));
      // The line is a right-to-left isolate anchored at the right margin (resvg would order it left to right).
      expect(svg).toContain(`text-anchor="end">\u2067`);
      expect(svg).toMatch(/<rect x="(\d+)" y="70"/);
      expect(Number(/<rect x="(\d+)" y="70"/.exec(svg)![1])).toBeGreaterThan(600);
    }
    const [left] = inkColumns(await renderCard(card("Left to right"), fonts()));
    expect(left).toBeLessThan(100);
  }, 60_000);

  it("sets an Arabic line holding Hebrew and Chinese as pieces in right-to-left order, each in its own face", async () => {
    const title = "مقدمة — שלום 你好";
    const loaded = await fontsFor([title, "TRAVEL", "Ada", "Edge Blog", "By …"], fonts());
    // Each script is a run of its own face (issue 43: a line that mixes scripts is set run by run).
    expect(loaded.pieces(title)).toEqual(["مقدمة — ", "שלום ", "你好"]);
    const svg = cardSvg(card(title), loaded);
    const at = (words: string) =>
      Number(new RegExp(`<text x="(\\d+)"[^>]*>\u2067${words}\u2069</text>`).exec(svg)?.[1] ?? NaN);
    // Reading right to left: the Arabic piece at the margin, then the other to its left.
    expect(at("مقدمة —")).toBe(1120);
    expect(at("שלום")).toBeLessThan(1000);
    expect(at("你好")).toBeLessThan(at("שלום"));
    expect(svg).toContain('font-family="Noto Sans Hebrew"');
    pixels(await renderCard(card(title), fonts()));
    // A line of one face stays whole.
    expect(loaded.pieces("مقدمة إلى Python 3")).toHaveLength(1);
  }, 60_000);

  it("draws markup characters as text, and a title of emoji in the emoji face", async () => {
    const svg = cardSvg(card('Tom & Jerry <3 "quotes"'), await fontsFor(['Tom & Jerry <3 "quotes"'], fonts()));
    expect(svg).toContain("Tom &amp; Jerry &lt;3");
    pixels(await renderCard(card('Tom & Jerry <3 "quotes" </text><svg>'), fonts()));
    const empty = cardSvg(card("🎉🎉"), await fontsFor(["🎉🎉", "TRAVEL", "Ada", "Edge Blog", "By …"], fonts()));
    expect(empty).toContain('font-family="Noto Emoji"');
    expect(empty).toContain(">🎉🎉</text>");
  }, 60_000);

  it("wraps a long title into at most three lines ending in an ellipsis", async () => {
    const title = "An unreasonably long title that goes on and on about edge rendering and fonts ".repeat(3);
    const svg = cardSvg(card(title), await fontsFor([title, "TRAVEL", "Ada", "Edge Blog", "By …"], fonts()));
    const lines = [...svg.matchAll(/font-size="56" fill="#ffffff" text-anchor="start">([^<]*)</g)].map((m) => m[1]);
    expect(lines).toHaveLength(3);
    expect(lines[2]).toMatch(/…$/);
  }, 60_000);
});
