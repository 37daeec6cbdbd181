import { Link, type useLoaderData } from "@remix-run/react";
import type { ReactNode } from "react";
import { Image } from "#app/components/Image.tsx";
import { LocalTime } from "#app/components/LocalTime.tsx";
import { WhoToFollowList } from "#app/components/WhoToFollow.tsx";
import { authPageUrl } from "#app/lib/auth-url.ts";
import { postPath } from "#worker/services/blogs/slug.ts";
import { CATEGORIES } from "#worker/services/categories.ts";
import type { loader } from "./route.tsx";

type Listing = ReturnType<typeof useLoaderData<typeof loader>>;

/** The list's sidebar: the latest posts, the topics (a chip filters), who to follow, the reader's saved posts. */
export function Sidebar({
  q,
  category,
  latest,
  saved,
  suggested,
  signedIn,
}: Pick<Listing, "q" | "category" | "latest" | "saved" | "suggested" | "signedIn">) {
  return (
    <aside aria-label="Sidebar" className="flex flex-col gap-6">
      <SidebarCard title="Latest Blogs" id="sidebar-latest">
        <ol className="flex flex-col divide-y divide-gray-100">
          {latest.map((b) => (
            <li key={b._id} className="py-3 first:pt-0 last:pb-0">
              <Link to={postPath(b)} prefetch="intent" className="group block">
                <span className="block text-sm font-semibold leading-snug text-ink group-hover:text-brand-700">
                  {b.title}
                </span>
                <span className="mt-1 block text-xs text-gray-600">
                  {b.category} · <LocalTime iso={b.date_time} />
                </span>
              </Link>
            </li>
          ))}
        </ol>
      </SidebarCard>

      <SidebarCard title="Recommended Topics" id="sidebar-topics">
        <ul className="flex flex-wrap gap-2">
          {CATEGORIES.map((name) => {
            const active = name === category;
            return (
              <li key={name}>
                <Link
                  to={topicHref(name, q, active)}
                  aria-current={active ? "true" : undefined}
                  className={`inline-flex items-center gap-1 rounded-full border px-3 py-1.5 text-sm font-medium transition ${
                    active
                      ? "border-brand-600 bg-brand-600 text-white hover:bg-brand-700"
                      : "border-gray-200 bg-gray-50 text-gray-800 hover:border-brand-500 hover:bg-brand-50 hover:text-brand-700"
                  }`}
                >
                  {name}
                  {active ? (
                    <span aria-hidden="true" className="text-xs">
                      ✕
                    </span>
                  ) : null}
                  {active ? <span className="sr-only"> (selected, press to show all topics)</span> : null}
                </Link>
              </li>
            );
          })}
        </ul>
        <p className="mt-4 text-sm">
          <Link to="/tags" className="font-semibold text-brand-700 underline-offset-2 hover:underline">
            Browse all tags
          </Link>
        </p>
      </SidebarCard>

      <SidebarCard title="Who to Follow" id="sidebar-follow">
        <WhoToFollowList writers={suggested} signedIn={signedIn} />
      </SidebarCard>

      <SidebarCard title="Recently Saved" id="sidebar-saved">
        {saved === null ? (
          <p className="text-sm text-gray-600">
            <Link to={authPageUrl("/login", "/allBlogs")} className="font-semibold text-brand-700 hover:underline">
              Sign in
            </Link>{" "}
            to save blogs and find them here.
          </p>
        ) : saved.length === 0 ? (
          <p className="text-sm text-gray-600">Nothing saved yet. Press Save on any post to keep it here.</p>
        ) : (
          <ul className="flex flex-col gap-3">
            {saved.map((s) => (
              <li key={s._id}>
                <Link to={postPath(s.blog)} className="group flex items-center gap-3">
                  <Image
                    src={s.blog.image}
                    alt=""
                    width={56}
                    height={40}
                    sizes="56px"
                    maxWidth={320}
                    className="h-10 w-14 shrink-0 rounded-md object-cover"
                  />
                  <span className="min-w-0">
                    <span className="line-clamp-2 text-sm font-semibold leading-snug text-ink group-hover:text-brand-700">
                      {s.blog.title}
                    </span>
                    <span className="block text-xs text-gray-600">{s.blog.category}</span>
                  </span>
                </Link>
              </li>
            ))}
          </ul>
        )}
        {saved !== null ? (
          <p className="mt-4 text-sm">
            <Link to="/saved" className="font-semibold text-brand-700 underline-offset-2 hover:underline">
              See your reading list<span aria-hidden="true"> →</span>
            </Link>
          </p>
        ) : null}
      </SidebarCard>
    </aside>
  );
}

/** A chip filters by its topic (keeping the words searched); the active chip clears the topic. */
function topicHref(name: string, q: string, active: boolean): string {
  const params = new URLSearchParams();
  if (q) params.set("q", q);
  if (!active) params.set("category", name);
  const qs = params.toString();
  return `/allBlogs${qs ? `?${qs}` : ""}`;
}

function SidebarCard({ id, title, children }: { id: string; title: string; children: ReactNode }) {
  return (
    <section aria-labelledby={id} className="rounded-2xl border border-gray-200 bg-white p-5 shadow-sm">
      <h2 id={id} className="mb-4 text-base font-bold text-ink">
        {title}
      </h2>
      {children}
    </section>
  );
}
