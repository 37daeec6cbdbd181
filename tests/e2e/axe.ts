import { expect, type Page } from "@playwright/test";
import { readFileSync } from "node:fs";
import path from "node:path";

type Violation = {
  id: string;
  impact: string | null;
  help: string;
  nodes: {
    target: unknown[];
    any: { data?: { messageKey?: string; contrastRatio?: number; expectedContrastRatio?: string } | null }[];
  }[];
};

/**
 * Waits for the page's running CSS transitions and animations to end: a colour measured half-way through
 * a button's transition is neither the colour before nor the one after, and made contrast pass or fail by timing.
 */
async function settled(page: Page) {
  await page.evaluate(() =>
    Promise.all(
      document
        .getAnimations()
        .filter((a) => a.effect?.getTiming().iterations !== Infinity)
        .map((a) => a.finished.catch(() => undefined)),
    ),
  );
}

/**
 * Runs axe-core on the page as it is now and fails on any serious or critical violation
 * (the list is in the failure message, so it says what to fix). `shortTexts`: also judge the contrast of texts of
 * a character or two, which axe measures but leaves undecided.
 */
export async function expectNoSeriousA11yViolations(page: Page, options: { shortTexts?: boolean } = {}) {
  await settled(page);
  // Evaluated through DevTools rather than as a <script> tag: the page's CSP (rightly) refuses inline scripts.
  await page.evaluate(readFileSync(path.resolve("node_modules/axe-core/axe.min.js"), "utf8"));
  const violations = await page.evaluate(async (shortTexts) => {
    type Result = { violations: Violation[]; incomplete: Violation[] };
    const result = await (window as unknown as { axe: { run: () => Promise<Result> } }).axe.run();
    // axe leaves a contrast it measured as "incomplete" when the text is a character or two ("Comment 12"'s count):
    // a number a reader must read is text, so with `shortTexts` a measured ratio under the threshold counts as a
    // violation. Opt-in: on gradients and in scroll boxes axe's measurement of such texts is not sound.
    const tooShortToJudge = (shortTexts ? result.incomplete : [])
      .filter((v) => v.id === "color-contrast")
      .map((v) => ({
        ...v,
        impact: "serious",
        nodes: v.nodes.filter((n) =>
          n.any.some(
            (a) =>
              a.data?.messageKey === "shortTextContent" &&
              (a.data.contrastRatio ?? 99) < parseFloat(a.data.expectedContrastRatio ?? "0"),
          ),
        ),
      }))
      .filter((v) => v.nodes.length > 0);
    return [...result.violations, ...tooShortToJudge].map((v) => ({
      id: v.id,
      impact: v.impact,
      help: v.help,
      nodes: v.nodes.map((n) => n.target),
    }));
  }, options.shortTexts ?? false);
  const serious = violations.filter((v) => v.impact === "serious" || v.impact === "critical");
  expect(serious, JSON.stringify(serious, null, 2)).toEqual([]);
}

/**
 * Runs axe-core's colour-contrast rule alone (WCAG 1.4.3: 4.5:1 for text, 3:1 for large text) and answers
 * every failing element with its colours and ratio, so a failure message says what to fix.
 */
export async function contrastFailures(page: Page) {
  await settled(page);
  await page.evaluate(readFileSync(path.resolve("node_modules/axe-core/axe.min.js"), "utf8"));
  const failures = await page.evaluate(async () => {
    type Node = { target: unknown[]; any: { data?: { fgColor?: string; bgColor?: string; contrastRatio?: number } }[] };
    const axe = (
      window as unknown as {
        axe: { run: (ctx: unknown, opts: unknown) => Promise<{ violations: { nodes: Node[] }[] }> };
      }
    ).axe;
    const result = await axe.run(document, { runOnly: { type: "rule", values: ["color-contrast"] } });
    return result.violations.flatMap((v) =>
      v.nodes.map((n) => ({
        target: n.target.join(" "),
        fg: n.any[0]?.data?.fgColor,
        bg: n.any[0]?.data?.bgColor,
        ratio: n.any[0]?.data?.contrastRatio,
      })),
    );
  });
  return failures.map((f) => ({ page: new URL(page.url()).pathname, ...f }));
}

/**
 * The "Choose File" button of every visible file picker on the page (axe does not look into
 * ::file-selector-button): its colours and WCAG contrast ratio; a see-through button is read against the page.
 */
export async function fileButtonContrast(page: Page) {
  return page.evaluate(() => {
    // The browser itself turns any CSS colour (oklch, hex, rgba) into sRGB bytes.
    const ctx = document.createElement("canvas").getContext("2d", { willReadFrequently: true })!;
    const rgba = (css: string) => {
      ctx.clearRect(0, 0, 1, 1);
      ctx.fillStyle = css;
      ctx.fillRect(0, 0, 1, 1);
      return [...ctx.getImageData(0, 0, 1, 1).data];
    };
    const lum = ([r, g, b]: number[]) =>
      [r!, g!, b!]
        .map((v) => v / 255)
        .map((c) => (c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4))
        .reduce((sum, c, i) => sum + c * [0.2126, 0.7152, 0.0722][i]!, 0);
    return [...document.querySelectorAll<HTMLInputElement>('input[type="file"]')]
      .filter((input) => input.offsetParent !== null)
      .map((input) => {
        const style = getComputedStyle(input, "::file-selector-button");
        let bg = rgba(style.backgroundColor);
        if (bg[3] === 0) bg = rgba(getComputedStyle(document.body).backgroundColor);
        const [hi, lo] = [lum(rgba(style.color)), lum(bg)].sort((a, b) => b - a);
        const ratio = Math.round(((hi! + 0.05) / (lo! + 0.05)) * 100) / 100;
        return { name: input.name, fg: style.color, bg: style.backgroundColor, ratio };
      });
  });
}
