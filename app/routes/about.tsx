import { READING_PAGE } from "#app/lib/reading-page.ts";
import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { LineIcon } from "#app/components/icons.tsx";
import { Link, useLoaderData } from "@remix-run/react";
import { FediverseHandle } from "#app/components/FediverseHandle.tsx";
import type { ReactNode } from "react";
import { ABOUT_AUTHOR } from "#app/lib/content.ts";
import { brandOf, useBrand } from "#app/lib/site-name.ts";
import { seo } from "#app/lib/seo.ts";
import { containerClass } from "#app/components/ui.tsx";

const DESCRIPTION = (brand: string) =>
  `${brand} is a home for people who want to share ideas, express innovation and learn from each other. Read about our mission, features and values.`;

/** A reading page: an anonymous reader gets it without the framework (docs/decisions/059). */
export const handle = READING_PAGE;

export const meta: MetaFunction<typeof loader> = ({ data, matches }) =>
  data
    ? seo({
        brand: brandOf(matches),
        title: "About Us",
        description: DESCRIPTION(brandOf(matches)),
        origin: data.origin,
        path: "/about",
      })
    : [{ title: `About Us | ${brandOf(matches)}` }];

/** The origin for canonical and Open Graph URLs, and the site's fediverse handle. */
export async function loader({ request, context }: LoaderFunctionArgs) {
  return { origin: new URL(request.url).origin, handle: await context.services.federation.handleOf(null) };
}

const FEATURES: { title: string; text: string; icon: string }[] = [
  {
    title: "Like",
    text: "Show writers their work landed. One tap tells an author that a post was worth your time.",
    icon: "M20.8 8.6a5 5 0 0 0-8.8-3.2 5 5 0 0 0-8.8 3.2c0 5.4 8.8 11.4 8.8 11.4s8.8-6 8.8-11.4z",
  },
  {
    title: "Comment",
    text: "Ask a question, add an example or share a different view, right under the post.",
    icon: "M4 5h16v11H8l-4 4z",
  },
  {
    title: "Share",
    text: "Send a post to Facebook, Twitter, LinkedIn or WhatsApp, or copy its link in one click.",
    icon: "M16 6l-4-4-4 4M12 2v13M5 12v7a2 2 0 0 0 2 2h10a2 2 0 0 0 2-2v-7",
  },
  {
    title: "Read & Filter",
    text: "Browse every post, narrow them down by category and save the ones you want to come back to.",
    icon: "M3 5h18M6 12h12M10 19h4",
  },
  {
    title: "Write & Edit",
    text: "Publish with a clean editor, add a cover image and update your posts whenever you learn more.",
    icon: "M4 20h4L19 9l-4-4L4 16zM13.5 6.5l4 4",
  },
];

const VALUES: { title: string; text: string }[] = [
  {
    title: "Quality Content",
    text: "We favour posts that teach, explain or move people over posts written for clicks. Every featured pick is read by a human editor.",
  },
  {
    title: "Creativity",
    text: "Tutorials, essays, travel diaries or experiments: there is no single right way to write, and new voices are always welcome.",
  },
  {
    title: "Community",
    text: "Readers and writers help each other grow with kind comments, honest feedback and generous sharing.",
  },
];

function Section({
  id,
  title,
  children,
  className = "",
}: {
  id: string;
  title: string;
  children: ReactNode;
  className?: string;
}) {
  return (
    <section aria-labelledby={id} className={containerClass({ className: `py-14 sm:py-16 ${className}` })}>
      <h2 id={id} className="text-3xl font-bold tracking-tight text-ink">
        {title}
      </h2>
      {children}
    </section>
  );
}

