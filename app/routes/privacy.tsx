import { READING_PAGE } from "#app/lib/reading-page.ts";
import { sitePageLoader } from "#app/lib/site-page.server.ts";
import { SitePageView, sitePageMeta } from "#app/lib/site-page.tsx";

/** A reading page: an anonymous reader gets it without the framework (docs/decisions/059). */
export const handle = READING_PAGE;

export const meta = sitePageMeta;
export const loader = sitePageLoader("privacy");
export default SitePageView;
