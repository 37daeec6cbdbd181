import { escapeHtml } from "#worker/content/escape.ts";
/**
 * Line breaking for the share card. resvg shapes and orders each line (bidi, Arabic joining); what it
 * cannot do is wrap, so lines are broken here, in logical order, with widths from the card's own fonts.
 */
export type Measure = (text: string) => number;

const ELLIPSIS = "\u2026";

/** Characters set without spaces between them, where a line may break between any two. */
const CLOSE_SET =
  "[\\p{Script=Han}\\p{Script=Hiragana}\\p{Script=Katakana}\\p{Script=Hangul}\\u3000-\\u303f\\uff00-\\uffef]";
/** Break units: a run of spaces; one close-set character with the punctuation that may not start a line; any other word. */
const UNITS = new RegExp(`\\s+|[\\p{Ps}\\p{Pi}]*${CLOSE_SET}[\\p{Pe}\\p{Pf}\\p{Po}]*|(?:(?!${CLOSE_SET})\\S)+`, "gu");

/** NFC (so "e" + combining acute is the one glyph "é"), control characters dropped, spaces collapsed. */
export function tidy(text: string): string {
  return (
    text
      .normalize("NFC")
      .replace(/\s+/gu, " ")
      // Joiners stay: Persian and Arabic words need them.
      .replace(/(?![\u200c\u200d])[\p{Cc}\p{Cf}]/gu, "")
      // Emoji are drawn in a monochrome face: the text/emoji presentation selectors only cost width.
      .replace(/[\ufe0e\ufe0f]/gu, "")
      .trim()
  );
}

/** Right to left when the first letter is Arabic or Hebrew (what `dir="auto"` does in a browser). */
export function isRtl(text: string): boolean {
  const first = /\p{L}/u.exec(text)?.[0] ?? "";
  return /[\p{Script=Arabic}\p{Script=Hebrew}]/u.test(first);
}

/** Shortens `text` until it, with an ellipsis, fits `max`. */
export function ellipsize(text: string, measure: Measure, max: number): string {
  if (measure(text) <= max) return text;
  const chars = [...text];
  while (chars.length && measure(`${chars.join("").trimEnd()}${ELLIPSIS}`) > max) chars.pop();
  return `${chars.join("").trimEnd()}${ELLIPSIS}`;
}

/** Greedy line breaking into at most `maxLines` lines; `cut` says whether text was left out (the last line then ends with "…"). */
export function wrap(text: string, measure: Measure, max: number, maxLines: number): { lines: string[]; cut: boolean } {
  const lines: string[] = [];
  let line = "";
  let space = false;
  const push = () => {
    if (line) lines.push(line);
    line = "";
  };
  const units = text.match(UNITS) ?? [];
  for (const unit of units) {
    if (/^\s/u.test(unit)) {
      space = line !== "";
      continue;
    }
    const next = space ? `${line} ${unit}` : `${line}${unit}`;
    space = false;
    if (measure(next) <= max) {
      line = next;
      continue;
    }
    push();
    // A word longer than a whole line is broken between its letters.
    for (const ch of unit) {
      if (line && measure(line + ch) > max) push();
      line += ch;
    }
  }
  push();
  if (lines.length <= maxLines) return { lines, cut: false };
  const kept = lines.slice(0, maxLines);
  kept[maxLines - 1] = ellipsize(`${kept[maxLines - 1]}${ELLIPSIS}`, measure, max);
  return { lines: kept, cut: true };
}

/** Text as SVG character data. */
export function xml(text: string): string {
  return escapeHtml(text);
}
