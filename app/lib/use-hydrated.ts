import { useEffect, useState } from "react";

/**
 * False in the server's HTML and in the first client render, true once React has hydrated. Pieces
 * that behave differently with JavaScript render their no-JS form until then, so hydration matches.
 */
export function useHydrated(): boolean {
  const [hydrated, setHydrated] = useState(false);
  useEffect(() => setHydrated(true), []);
  return hydrated;
}
