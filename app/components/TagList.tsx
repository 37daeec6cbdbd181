import { Link } from "@remix-run/react";
import { tagPath } from "#worker/services/blogs/slug.ts";

/**
 * A post's tags as links to their pages. `onCard`: above the card's whole-card link, so each
 * tag stays its own target.
 */
export function TagList({ tags, onCard = false }: { tags?: string[]; onCard?: boolean }) {
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
    </ul>
  );
}
