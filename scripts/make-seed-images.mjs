#!/usr/bin/env node
// Renders the demo images named in seed/content.json into seed/images/, locally, from HTML/CSS/SVG:
//   - blog covers (1200x675): category palette, layered abstract shapes and a category pictogram;
//   - portraits (400x400) for users, authors and reviewers: flat illustrated busts.
//
//   npm exec -- node scripts/make-seed-images.mjs [--only SUBSTRING]
//
// Deterministic: every choice comes from a hash of the title or name, so the same content.json
// gives the same pictures. A file is rewritten only when its bytes change.
// Needs Debian's Chromium at /usr/bin/chromium (driven by playwright-core); no network, no web fonts.
import { mkdir, readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { chromium } from "playwright-core";
import { CHROMIUM_FLAGS } from "./lib/local.mjs";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const outDir = path.join(root, "seed", "images");
const FILE_RE = /^[0-9a-z][0-9a-z_-]{7,80}\.jpg$/;
const onlyAt = process.argv.indexOf("--only");
const only = onlyAt >= 0 ? process.argv[onlyAt + 1] : null;

// ---------------------------------------------------------------------------------------------
// Seeded randomness

function hash32(text) {
  let h = 0x811c9dc5; // FNV-1a
  for (const ch of text) {
    h ^= ch.codePointAt(0);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h >>> 0;
}

function rng(seedText) {
  let a = hash32(seedText);
  const next = () => {
    // mulberry32
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return {
    next,
    range: (lo, hi) => lo + (hi - lo) * next(),
    int: (lo, hi) => lo + Math.floor(next() * (hi - lo + 1)),
    pick: (list) => list[Math.floor(next() * list.length)],
    chance: (p) => next() < p,
  };
}

const f1 = (n) => Math.round(n * 10) / 10;

function hexToRgb(hex) {
  const n = parseInt(hex.slice(1), 16);
  return [(n >> 16) & 255, (n >> 8) & 255, n & 255];
}
function rgba(hex, alpha) {
  const [r, g, b] = hexToRgb(hex);
  return `rgba(${r},${g},${b},${alpha})`;
}
/** Mixes a colour towards black (amount < 0) or white (amount > 0). */
function shade(hex, amount) {
  const target = amount < 0 ? 0 : 255;
  const k = Math.abs(amount);
  const [r, g, b] = hexToRgb(hex).map((c) => Math.round(c + (target - c) * k));
  return `#${((1 << 24) | (r << 16) | (g << 8) | b).toString(16).slice(1)}`;
}

/** A smooth closed blob around (cx, cy), Catmull-Rom through jittered polar points. */
function blobPath(r, cx, cy, radius, points = 7, jitter = 0.28) {
  const pts = [];
  const turn = r.range(0, Math.PI * 2);
  for (let i = 0; i < points; i++) {
    const a = turn + (i / points) * Math.PI * 2;
    const rr = radius * (1 - jitter + r.next() * jitter * 2);
    pts.push([cx + Math.cos(a) * rr, cy + Math.sin(a) * rr]);
  }
  let d = `M${f1(pts[0][0])} ${f1(pts[0][1])}`;
  for (let i = 0; i < points; i++) {
    const p0 = pts[(i - 1 + points) % points];
    const p1 = pts[i];
    const p2 = pts[(i + 1) % points];
    const p3 = pts[(i + 2) % points];
    const c1 = [p1[0] + (p2[0] - p0[0]) / 6, p1[1] + (p2[1] - p0[1]) / 6];
    const c2 = [p2[0] - (p3[0] - p1[0]) / 6, p2[1] - (p3[1] - p1[1]) / 6];
    d += ` C${f1(c1[0])} ${f1(c1[1])} ${f1(c2[0])} ${f1(c2[1])} ${f1(p2[0])} ${f1(p2[1])}`;
  }
  return `${d} Z`;
}

const star4 = (cx, cy, s) =>
  `M${cx} ${cy - s} Q${cx} ${cy} ${cx + s} ${cy} Q${cx} ${cy} ${cx} ${cy + s} Q${cx} ${cy} ${cx - s} ${cy} Q${cx} ${cy} ${cx} ${cy - s} Z`;

// ---------------------------------------------------------------------------------------------
// Category palettes and pictograms (drawn in a 240x240 box)

const PALETTES = {
  Technology: { from: "#0b1220", to: "#0e7490", a: "#a3e635", b: "#67e8f9" },
  Travel: { from: "#0c4a6e", to: "#f97316", a: "#fde047", b: "#fdba74" },
  Health: { from: "#134e4a", to: "#2dd4bf", a: "#fb7185", b: "#ecfccb" },
  Finance: { from: "#052e16", to: "#15803d", a: "#facc15", b: "#86efac" },
  AI: { from: "#3b0764", to: "#c026d3", a: "#f5d0fe", b: "#67e8f9" },
  Education: { from: "#1e3a8a", to: "#0ea5e9", a: "#facc15", b: "#fca5a5" },
  Business: { from: "#0f172a", to: "#475569", a: "#f59e0b", b: "#38bdf8" },
  Science: { from: "#1e1b4b", to: "#4f46e5", a: "#f472b6", b: "#fde047" },
  Marketing: { from: "#881337", to: "#fb7185", a: "#fde047", b: "#ffe4e6" },
  Lifestyle: { from: "#7c2d12", to: "#fdba74", a: "#fef3c7", b: "#fb7185" },
};
const FALLBACK_PALETTE = PALETTES.Technology;
const INK = "#fffdf8";

const line = (color, width, extra = "") =>
  `fill="none" stroke="${color}" stroke-width="${width}" stroke-linecap="round" stroke-linejoin="round" ${extra}`;

/** Each pictogram: (colours) => SVG markup in a 240x240 box. I = ink, D = deep, A/B = accents. */
const ICONS = {
  chip: ({ I, D, A, B }) => {
    let pins = "";
    for (const x of [81, 107, 133, 159]) {
      pins += `<rect x="${x - 6}" y="34" width="12" height="30" rx="5" fill="${I}"/><rect x="${x - 6}" y="176" width="12" height="30" rx="5" fill="${I}"/>`;
      pins += `<rect x="34" y="${x - 6}" width="30" height="12" rx="5" fill="${I}"/><rect x="176" y="${x - 6}" width="30" height="12" rx="5" fill="${I}"/>`;
    }
    return `<path d="M159 40 V18 H204" ${line(B, 5)}/><circle cx="210" cy="18" r="8" fill="${B}"/>
      <path d="M34 133 H16 V196" ${line(A, 5)}/><circle cx="16" cy="204" r="8" fill="${A}"/>
      <path d="M206 107 H226 V60" ${line(INK, 5, 'opacity=".7"')}/><circle cx="226" cy="52" r="7" fill="${INK}" opacity=".7"/>
      ${pins}<rect x="58" y="58" width="124" height="124" rx="22" fill="${I}"/>
      <rect x="82" y="82" width="76" height="76" rx="12" fill="${D}"/><rect x="100" y="100" width="40" height="40" rx="7" fill="${A}"/>
      <circle cx="74" cy="74" r="5" fill="${D}" opacity=".45"/>`;
  },
  monitor: ({ I, D, A, B }) => `<rect x="20" y="36" width="200" height="136" rx="16" fill="${I}"/>
      <rect x="34" y="50" width="172" height="104" rx="8" fill="${D}"/>
      <path d="M102 172 L94 198 H146 L138 172 Z" fill="${I}" opacity=".85"/><rect x="70" y="196" width="100" height="12" rx="6" fill="${I}"/>
      <rect x="48" y="66" width="34" height="9" rx="4.5" fill="${A}"/><rect x="90" y="66" width="58" height="9" rx="4.5" fill="${I}" opacity=".55"/>
      <rect x="62" y="84" width="66" height="9" rx="4.5" fill="${B}"/><rect x="136" y="84" width="34" height="9" rx="4.5" fill="${I}" opacity=".45"/>
      <rect x="62" y="102" width="48" height="9" rx="4.5" fill="${I}" opacity=".55"/><rect x="118" y="102" width="52" height="9" rx="4.5" fill="${A}"/>
      <rect x="48" y="120" width="28" height="9" rx="4.5" fill="${B}"/>
      <path d="M150 140 A 26 26 0 0 1 196 140" ${line(I, 6, 'opacity=".35"')}/><path d="M173 140 L188 124" ${line(A, 6)}/>`,
  branch: ({
    I,
    D,
    A,
    B,
  }) => `<path d="M70 60 V180" ${line(I, 12)}/><path d="M70 168 C70 118 170 132 170 84" ${line(I, 12)}/>
      <path d="M170 84 C170 40 210 40 214 18" ${line(I, 6, 'stroke-dasharray="2 14" opacity=".6"')}/>
      <circle cx="70" cy="48" r="22" fill="${D}" stroke="${I}" stroke-width="10"/>
      <circle cx="70" cy="192" r="22" fill="${A}" stroke="${I}" stroke-width="10"/>
      <circle cx="170" cy="72" r="22" fill="${B}" stroke="${I}" stroke-width="10"/>`,
  plane: ({
    I,
    A,
    B,
  }) => `<path d="M92 182 C60 214 32 188 12 228" ${line(I, 6, 'stroke-dasharray="2 15" opacity=".75"')}/>
      <path d="M20 112 L218 34 L152 198 L114 148 Z" fill="${I}"/>
      <path d="M218 34 L114 148 L104 196 L136 164 Z" fill="${A}"/>
      <path d="M218 34 L114 148" ${line(B, 4, 'opacity=".8"')}/>`,
  pin: ({ I, D, A, B }) => `<path d="M22 98 L82 76 L150 98 L218 76 L218 204 L150 226 L82 204 L22 226 Z" fill="${I}"/>
      <path d="M82 76 L150 98 L150 226 L82 204 Z" fill="${D}" opacity=".12"/>
      <path d="M42 196 C70 160 96 196 124 168 C140 152 150 150 160 150" ${line(B, 6, 'stroke-dasharray="3 12"')}/>
      <path d="M160 164 C160 164 114 118 114 86 A46 46 0 1 1 206 86 C206 118 160 164 160 164 Z" fill="${A}"/>
      <circle cx="160" cy="86" r="17" fill="${I}"/>`,
  suitcase: ({ I, D, A, B }) => `<path d="M92 62 V46 a12 12 0 0 1 12 -12 H136 a12 12 0 0 1 12 12 V62" ${line(I, 12)}/>
      <rect x="44" y="58" width="152" height="146" rx="22" fill="${I}"/>
      <rect x="78" y="58" width="16" height="146" fill="${A}"/><rect x="146" y="58" width="16" height="146" fill="${A}"/>
      <circle cx="74" cy="214" r="10" fill="${I}"/><circle cx="166" cy="214" r="10" fill="${I}"/>
      <path d="M168 96 L212 74 L226 102 L182 124 Z" fill="${B}"/><circle cx="205" cy="90" r="4" fill="${D}" opacity=".5"/>`,
  heart: ({
    I,
    A,
    B,
  }) => `<path d="M120 206 C52 160 22 122 30 86 C38 50 86 36 120 74 C154 36 202 50 210 86 C218 122 188 160 120 206 Z" fill="${A}"/>
      <path d="M14 128 H76 L92 98 L112 158 L132 90 L148 128 H226" ${line(I, 10)}/>
      <path d="M196 24 V56 M180 40 H212" ${line(B, 9)}/>`,
  leaf: ({ I, D, A }) => `<path d="M56 202 C30 120 84 38 210 34 C214 150 150 210 56 202 Z" fill="${I}"/>
      <path d="M56 202 C100 150 150 100 192 52" ${line(D, 7, 'opacity=".45"')}/>
      <path d="M98 158 L92 114 M124 130 L118 84 M150 104 L148 66 M98 158 L146 166 M124 130 L172 136 M150 104 L192 104" ${line(D, 5, 'opacity=".3"')}/>
      <path d="M40 206 C18 176 26 142 62 128 C74 160 68 186 40 206 Z" fill="${A}"/>`,
  moon: ({
    I,
    A,
    B,
  }) => `<defs><mask id="moonmask"><rect width="240" height="240" fill="#fff"/><circle cx="162" cy="86" r="74" fill="#000"/></mask></defs>
      <circle cx="110" cy="130" r="90" fill="${I}" mask="url(#moonmask)"/>
      <path d="${star4(184, 150, 22)}" fill="${A}"/><path d="${star4(206, 72, 13)}" fill="${B}"/><path d="${star4(150, 30, 9)}" fill="${I}" opacity=".8"/>`,
  bars: ({ I, A, B }) => `<rect x="40" y="144" width="30" height="50" rx="6" fill="${I}" opacity=".75"/>
      <rect x="86" y="114" width="30" height="80" rx="6" fill="${I}" opacity=".9"/>
      <rect x="132" y="129" width="30" height="65" rx="6" fill="${I}"/>
      <rect x="178" y="74" width="30" height="120" rx="6" fill="${A}"/>
      <path d="M26 206 H222" ${line(I, 10)}/>
      <path d="M40 112 L94 76 L142 96 L204 34" ${line(B, 9)}/><path d="M180 32 L206 32 L206 58" ${line(B, 9)}/>`,
  coins: ({ I, D, A, B }) => {
    const coin = (
      cy,
    ) => `<path d="M32 ${cy} v14 a54 18 0 0 0 108 0 v-14 z" fill="${A}"/><path d="M32 ${cy} v14 a54 18 0 0 0 108 0 v-14 z" fill="${D}" opacity=".22"/>
      <ellipse cx="86" cy="${cy}" rx="54" ry="18" fill="${A}"/><ellipse cx="86" cy="${cy}" rx="36" ry="11" fill="none" stroke="${D}" stroke-opacity=".22" stroke-width="4"/>`;
    return `${coin(196)}${coin(174)}${coin(152)}${coin(130)}
      <circle cx="172" cy="88" r="52" fill="${I}"/><circle cx="172" cy="88" r="38" fill="none" stroke="${B}" stroke-width="7"/>
      <path d="M172 110 V68 M154 84 L172 66 L190 84" ${line(D, 9)}/>`;
  },
  neural: ({ I, A, B }) => {
    const layers = [
      [40, [62, 120, 178]],
      [120, [40, 94, 146, 200]],
      [200, [90, 150]],
    ];
    let edges = "";
    for (let l = 0; l < layers.length - 1; l++)
      for (const y1 of layers[l][1])
        for (const y2 of layers[l + 1][1]) edges += `M${layers[l][0]} ${y1} L${layers[l + 1][0]} ${y2} `;
    let nodes = "";
    const fills = [I, A, I, B, I, I, A, I, B];
    let k = 0;
    for (const [x, ys] of layers)
      for (const y of ys)
        nodes += `<circle cx="${x}" cy="${y}" r="15" fill="${fills[k++ % fills.length]}" stroke="${I}" stroke-width="5"/>`;
    return `<path d="${edges}" ${line(I, 4, 'opacity=".55"')}/>${nodes}`;
  },
  chat: ({
    I,
    D,
    A,
    B,
  }) => `<path d="M40 52 H198 a18 18 0 0 1 18 18 V150 a18 18 0 0 1 -18 18 H112 L70 206 V168 H40 a18 18 0 0 1 -18 -18 V70 a18 18 0 0 1 18 -18 Z" fill="${I}"/>
      <rect x="46" y="80" width="108" height="12" rx="6" fill="${D}" opacity=".22"/>
      <rect x="46" y="106" width="140" height="12" rx="6" fill="${D}" opacity=".22"/>
      <rect x="46" y="132" width="78" height="12" rx="6" fill="${A}"/>
      <path d="${star4(200, 50, 34)}" fill="${A}" stroke="${I}" stroke-width="4" stroke-linejoin="round"/><path d="${star4(228, 100, 12)}" fill="${B}"/>`,
  book: ({ I, D, A }) => `<path d="M120 72 C95 54 58 50 24 58 V196 C58 188 95 192 120 210 Z" fill="${I}"/>
      <path d="M120 72 C145 54 182 50 216 58 V196 C182 188 145 192 120 210 Z" fill="${I}" opacity=".86"/>
      <path d="M44 88 C66 82 88 84 104 92 M44 112 C66 106 88 108 104 116 M44 136 C66 130 88 132 104 140 M44 160 C66 154 80 156 90 160" ${line(D, 5, 'opacity=".2"')}/>
      <path d="M136 92 C152 84 174 82 196 88 M136 116 C152 108 174 106 196 112 M136 140 C152 132 170 130 182 132" ${line(D, 5, 'opacity=".2"')}/>
      <path d="M120 72 V210" ${line(D, 4, 'opacity=".3"')}/>
      <path d="M168 50 V108 L180 96 L192 108 V48" fill="${A}"/>`,
  cap: ({ I, D, A }) => `<path d="M62 112 V160 C62 188 178 188 178 160 V112 L120 136 Z" fill="${I}" opacity=".85"/>
      <path d="M120 44 L228 92 L120 140 L12 92 Z" fill="${I}"/>
      <path d="M120 92 L198 112 V172" ${line(A, 6)}/><path d="M190 170 h16 l6 26 h-28 z" fill="${A}"/>
      <circle cx="120" cy="92" r="8" fill="${D}"/>`,
  briefcase: ({ I, D, A }) => `<path d="M90 66 V50 a12 12 0 0 1 12 -12 H138 a12 12 0 0 1 12 12 V66" ${line(I, 12)}/>
      <rect x="24" y="64" width="192" height="142" rx="20" fill="${I}"/>
      <path d="M24 116 C80 140 160 140 216 116" ${line(D, 6, 'opacity=".2"')}/>
      <rect x="104" y="116" width="32" height="28" rx="7" fill="${A}"/>`,
  tag: ({ I, D, A }) => `<path d="M190 60 C206 34 224 30 232 8" ${line(I, 5)}/>
      <path d="M30 124 L126 28 H204 a8 8 0 0 1 8 8 V114 L116 210 a12 12 0 0 1 -17 0 L30 141 a12 12 0 0 1 0 -17 Z" fill="${I}"/>
      <circle cx="180" cy="60" r="14" fill="${D}" opacity=".7"/>
      <circle cx="104" cy="110" r="12" ${line(A, 7)}/><circle cx="142" cy="148" r="12" ${line(A, 7)}/><path d="M150 100 L96 158" ${line(A, 8)}/>`,
  atom: ({ I, A, B }) => {
    let orbits = "";
    let electrons = "";
    [0, 60, 120].forEach((deg, i) => {
      orbits += `<ellipse cx="120" cy="120" rx="100" ry="36" transform="rotate(${deg} 120 120)" ${line(I, 9)}/>`;
      const t = [0.6, 2.6, 4.4][i];
      const ex = 100 * Math.cos(t);
      const ey = 36 * Math.sin(t);
      const rad = (deg * Math.PI) / 180;
      electrons += `<circle cx="${f1(120 + ex * Math.cos(rad) - ey * Math.sin(rad))}" cy="${f1(120 + ex * Math.sin(rad) + ey * Math.cos(rad))}" r="11" fill="${B}" stroke="${I}" stroke-width="4"/>`;
    });
    return `${orbits}<circle cx="120" cy="120" r="24" fill="${A}" stroke="${I}" stroke-width="6"/>${electrons}`;
  },
  flask: ({
    I,
    A,
    B,
  }) => `<path d="M104 34 V92 L44 190 Q34 214 62 214 H178 Q206 214 196 190 L136 92 V34 Z" fill="${I}"/>
      <rect x="88" y="22" width="64" height="16" rx="8" fill="${I}"/>
      <path d="M68 150 C92 140 114 160 140 148 C156 141 164 144 172 150 L196 190 Q206 214 178 214 H62 Q34 214 44 190 Z" fill="${A}"/>
      <circle cx="116" cy="122" r="8" fill="${B}"/><circle cx="132" cy="100" r="5" fill="${B}"/><circle cx="100" cy="184" r="10" fill="${I}" opacity=".6"/><circle cx="146" cy="176" r="6" fill="${I}" opacity=".6"/>`,
  prism: ({ I }) => {
    const spectrum = ["#f87171", "#fb923c", "#fde047", "#4ade80", "#60a5fa", "#a78bfa"];
    const wedges = spectrum
      .map(
        (c, i) =>
          `<path d="M158 ${119 + i * 1.6} L238 ${100 + i * 20} L238 ${120 + i * 20} L158 ${120.6 + i * 1.6} Z" fill="${c}"/>`,
      )
      .join("");
    return `<path d="M4 158 L76 126" ${line(I, 8)}/>${wedges}<path d="M120 40 L198 180 H42 Z" fill="${I}" stroke="${I}" stroke-width="10" stroke-linejoin="round" opacity=".94"/>
      <path d="M76 126 L160 120" ${line("#000", 4, 'opacity=".12"')}/>`;
  },
  megaphone: ({
    I,
    D,
    A,
    B,
  }) => `<path d="M196 88 Q212 120 196 152" ${line(A, 8)}/><path d="M214 68 Q240 120 214 172" ${line(B, 8)}/>
      <path d="M78 146 L94 200 H122 L110 152 Z" fill="${I}" opacity=".85"/>
      <rect x="24" y="90" width="38" height="60" rx="12" fill="${A}"/>
      <path d="M54 94 L166 42 V198 L54 146 Z" fill="${I}"/>
      <ellipse cx="166" cy="120" rx="16" ry="78" fill="${I}"/><ellipse cx="168" cy="120" rx="7" ry="60" fill="${D}" opacity=".2"/>`,
  envelope: ({ I, D, A }) => `<rect x="22" y="60" width="196" height="136" rx="16" fill="${I}"/>
      <path d="M32 188 L98 128 M208 188 L142 128" ${line(D, 6, 'opacity=".14"')}/>
      <path d="M32 72 L120 140 L208 72" ${line(D, 8, 'opacity=".28"')}/>
      <circle cx="206" cy="60" r="28" fill="${A}" stroke="${I}" stroke-width="6"/><path d="${star4(206, 60, 13)}" fill="${I}"/>`,
  coffee: ({
    I,
    A,
    B,
  }) => `<path d="M90 62 C78 46 102 38 90 20 M122 62 C110 46 134 38 122 20" ${line(I, 7, 'opacity=".8"')}/>
      <ellipse cx="112" cy="208" rx="92" ry="13" fill="${I}" opacity=".8"/>
      <path d="M176 98 h14 a27 27 0 0 1 0 54 h-16" ${line(I, 12)}/>
      <path d="M44 80 H178 V148 a52 52 0 0 1 -52 52 H96 a52 52 0 0 1 -52 -52 Z" fill="${I}"/>
      <rect x="44" y="110" width="134" height="20" fill="${B}"/>
      <path d="M98 160 C88 150 100 140 108 150 C116 140 128 150 118 160 L108 170 Z" fill="${A === INK ? B : B}" opacity=".9"/>`,
  sun: ({ I, A }) => {
    let rays = "";
    for (let i = 0; i < 12; i++) {
      const a = (i / 12) * Math.PI * 2;
      rays += `M${f1(120 + Math.cos(a) * 74)} ${f1(118 + Math.sin(a) * 74)} L${f1(120 + Math.cos(a) * 102)} ${f1(118 + Math.sin(a) * 102)} `;
    }
    return `<path d="${rays}" ${line(A, 10)}/><circle cx="120" cy="118" r="58" fill="${I}"/><circle cx="120" cy="118" r="42" fill="#fbbf24"/>
      <path d="M92 110 A30 30 0 0 1 124 88" ${line(I, 7, 'opacity=".7"')}/>`;
  },
};

/** Per category: a default rotation, plus keyword-specific pictograms. */
const ICON_RULES = {
  Technology: {
    cycle: ["chip", "monitor"],
    words: [
      [/\bgit\b|branch|merge/i, "branch"],
      [/\bweb\b|site|page|load/i, "monitor"],
    ],
  },
  Travel: {
    cycle: ["plane", "pin"],
    words: [
      [/pack|carry-on|luggage|suitcase/i, "suitcase"],
      [/itinerary|route|map|train/i, "pin"],
    ],
  },
  Health: { cycle: ["heart", "leaf"], words: [[/sleep|night|rest/i, "moon"]] },
  Finance: {
    cycle: ["bars", "coins"],
    words: [
      [/save|saving|emergency|fund\b/i, "coins"],
      [/invest|index|stock|market/i, "bars"],
    ],
  },
  AI: { cycle: ["neural", "chat"], words: [[/prompt|chat|assistant/i, "chat"]] },
  Education: { cycle: ["book", "cap"], words: [[/degree|graduat|universit|college/i, "cap"]] },
  Business: { cycle: ["briefcase", "tag"], words: [[/pric|rate|sell/i, "tag"]] },
  Science: {
    cycle: ["atom", "flask"],
    words: [
      [/light|sky|colou?r|rainbow|sunset/i, "prism"],
      [/chemi|lab|experiment/i, "flask"],
    ],
  },
  Marketing: { cycle: ["megaphone", "envelope"], words: [[/e-?mail|newsletter|inbox/i, "envelope"]] },
  Lifestyle: {
    cycle: ["coffee", "sun"],
    words: [
      [/morning|sunrise/i, "sun"],
      [/coffee|café|cafe/i, "coffee"],
    ],
  },
};

/** Picks each blog's pictogram: a keyword match first, otherwise the next one its category has not used yet. */
function assignIcons(blogs) {
  const chosen = new Map();
  const used = new Map();
  const keyword = (blog) =>
    (ICON_RULES[blog.category] ?? ICON_RULES.Technology).words.find(([re]) => re.test(blog.title))?.[1];
  for (const blog of blogs) {
    const name = keyword(blog);
    if (!name) continue;
    chosen.set(blog, name);
    used.set(blog.category, [...(used.get(blog.category) ?? []), name]);
  }
  for (const blog of blogs) {
    if (chosen.has(blog)) continue;
    const { cycle } = ICON_RULES[blog.category] ?? ICON_RULES.Technology;
    const taken = used.get(blog.category) ?? [];
    const name = cycle.find((n) => !taken.includes(n)) ?? cycle[taken.length % cycle.length];
    chosen.set(blog, name);
    used.set(blog.category, [...taken, name]);
  }
  return chosen;
}

// ---------------------------------------------------------------------------------------------
// Blog covers

const FONT = `"DejaVu Sans", "Liberation Sans", Arial, sans-serif`;

function coverHtml(blog, iconName) {
  const W = 1200;
  const H = 675;
  const r = rng(`cover:${blog.title}`);
  const p = PALETTES[blog.category] ?? FALLBACK_PALETTE;
  const colours = { I: INK, D: p.from, A: p.a, B: p.b };

  const angle = r.int(115, 160);
  const side = r.pick(["right", "right", "left", "center"]);
  const ix = side === "right" ? r.range(760, 860) : side === "left" ? r.range(340, 440) : r.range(570, 630);
  const iy = r.range(330, 370);
  const iconSize = r.range(380, 420);
  const tilt = r.range(-8, 8);

  // Soft background blobs.
  let blobs = "";
  for (let i = 0; i < 3; i++) {
    const bx = i === 0 ? ix + r.range(-120, 120) : r.range(-100, W + 100);
    const by = i === 0 ? iy + r.range(-80, 80) : r.range(-100, H + 100);
    const fill = [p.a, p.b, INK][i];
    const op = [0.28, 0.22, 0.1][i];
    blobs += `<path d="${blobPath(r, bx, by, r.range(170, 300), 7, 0.3)}" fill="${fill}" opacity="${op}" filter="url(#soft)"/>`;
  }
  // Two crisp shapes for structure.
  const crisp = [
    `<path d="${blobPath(r, r.range(60, 260), r.range(H - 120, H + 40), r.range(140, 220), 6, 0.22)}" fill="${p.to}" opacity=".55"/>`,
    r.chance(0.5)
      ? `<circle cx="${f1(r.range(W - 260, W - 60))}" cy="${f1(r.range(-40, 140))}" r="${f1(r.range(90, 170))}" fill="${p.from}" opacity=".3"/>`
      : `<circle cx="${f1(r.range(W - 260, W - 60))}" cy="${f1(r.range(-40, 140))}" r="${f1(r.range(90, 150))}" fill="none" stroke="${p.b}" stroke-width="18" opacity=".3"/>`,
  ].join("");

  // One texture layer.
  const pattern = r.pick(["dots", "grid", "waves", "rings", "diagonals"]);
  let texture = "";
  if (pattern === "dots") {
    texture = `<defs><pattern id="pt" width="28" height="28" patternUnits="userSpaceOnUse"><circle cx="4" cy="4" r="2.2" fill="${INK}" opacity=".5"/></pattern></defs>
      <rect width="${W}" height="${H}" fill="url(#pt)" mask="url(#fade)"/>`;
  } else if (pattern === "grid") {
    texture = `<defs><pattern id="pt" width="56" height="56" patternUnits="userSpaceOnUse"><path d="M56 0 H0 V56" fill="none" stroke="${INK}" stroke-width="1.2" opacity=".4"/></pattern></defs>
      <rect width="${W}" height="${H}" fill="url(#pt)" mask="url(#fade)"/>`;
  } else if (pattern === "waves") {
    const y0 = r.range(380, 520);
    const amp = r.range(18, 34);
    const freq = r.range(0.006, 0.011);
    const phase = r.range(0, 6.28);
    let d = "";
    for (let k = 0; k < 7; k++) {
      for (let x = -40; x <= W + 40; x += 20) {
        const y = y0 + k * 22 + amp * Math.sin(x * freq + phase + k * 0.35);
        d += `${x === -40 ? "M" : "L"}${x} ${f1(y)} `;
      }
    }
    texture = `<path d="${d}" fill="none" stroke="${INK}" stroke-width="2" opacity=".28"/>`;
  } else if (pattern === "rings") {
    let rings = "";
    for (let k = 0; k < 7; k++)
      rings += `<circle cx="${f1(ix)}" cy="${f1(iy)}" r="${250 + k * 52}" fill="none" stroke="${INK}" stroke-width="1.6" opacity="${f1(0.34 - k * 0.04)}"/>`;
    texture = rings;
  } else {
    texture = `<defs><pattern id="pt" width="26" height="26" patternUnits="userSpaceOnUse" patternTransform="rotate(${r.pick([35, -35, 55])})"><path d="M0 0 V26" stroke="${INK}" stroke-width="2" opacity=".28"/></pattern></defs>
      <rect width="${W}" height="${H}" fill="url(#pt)" mask="url(#fade)"/>`;
  }

  // Halo behind the pictogram.
  const halo = `<circle cx="${f1(ix)}" cy="${f1(iy)}" r="${f1(iconSize * 0.66)}" fill="${INK}" opacity=".13"/>
    <circle cx="${f1(ix)}" cy="${f1(iy)}" r="${f1(iconSize * 0.8)}" fill="none" stroke="${INK}" stroke-width="2" opacity=".35" stroke-dasharray="${r.pick(["2 10", "1 0", "14 10"])}"/>`;

  // Confetti kept clear of the pictogram and of the label.
  let confetti = "";
  let placed = 0;
  for (let tries = 0; tries < 200 && placed < 9; tries++) {
    const x = r.range(40, W - 40);
    const y = r.range(40, H - 40);
    if (Math.hypot(x - ix, y - iy) < iconSize * 0.9) continue;
    if (x < 380 && y < 130) continue;
    const c = r.pick([p.a, p.b, INK]);
    const kind = r.pick(["dot", "ring", "plus", "tri", "squiggle", "star"]);
    const s = r.range(8, 18);
    if (kind === "dot") confetti += `<circle cx="${f1(x)}" cy="${f1(y)}" r="${f1(s * 0.6)}" fill="${c}"/>`;
    else if (kind === "ring")
      confetti += `<circle cx="${f1(x)}" cy="${f1(y)}" r="${f1(s)}" fill="none" stroke="${c}" stroke-width="4"/>`;
    else if (kind === "plus")
      confetti += `<path d="M${f1(x - s)} ${f1(y)} H${f1(x + s)} M${f1(x)} ${f1(y - s)} V${f1(y + s)}" ${line(c, 5)}/>`;
    else if (kind === "tri")
      confetti += `<path d="M${f1(x)} ${f1(y - s)} L${f1(x + s)} ${f1(y + s * 0.8)} L${f1(x - s)} ${f1(y + s * 0.8)} Z" fill="none" stroke="${c}" stroke-width="4" stroke-linejoin="round" transform="rotate(${r.int(0, 90)} ${f1(x)} ${f1(y)})"/>`;
    else if (kind === "star") confetti += `<path d="${star4(f1(x), f1(y), f1(s * 1.1))}" fill="${c}"/>`;
    else
      confetti += `<path d="M${f1(x - 2 * s)} ${f1(y)} q${f1(s / 2)} ${f1(-s)} ${f1(s)} 0 t${f1(s)} 0 t${f1(s)} 0 t${f1(s)} 0" ${line(c, 4)}/>`;
    placed++;
  }

  const icon = ICONS[iconName]({ ...colours });
  const glowX = f1((ix / W) * 100);
  const glowY = f1((iy / H) * 100);

  return `<!doctype html><html><head><meta charset="utf-8"><style>
    html,body{margin:0;padding:0}
    body{width:${W}px;height:${H}px;overflow:hidden;position:relative;font-family:${FONT};
      background:
        radial-gradient(circle at ${glowX}% ${glowY}%, ${rgba(p.a, 0.35)} 0, ${rgba(p.a, 0)} 42%),
        linear-gradient(${angle}deg, ${p.from} 0%, ${shade(p.from, 0.12)} 35%, ${p.to} 100%);}
    svg.layer{position:absolute;inset:0}
    .vignette{position:absolute;inset:0;background:radial-gradient(ellipse at 50% 45%, rgba(0,0,0,0) 55%, rgba(0,0,0,.28) 100%)}
    .icon{position:absolute;left:${f1(ix - iconSize / 2)}px;top:${f1(iy - iconSize / 2)}px;width:${f1(iconSize)}px;height:${f1(iconSize)}px;
      transform:rotate(${f1(tilt)}deg);filter:drop-shadow(0 18px 26px rgba(0,0,0,.28))}
    .label{position:absolute;left:48px;top:44px;display:flex;align-items:center;gap:12px;padding:10px 20px 10px 16px;border-radius:999px;
      background:rgba(255,255,255,.14);border:1.5px solid rgba(255,255,255,.38);color:#fff;font-size:19px;font-weight:700;letter-spacing:.2em;text-transform:uppercase}
    .label i{width:12px;height:12px;border-radius:50%;background:${p.a};display:block}
  </style></head><body>
    <svg class="layer" width="${W}" height="${H}" viewBox="0 0 ${W} ${H}">
      <defs>
        <filter id="soft" x="-50%" y="-50%" width="200%" height="200%"><feGaussianBlur stdDeviation="38"/></filter>
        <radialGradient id="fadeg" cx="${f1(r.range(0.2, 0.8))}" cy="${f1(r.range(0.3, 0.7))}" r="0.65"><stop offset="0" stop-color="#fff"/><stop offset="1" stop-color="#000"/></radialGradient>
        <mask id="fade"><rect width="${W}" height="${H}" fill="url(#fadeg)"/></mask>
      </defs>
      ${blobs}${crisp}${texture}${halo}${confetti}
    </svg>
    <div class="vignette"></div>
    <svg class="icon" viewBox="0 0 240 240">${icon}</svg>
    <div class="label"><i></i>${blog.category}</div>
  </body></html>`;
}

// ---------------------------------------------------------------------------------------------
// Portraits

const SKIN = ["#fbe0cf", "#f3c9a8", "#e6b08a", "#c98e62", "#a86b43", "#7a4a2c", "#5a3520"];
const HAIR = {
  black: "#1d1a1c",
  darkbrown: "#3a2419",
  brown: "#6b4226",
  auburn: "#8e3b1e",
  blonde: "#d9ac57",
  grey: "#a3a3a8",
};
const BACKGROUNDS = [
  "#fde2e4",
  "#e2ece9",
  "#dbeafe",
  "#fef3c7",
  "#ede9fe",
  "#dcfce7",
  "#ffedd5",
  "#e0f2fe",
  "#fce7f3",
  "#ecfccb",
];
const SHIRTS = [
  "#1e3a8a",
  "#0f766e",
  "#7c3aed",
  "#be123c",
  "#334155",
  "#ea580c",
  "#0369a1",
  "#15803d",
  "#a16207",
  "#db2777",
  "#1f2937",
];

/** Hints for the fictional seed people, so portraits fit their names; unknown names fall back to the hash. */
const PEOPLE = {
  elena: { p: "f", skin: [0, 2], hair: ["brown", "auburn", "darkbrown"] },
  jordan: { p: "m", skin: [2, 4], hair: ["black", "darkbrown"] },
  maya: { p: "f", skin: [4, 6], hair: ["black", "darkbrown"] },
  tomas: { p: "m", skin: [0, 1], hair: ["blonde", "brown"] },
  priya: { p: "f", skin: [3, 5], hair: ["black", "darkbrown"] },
  daniel: { p: "m", skin: [0, 2], hair: ["brown", "grey", "darkbrown"] },
  amara: { p: "f", skin: [5, 6], hair: ["black"] },
  lukas: { p: "m", skin: [0, 1], hair: ["blonde", "brown"] },
  sofia: { p: "f", skin: [1, 3], hair: ["darkbrown", "black"] },
  kenji: { p: "m", skin: [1, 2], hair: ["black"] },
  hannah: { p: "f", skin: [0, 1], hair: ["auburn", "blonde", "brown"] },
  olivia: { p: "f", skin: [0, 2], hair: ["blonde", "brown"] },
  marcus: { p: "m", skin: [4, 6], hair: ["black"] },
  aisha: { p: "f", skin: [3, 5], hair: ["black", "darkbrown"] },
  ben: { p: "m", skin: [0, 1], hair: ["brown", "auburn", "blonde"] },
  chloe: { p: "f", skin: [0, 1], hair: ["brown", "blonde", "auburn"] },
  rafael: { p: "m", skin: [2, 3], hair: ["darkbrown", "black"] },
  nina: { p: "f", skin: [0, 1], hair: ["blonde", "brown"] },
};

/** `slot` spreads shirt and background colours across the people of one content file. */
function portraitHtml(name, slot = 0) {
  const r = rng(`portrait:${name}`);
  const first = name.trim().split(/\s+/)[0].toLowerCase();
  const hint = PEOPLE[first] ?? {};
  const presentation = hint.p ?? r.pick(["f", "m", "n"]);
  const skin = SKIN[hint.skin ? r.int(hint.skin[0], hint.skin[1]) : r.int(0, SKIN.length - 1)];
  const skinShade = shade(skin, -0.14);
  const hairName = hint.hair ? r.pick(hint.hair) : r.pick(Object.keys(HAIR));
  const hair = HAIR[hairName];
  const hairHi = shade(hair, 0.18);
  const bg = BACKGROUNDS[(slot * 3 + (hash32(name) % 2)) % BACKGROUNDS.length];
  let shirt = SHIRTS[(slot * 4) % SHIRTS.length];
  const styles =
    presentation === "f"
      ? ["long", "bob", "bun", "curlylong", "long"]
      : presentation === "m"
        ? ["short", "sidepart", "buzz", "curly", "short"]
        : ["short", "bob", "curly", "sidepart"];
  const style = styles[(slot + (hash32(name) % 3)) % styles.length];
  const beard =
    presentation === "m" && r.chance(0.35) && style !== "buzz"
      ? r.pick(["full", "stubble"])
      : presentation === "m" && style === "buzz" && r.chance(0.5)
        ? "full"
        : null;
  const glasses = r.chance(0.25);
  const neckline = r.pick(["crew", "vneck", "collar", "crew"]);
  const earrings = presentation === "f" && r.chance(0.45);
  const deco = r.pick(["circle", "arc", "dots", "blob"]);
  const smile = r.pick(["smile", "grin", "soft"]);
  const headRy = presentation === "f" ? 80 : 82;
  const headRx = presentation === "f" ? 66 : 70;

  const cx = 200;
  const cy = 182;
  const top = cy - headRy;
  const decoColor = shade(bg, -0.1);
  let decoration = "";
  if (deco === "circle")
    decoration = `<circle cx="${r.int(120, 280)}" cy="${r.int(150, 210)}" r="150" fill="${decoColor}"/>`;
  else if (deco === "arc")
    decoration = `<circle cx="200" cy="200" r="168" fill="none" stroke="${decoColor}" stroke-width="26"/>`;
  else if (deco === "dots") {
    let d = "";
    for (let y = 30; y < 400; y += 26)
      for (let x = 30; x < 400; x += 26) d += `<circle cx="${x}" cy="${y}" r="3" fill="${decoColor}"/>`;
    decoration = d;
  } else decoration = `<path d="${blobPath(r, 200, 190, 165, 7, 0.18)}" fill="${decoColor}"/>`;

  // Hair behind the head (long styles).
  let backHair = "";
  if (style === "long")
    backHair = `<path d="M${cx} ${top - 8} C${cx - 96} ${top - 8} ${cx - 104} ${cy - 10} ${cx - 98} ${cy + 70} C${cx - 94} ${cy + 130} ${cx - 86} ${cy + 150} ${cx - 62} ${cy + 156} L${cx + 62} ${cy + 156} C${cx + 86} ${cy + 150} ${cx + 94} ${cy + 130} ${cx + 98} ${cy + 70} C${cx + 104} ${cy - 10} ${cx + 96} ${top - 8} ${cx} ${top - 8} Z" fill="${hair}"/>`;
  else if (style === "curlylong") {
    let c = `<ellipse cx="${cx}" cy="${cy + 20}" rx="108" ry="120" fill="${hair}"/>`;
    for (let i = 0; i < 16; i++) {
      const a = Math.PI * 0.95 + (i / 15) * Math.PI * 1.1 - Math.PI * 0.5;
      c += `<circle cx="${f1(cx + Math.cos(a) * 102)}" cy="${f1(cy + 20 + Math.sin(a) * 112)}" r="${r.int(22, 30)}" fill="${hair}"/>`;
    }
    backHair = c;
  } else if (style === "bob")
    backHair = `<path d="M${cx} ${top - 10} C${cx - 104} ${top - 10} ${cx - 104} ${cy + 10} ${cx - 96} ${cy + 56} C${cx - 92} ${cy + 82} ${cx - 70} ${cy + 86} ${cx - 52} ${cy + 78} L${cx + 52} ${cy + 78} C${cx + 70} ${cy + 86} ${cx + 92} ${cy + 82} ${cx + 96} ${cy + 56} C${cx + 104} ${cy + 10} ${cx + 104} ${top - 10} ${cx} ${top - 10} Z" fill="${hair}"/>`;
  else if (style === "curly") {
    let c = "";
    for (let i = 0; i < 11; i++) {
      const a = Math.PI + (i / 10) * Math.PI;
      c += `<circle cx="${f1(cx + Math.cos(a) * 72)}" cy="${f1(cy - 18 + Math.sin(a) * 80)}" r="${r.int(26, 32)}" fill="${hair}"/>`;
    }
    backHair = c;
  } else if (style === "bun") backHair = `<circle cx="${cx + r.int(-8, 8)}" cy="${top - 14}" r="36" fill="${hair}"/>`;

  // Hair on top of the head.
  let frontHair = "";
  if (style === "short")
    frontHair = `<path d="M${cx - 72} ${cy + 4} C${cx - 82} ${top + 10} ${cx - 40} ${top - 14} ${cx + 6} ${top - 12} C${cx + 56} ${top - 10} ${cx + 82} ${top + 18} ${cx + 72} ${cy + 4} C${cx + 66} ${cy - 34} ${cx + 52} ${top + 38} ${cx + 18} ${top + 34} C${cx - 12} ${top + 46} ${cx - 50} ${top + 40} ${cx - 72} ${cy + 4} Z" fill="${hair}"/>`;
  else if (style === "sidepart")
    frontHair = `<path d="M${cx - 72} ${cy + 6} C${cx - 84} ${top + 6} ${cx - 36} ${top - 18} ${cx + 14} ${top - 14} C${cx + 64} ${top - 10} ${cx + 84} ${top + 24} ${cx + 72} ${cy + 6} C${cx + 70} ${cy - 40} ${cx + 50} ${top + 30} ${cx - 20} ${top + 28} C${cx - 46} ${top + 40} ${cx - 64} ${top + 60} ${cx - 72} ${cy + 6} Z" fill="${hair}"/>
      <path d="M${cx - 20} ${top + 24} C${cx + 10} ${top + 4} ${cx + 40} ${top + 2} ${cx + 60} ${top + 22}" ${line(hairHi, 5, 'opacity=".6"')}/>`;
  else if (style === "buzz")
    frontHair = `<path d="M${cx - 70} ${cy - 6} C${cx - 74} ${top + 10} ${cx - 36} ${top - 4} ${cx} ${top - 4} C${cx + 36} ${top - 4} ${cx + 74} ${top + 10} ${cx + 70} ${cy - 6} C${cx + 60} ${top + 40} ${cx + 30} ${top + 26} ${cx} ${top + 26} C${cx - 30} ${top + 26} ${cx - 60} ${top + 40} ${cx - 70} ${cy - 6} Z" fill="${hair}" opacity=".88"/>`;
  else if (style === "curly") {
    let c = "";
    for (let i = 0; i < 7; i++) {
      const x = cx - 54 + i * 18;
      c += `<circle cx="${x}" cy="${top + 16 + (i % 2) * 8}" r="18" fill="${hair}"/>`;
    }
    frontHair = c;
  } else if (style === "long" || style === "curlylong")
    frontHair = `<path d="M${cx - 70} ${cy + 20} C${cx - 80} ${top + 8} ${cx - 36} ${top - 16} ${cx + 8} ${top - 14} C${cx + 60} ${top - 12} ${cx + 82} ${top + 28} ${cx + 70} ${cy + 30} C${cx + 60} ${cy - 30} ${cx + 30} ${top + 30} ${cx - 4} ${top + 22} C${cx - 30} ${top + 50} ${cx - 58} ${top + 70} ${cx - 70} ${cy + 20} Z" fill="${hair}"/>`;
  else if (style === "bob")
    frontHair = `<path d="M${cx - 70} ${cy + 30} C${cx - 82} ${top + 4} ${cx - 30} ${top - 16} ${cx + 6} ${top - 14} C${cx + 56} ${top - 12} ${cx + 84} ${top + 20} ${cx + 70} ${cy + 30} C${cx + 62} ${cy - 10} ${cx + 50} ${top + 40} ${cx + 30} ${top + 36} C${cx} ${top + 44} ${cx - 40} ${top + 40} ${cx - 56} ${top + 54} C${cx - 64} ${top + 70} ${cx - 66} ${cy} ${cx - 70} ${cy + 30} Z" fill="${hair}"/>`;
  else if (style === "bun")
    frontHair = `<path d="M${cx - 70} ${cy} C${cx - 78} ${top + 6} ${cx - 36} ${top - 12} ${cx} ${top - 12} C${cx + 36} ${top - 12} ${cx + 78} ${top + 6} ${cx + 70} ${cy} C${cx + 62} ${top + 44} ${cx + 34} ${top + 24} ${cx} ${top + 26} C${cx - 34} ${top + 24} ${cx - 62} ${top + 44} ${cx - 70} ${cy} Z" fill="${hair}"/>
      <path d="M${cx - 40} ${top + 8} C${cx - 14} ${top - 4} ${cx + 14} ${top - 4} ${cx + 40} ${top + 8}" ${line(hairHi, 4, 'opacity=".5"')}/>`;

  // Body and clothes.
  if (Math.abs(hexToRgb(shirt)[0] - hexToRgb(bg)[0]) < 10) shirt = shade(shirt, -0.2);
  const shoulders = `<path d="M44 400 C44 330 96 292 160 284 L240 284 C304 292 356 330 356 400 Z" fill="${shirt}"/>`;
  const neck = `<path d="M${cx - 28} ${cy + 50} L${cx - 28} ${cy + 104} Q${cx} ${cy + 124} ${cx + 28} ${cy + 104} L${cx + 28} ${cy + 50} Z" fill="${skinShade}"/>`;
  let collar = "";
  if (neckline === "crew")
    collar = `<path d="M${cx - 44} 286 Q${cx} 326 ${cx + 44} 286" ${line(shade(shirt, -0.25), 9)}/>`;
  else if (neckline === "vneck")
    collar = `<path d="M${cx - 40} 284 L${cx} 338 L${cx + 40} 284 Z" fill="${skinShade}"/><path d="M${cx - 42} 284 L${cx} 340 L${cx + 42} 284" ${line(shade(shirt, -0.25), 7)}/>`;
  else
    collar = `<path d="M${cx - 30} 284 L${cx} 316 L${cx + 30} 284 Z" fill="${skinShade}"/><path d="M${cx - 50} 280 L${cx - 6} 320 L${cx - 30} 344 L${cx - 56} 292 Z M${cx + 50} 280 L${cx + 6} 320 L${cx + 30} 344 L${cx + 56} 292 Z" fill="#f8fafc"/>`;
  const longFront =
    style === "long"
      ? `<path d="M${cx - 98} ${cy + 60} C${cx - 96} ${cy + 110} ${cx - 88} ${cy + 140} ${cx - 60} ${cy + 160} L${cx - 50} ${cy + 100} Z M${cx + 98} ${cy + 60} C${cx + 96} ${cy + 110} ${cx + 88} ${cy + 140} ${cx + 60} ${cy + 160} L${cx + 50} ${cy + 100} Z" fill="${hair}"/>`
      : "";

  // Face.
  const ears = `<ellipse cx="${cx - headRx + 2}" cy="${cy + 8}" rx="13" ry="19" fill="${skinShade}"/><ellipse cx="${cx + headRx - 2}" cy="${cy + 8}" rx="13" ry="19" fill="${skinShade}"/>`;
  const earringMarkup = earrings
    ? `<circle cx="${cx - headRx + 2}" cy="${cy + 30}" r="6" fill="${r.pick(["#facc15", "#e5e7eb", "#f472b6"])}"/><circle cx="${cx + headRx - 2}" cy="${cy + 30}" r="6" fill="#facc15"/>`
    : "";
  const head = `<ellipse cx="${cx}" cy="${cy}" rx="${headRx}" ry="${headRy}" fill="${skin}"/>`;
  const eyeY = cy + 6;
  const eyeDX = 25;
  const eyes = `<ellipse cx="${cx - eyeDX}" cy="${eyeY}" rx="6.5" ry="7.5" fill="#241c1a"/><ellipse cx="${cx + eyeDX}" cy="${eyeY}" rx="6.5" ry="7.5" fill="#241c1a"/>
    <circle cx="${cx - eyeDX + 2}" cy="${eyeY - 3}" r="2" fill="#fff"/><circle cx="${cx + eyeDX + 2}" cy="${eyeY - 3}" r="2" fill="#fff"/>`;
  const browLift = r.range(-3, 2);
  const brows = `<path d="M${cx - eyeDX - 14} ${eyeY - 18 + browLift} Q${cx - eyeDX} ${eyeY - 26 + browLift} ${cx - eyeDX + 13} ${eyeY - 19}" ${line(shade(hair, -0.1), presentation === "f" ? 4.5 : 6.5)}/>
    <path d="M${cx + eyeDX - 13} ${eyeY - 19} Q${cx + eyeDX} ${eyeY - 26 + browLift} ${cx + eyeDX + 14} ${eyeY - 18 + browLift}" ${line(shade(hair, -0.1), presentation === "f" ? 4.5 : 6.5)}/>`;
  const nose = `<path d="M${cx + 1} ${eyeY + 10} Q${cx - 7} ${eyeY + 30} ${cx + 4} ${eyeY + 32}" ${line(shade(skin, -0.25), 4)}/>`;
  const mouthY = eyeY + 48;
  const lip = presentation === "f" ? "#b4505a" : shade(skin, -0.45);
  let mouth = "";
  if (smile === "grin")
    mouth = `<path d="M${cx - 20} ${mouthY - 3} Q${cx} ${mouthY + 22} ${cx + 20} ${mouthY - 3} Z" fill="#7f2d36"/><path d="M${cx - 15} ${mouthY - 1} Q${cx} ${mouthY + 4} ${cx + 15} ${mouthY - 1}" ${line("#fff", 4)}/>`;
  else if (smile === "soft")
    mouth = `<path d="M${cx - 14} ${mouthY} Q${cx} ${mouthY + 9} ${cx + 14} ${mouthY}" ${line(lip, 5)}/>`;
  else mouth = `<path d="M${cx - 19} ${mouthY - 2} Q${cx} ${mouthY + 14} ${cx + 19} ${mouthY - 2}" ${line(lip, 5)}/>`;
  const cheeks = `<ellipse cx="${cx - 40}" cy="${eyeY + 30}" rx="12" ry="7" fill="#f43f5e" opacity=".16"/><ellipse cx="${cx + 40}" cy="${eyeY + 30}" rx="12" ry="7" fill="#f43f5e" opacity=".16"/>`;
  let beardMarkup = "";
  if (beard === "full")
    beardMarkup = `<path d="M${cx - headRx + 4} ${cy + 8} C${cx - headRx + 6} ${cy + 74} ${cx - 30} ${cy + headRy + 14} ${cx} ${cy + headRy + 14} C${cx + 30} ${cy + headRy + 14} ${cx + headRx - 6} ${cy + 74} ${cx + headRx - 4} ${cy + 8} C${cx + 50} ${cy + 44} ${cx + 30} ${mouthY - 14} ${cx} ${mouthY - 14} C${cx - 30} ${mouthY - 14} ${cx - 50} ${cy + 44} ${cx - headRx + 4} ${cy + 8} Z" fill="${hair}"/>
      <path d="M${cx - 16} ${mouthY + 2} Q${cx} ${mouthY + 10} ${cx + 16} ${mouthY + 2}" ${line(shade(skin, -0.35), 4.5)}/>`;
  else if (beard === "stubble")
    beardMarkup = `<path d="M${cx - headRx + 6} ${cy + 20} C${cx - headRx + 10} ${cy + 70} ${cx - 30} ${cy + headRy + 2} ${cx} ${cy + headRy + 2} C${cx + 30} ${cy + headRy + 2} ${cx + headRx - 10} ${cy + 70} ${cx + headRx - 6} ${cy + 20} C${cx + 40} ${cy + 56} ${cx - 40} ${cy + 56} ${cx - headRx + 6} ${cy + 20} Z" fill="${hair}" opacity=".28"/>`;
  const darkSkin = SKIN.indexOf(skin) >= 4;
  const glassesColor = darkSkin ? r.pick(["#e5c07b", "#e5e7eb"]) : r.pick(["#1f2937", "#7c2d12", "#1e3a8a"]);
  const glassesMarkup = glasses
    ? `<rect x="${cx - eyeDX - 21}" y="${eyeY - 16}" width="42" height="32" rx="12" fill="#fff" fill-opacity=".12" stroke="${glassesColor}" stroke-width="4.5"/>
       <rect x="${cx + eyeDX - 21}" y="${eyeY - 16}" width="42" height="32" rx="12" fill="#fff" fill-opacity=".12" stroke="${glassesColor}" stroke-width="4.5"/>
       <path d="M${cx - 4} ${eyeY - 4} Q${cx} ${eyeY - 9} ${cx + 4} ${eyeY - 4}" ${line(glassesColor, 4)}/>`
    : "";

  return `<!doctype html><html><head><meta charset="utf-8"><style>html,body{margin:0;padding:0}body{width:400px;height:400px;overflow:hidden;
    background:radial-gradient(circle at 30% 20%, ${shade(bg, 0.45)} 0, ${bg} 60%, ${shade(bg, -0.04)} 100%)}svg{display:block}</style></head><body>
    <svg width="400" height="400" viewBox="0 0 400 400">
      ${decoration}<g transform="translate(200 230) scale(1.14) translate(-200 -230)">${backHair}${shoulders}${neck}${collar}${longFront}${ears}${earringMarkup}${head}${cheeks}${beardMarkup}${eyes}${brows}${nose}${mouth}${glassesMarkup}${frontHair}</g>
    </svg></body></html>`;
}

// ---------------------------------------------------------------------------------------------

const content = JSON.parse(await readFile(path.join(root, "seed", "content.json"), "utf8"));
const jobs = [];
const icons = assignIcons(content.blogs);
for (const blog of content.blogs)
  jobs.push({ file: blog.image, width: 1200, height: 675, html: () => coverHtml(blog, icons.get(blog)) });
const people = [
  ...content.users.map((u) => [u.photo, u.name]),
  ...content.authors.map((a) => [a.img, a.name]),
  ...content.reviews.map((rv) => [rv.image, rv.name]),
];
people.forEach(([file, name], slot) =>
  jobs.push({ file, width: 400, height: 400, html: () => portraitHtml(name, slot) }),
);

const seen = new Set();
for (const job of jobs) {
  if (!FILE_RE.test(job.file)) throw new Error(`Bad image file name: ${job.file}`);
  if (seen.has(job.file)) throw new Error(`Image file named twice: ${job.file}`);
  seen.add(job.file);
}

await mkdir(outDir, { recursive: true });
const browser = await chromium.launch({
  executablePath: "/usr/bin/chromium",
  args: CHROMIUM_FLAGS,
});
let written = 0;
let unchanged = 0;
try {
  const page = await browser.newPage({ deviceScaleFactor: 1 });
  for (const job of jobs) {
    if (only && !job.file.includes(only)) continue;
    await page.setViewportSize({ width: job.width, height: job.height });
    await page.setContent(job.html(), { waitUntil: "load" });
    const bytes = await page.screenshot({
      type: "jpeg",
      quality: job.width > 400 ? 78 : 80,
      clip: { x: 0, y: 0, width: job.width, height: job.height },
    });
    const target = path.join(outDir, job.file);
    const before = await readFile(target).catch(() => null);
    if (before && Buffer.compare(before, bytes) === 0) {
      unchanged++;
      continue;
    }
    await writeFile(target, bytes);
    written++;
    console.log(`${job.file}  ${(bytes.length / 1024).toFixed(1)} KB`);
  }
} finally {
  await browser.close();
}
console.log(`Seed images: ${written} written, ${unchanged} unchanged (${outDir}).`);
