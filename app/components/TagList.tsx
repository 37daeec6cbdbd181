import { Link } from "@remix-run/react";
import { tagPath } from "#worker/services/blogs/slug.ts";

/**
 * A post's tags as links to their pages, each as the writer spelled it ("#Web Performance"), linked by its
 * slug (/tags/web-performance). `onCard`: above the card's whole-card link, so each tag stays its own
 * target. `withIndex`: a last link to /tags, every tag of the site (the post's page).
 */
export function TagList({
  tags,
  onCard = false,
  withIndex = false,
}: {
  tags?: string[];
  onCard?: boolean;
  withIndex?: boolean;
}) {
  if (!tags?.length) return null;
  return (
    <ul aria-label="Tags" className="flex flex-wrap gap-x-3 gap-y-1 text-sm">
      {tags.map((tag) => (
        <li key={tag} className="min-w-0">
          <Link
            to={tagPath(tag)}
            className={`break-all font-medium text-gray-600 underline-offset-2 hover:text-brand-700 hover:underline ${onCard ? "relative z-10" : ""}`}
          >
            #{tag}
          </Link>
        </li>
      ))}
      {withIndex ? (
        <li className="min-w-0">
          <Link to="/tags" className="font-medium text-brand-700 underline-offset-2 hover:underline">
            All tags
          </Link>
        </li>
      ) : null}
    </ul>
  );
}
