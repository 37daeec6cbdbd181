import { Link } from "@remix-run/react";
import type { BlogSummary } from "#worker/services/blogs";
import { Image } from "./Image";

/** The card in a 1/2/3-column grid of the page container. */
export const CARD_SIZES = "(min-width: 1280px) 400px, (min-width: 1024px) 31vw, (min-width: 640px) 48vw, 100vw";

export function BlogCard({
  blog,
  eager = false,
  sizes = CARD_SIZES,
}: {
  blog: BlogSummary;
  eager?: boolean;
  /** How wide the card is drawn where it is used. */
  sizes?: string;
}) {
  return (
    <article className="group flex flex-col overflow-hidden rounded-2xl border border-gray-200 bg-white shadow-sm transition hover:-translate-y-0.5 hover:shadow-md">
      <Link to={`/blogs/${blog._id}`} prefetch="intent" className="flex h-full flex-col">
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
          <span className="w-fit rounded-full bg-brand-50 px-2.5 py-0.5 text-xs font-semibold text-brand-700">
            {blog.category}
          </span>
          <h3 className="text-lg font-semibold leading-snug text-ink group-hover:text-brand-700">{blog.title}</h3>
          <p className="line-clamp-3 text-sm text-gray-600">{blog.short_description}</p>
          <p className="mt-auto pt-2 text-sm font-medium text-gray-800">By {blog.author_name}</p>
        </div>
      </Link>
    </article>
  );
}
