// Its own module rather than part of site.ts: site.ts loads on every page (the top bar), this only where a page links to sign-in.

/** The sign-in or register page, carrying the page to come back to afterwards (none for the home page). */
export function authPageUrl(page: "/login" | "/register", back: string): string {
  return back === "/" ? page : `${page}?redirectTo=${encodeURIComponent(back)}`;
}
