import { Image } from "./Image";
import type { Author } from "#worker/services/authors.ts";
import { GitHubIcon, LinkedInIcon, TwitterIcon } from "./icons";

const NETWORKS = [
  { key: "twitter", label: "Twitter", Icon: TwitterIcon },
  { key: "linkedin", label: "LinkedIn", Icon: LinkedInIcon },
  { key: "github", label: "GitHub", Icon: GitHubIcon },
] as const;

/**
 * Photo, name and bio. The social links (only those the author has) rise over the photo on hover
 * and whenever focus is inside the card, so keyboard users reach and see them; on touch screens,
 * which cannot hover, they are always shown.
 */
export function AuthorCard({ author }: { author: Author }) {
  const links = NETWORKS.flatMap((n) => (author[n.key] ? [{ ...n, href: author[n.key] as string }] : []));
  return (
    <article className="group flex h-full flex-col overflow-hidden rounded-2xl border border-gray-200 bg-white shadow-sm transition hover:shadow-md">
      <div className="relative overflow-hidden">
        <Image
          src={author.img}
          alt={author.name}
          width={400}
          height={320}
          sizes="(min-width: 1280px) 390px, (min-width: 768px) 31vw, (min-width: 640px) 50vw, 100vw"
          maxWidth={640}
          className="aspect-[5/4] w-full object-cover object-top transition duration-500 group-hover:scale-105"
        />
        {links.length > 0 ? (
          <ul
            aria-label={`${author.name} on social media`}
            data-testid="author-links"
            className="absolute inset-x-0 bottom-0 flex translate-y-3 justify-center gap-3 bg-gradient-to-t from-black/70 to-transparent px-4 pb-4 pt-10 opacity-0 transition duration-300 group-focus-within:translate-y-0 group-focus-within:opacity-100 group-hover:translate-y-0 group-hover:opacity-100 [@media(hover:none)]:translate-y-0 [@media(hover:none)]:opacity-100"
          >
            {links.map(({ key, label, Icon, href }) => (
              <li key={key}>
                <a
                  href={href}
                  target="_blank"
                  rel="noopener noreferrer"
                  aria-label={`${author.name} on ${label}`}
                  className="flex h-10 w-10 items-center justify-center rounded-full bg-white text-gray-800 shadow transition hover:bg-brand-600 hover:text-white focus-visible:outline-white"
                >
                  <Icon />
                </a>
              </li>
            ))}
          </ul>
        ) : null}
      </div>
      <div className="flex flex-1 flex-col p-6">
        <h3 className="text-lg font-semibold text-ink">{author.name}</h3>
        <p className="mt-2 text-sm leading-relaxed text-gray-600">{author.bio}</p>
      </div>
    </article>
  );
}
