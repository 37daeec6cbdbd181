import { Link } from "@remix-run/react";
import { buttonClass } from "#app/components/ui.tsx";
import type { PostVisibility } from "#worker/services/blogs/gate.ts";

/**
 * Where a gated post's preview ends for a reader without access (the shared copy every visitor gets): what it
 * takes to read on. The server sent only the preview; this box is the only thing in its place.
 */
export function MembersCta({ blog }: { blog: { _id: string; visibility: PostVisibility; access: boolean } }) {
  if (blog.access) return null;
  const paid = blog.visibility === "paid";
  return (
    <aside
      className="members-only mt-10 rounded-2xl border border-brand-100 bg-brand-50 p-6 text-center"
      data-members-cta=""
    >
      <h2 className="text-xl font-bold text-gray-900">
        {paid ? "The rest of this post is for paying members" : "The rest of this post is for members"}
      </h2>
      <p className="mt-2 text-gray-700">
        {paid
          ? "Join with a paid plan to read it, and every other members' post."
          : "Sign in or create a free account to read it."}
      </p>
      <Link
        to={
          paid
            ? `/membership?from=${encodeURIComponent(blog._id)}`
            : `/login?redirectTo=${encodeURIComponent(`/blogs/${blog._id}`)}`
        }
        className={`${buttonClass()} mt-4 inline-block`}
      >
        {paid ? "See the plans" : "Sign in"}
      </Link>
    </aside>
  );
}
