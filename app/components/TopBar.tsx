import { Form, Link, NavLink, useLocation, useRouteLoaderData } from "@remix-run/react";
import { buttonClass, containerClass } from "./ui";
import { Disclosure } from "./Disclosure";
import { NAV_LINKS } from "#app/lib/site.ts";
import type { loader as rootLoader } from "#app/root.tsx";
import { AvatarMenu } from "./AvatarMenu";
import { LogoMark, MenuIcon, SearchIcon } from "./icons";
import { MAX_SEARCH_CHARS } from "#worker/services/shared/limits.ts";
import { ThemeToggle } from "./ThemeToggle";
import { NotificationBell } from "./NotificationBell";

const linkClass = ({ isActive }: { isActive: boolean }) =>
  `rounded-md px-3 py-2 text-sm font-medium transition-colors ${
    isActive ? "text-brand-700 bg-brand-50" : "text-gray-700 hover:text-brand-700 hover:bg-gray-50"
  }`;

export function TopBar({ siteName }: { siteName: string }) {
  // The session is read on the server, so the first HTML already shows the right control: nothing flashes.
  const root = useRouteLoaderData<typeof rootLoader>("root");
  const user = root?.user ?? null;

  return (
    <header className="fixed inset-x-0 top-0 z-40 border-b border-gray-200 bg-white/90 backdrop-blur supports-[backdrop-filter]:bg-white/75">
      <div className={containerClass({ className: "flex h-16 items-center justify-between gap-4" })}>
        <Link to="/" className="flex items-center gap-2 text-lg font-bold tracking-tight text-ink">
          <LogoMark width={28} height={28} className="text-brand-600" />
          <span className="sr-only sm:not-sr-only">{siteName}</span>
        </Link>

        <nav aria-label="Main" className="hidden md:block">
          <ul className="flex items-center gap-1">
            {NAV_LINKS.map((l) => (
              <li key={l.to}>
                <NavLink to={l.to} end={l.to === "/"} prefetch="intent" className={linkClass}>
                  {l.label}
                </NavLink>
              </li>
            ))}
          </ul>
        </nav>

        <div className="flex min-w-0 items-center gap-2">
          <SiteSearch />
          <ThemeToggle />
          {user ? <NotificationBell unread={root?.unread ?? 0} /> : null}
          {user ? (
            <AvatarMenu user={user} />
          ) : (
            <Link to="/login" className={buttonClass({ size: "sm", className: "shrink-0 whitespace-nowrap" })}>
              Sign in
            </Link>
          )}

          <Disclosure
            className="relative md:hidden"
            summaryClassName="flex h-10 w-10 items-center justify-center rounded-md text-gray-700 hover:bg-gray-100"
            summaryLabel="Open menu"
            summary={<MenuIcon width={24} height={24} />}
          >
            <nav
              aria-label="Mobile"
              className="absolute right-0 mt-2 w-56 rounded-xl border border-gray-200 bg-white p-2 shadow-lg"
            >
              <ul className="flex flex-col">
                {NAV_LINKS.map((l) => (
                  <li key={l.to}>
                    <NavLink to={l.to} end={l.to === "/"} className={(s) => `block ${linkClass(s)}`}>
                      {l.label}
                    </NavLink>
                  </li>
                ))}
              </ul>
            </nav>
          </Disclosure>
        </div>
      </div>
    </header>
  );
}

/** The search box on every page: a plain GET form to /allBlogs?q=, so it works without JavaScript and links stay shareable. */
function SiteSearch() {
  const location = useLocation();
  const q = location.pathname === "/allBlogs" ? (new URLSearchParams(location.search).get("q") ?? "") : "";
  return (
    <Form method="get" action="/allBlogs" role="search" aria-label="Site" className="relative min-w-0" key={q}>
      <label htmlFor="site-search" className="sr-only">
        Search posts
      </label>
      <SearchIcon
        width={16}
        height={16}
        className="pointer-events-none absolute left-3 top-1/2 -translate-y-1/2 text-gray-500"
      />
      <input
        id="site-search"
        type="search"
        name="q"
        defaultValue={q}
        maxLength={MAX_SEARCH_CHARS}
        placeholder="Search"
        enterKeyHint="search"
        className="block h-10 w-36 rounded-full border border-gray-300 bg-white pl-9 pr-3 text-sm text-ink placeholder:text-gray-500 focus:border-brand-500 focus:outline-none focus:ring-2 focus:ring-brand-500/30 max-[380px]:w-28 sm:w-44 lg:w-56"
      />
    </Form>
  );
}
