import { Link } from "@remix-run/react";
import { LocalTime } from "#app/components/LocalTime.tsx";

/** What the writer or an admin reads above a post readers cannot see yet (a draft, or scheduled). */
export function PreviewNotice({ blog }: { blog: { _id: string; status?: string; publish_at?: string | null } }) {
  if (!blog.status || blog.status === "published") return null;
  return (
    <p role="status" className="mb-6 rounded-lg border border-amber-200 bg-amber-50 px-4 py-3 text-sm text-amber-900">
      <strong className="font-semibold">Preview.</strong>{" "}
      {blog.status === "scheduled" && blog.publish_at ? (
        <>
          This post is scheduled for <LocalTime iso={blog.publish_at} withTime />; until then only you and admins can
          see it.
        </>
      ) : (
        "This post is a draft: only you and admins can see it."
      )}{" "}
      <Link to={`/dashboard/updateBlog/${blog._id}`} className="font-semibold underline underline-offset-2">
        Edit
      </Link>
    </p>
  );
}
