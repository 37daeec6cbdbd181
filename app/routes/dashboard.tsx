import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { DashboardIcon, LineIcon, MenuLinesIcon } from "#app/components/icons.tsx";
import { Avatar } from "#app/components/Avatar.tsx";
import { Disclosure } from "#app/components/Disclosure.tsx";
import { Container } from "#app/components/ui.tsx";
import { Link, NavLink, Outlet, useLoaderData, useLocation, useMatches } from "@remix-run/react";
import { dashboardMeta, menuBadges, menuFor, type DashboardLink, type MenuBadge } from "#app/lib/dashboard.ts";
import { signedInOrRedirect } from "#app/lib/guards.server.ts";

export const meta: MetaFunction = ({ matches }) => dashboardMeta("Overview", matches);

/**
 * The layout guards itself; every child route and action guards itself too (a layout does not protect them).
 * An admin's menu shows what waits (pending reviews, reported comments): counted afresh on every load and
 * action, on a signed-in page the edge cache never shares.
 */
export async function loader({ context, request }: LoaderFunctionArgs) {
  const user = signedInOrRedirect(context, request);
  const counts = user.role === "admin" ? await context.services.dashboard.menuCounts(user) : null;
  return { user: { name: user.name, email: user.email, role: user.role, photoURL: user.photoURL }, counts };
}

/** Child routes may export `handle = { title }` so the phone menu's button can name them. */
export interface DashboardHandle {
  title?: string;
}

/**
 * A menu entry's label with the number beside it. The link's name reads "Manage Review, 3 pending" (the
 * comma and the word are for screen readers only) and holds what it shows, "Manage Review 3", as voice
 * control needs. The comma sits in the label's own box: the badge is a box of its own, and a space comes
 * between boxes in an accessible name.
 */
function LabelWithCount({ label, badge }: { label: string; badge: MenuBadge }) {
  return (
    <>
      <span>
        {label}
        <span className="sr-only">, </span>
      </span>
      <span className="ml-auto min-w-6 rounded-full bg-red-700 px-2 py-0.5 text-center text-xs font-semibold text-white tabular-nums">
        {badge.count}
        <span className="sr-only"> {badge.words}</span>
      </span>
    </>
  );
}

function DashboardNav({
  links,
  badges,
}: {
  links: readonly DashboardLink[];
  badges: Record<string, MenuBadge | undefined>;
}) {
  return (
    <ul className="flex flex-col gap-1">
      {links.map((l) => (
        <li key={l.to}>
          <NavLink
            to={l.to}
            end
            prefetch="intent"
            className={({ isActive }) =>
              `flex items-center gap-3 rounded-lg px-3 py-2.5 text-sm font-medium transition-colors ${
                isActive ? "bg-brand-600 text-white shadow-sm" : "text-gray-700 hover:bg-brand-50 hover:text-brand-700"
              }`
            }
          >
            <DashboardIcon label={l.label} />
            {badges[l.to] ? <LabelWithCount label={l.label} badge={badges[l.to]!} /> : l.label}
          </NavLink>
        </li>
      ))}
    </ul>
  );
}

export default function DashboardLayout() {
  const { user, counts } = useLoaderData<typeof loader>();
  const links = menuFor(user.role);
  const badges = menuBadges(counts);
  const location = useLocation();
  const matches = useMatches();
  // The phone menu's button names the screen you are on: a menu item, or the page's own `handle.title`.
  const titled = matches
    .map((m) => (m.handle as DashboardHandle | undefined)?.title)
    .filter(Boolean)
    .pop();
  const current = links.find((l) => l.to === location.pathname)?.label ?? titled ?? "";
  const roleLabel = user.role === "admin" ? "Admin" : "Writer";

  return (
    <div className="min-h-[calc(100dvh-4rem)] bg-gray-50/70">
      <Container className="py-6 lg:py-10">
        <div className="md:grid md:grid-cols-[15rem_minmax(0,1fr)] md:gap-8">
          <aside className="mb-6 md:mb-0">
            <Disclosure
              className="group rounded-2xl border border-gray-200 bg-white shadow-sm md:hidden"
              summaryClassName="flex items-center justify-between gap-3 rounded-2xl px-4 py-3"
              summary={
                <>
                  <span className="flex items-center gap-3">
                    <MenuLinesIcon className="text-brand-600" />
                    <span className="text-sm font-semibold text-ink">Dashboard menu</span>
                  </span>
                  <span className="flex items-center gap-2 text-sm text-gray-500">
                    {current}
                    <LineIcon d="M6 9l6 6 6-6" size={16} className="transition-transform group-open:rotate-180" />
                  </span>
                </>
              }
            >
              <nav aria-label="Dashboard" className="border-t border-gray-100 p-2">
                <DashboardNav links={links} badges={badges} />
              </nav>
            </Disclosure>

            <div className="sticky top-24 hidden flex-col gap-4 md:flex">
              <Link
                to="/dashboard"
                className="flex items-center gap-3 rounded-2xl border border-gray-200 bg-white p-4 shadow-sm hover:border-brand-200"
              >
                <Avatar photoURL={user.photoURL} size={40} />
                <span className="min-w-0">
                  <span className="block truncate text-sm font-semibold text-ink">{user.name}</span>
                  <span className="mt-0.5 inline-block rounded-full bg-brand-50 px-2 py-0.5 text-xs font-semibold text-brand-700">
                    {roleLabel} dashboard
                  </span>
                </span>
              </Link>
              <nav aria-label="Dashboard" className="rounded-2xl border border-gray-200 bg-white p-2 shadow-sm">
                <DashboardNav links={links} badges={badges} />
              </nav>
            </div>
          </aside>

          <div className="min-w-0 rounded-2xl border border-gray-200 bg-white p-4 shadow-sm sm:p-6 lg:p-8">
            <Outlet />
          </div>
        </div>
      </Container>
    </div>
  );
}
