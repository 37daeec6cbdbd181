import { Link } from "@remix-run/react";
import { postPath } from "#worker/services/blogs/slug.ts";
import type { BlogSummary } from "#worker/services/blogs/model.ts";
import { Image } from "#app/components/Image.tsx";

/** "Read next" at the end of a post: up to three related posts (services.reading.post chooses them). */
export function RelatedPosts({ posts }: { posts: BlogSummary[] }) {
  if (!posts.length) return null;
  return (
    <section aria-labelledby="related-heading" className="mt-14 border-t border-gray-200 pt-10">
      <h2 id="related-heading" className="text-2xl font-bold tracking-tight text-ink">
        Read next
      </h2>
      <ul className="mt-6 grid grid-cols-1 gap-5 sm:grid-cols-3">
        {posts.map((post) => (
          <li key={post._id}>
            <Link
              to={postPath(post)}
              prefetch="intent"
              className="group flex h-full gap-3 rounded-xl border border-gray-200 bg-white p-3 shadow-sm transition hover:shadow-md sm:flex-col"
            >
              <Image
                src={post.image}
                alt=""
                width={320}
                height={180}
                sizes="(min-width: 640px) 240px, 112px"
                maxWidth={640}
                className="h-20 w-28 shrink-0 rounded-lg object-cover sm:aspect-[16/9] sm:h-auto sm:w-full"
              />
              <span className="min-w-0">
                <span className="block text-xs font-semibold text-brand-700">{post.category}</span>
                <span className="mt-1 line-clamp-3 block text-sm font-semibold leading-snug text-ink group-hover:text-brand-700">
                  {post.title}
                </span>
                <span className="mt-1 block text-xs text-gray-600">By {post.author_name}</span>
              </span>
            </Link>
          </li>
        ))}
      </ul>
    </section>
  );
}
