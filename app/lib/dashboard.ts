import type { MetaDescriptor } from "@remix-run/cloudflare";
import { brandOf } from "#app/lib/site-name.ts";

export interface DashboardLink {
  to: string;
  label: string;
}

/** The spec's two side menus, word for word and in order (section 2, Dashboard). */
export const ADMIN_MENU: readonly DashboardLink[] = [
  { to: "/dashboard/addAuthor", label: "Add Author" },
  { to: "/dashboard/manageUsers", label: "Manage Users" },
  { to: "/dashboard/manageAllBlogs", label: "Manage Blogs" },
  { to: "/dashboard/manageReview", label: "Manage Review" },
  { to: "/dashboard/manageAuthors", label: "Manage Authors" },
  // Beyond the spec's menu: contact messages and newsletter subscribers.
  { to: "/dashboard/inbox", label: "Inbox" },
  // Beyond the spec's menu: subscribers, CSV export and import, each post's send.
  { to: "/dashboard/newsletter", label: "Newsletter" },
  // Beyond the spec's menu: paid membership tiers, members and revenue (Stripe).
  { to: "/dashboard/memberships", label: "Memberships" },
  // Beyond the spec's menu: reported comments with their reasons, kept or deleted.
  { to: "/dashboard/comments", label: "Comments" },
  // Beyond the spec's menu: views, likes, comments and saves of every post.
  { to: "/dashboard/stats", label: "Stats" },
  // Beyond the spec's menu: who reads what, from where (cookieless, kept in the site's own D1).
  { to: "/dashboard/analytics", label: "Analytics" },
  // Beyond the spec's menu: import from WordPress, Ghost, Medium, Substack; the whole site's export.
  { to: "/dashboard/import", label: "Import" },
  { to: "/dashboard/export", label: "Export" },
  // Beyond the spec's menu: blocked fediverse accounts and servers.
  { to: "/dashboard/fediverse", label: "Fediverse" },
  // The site's two pages of text, edited with a preview (reachable from the menu, not only from the pages).
  { to: "/dashboard/pages/privacy", label: "Privacy Policy" },
  { to: "/dashboard/pages/terms", label: "Terms of Use" },
  // Beyond the spec's menu: password, email, sessions, passkeys, data, deleting the account.
  { to: "/settings", label: "Settings" },
  { to: "/", label: "Home" },
];

export const WRITER_MENU: readonly DashboardLink[] = [
  { to: "/dashboard/writeBlogs", label: "Write Blogs" },
  { to: "/dashboard/manageBlogs", label: "Manage Blogs" },
  { to: "/dashboard/feedback", label: "Send Feedback" },
  // Beyond the spec's menu: every comment on the writer's posts, each theirs to delete.
  { to: "/dashboard/comments", label: "Comments" },
  // Beyond the spec's menu: views, likes, comments and saves of the writer's posts.
  { to: "/dashboard/stats", label: "Stats" },
  // Beyond the spec's menu: who reads your posts, from where (cookieless).
  { to: "/dashboard/analytics", label: "Analytics" },
  // Beyond the spec's menu: password, email, sessions, passkeys, data, deleting the account.
  { to: "/settings", label: "Settings" },
  { to: "/", label: "Home" },
];

export const menuFor = (role: "user" | "admin") => (role === "admin" ? ADMIN_MENU : WRITER_MENU);

/** What waits for an admin, by menu entry: the number shown beside it and the words that say what it counts. */
export interface MenuBadge {
  count: number;
  words: string;
}

/** The admin menu's numbers (none at zero, none for writers): pending reviews and reported comments. */
export function menuBadges(
  counts: { pendingReviews: number; reportedComments: number } | null,
): Record<string, MenuBadge | undefined> {
  if (!counts) return {};
  const badge = (count: number, words: string) => (count > 0 ? { count, words } : undefined);
  return {
    "/dashboard/manageReview": badge(counts.pendingReviews, "pending"),
    "/dashboard/comments": badge(counts.reportedComments, "reported"),
  };
}

/** Dashboard pages are private: a title, and no indexing. */
export function dashboardMeta(title: string, matches: Parameters<typeof brandOf>[0]): MetaDescriptor[] {
  return [{ title: `${title} | Dashboard | ${brandOf(matches)}` }, { name: "robots", content: "noindex" }];
}
