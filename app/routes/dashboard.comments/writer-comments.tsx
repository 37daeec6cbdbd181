import { Link } from "@remix-run/react";
import { ConfirmForm } from "#app/components/ConfirmForm.tsx";
import { LocalTime } from "#app/components/LocalTime.tsx";
import { EmptyState } from "#app/components/ui.tsx";
import { postPath } from "#worker/services/blogs/slug.ts";
import type { CommentOnPost } from "#worker/services/comments/service.ts";

/** A writer's list: each comment or reply on their posts, where it is, and Delete. */
export function WriterComments({ items }: { items: CommentOnPost[] }) {
  if (items.length === 0) {
    return (
      <EmptyState as="p">No comments on your posts yet. When readers comment, you will find them here.</EmptyState>
    );
  }
  return (
    <ul className="flex flex-col gap-4" aria-label="Comments on your posts">
      {items.map((c) => (
        <li key={c._id}>
          <article
            aria-labelledby={`wc-${c._id}`}
            className="rounded-2xl border border-gray-200 bg-white p-4 shadow-sm sm:p-5"
          >
            <header className="flex flex-wrap items-baseline justify-between gap-x-4 gap-y-1">
              <h2 id={`wc-${c._id}`} className="text-sm font-semibold text-ink">
                {c.author.name}
                <span className="font-normal text-gray-600">
                  {" "}
                  {c.parent_id ? "replied on" : "commented on"}{" "}
                  <Link
                    to={`${postPath({ id: c.blog._id, title: c.blog.title })}#comment-${c._id}`}
                    className="font-medium text-brand-700 hover:underline"
                  >
                    {c.blog.title}
                  </Link>
                </span>
              </h2>
              <LocalTime iso={c.created_at} withTime className="text-xs text-gray-600" />
            </header>
            <p className="mt-3 rounded-xl bg-gray-50 px-4 py-3 text-[15px] break-words whitespace-pre-line text-gray-800">
              {c.body}
            </p>
            <div className="mt-3 flex flex-wrap gap-2">
              <ConfirmForm
                fields={{ intent: "delete", id: c._id }}
                ask="delete"
                tone="danger"
                pendingText="Deleting…"
                label={`Delete comment by ${c.author.name}`}
              >
                Delete
              </ConfirmForm>
            </div>
          </article>
        </li>
      ))}
    </ul>
  );
}
