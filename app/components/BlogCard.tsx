import { Link } from "@remix-run/react";
import { postPath } from "#worker/services/blogs/slug.ts";
import { StatusBadge } from "#app/components/StatusBadge.tsx";
import type { BlogSummary } from "#worker/services/blogs/model.ts";
import { Image } from "./Image";
import { TagList } from "./TagList";

const MARKS = "[&_mark]:rounded-sm [&_mark]:bg-amber-100 [&_mark]:px-0.5 [&_mark]:text-ink";

/** The card in a 1/2/3-column grid of the page container. */
export const CARD_SIZES = "(min-width: 1280px) 400px, (min-width: 1024px) 31vw, (min-width: 640px) 48vw, 100vw";

/**
 * A post's card. The cover and title open the post; the byline opens the writer's page (two links,
 * not one link around the card, since links cannot nest). `highlight`: a search result's title and best
 * passage as HTML whose only tags are our own <mark>s (services/search.ts escapes the rest). `sizes`: how
 * wide the card is drawn where it is used.
 */
export function BlogCard({
  blog,
  eager = false,
  highlight,
  sizes = CARD_SIZES,
}: {
  blog: BlogSummary;
  eager?: boolean;
  highlight?: { title: string; snippet: string };
  sizes?: string;
}) {
  return (
    <article className="group relative flex flex-col overflow-hidden rounded-2xl border border-gray-200 bg-white shadow-sm transition hover:-translate-y-0.5 hover:shadow-md">
      <Image
        src={blog.image}
        alt=""
        width={640}
        height={360}
        sizes={sizes}
        maxWidth={960}
        eager={eager}
        className="aspect-[16/9] w-full object-cover"
      />
      <div className="flex flex-1 flex-col gap-2 p-5">
        <span className="flex flex-wrap items-center gap-2">
          {blog.category ? (
            <span className="w-fit rounded-full bg-brand-50 px-2.5 py-0.5 text-xs font-semibold text-brand-700">
              {blog.category}
            </span>
          ) : null}
          <StatusBadge status={blog.status} publishAt={blog.publish_at} />
        </span>
        <h3 className={`text-lg font-semibold leading-snug text-ink group-hover:text-brand-700 ${MARKS}`}>
          {/* The title's link covers the whole card (::after), so the card stays one big target. */}
          <Link to={postPath(blog)} prefetch="intent" className="after:absolute after:inset-0">
            {highlight ? <span dangerouslySetInnerHTML={{ __html: highlight.title }} /> : blog.title}
          </Link>
        </h3>
        {highlight ? (
          <p
            className={`line-clamp-3 text-sm text-gray-600 ${MARKS}`}
            dangerouslySetInnerHTML={{ __html: highlight.snippet }}
          />
        ) : (
          <p className="line-clamp-3 text-sm text-gray-600">{blog.short_description}</p>
        )}
        <TagList tags={blog.tags} onCard />
        <p className="mt-auto pt-2 text-sm font-medium text-gray-800">
          By{" "}
          {blog.author_id ? (
            <Link
              to={`/writers/${blog.author_id}`}
              className="relative z-10 underline-offset-2 hover:text-brand-700 hover:underline"
            >
              {blog.author_name}
            </Link>
          ) : (
            blog.author_name
          )}
        </p>
      </div>
    </article>
  );
}
