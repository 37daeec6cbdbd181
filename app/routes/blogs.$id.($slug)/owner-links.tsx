import { Link } from "@remix-run/react";

/**
 * Edit and Stats on the post itself, for its writer and for admins (an admin edits through Manage All
 * Blogs' form). Nobody else sees them; the page of a signed-in person is never a shared copy.
 */
export function OwnerLinks({
  blogId,
  authorId,
  viewer,
}: {
  blogId: string;
  authorId: string;
  viewer: { id: string; role: string } | null;
}) {
  const own = viewer?.id === authorId;
  if (!viewer || (!own && viewer.role !== "admin")) return null;
  const edit = own ? `/dashboard/updateBlog/${blogId}` : `/dashboard/updateAllBlogs/${blogId}`;
  const pill =
    "inline-flex items-center rounded-full border border-gray-300 bg-white px-3 py-1 text-sm font-semibold text-gray-800 hover:bg-gray-50";
  return (
    <nav aria-label="Your post" className="mt-4 flex flex-wrap items-center gap-2">
      <Link to={edit} className={pill}>
        Edit
      </Link>
      {/* This post's own numbers (issue 47: it opened the list of every post). */}
      <Link to={`/dashboard/analytics/${blogId}`} className={pill}>
        Stats
      </Link>
    </nav>
  );
}
