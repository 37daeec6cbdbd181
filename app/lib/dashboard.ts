import type { MetaDescriptor } from "@remix-run/cloudflare";
import { BRAND } from "./messages";

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
  { to: "/", label: "Home" },
];

export const WRITER_MENU: readonly DashboardLink[] = [
  { to: "/dashboard/writeBlogs", label: "Write Blogs" },
  { to: "/dashboard/manageBlogs", label: "Manage Blogs" },
  { to: "/dashboard/feedback", label: "Send Feedback" },
  { to: "/", label: "Home" },
];

export const menuFor = (role: "user" | "admin") => (role === "admin" ? ADMIN_MENU : WRITER_MENU);

/** Dashboard pages are private: a title, and no indexing. */
export function dashboardMeta(title: string): MetaDescriptor[] {
  return [{ title: `${title} | Dashboard | ${BRAND}` }, { name: "robots", content: "noindex" }];
}

/** What a refused form says in its dialog: the field messages, or the form's own message. */
export function failureText(failure: { formError?: string; fields: Record<string, string> }, fallback: string): string {
  const fields = Object.values(failure.fields);
  return fields.length ? fields.join("\n") : (failure.formError ?? fallback);
}

/**
 * The action's refusal (FormFailure from forms.server.ts) as a component sees it. Components cannot
 * import a .server module, so this is the client-side reading of the same shape.
 */
export interface RefusedForm {
  ok: false;
  code?: string;
  formError?: string;
  fields: Record<string, string>;
  values: Record<string, string>;
}

export function refusal(result: unknown): RefusedForm | null {
  return typeof result === "object" && result !== null && (result as { ok?: unknown }).ok === false
    ? (result as RefusedForm)
    : null;
}
