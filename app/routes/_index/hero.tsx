import { Link } from "@remix-run/react";
import { Image } from "#app/components/Image.tsx";
import { TypedHeadline } from "#app/components/TypedHeadline.tsx";
import { buttonClass, containerClass } from "#app/components/ui.tsx";

/** The home page's welcome: the typed headline, the two calls to action, and (wide screens) two post cards. */
export function Hero() {
  return (
    <section
      aria-label="Welcome"
      className="relative overflow-hidden bg-gradient-to-b from-brand-50 via-white to-white"
    >
      {/* A soft glow drawn as a gradient: a blur filter would cost a large paint on every first load. */}
      <div
        aria-hidden="true"
        className="pointer-events-none absolute -left-48 -top-48 h-[36rem] w-[36rem] rounded-full bg-[radial-gradient(closest-side,var(--color-brand-100),transparent)] opacity-60"
      />
      <div
        className={containerClass({
          className: "relative grid items-center gap-10 py-14 sm:py-20 lg:h-[500px] lg:grid-cols-2 lg:py-0",
        })}
      >
        <div className="flex flex-col items-start gap-6">
          <TypedHeadline />
          <p className="max-w-xl text-lg text-gray-600">
            Share your stories, thoughts and knowledge with readers around the world. Write about what you love,
            discover writing that makes you think, and grow with a community of curious people.
          </p>
          <div className="flex flex-wrap gap-3">
            <Link to="/dashboard/writeBlogs" className={buttonClass({ size: "lg" })}>
              Write a Blog
            </Link>
            <Link to="/allBlogs" className={buttonClass({ tone: "secondary", size: "lg" })}>
              Read Blogs
            </Link>
          </div>
        </div>
        {/* Wide screens only; its pictures are lazy, so phones (where it is hidden) never download them. */}
        <div aria-hidden="true" className="relative hidden h-[380px] lg:block">
          <div className="absolute right-4 top-2 w-72 rotate-6 overflow-hidden rounded-2xl bg-white shadow-xl ring-1 ring-gray-200">
            <Image
              src="/featured/slow-travel.jpg"
              alt=""
              width={288}
              height={162}
              sizes="288px"
              className="aspect-[16/9] w-full object-cover"
            />
            <div className="space-y-2 p-4">
              <div className="h-2.5 w-16 rounded-full bg-brand-100" />
              <div className="h-3 w-48 rounded-full bg-gray-200" />
              <div className="h-3 w-36 rounded-full bg-gray-100" />
            </div>
          </div>
          <div className="absolute bottom-2 left-6 w-80 -rotate-3 overflow-hidden rounded-2xl bg-white shadow-2xl ring-1 ring-gray-200">
            <Image
              src="/featured/remote-teams.jpg"
              alt=""
              width={320}
              height={180}
              sizes="320px"
              className="aspect-[16/9] w-full object-cover"
            />
            <div className="space-y-2 p-4">
              <div className="h-2.5 w-20 rounded-full bg-brand-100" />
              <div className="h-3 w-56 rounded-full bg-gray-200" />
              <div className="h-3 w-40 rounded-full bg-gray-100" />
            </div>
          </div>
          <div className="absolute right-10 bottom-16 flex items-center gap-2 rounded-full bg-white px-4 py-2 text-sm font-semibold text-ink shadow-lg ring-1 ring-gray-200">
            <span className="h-2.5 w-2.5 rounded-full bg-green-500" /> New post published
          </div>
        </div>
      </div>
    </section>
  );
}
