import { useEffect, useRef } from "react";

/**
 * Runs `fn` once for each new action answer (a new `result` object, the first render included), with
 * the latest render's `fn`: what a dialog, a reset or a focus after a submission needs. The callback
 * reads fresh props and state without being a dependency, so no effect has to silence exhaustive-deps.
 */
export function useOnActionResult<T>(result: T, fn: (result: T) => void): void {
  const latest = useRef(fn);
  useEffect(() => {
    latest.current = fn;
  });
  useEffect(() => {
    latest.current(result);
  }, [result]);
}
