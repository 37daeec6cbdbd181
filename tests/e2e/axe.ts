import { expect, type Page } from "@playwright/test";
import { readFileSync } from "node:fs";
import path from "node:path";

type Violation = { id: string; impact: string | null; help: string; nodes: { target: unknown[] }[] };

/**
 * Runs axe-core on the page as it is now and fails on any serious or critical violation
 * (the list is in the failure message, so it says what to fix).
 */
export async function expectNoSeriousA11yViolations(page: Page) {
  // Evaluated through DevTools rather than as a <script> tag: the page's CSP (rightly) refuses inline scripts.
  await page.evaluate(readFileSync(path.resolve("node_modules/axe-core/axe.min.js"), "utf8"));
  const violations = await page.evaluate(async () => {
    const result = await (window as unknown as { axe: { run: () => Promise<{ violations: Violation[] }> } }).axe.run();
    return result.violations.map((v) => ({
      id: v.id,
      impact: v.impact,
      help: v.help,
      nodes: v.nodes.map((n) => n.target),
    }));
  });
  const serious = violations.filter((v) => v.impact === "serious" || v.impact === "critical");
  expect(serious, JSON.stringify(serious, null, 2)).toEqual([]);
}
