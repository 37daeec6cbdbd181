import { useEffect, useState } from "react";

/** The hero's rotating phrases and timings (spec section 9: type speed 50, 1000 ms pause, forever). */
export const HEADLINE_PHRASES = ["share ideas", "express innovation", "learn more earn more"] as const;
export const TYPE_MS = 50;
export const PAUSE_MS = 1000;

type Step = { index: number; length: number; deleting: boolean };

/** The next state of the typewriter and how long to wait before showing it. */
function nextStep(step: Step, phrases: readonly string[]): [Step, number] {
  const phrase = phrases[step.index] ?? "";
  if (!step.deleting && step.length >= phrase.length) return [{ ...step, deleting: true }, PAUSE_MS];
  if (step.deleting && step.length <= 0)
    return [{ index: (step.index + 1) % phrases.length, length: 0, deleting: false }, TYPE_MS];
  // Erasing runs at the typing speed, as the typewriter the spec describes does by default.
  return [{ ...step, length: step.length + (step.deleting ? -1 : 1) }, TYPE_MS];
}

/**
 * "A place to <typed phrase>". The server renders the first phrase whole, so the heading is never
 * empty and works without JavaScript. Assistive technology reads the three phrases once instead of
 * a heading that changes 20 times a second, and prefers-reduced-motion shows them still (by CSS,
 * so it holds before hydration too; the timer is then not started at all).
 */
export function TypedHeadline({ phrases = HEADLINE_PHRASES }: { phrases?: readonly string[] }) {
  const [step, setStep] = useState<Step>({ index: 0, length: phrases[0]?.length ?? 0, deleting: false });
  const [animate, setAnimate] = useState(false);

  useEffect(() => {
    const query = window.matchMedia("(prefers-reduced-motion: reduce)");
    const update = () => setAnimate(!query.matches);
    // The typing starts once the page has loaded and the browser is idle: the first phrase is already
    // on screen, and the animation never competes with loading or hydrating the page.
    // (Safari has no requestIdleCallback: a short timeout stands in.)
    let cancel = () => {};
    const start = () => {
      if (window.requestIdleCallback) {
        const id = window.requestIdleCallback(update, { timeout: 2000 });
        cancel = () => window.cancelIdleCallback(id);
      } else {
        const id = window.setTimeout(update, 200);
        cancel = () => window.clearTimeout(id);
      }
    };
    if (document.readyState === "complete") start();
    else window.addEventListener("load", start, { once: true });
    query.addEventListener("change", update);
    return () => {
      window.removeEventListener("load", start);
      cancel();
      query.removeEventListener("change", update);
    };
  }, []);

  useEffect(() => {
    if (!animate) return;
    const [next, delay] = nextStep(step, phrases);
    const timer = window.setTimeout(() => setStep(next), delay);
    return () => window.clearTimeout(timer);
  }, [animate, step, phrases]);

  const shown = (phrases[step.index] ?? "").slice(0, step.length);
  return (
    <h1 className="text-4xl font-extrabold tracking-tight text-ink sm:text-5xl lg:text-6xl">
      <span className="block">A place to</span>
      <span className="sr-only">{phrases.join(", ")}</span>
      <span
        aria-hidden="true"
        data-testid="typed-phrase"
        className="block min-h-[2.5em] text-brand-600 sm:min-h-[1.25em] motion-reduce:hidden"
      >
        {shown}
        <span className="ml-0.5 inline-block w-[3px] animate-pulse self-stretch bg-brand-600 align-[-0.1em] [height:0.9em]" />
      </span>
      <span aria-hidden="true" data-testid="static-phrases" className="hidden text-brand-600 motion-reduce:block">
        {phrases.map((p, i) => (
          <span key={p} className="block">
            {p}
            {i < phrases.length - 1 ? "," : "."}
          </span>
        ))}
      </span>
    </h1>
  );
}
