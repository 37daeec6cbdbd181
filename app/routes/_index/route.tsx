import { Image } from "#app/components/Image.tsx";
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { buttonClass, EmptyState } from "#app/components/ui.tsx";
import { Link, useLoaderData } from "@remix-run/react";
import { AuthorCard } from "#app/components/AuthorCard.tsx";
import { BlogCard } from "#app/components/BlogCard.tsx";
import { CategoryIcon } from "#app/components/CategoryIcon.tsx";
import { NewsletterForm } from "#app/components/NewsletterForm.tsx";
import { Testimonials } from "#app/components/Testimonials.tsx";
import { TypedHeadline } from "#app/components/TypedHeadline.tsx";
import { FeaturedBlogs } from "./featured-blogs";
import { ReadingGuide } from "./reading-guide";
import { container, SectionHeading } from "./section-heading";
import { CATEGORIES } from "#worker/services/categories.ts";
import { handleForm, readForm, unknownAction } from "#app/lib/forms.server.ts";
import { brandOf, useBrand } from "#app/lib/site-name.ts";
import { seo } from "#app/lib/seo.ts";

const DESCRIPTION =
  "Read and write stories on technology, travel, health, finance, AI and more. Share ideas, express innovation, learn more earn more.";

export const meta: MetaFunction<typeof loader> = ({ data, matches }) => {
  if (!data) return [{ title: brandOf(matches) }];
  return [
    ...seo({
      brand: brandOf(matches),
      title: `${brandOf(matches)}: share ideas, express innovation, learn more`,
      description: DESCRIPTION,
      origin: data.origin,
      path: "/",
    }),
    {
      "script:ld+json": {
        "@context": "https://schema.org",
        "@type": "WebSite",
        name: brandOf(matches),
        url: `${data.origin}/`,
        potentialAction: {
          "@type": "SearchAction",
          target: `${data.origin}/allBlogs?q={search_term_string}`,
          "query-input": "required name=search_term_string",
        },
      },
    },
  ];
};

/** Latest blogs, featured picks, authors and reviews come from one batched D1 round trip (services.home). */
export async function loader({ context, request }: LoaderFunctionArgs) {
  const { latest, featured, authors, reviews } = await context.services.home.load();
  return { latest, featured, authors, reviews, origin: new URL(request.url).origin };
}

export async function action({ context, request }: ActionFunctionArgs) {
  const form = await readForm(request);
  if (form.get("intent") !== "newsletter") return unknownAction(form);
  return handleForm(request, form, async () => {
    await context.services.newsletter.subscribe(form.get("email"), request.headers.get("CF-Connecting-IP"));
    return { ok: true as const };
  });
}

