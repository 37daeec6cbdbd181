import type { MetaFunction } from "@remix-run/cloudflare";
import { Link, useLoaderData, useRouteLoaderData } from "@remix-run/react";
import { containerClass } from "#app/components/ui.tsx";
import { brandOf } from "#app/lib/site-name.ts";
import { seo } from "#app/lib/seo.ts";
import type { sitePageLoader } from "#app/lib/site-page.server.ts";

type SitePageData = Awaited<ReturnType<ReturnType<typeof sitePageLoader>>>;

export const sitePageMeta: MetaFunction = ({ data, matches }) => {
  const d = data as SitePageData | undefined;
  if (!d) return [{ title: brandOf(matches) }];
  return seo({
    brand: brandOf(matches),
    title: d.page.title,
    description: `${d.page.title} of ${brandOf(matches)}.`,
    origin: d.origin,
    path: `/${d.page.slug}`,
  });
};

/** A page of text: its title, the rendered Markdown, and for admins a link to edit it. */
export function SitePageView() {
  const { page } = useLoaderData<SitePageData>();
  const root = useRouteLoaderData("root") as { user?: { role?: string } | null } | undefined;
  return (
    <article className={containerClass({ width: "3xl", className: "py-12 sm:py-16" })}>
      <h1 className="text-3xl font-bold tracking-tight text-ink sm:text-4xl">{page.title}</h1>
      {page.updatedAt ? (
        <p className="mt-2 text-sm text-gray-600">
          Last updated <time dateTime={page.updatedAt}>{page.updatedAt.slice(0, 10)}</time>
        </p>
      ) : null}
      {root?.user?.role === "admin" ? (
        <p className="mt-4">
          <Link to={`/dashboard/pages/${page.slug}`} className="font-semibold text-brand-700 underline">
            Edit this page
          </Link>
        </p>
      ) : null}
      {/* Sanitised by an allow-list on the server (worker/content/markdown.ts). */}
      <div
        className="post-body mt-8 space-y-5 text-base leading-7 text-gray-800"
        dangerouslySetInnerHTML={{ __html: page.html }}
      />
    </article>
  );
}
