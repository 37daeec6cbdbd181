import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { Link, NavLink, Outlet, useLoaderData, useLocation, useMatches } from "@remix-run/react";
import { useEffect, useRef, type ReactNode } from "react";
import { dashboardMeta, menuFor, type DashboardLink } from "#app/lib/dashboard";
import { signedInOrRedirect } from "#app/lib/guards.server";

export const meta: MetaFunction = () => dashboardMeta("Overview");

/** The layout guards itself; every child route and action guards itself too (a layout does not protect them). */
export async function loader({ context, request }: LoaderFunctionArgs) {
  const user = signedInOrRedirect(context, request);
  return { user: { name: user.name, email: user.email, role: user.role, photoURL: user.photoURL } };
}

/** Child routes may export `handle = { title }` so the phone menu's button can name them. */
export interface DashboardHandle {
  title?: string;
}

const ICONS: Record<string, ReactNode> = {
  "Write Blogs": <path d="M4 20h4L19 9l-4-4L4 16v4zM14 6l4 4" />,
  "Manage Blogs": <path d="M4 6h16M4 12h16M4 18h10" />,
  "Send Feedback": <path d="M4 5h16v11H8l-4 4V5zM8 9h8M8 12h5" />,
  "Add Author": <path d="M15 19v-1a4 4 0 0 0-4-4H7a4 4 0 0 0-4 4v1M9 10a3 3 0 1 0 0-6 3 3 0 0 0 0 6zM19 8v6M16 11h6" />,
  "Manage Users": (
    <path d="M17 19v-1a4 4 0 0 0-4-4H7a4 4 0 0 0-4 4v1M10 10a3 3 0 1 0 0-6 3 3 0 0 0 0 6zM21 19v-1a4 4 0 0 0-3-3.9M16 4.1a3 3 0 0 1 0 5.8" />
  ),
  "Manage Review": <path d="M12 3l2.6 5.3 5.9.9-4.3 4.1 1 5.8L12 16.4l-5.2 2.7 1-5.8-4.3-4.1 5.9-.9L12 3z" />,
  "Manage Authors": <path d="M4 19V5a2 2 0 0 1 2-2h12v16H6a2 2 0 0 0-2 2zM8 7h6M8 11h6" />,
  Inbox: <path d="M3 13l3-8h12l3 8v6H3v-6zM3 13h5l1 2h6l1-2h5" />,
  Home: <path d="M3 11l9-7 9 7M5 10v10h5v-6h4v6h5V10" />,
};

function DashboardNavIcon({ label }: { label: string }) {
  return (
    <svg
      viewBox="0 0 24 24"
      width={18}
      height={18}
      fill="none"
      stroke="currentColor"
      strokeWidth={1.8}
      strokeLinecap="round"
      strokeLinejoin="round"
      aria-hidden="true"
    >
      {ICONS[label]}
    </svg>
  );
}

function DashboardNav({ links }: { links: readonly DashboardLink[] }) {
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
            <DashboardNavIcon label={l.label} />
            {l.label}
          </NavLink>
        </li>
      ))}
    </ul>
  );
}

function Avatar({ name, photoURL, size = 40 }: { name: string; photoURL: string | null; size?: number }) {
  return photoURL ? (
    <img
      src={photoURL}
      alt=""
      width={size}
      height={size}
      className="shrink-0 rounded-full object-cover"
      style={{ width: size, height: size }}
    />
  ) : (
    <span
      aria-hidden="true"
      className="flex shrink-0 items-center justify-center rounded-full bg-brand-100 text-sm font-bold text-brand-700"
      style={{ width: size, height: size }}
    >
      {name.trim().charAt(0).toUpperCase() || "?"}
    </span>
  );
}

export default function DashboardLayout() {
  const { user } = useLoaderData<typeof loader>();
  const links = menuFor(user.role);
  const location = useLocation();
  const phoneMenu = useRef<HTMLDetailsElement>(null);
  const matches = useMatches();
  // The phone menu's button names the screen you are on: a menu item, or the page's own `handle.title`.
  const titled = matches
    .map((m) => (m.handle as DashboardHandle | undefined)?.title)
    .filter(Boolean)
    .pop();
  const current = links.find((l) => l.to === location.pathname)?.label ?? titled ?? "";
  const roleLabel = user.role === "admin" ? "Admin" : "Writer";

  // The phone menu is a <details> so it opens without JavaScript; with it, it closes after navigating.
  useEffect(() => {
    if (phoneMenu.current) phoneMenu.current.open = false;
  }, [location.pathname]);

  return (
    <div className="min-h-[calc(100dvh-4rem)] bg-gray-50/70">
      <div className="mx-auto max-w-7xl px-4 py-6 sm:px-6 lg:px-8 lg:py-10">
        <div className="md:grid md:grid-cols-[15rem_minmax(0,1fr)] md:gap-8">
          <aside className="mb-6 md:mb-0">
            {/* eslint-disable-next-line jsx-a11y/no-noninteractive-element-interactions -- Escape closes the open menu, as a disclosure should */}
            <details
              ref={phoneMenu}
              className="group rounded-2xl border border-gray-200 bg-white shadow-sm md:hidden"
              onKeyDown={(e) => {
                if (e.key === "Escape" && phoneMenu.current?.open) {
                  phoneMenu.current.open = false;
                  phoneMenu.current.querySelector("summary")?.focus();
                }
              }}
            >
              <summary className="flex cursor-pointer list-none items-center justify-between gap-3 rounded-2xl px-4 py-3 [&::-webkit-details-marker]:hidden">
                <span className="flex items-center gap-3">
                  <svg
                    viewBox="0 0 24 24"
                    width={20}
                    height={20}
                    fill="none"
                    stroke="currentColor"
                    strokeWidth={2}
                    strokeLinecap="round"
                    aria-hidden="true"
                    className="text-brand-600"
                  >
                    <path d="M4 6h16M4 12h16M4 18h16" />
                  </svg>
                  <span className="text-sm font-semibold text-ink">Dashboard menu</span>
                </span>
                <span className="flex items-center gap-2 text-sm text-gray-500">
                  {current}
                  <svg
                    viewBox="0 0 24 24"
                    width={16}
                    height={16}
                    fill="none"
                    stroke="currentColor"
                    strokeWidth={2}
                    aria-hidden="true"
                    className="transition-transform group-open:rotate-180"
                  >
                    <path d="M6 9l6 6 6-6" />
                  </svg>
                </span>
              </summary>
              <nav aria-label="Dashboard" className="border-t border-gray-100 p-2">
                <DashboardNav links={links} />
              </nav>
            </details>

            <div className="sticky top-24 hidden flex-col gap-4 md:flex">
              <Link
                to="/dashboard"
                className="flex items-center gap-3 rounded-2xl border border-gray-200 bg-white p-4 shadow-sm hover:border-brand-200"
              >
                <Avatar name={user.name} photoURL={user.photoURL} />
                <span className="min-w-0">
                  <span className="block truncate text-sm font-semibold text-ink">{user.name}</span>
                  <span className="mt-0.5 inline-block rounded-full bg-brand-50 px-2 py-0.5 text-xs font-semibold text-brand-700">
                    {roleLabel} dashboard
                  </span>
                </span>
              </Link>
              <nav aria-label="Dashboard" className="rounded-2xl border border-gray-200 bg-white p-2 shadow-sm">
                <DashboardNav links={links} />
              </nav>
            </div>
          </aside>

          <div className="min-w-0 rounded-2xl border border-gray-200 bg-white p-4 shadow-sm sm:p-6 lg:p-8">
            <Outlet />
          </div>
        </div>
      </div>
    </div>
  );
}