export default function Home() {
  const brand = useBrand();
  const { latest, featured, authors, reviews } = useLoaderData<typeof loader>();
  return (
    <>
      <Hero />

      <section aria-labelledby="latest-heading" className={`${container} py-16 sm:py-20`}>
        <div className="flex flex-wrap items-end justify-between gap-4">
          <SectionHeading id="latest-heading" eyebrow="Fresh from our writers" title="Latest Blogs" />
          <Link to="/allBlogs" className="text-sm font-semibold text-brand-700 hover:underline">
            View all blogs <span aria-hidden="true">→</span>
          </Link>
        </div>
        {latest.length > 0 ? (
          <div className="mt-10 grid grid-cols-1 gap-6 sm:grid-cols-2 lg:grid-cols-3">
            {latest.map((blog) => (
              <BlogCard key={blog._id} blog={blog} />
            ))}
          </div>
        ) : (
          <EmptyState as="p" className="mt-10">
            No blogs have been published yet.{" "}
            <Link to="/dashboard/writeBlogs" className="font-semibold text-brand-700 underline">
              Write the first one
            </Link>
            .
          </EmptyState>
        )}
      </section>

      <FeaturedBlogs picks={featured} />

      <section aria-labelledby="categories-heading" className={`${container} py-16 sm:py-20`}>
        <SectionHeading id="categories-heading" eyebrow="Explore" title="Most Popular Categories">
          Pick a topic and read what our community is writing about it.
        </SectionHeading>
        <ul className="mt-10 grid grid-cols-2 gap-4 sm:grid-cols-3 lg:grid-cols-5" data-testid="categories">
          {CATEGORIES.map((name) => (
            <li key={name}>
              <Link
                to={`/allBlogs?category=${encodeURIComponent(name)}`}
                className="group flex h-full flex-col items-center gap-3 rounded-2xl border border-gray-200 bg-white px-4 py-6 text-center shadow-sm transition hover:-translate-y-0.5 hover:border-brand-500 hover:shadow-md"
              >
                <span className="flex h-14 w-14 items-center justify-center rounded-2xl bg-brand-50 text-brand-600 transition group-hover:bg-brand-600 group-hover:text-white">
                  <CategoryIcon name={name} />
                </span>
                <span className="font-semibold text-ink">{name}</span>
              </Link>
            </li>
          ))}
        </ul>
      </section>

      <ReadingGuide />

      <section aria-labelledby="authors-heading" className={`${container} py-16 sm:py-20`}>
        <SectionHeading id="authors-heading" eyebrow="The people behind the posts" title="Meet Our Authors">
          Writers, researchers and makers who share what they know.
        </SectionHeading>
        {authors.length > 0 ? (
          <ul className="mt-10 flex flex-wrap justify-center gap-6" data-testid="authors">
            {authors.map((a) => (
              <li key={a._id} className="w-full sm:w-[calc(50%-0.75rem)] lg:w-[calc(33.333%-1rem)]">
                <AuthorCard author={a} />
              </li>
            ))}
          </ul>
        ) : (
          <p className="mt-10 text-gray-600">Our authors will be introduced here soon.</p>
        )}
      </section>

      <section aria-labelledby="reviews-heading" className="bg-gray-50 py-16 sm:py-20">
        <div className={container}>
          <SectionHeading id="reviews-heading" eyebrow="Testimonials" title="What Our Users Say">
            Readers and writers on what it is like to use {brand}.
          </SectionHeading>
          <div className="mt-10">
            {reviews.length > 0 ? <Testimonials reviews={reviews} /> : <p className="text-gray-600">No reviews yet.</p>}
          </div>
        </div>
      </section>

      <section id="newsletter" aria-labelledby="newsletter-heading" className={`${container} py-16 sm:py-20`}>
        <div className="relative overflow-hidden rounded-3xl bg-gradient-to-br from-brand-600 to-brand-700 px-6 py-12 text-center text-white shadow-lg sm:px-12 sm:py-16">
          <div
            aria-hidden="true"
            className="pointer-events-none absolute -right-16 -top-16 h-56 w-56 rounded-full bg-white/10"
          />
          <div
            aria-hidden="true"
            className="pointer-events-none absolute -bottom-20 -left-10 h-64 w-64 rounded-full bg-white/5"
          />
          <div className="relative">
            <h2 id="newsletter-heading" className="text-3xl font-bold tracking-tight sm:text-4xl">
              Subscribe to Our Newsletter
            </h2>
            <p className="mx-auto mt-3 max-w-xl text-base text-white/90 sm:text-lg">
              Every new post in your inbox as it is published. Confirm once from the email we send you; every message
              has a one-click unsubscribe. We use your address for nothing else.
            </p>
            <div className="mt-8">
              <NewsletterForm />
            </div>
          </div>
        </div>
      </section>
    </>
  );
}

function Hero() {
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
        className={`${container} relative grid items-center gap-10 py-14 sm:py-20 lg:h-[500px] lg:grid-cols-2 lg:py-0`}
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
            <Link
              to="/allBlogs"
              className="rounded-full border border-gray-300 bg-white px-6 py-3 text-sm font-semibold text-gray-800 hover:bg-gray-50"
            >
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
