import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { Form, Link, useLoaderData } from "@remix-run/react";
import { Avatar } from "#app/components/Avatar.tsx";
import { SubmitButton } from "#app/components/form.tsx";
import { LocalTime } from "#app/components/LocalTime.tsx";
import { EmptyPage, PagedList } from "#app/components/PagedList.tsx";
import { buttonClass, containerClass } from "#app/components/ui.tsx";
import { handleForm, loadOr404, readForm, unknownAction } from "#app/lib/forms.server.ts";
import { signedInOrRedirect } from "#app/lib/guards.server.ts";
import { brandOf } from "#app/lib/site-name.ts";

export const meta: MetaFunction = ({ matches }) => [
  { title: `Notifications | ${brandOf(matches)}` },
  { name: "robots", content: "noindex" },
];

/** The signed-in person's notifications, newest first, a page at a time (personal: never shared). */
export async function loader({ context, request }: LoaderFunctionArgs) {
  const user = signedInOrRedirect(context, request);
  const page = new URL(request.url).searchParams.get("page");
  const list = await loadOr404(() => context.services.notifications.list(user, { page }));
  return { list };
}

/** Mark one or all read: plain form posts (no JavaScript needed); the page and the bell then reload. */
export async function action({ context, request }: ActionFunctionArgs) {
  const user = signedInOrRedirect(context, request);
  const form = await readForm(request);
  const intent = form.get("intent");
  if (intent !== "read-all" && intent !== "read") return unknownAction(form);
  return handleForm(request, form, async () => {
    const ids = intent === "read" ? [String(form.get("id") ?? "")] : undefined;
    const { modifiedCount } = await context.services.notifications.markRead(user, ids ? { ids } : {});
    return { ok: true as const, modifiedCount };
  });
}

export default function Notifications() {
  const { list } = useLoaderData<typeof loader>();
  const unreadHere = list.items.some((n) => !n.read);
  return (
    <div className={containerClass({ width: "3xl", className: "py-10" })}>
      <div className="flex flex-wrap items-end justify-between gap-4">
        <div>
          <p className="text-sm font-semibold uppercase tracking-wider text-brand-600">Notifications</p>
          <h1 className="mt-1 text-3xl font-extrabold tracking-tight text-ink sm:text-4xl">What happened</h1>
          <p className="mt-2 text-sm text-gray-600">
            Comments, replies, followers, likes and new posts from writers you follow.{" "}
            <Link to="/settings#notifications" className="font-semibold text-brand-700 hover:underline">
              Email settings
            </Link>
          </p>
        </div>
        {unreadHere ? (
          <Form method="post">
            <SubmitButton name="intent" value="read-all" tone="secondary" pendingText="Marking…">
              Mark all as read
            </SubmitButton>
          </Form>
        ) : null}
      </div>

      <PagedList
        list={list}
        as="ol"
        className="mt-8 flex flex-col gap-3"
        label="Notifications"
        // A pager for one page is noise (issue 47).
        pagerOnlyWhenPaged
        itemClassName={(n) =>
          `flex flex-wrap items-center gap-3 rounded-2xl border p-4 shadow-sm ${
            n.read ? "border-gray-200 bg-white" : "border-brand-200 bg-brand-50"
          }`
        }
        renderItem={(n) => (
          <>
            <Avatar photoURL={n.actor?.photoURL ?? null} size={40} />
            {/* At least 13rem: on a phone "Mark as read" goes under the words instead of squeezing them. */}
            <div className="min-w-0 flex-1 basis-52">
              {/* Through /notifications/{id}: opening it marks it read on the way (a full load, so the bell's count follows). */}
              <Link
                to={`/notifications/${n._id}`}
                reloadDocument
                className="block break-words text-sm font-medium text-ink hover:text-brand-700"
              >
                {n.read ? null : <span className="sr-only">Unread: </span>}
                {n.text}
              </Link>
              {n.excerpt ? (
                // The comment's own words: five replies to one comment read as five different things.
                <p className="mt-1 line-clamp-2 break-words border-l-2 border-gray-300 pl-3 text-sm text-gray-700">
                  “{n.excerpt}”
                </p>
              ) : null}
              {n.private_reply ? (
                // A reply from the fediverse addressed to this writer alone: shown here, to them, only.
                <blockquote
                  id={`private-${n.private_reply._id}`}
                  className="mt-1 whitespace-pre-line break-words border-l-2 border-gray-300 pl-3 text-sm text-gray-800"
                >
                  {n.private_reply.warning ? (
                    <details>
                      <summary className="cursor-pointer font-semibold text-amber-800 dark:text-amber-300">
                        {`Content warning: ${n.private_reply.warning}`}
                      </summary>
                      {n.private_reply.text}
                    </details>
                  ) : (
                    n.private_reply.text
                  )}
                </blockquote>
              ) : null}
              <p className="mt-0.5 text-xs text-gray-600">
                <LocalTime iso={n.updated_at} withTime />
              </p>
            </div>
            {n.read ? null : (
              <Form method="post" className="ml-auto shrink-0">
                <input type="hidden" name="id" value={n._id} />
                <button
                  type="submit"
                  name="intent"
                  value="read"
                  aria-label={`Mark as read: ${n.text}`}
                  className="rounded-full border border-gray-300 bg-white px-3 py-1 text-xs font-semibold text-gray-800 hover:bg-gray-50"
                >
                  Mark as read
                </button>
              </Form>
            )}
          </>
        )}
        pagerLabel="Pages of notifications"
        empty={
          <EmptyPage
            list={list}
            title="No notifications yet"
            text="When someone comments on your posts, follows you or likes what you wrote, you will see it here."
          >
            <Link to="/allBlogs" className={buttonClass({ className: "mt-6" })}>
              Read all blogs
            </Link>
          </EmptyPage>
        }
      />
    </div>
  );
}
