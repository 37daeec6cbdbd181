import { onTestFinished, vi } from "vitest";

/**
 * Rate limits count hits in fixed windows (worker/services/rate-limit.ts): a test that fills a
 * window would see its count start again if a window boundary fell while it ran. Stopping the clock
 * (Date only: timers and I/O run as usual) keeps every hit of the test in one window. The Worker runs
 * in the tests' isolate, so it reads the same clock. The real clock is back when the test finishes.
 */
export function stopClock(at = Date.now()): void {
  vi.useFakeTimers({ toFake: ["Date"], now: at });
  onTestFinished(() => {
    vi.useRealTimers();
  });
}
