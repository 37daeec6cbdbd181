import { READING_PAGE } from "#app/lib/reading-page.ts";
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { EmptyState, containerClass } from "#app/components/ui.tsx";
import { Link, useLoaderData } from "@remix-run/react";
import { AuthorCard } from "#app/components/AuthorCard.tsx";
import { BlogCard } from "#app/components/BlogCard.tsx";
import { CategoryIcon } from "#app/components/CategoryIcon.tsx";
import { NewsletterForm } from "#app/components/NewsletterForm.tsx";
import { Testimonials } from "#app/components/Testimonials.tsx";
import { CATEGORIES } from "#worker/services/categories.ts";
import { handleForm, readForm, unknownAction } from "#app/lib/forms.server.ts";
import { brandOf, useBrand } from "#app/lib/site-name.ts";
import { seo } from "#app/lib/seo.ts";
import { toCard } from "#app/lib/cards.ts";
import { FeaturedBlogs } from "./featured-blogs.tsx";
import { Hero } from "./hero.tsx";
import { ReadingGuide } from "./reading-guide.tsx";
import { SectionHeading } from "./section-heading.tsx";

const DESCRIPTION =
  "Read and write stories on technology, travel, health, finance, AI and more. Share ideas, express innovation, learn more earn more.";

/** A reading page: an anonymous reader gets it without the framework (docs/decisions/059). */
export const handle = READING_PAGE;

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
  return {
    latest: latest.map(toCard),
    featured: featured.map(toCard),
    authors,
    reviews,
    origin: new URL(request.url).origin,
  };
}

export async function action({ context, request }: ActionFunctionArgs) {
  const form = await readForm(request);
  if (form.get("intent") !== "newsletter") return unknownAction(form);
  return handleForm(request, form, async () => {
    const { already } = await context.services.newsletter.subscribe(
      form.get("email"),
      request.headers.get("CF-Connecting-IP"),
      undefined,
      form.get("from"),
      context.user ?? null,
    );
    return { ok: true as const, already: already === true };
  });
}

export default function Home() {
  const brand = useBrand();
  const { latest, featured, authors, reviews } = useLoaderData<typeof loader>();
  return (
    <>
      <Hero />

      <section aria-labelledby="latest-heading" className={containerClass({ className: "py-16 sm:py-20" })}>
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

      <section aria-labelledby="categories-heading" className={containerClass({ className: "py-16 sm:py-20" })}>
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

      <section aria-labelledby="authors-heading" className={containerClass({ className: "py-16 sm:py-20" })}>
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
        <div className={containerClass()}>
          <SectionHeading id="reviews-heading" eyebrow="Testimonials" title="What Our Users Say">
            Readers and writers on what it is like to use {brand}.
          </SectionHeading>
          <div className="mt-10">
            {reviews.length > 0 ? <Testimonials reviews={reviews} /> : <p className="text-gray-600">No reviews yet.</p>}
          </div>
        </div>
      </section>

      <section
        id="newsletter"
        aria-labelledby="newsletter-heading"
        className={containerClass({ className: "py-16 sm:py-20" })}
      >
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
