import { sitePageLoader } from "#app/lib/site-page.server.ts";
import { SitePageView, sitePageMeta } from "#app/lib/site-page.tsx";

export const meta = sitePageMeta;
export const loader = sitePageLoader("terms");
export default SitePageView;
