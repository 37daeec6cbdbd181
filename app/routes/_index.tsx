import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { Link, useLoaderData } from "@remix-run/react";
import { BlogCard } from "~/components/BlogCard";

export const meta: MetaFunction = () => [
  { title: "Edge Blog: share ideas, express innovation, learn more" },
  { name: "description", content: "Read and write stories on technology, travel, health, finance, AI and more." },
];

export async function loader({ context }: LoaderFunctionArgs) {
  return { latest: await context.services.blogs.latest() };
}

export default function Home() {
  const { latest } = useLoaderData<typeof loader>();
  return (
    <>
      <section className="bg-gradient-to-b from-brand-50 to-white">
        <div className="mx-auto flex max-w-7xl flex-col items-start justify-center gap-6 px-4 py-16 sm:px-6 lg:h-[500px] lg:px-8">
          <h1 className="text-4xl font-extrabold tracking-tight text-ink sm:text-5xl">
            A place to <span className="text-brand-600">share ideas</span>
          </h1>
          <p className="max-w-2xl text-lg text-gray-600">
            Share your stories, thoughts and knowledge with readers around the world, and discover writing that makes
            you think.
          </p>
          <div className="flex flex-wrap gap-3">
            <Link
              to="/dashboard/writeBlogs"
              className="rounded-full bg-brand-600 px-6 py-3 text-sm font-semibold text-white shadow hover:bg-brand-700"
            >
              Write a Blog
            </Link>
            <Link
              to="/allBlogs"
              className="rounded-full border border-gray-300 bg-white px-6 py-3 text-sm font-semibold text-gray-800 hover:bg-gray-50"
            >
              Read Blogs
            </Link>
          </div>
        </div>
      </section>

      <section aria-labelledby="latest-heading" className="mx-auto max-w-7xl px-4 py-16 sm:px-6 lg:px-8">
        <h2 id="latest-heading" className="text-3xl font-bold tracking-tight">
          Latest Blogs
        </h2>
        <div className="mt-8 grid grid-cols-1 gap-6 sm:grid-cols-2 lg:grid-cols-3">
          {latest.map((blog, i) => (
            <BlogCard key={blog._id} blog={blog} eager={i < 3} />
          ))}
        </div>
      </section>
    </>
  );
}
