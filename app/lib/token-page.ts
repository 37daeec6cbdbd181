import type { HeadersFunction, MetaFunction } from "@remix-run/cloudflare";
import { seo } from "#app/lib/seo.ts";
import { brandOf } from "#app/lib/site-name.ts";

/**
 * The preamble of a page an emailed link opens, with a token in its URL (/reset-password,
 * /verify-email): its title and description in the site's brand, never indexed. The loader returns
 * `origin` for the canonical link.
 */
export function tokenPageMeta(page: {
  title: string;
  description: (brand: string) => string;
  path: string;
}): MetaFunction<() => { origin: string }> {
  return ({ data, matches }) => [
    ...seo({
      brand: brandOf(matches),
      title: page.title,
      description: page.description(brandOf(matches)),
      origin: data?.origin ?? "https://example.invalid",
      path: page.path,
    }),
    { name: "robots", content: "noindex" },
  ];
}

/**
 * The URL carries the token: never hand it on as a referrer to another site. Same-origin, not
 * no-referrer: a form posted from a no-referrer page (the button without JavaScript) carries
 * `Origin: null`, which the cross-site check (worker/security/csrf.ts) rightly refuses.
 */
export const tokenPageHeaders: HeadersFunction = () => ({ "Referrer-Policy": "same-origin" });
