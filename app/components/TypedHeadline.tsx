import { useEffect, useState } from "react";
import { HEADLINE_PHRASES, nextStep, whenIdleAfterLoad, type Step } from "#app/lib/typed-headline.ts";

export { HEADLINE_PHRASES };

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
    const cancel = whenIdleAfterLoad(update);
    query.addEventListener("change", update);
    return () => {
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
        data-typed-phrase=""
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
