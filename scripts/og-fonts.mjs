#!/usr/bin/env node
// Run by `npm run build` (and `npm run dev`): puts the share cards' fonts in the og-fonts folder of public, which the
// build copies into the static assets (build/client), and the Worker fetches only when it draws a card
// (worker/og/fonts.ts, docs/decisions/039). Nothing here is bundled into the Worker.
//
// - Noto Sans, Noto Sans Arabic and Noto Sans Hebrew, Bold, whole (Google Fonts' files, as
//   @expo-google-fonts ships them): the Arabic and Hebrew faces carry Latin too, so a mixed line is
//   shaped by one face.
// - Noto Sans SC and KR, Bold, in Google Fonts' own unicode-range slices (as @fontsource ships them),
//   turned from WOFF into TrueType (resvg reads TrueType only): a card loads only the slices its text
//   needs. manifest.json lists each slice's code points.
import { mkdirSync, readFileSync, rmSync, writeFileSync, copyFileSync } from "node:fs";
import path from "node:path";
import { inflateSync } from "node:zlib";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("..", import.meta.url));
const modules = path.join(root, "node_modules");
const out = path.join(root, "public", "og-fonts");

/** The whole faces, in the order the card tries them. */
const FACES = [
  { file: "noto-sans.ttf", family: "Noto Sans", from: "@expo-google-fonts/noto-sans/700Bold/NotoSans_700Bold.ttf" },
  {
    file: "noto-sans-arabic.ttf",
    family: "Noto Sans Arabic",
    from: "@expo-google-fonts/noto-sans-arabic/700Bold/NotoSansArabic_700Bold.ttf",
  },
  {
    file: "noto-sans-hebrew.ttf",
    family: "Noto Sans Hebrew",
    from: "@expo-google-fonts/noto-sans-hebrew/700Bold/NotoSansHebrew_700Bold.ttf",
  },
  // Issue 43: Thai, Devanagari and (monochrome) emoji, loaded only for a card whose text has them.
  {
    file: "noto-sans-thai.ttf",
    family: "Noto Sans Thai",
    from: "@expo-google-fonts/noto-sans-thai/700Bold/NotoSansThai_700Bold.ttf",
  },
  {
    file: "noto-sans-devanagari.ttf",
    family: "Noto Sans Devanagari",
    from: "@expo-google-fonts/noto-sans-devanagari/700Bold/NotoSansDevanagari_700Bold.ttf",
  },
  { file: "noto-emoji.ttf", family: "Noto Emoji", from: "@expo-google-fonts/noto-emoji/700Bold/NotoEmoji_700Bold.ttf" },
];

/** The sliced CJK faces: Chinese first, so a Han character shared with Korean takes its Chinese form. */
const SLICED = [
  { prefix: "sc", pkg: "@fontsource/noto-sans-sc" },
  { prefix: "kr", pkg: "@fontsource/noto-sans-kr" },
];

/** WOFF 1.0 to the sfnt (TrueType) it wraps: each table is zlib-compressed, or stored when that saved nothing. */
export function woffToSfnt(woff) {
  const view = new DataView(woff.buffer, woff.byteOffset, woff.byteLength);
  if (view.getUint32(0) !== 0x774f4646) throw new Error("not a WOFF file");
  const count = view.getUint16(12);
  const tables = [];
  for (let i = 0; i < count; i++) {
    const at = 44 + i * 20;
    const offset = view.getUint32(at + 4);
    const stored = view.getUint32(at + 8);
    const size = view.getUint32(at + 12);
    const raw = woff.subarray(offset, offset + stored);
    tables.push({
      tag: view.getUint32(at),
      sum: view.getUint32(at + 16),
      data: stored < size ? inflateSync(raw) : raw,
    });
  }
  let range = 1;
  let log = 0;
  while (range * 2 <= count) {
    range *= 2;
    log++;
  }
  let size = 12 + 16 * count;
  for (const t of tables) size += (t.data.length + 3) & ~3;
  const sfnt = new Uint8Array(size);
  const w = new DataView(sfnt.buffer);
  w.setUint32(0, view.getUint32(4));
  w.setUint16(4, count);
  w.setUint16(6, range * 16);
  w.setUint16(8, log);
  w.setUint16(10, count * 16 - range * 16);
  let offset = 12 + 16 * count;
  tables.forEach((t, i) => {
    const at = 12 + i * 16;
    w.setUint32(at, t.tag);
    w.setUint32(at + 4, t.sum);
    w.setUint32(at + 8, offset);
    w.setUint32(at + 12, t.data.length);
    sfnt.set(t.data, offset);
    offset += (t.data.length + 3) & ~3;
  });
  return sfnt;
}

/** The numbered slices of a @fontsource CJK package's Bold face, with their unicode-range as [first, last] pairs. */
function slices(pkg) {
  const css = readFileSync(path.join(modules, pkg, "700.css"), "utf8");
  const found = [];
  const rule = /url\(\.\/files\/([^)]+-(\d+)-700-normal\.woff)\) format\('woff'\);\s*unicode-range: ([^;]+);/g;
  for (const [, file, n, ranges] of css.matchAll(rule)) {
    const pairs = ranges.split(",").flatMap((r) => {
      const [a, b] = r.trim().slice(2).split("-");
      return [parseInt(a, 16), parseInt(b ?? a, 16)];
    });
    found.push({ n, file, pairs });
  }
  return found;
}

rmSync(out, { recursive: true, force: true });
mkdirSync(out, { recursive: true });
for (const face of FACES) copyFileSync(path.join(modules, face.from), path.join(out, face.file));
const manifest = { faces: FACES.map(({ file, family }) => ({ file, family })), slices: [] };
for (const { prefix, pkg } of SLICED) {
  for (const { n, file, pairs } of slices(pkg)) {
    const name = `${prefix}-${n}.ttf`;
    writeFileSync(path.join(out, name), woffToSfnt(readFileSync(path.join(modules, pkg, "files", file))));
    manifest.slices.push({ file: name, ranges: pairs });
  }
}
writeFileSync(path.join(out, "manifest.json"), JSON.stringify(manifest));
console.log(
  `og-fonts: ${manifest.faces.length} faces and ${manifest.slices.length} CJK slices in ${path.relative(root, out)}`,
);
