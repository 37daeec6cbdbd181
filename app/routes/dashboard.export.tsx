import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { DashboardHeader } from "#app/components/DashboardHeader.tsx";
import { buttonClass } from "#app/components/ui.tsx";
import { dashboardMeta } from "#app/lib/dashboard.ts";
import { adminOrForbidden } from "#app/lib/guards.server.ts";

export const handle = { title: "Export" };

export const meta: MetaFunction = ({ matches }) => dashboardMeta("Export", matches);

export async function loader({ context, request }: LoaderFunctionArgs) {
  adminOrForbidden(context, request);
  return null;
}

/** The whole site's export: the zip itself streams from /dashboard/export.zip. */
export default function Export() {
  return (
    <>
      <DashboardHeader
        title="Export"
        description="The whole site as one zip: every post as Markdown with front matter (tags and SEO fields too), every image, and JSON of users (no password hashes), profiles, comments with their replies, likes, saves, follows, reviews, authors, newsletter subscribers and settings, with a README describing the format. Importing it into an empty site gives the site back; imported here again, it brings back only the posts that are gone."
      />
      <a href="/dashboard/export.zip" download className={buttonClass({ tone: "primary" })}>
        Download the site (.zip)
      </a>
    </>
  );
}
