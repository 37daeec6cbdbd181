/**
 * The hero's typewriter, without React: the phrases, the timings and the step rule that both the
 * hydrated <TypedHeadline> and the reading pages' island (app/islands/reading.ts) run.
 */

/** The hero's rotating phrases and timings (spec section 9: type speed 50, 1000 ms pause, forever). */
export const HEADLINE_PHRASES = ["share ideas", "express innovation", "learn more earn more"] as const;
export const TYPE_MS = 50;
export const PAUSE_MS = 1000;

export type Step = { index: number; length: number; deleting: boolean };

/** The next state of the typewriter and how long to wait before showing it. */
export function nextStep(step: Step, phrases: readonly string[]): [Step, number] {
  const phrase = phrases[step.index] ?? "";
  if (!step.deleting && step.length >= phrase.length) return [{ ...step, deleting: true }, PAUSE_MS];
  if (step.deleting && step.length <= 0)
    return [{ index: (step.index + 1) % phrases.length, length: 0, deleting: false }, TYPE_MS];
  // Erasing runs at the typing speed, as the typewriter the spec describes does by default.
  return [{ ...step, length: step.length + (step.deleting ? -1 : 1) }, TYPE_MS];
}

/** The typing starts once the page has loaded and the browser is idle (Safari has no requestIdleCallback). */
export function whenIdleAfterLoad(run: () => void): () => void {
  let cancel = () => {};
  const start = () => {
    if (window.requestIdleCallback) {
      const id = window.requestIdleCallback(run, { timeout: 2000 });
      cancel = () => window.cancelIdleCallback(id);
    } else {
      const id = window.setTimeout(run, 200);
      cancel = () => window.clearTimeout(id);
    }
  };
  if (document.readyState === "complete") start();
  else window.addEventListener("load", start, { once: true });
  return () => {
    window.removeEventListener("load", start);
    cancel();
  };
}
