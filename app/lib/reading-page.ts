import { createContext, useContext } from "react";
import { useMatches } from "@remix-run/react";
// Only this subpath: the rest of remix-utils (and its optional peers) never enters a bundle.
import { useShouldHydrate } from "remix-utils/use-should-hydrate";

/**
 * Reading pages without the framework (docs/decisions/059). A reading page (home, About, All Blogs, a
 * post, the tags, a writer, Privacy, Terms) says so in its route `handle`; answered to a reader without a
 * session it is server-rendered HTML with no framework JavaScript: the root leaves out Remix's <Scripts/>
 * and puts the small islands (app/islands/reading.ts) in their place. Whether a page hydrates anyway is
 * remix-utils' `useShouldHydrate`: a route's `handle.hydrate` (true, or a function of its loader data)
 * asks for it; the root's asks whenever its loader knows a signed-in person (or carries a flash, whose
 * dialog is React's). Every page that does not say it is a reading page hydrates, as before.
 */
export const READING_PAGE = { reading: true } as const;

/** Whether this render ships the app (Remix's scripts) rather than the reading islands. */
export function useHydratesPage(): boolean {
  const asked = useShouldHydrate();
  const reading = useMatches().some(
    (m) => typeof m.handle === "object" && m.handle !== null && (m.handle as { reading?: unknown }).reading === true,
  );
  return asked || !reading;
}

/**
 * The islands a scriptless reading page carries instead of the app: their minified script (inline, with
 * the render's nonce) and the URL of the slider's own module. Given by app/entry.server.tsx only, so it
 * never enters the browser's JavaScript.
 */
export interface ReadingIslands {
  script: string;
  sliderModule: string;
}
export const ReadingIslandsContext = createContext<ReadingIslands>({ script: "", sliderModule: "" });

export function useReadingIslands(): ReadingIslands {
  return useContext(ReadingIslandsContext);
}
