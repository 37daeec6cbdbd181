import { Link } from "@remix-run/react";
import { BlogCard, CARD_SIZES } from "#app/components/BlogCard.tsx";
import { Image } from "#app/components/Image.tsx";
import { FEATURED_BLOGS } from "#app/lib/content.ts";
import type { BlogSummary } from "#worker/services/blogs/model.ts";
import { containerClass } from "#app/components/ui.tsx";
import { SectionHeading } from "./section-heading.tsx";

/** How many cards the section shows: the admins' picks first, the spec's fixed cards after them. */
const SHOWN = 6;

/**
 * Featured Blogs: the six newest posts admins picked in Manage All Blogs (only visible ones,
 * services.home), and the spec's fixed cards filling the rest while fewer than six are chosen.
 */
export function FeaturedBlogs({ picks }: { picks: BlogSummary[] }) {
  const fixed = FEATURED_BLOGS.slice(0, Math.max(0, SHOWN - picks.length));
  return (
    <section aria-labelledby="featured-heading" className="bg-gray-50 py-16 sm:py-20">
      <div className={containerClass()}>
        <SectionHeading id="featured-heading" eyebrow="Editors' picks" title="Featured Blogs">
          Six stories our editors keep coming back to.
        </SectionHeading>
        <div className="mt-10 grid grid-cols-1 gap-6 sm:grid-cols-2 lg:grid-cols-3" data-testid="featured">
          {picks.map((blog) => (
            <BlogCard key={blog._id} blog={blog} />
          ))}
          {fixed.map((f) => (
            <article
              key={f.id}
              className="flex flex-col overflow-hidden rounded-2xl border border-gray-200 bg-white shadow-sm"
            >
              <Image
                src={f.image}
                alt=""
                width={640}
                height={360}
                sizes={CARD_SIZES}
                className="aspect-[16/9] w-full object-cover"
              />
              <div className="flex flex-1 flex-col gap-2 p-5">
                <span className="w-fit rounded-full bg-brand-50 px-2.5 py-0.5 text-xs font-semibold text-brand-700">
                  {f.category}
                </span>
                <h3 className="text-lg font-semibold leading-snug text-ink">{f.title}</h3>
                <p className="text-sm text-gray-600">{f.description}</p>
                <div className="mt-auto flex items-center justify-between gap-3 pt-3 text-sm">
                  <span className="font-medium text-gray-800">By {f.author}</span>
                  <Link
                    to={`/allBlogs?category=${encodeURIComponent(f.category)}`}
                    className="font-semibold text-brand-700 hover:underline"
                  >
                    More {f.category} <span aria-hidden="true">→</span>
                  </Link>
                </div>
              </div>
            </article>
          ))}
        </div>
      </div>
    </section>
  );
}
