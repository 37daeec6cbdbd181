import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { useLoaderData } from "@remix-run/react";
import { DashboardHeader } from "#app/components/DashboardHeader.tsx";
import { Pagination } from "#app/components/Pagination.tsx";
import { samePage } from "#app/lib/admin.server.ts";
import { dashboardMeta } from "#app/lib/dashboard.ts";
import { redirectWithFlash } from "#app/lib/flash.server.ts";
import { handleForm, loadOr404, readForm, unknownAction } from "#app/lib/forms.server.ts";
import { signedInOrRedirect } from "#app/lib/guards.server.ts";
import { MSG } from "#app/lib/messages.ts";
import { ReportedList } from "./reported-list";
import { WriterComments } from "./writer-comments";

const TITLES = { reported: "Reported Comments", writer: "Comments on Your Posts" } as const;

export const meta: MetaFunction<typeof loader> = ({ data, matches }) =>
  dashboardMeta(TITLES[data?.view ?? "reported"], matches);

/**
 * Admins: the reported comments (most recently reported first) with their reasons. Writers: every
 * comment on their own posts, newest first. One D1 round trip either way; the services decide who sees what.
 */
export async function loader({ context, request }: LoaderFunctionArgs) {
  const user = signedInOrRedirect(context, request);
  const page = new URL(request.url).searchParams.get("page");
  if (user.role === "admin") {
    const reported = await loadOr404(() => context.services.commentReports.reported(user, { page }));
    return { view: "reported" as const, reported, comments: null };
  }
  const comments = await loadOr404(() => context.services.comments.onMyPosts(user, { page }));
  return { view: "writer" as const, reported: null, comments };
}

/**
 * Keep (admins: its reports are cleared) or delete (the comment and its replies: an admin any, a writer
 * those under their own posts; anyone else is refused with the 403 page), then the same page again.
 */
export async function action({ context, request }: ActionFunctionArgs) {
  const user = signedInOrRedirect(context, request);
  const form = await readForm(request);
  const id = String(form.get("id") ?? "");
  return handleForm(request, form, async () => {
    switch (form.get("intent")) {
      case "keep":
        await context.services.commentReports.keep(user, id);
        return redirectWithFlash(samePage(request), { kind: "toast", title: "Comment kept", icon: "success" });
      case "delete":
        await context.services.comments.remove(user, id);
        return redirectWithFlash(samePage(request), {
          kind: "alert",
          icon: "success",
          title: MSG.delete.doneTitle,
          text: MSG.delete.doneText,
        });
      default:
        return unknownAction(form);
    }
  });
}

export default function DashboardComments() {
  const { view, reported, comments } = useLoaderData<typeof loader>();
  const list = reported ?? comments;
  return (
    <>
      <DashboardHeader
        title={TITLES[view]}
        description={
          view === "reported"
            ? "Comments readers reported, with their reasons. Keep one to clear its reports, or delete it (with its replies)."
            : "Every comment and reply on your posts, newest first. You may delete any of them."
        }
      />
      {reported ? <ReportedList items={reported.items} /> : null}
      {comments ? <WriterComments items={comments.items} /> : null}
      {list && list.pages > 1 ? (
        <div className="mt-6">
          <Pagination
            page={list.page}
            pages={list.pages}
            label={view === "reported" ? "Reported comment pages" : "Comment pages"}
          />
        </div>
      ) : null}
    </>
  );
}