export default function About() {
  const brand = useBrand();
  const { handle } = useLoaderData<typeof loader>();
  return (
    <>
      <section aria-labelledby="about-heading" className="bg-gradient-to-b from-brand-50 to-white">
        <div className={containerClass({ width: "4xl", className: "py-16 text-center sm:py-24" })}>
          <p className="text-sm font-semibold uppercase tracking-wider text-brand-600">About us</p>
          <h1 id="about-heading" className="mt-3 text-4xl font-extrabold tracking-tight text-ink sm:text-5xl">
            Stories worth sharing, from people worth hearing
          </h1>
          <p className="mx-auto mt-5 max-w-2xl text-lg text-gray-600">
            {brand} is an open place to write, read and talk about ideas, from technology and science to travel, health
            and the small habits that make life better.
          </p>
          {handle ? (
            <div className="mx-auto max-w-xl text-left">
              <FediverseHandle handle={handle} who={brand} />
            </div>
          ) : null}
        </div>
      </section>

      <Section id="mission-heading" title="Our Mission">
        <div className="mt-6 grid gap-8 lg:grid-cols-2">
          <p className="text-lg leading-relaxed text-gray-700">
            We believe everyone has something worth teaching. Our mission is to make it effortless to turn what you know
            into a well-presented post, and to put that post in front of readers who will value it.
          </p>
          <p className="text-lg leading-relaxed text-gray-700">
            Knowledge grows when it is shared. By lowering the barrier to publishing and rewarding thoughtful writing,
            we want to help people share ideas, express innovation, and learn more, earn more.
          </p>
        </div>
      </Section>

      <section aria-labelledby="why-heading" className="bg-gray-50">
        <div className={containerClass({ className: "py-14 sm:py-16" })}>
          <h2 id="why-heading" className="text-3xl font-bold tracking-tight text-ink">
            Why {brand}?
          </h2>
          <ul className="mt-8 grid gap-6 md:grid-cols-3">
            {[
              [
                "Fast everywhere",
                "Pages are rendered close to every reader, so posts open quickly even on a slow phone connection.",
              ],
              [
                "Built for readers",
                "Clean typography, no clutter and reading times help you focus on the words, not the page.",
              ],
              ["Free to write", "Create an account and publish in minutes. Your posts, your profile, your voice."],
            ].map(([title, text]) => (
              <li key={title} className="rounded-2xl border border-gray-200 bg-white p-6 shadow-sm">
                <h3 className="text-lg font-semibold text-ink">{title}</h3>
                <p className="mt-2 text-gray-600">{text}</p>
              </li>
            ))}
          </ul>
        </div>
      </section>

      <Section id="features-heading" title="Our Features">
        <ul className="mt-8 grid gap-6 sm:grid-cols-2 lg:grid-cols-5">
          {FEATURES.map((f) => (
            <li key={f.title} className="rounded-2xl border border-gray-200 bg-white p-6 shadow-sm">
              <span className="flex h-12 w-12 items-center justify-center rounded-xl bg-brand-50 text-brand-600">
                <LineIcon d={f.icon} size={24} strokeWidth={1.8} />
              </span>
              <h3 className="mt-4 text-lg font-semibold text-ink">{f.title}</h3>
              <p className="mt-2 text-sm leading-relaxed text-gray-600">{f.text}</p>
            </li>
          ))}
        </ul>
      </Section>

      <section aria-labelledby="author-heading" className="bg-gray-50">
        <div className={containerClass({ className: "py-14 sm:py-16" })}>
          <h2 id="author-heading" className="text-3xl font-bold tracking-tight text-ink">
            Meet the Author
          </h2>
          <div className="mt-8 flex flex-col items-center gap-6 rounded-2xl border border-gray-200 bg-white p-8 shadow-sm sm:flex-row sm:items-start">
            <span
              aria-hidden="true"
              className="flex h-24 w-24 shrink-0 items-center justify-center rounded-full bg-gradient-to-br from-brand-500 to-brand-700 text-3xl font-bold text-white"
            >
              {ABOUT_AUTHOR.name
                .split(" ")
                .map((part) => part[0])
                .join("")}
            </span>
            <div className="text-center sm:text-left">
              <h3 className="text-xl font-semibold text-ink">{ABOUT_AUTHOR.name}</h3>
              <p className="text-sm font-medium text-brand-700">{ABOUT_AUTHOR.role}</p>
              <p className="mt-3 max-w-3xl leading-relaxed text-gray-600">{ABOUT_AUTHOR.bio}</p>
            </div>
          </div>
        </div>
      </section>

      <Section id="values-heading" title="Our Values">
        <ul className="mt-8 grid gap-6 md:grid-cols-3">
          {VALUES.map((v, i) => (
            <li key={v.title} className="rounded-2xl border border-gray-200 bg-white p-6 shadow-sm">
              <span className="text-sm font-bold text-brand-600" aria-hidden="true">
                0{i + 1}
              </span>
              <h3 className="mt-2 text-lg font-semibold text-ink">{v.title}</h3>
              <p className="mt-2 text-gray-600">{v.text}</p>
            </li>
          ))}
        </ul>
        <div className="mt-12 flex flex-col items-center gap-4 rounded-3xl bg-brand-600 px-6 py-10 text-center text-white sm:flex-row sm:justify-between sm:text-left">
          <p className="text-xl font-semibold">Have something worth sharing?</p>
          <div className="flex flex-wrap justify-center gap-3">
            <Link
              to="/dashboard/writeBlogs"
              className="rounded-full bg-white px-5 py-2.5 text-sm font-semibold text-brand-700 hover:bg-brand-50"
            >
              Write a Blog
            </Link>
            <Link
              to="/contact"
              className="rounded-full border border-white/60 px-5 py-2.5 text-sm font-semibold text-white hover:bg-white/10"
            >
              Contact us
            </Link>
          </div>
        </div>
      </Section>
    </>
  );
}
