import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { LocalTime } from "#app/components/LocalTime.tsx";
import { SubscribedAt } from "#app/components/SubscribedAt.tsx";
import { EmptyState } from "#app/components/ui.tsx";
import { useLoaderData } from "@remix-run/react";
import { DashboardHeader } from "#app/components/DashboardHeader.tsx";
import { dashboardMeta } from "#app/lib/dashboard.ts";
import { adminOrForbidden } from "#app/lib/guards.server.ts";
import { loadOr404 } from "#app/lib/forms.server.ts";
import { Pagination } from "#app/components/Pagination.tsx";
import { parsePaging } from "#worker/services/shared/pagination.ts";

export const handle = { title: "Inbox" };

export const meta: MetaFunction = ({ matches }) => dashboardMeta("Inbox", matches);

/**
 * Two D1 round trips, sent at the same time: a page of contact messages (?page) and a page of newsletter
 * subscribers (?subscribers), each with its total.
 */
export async function loader({ context, request }: LoaderFunctionArgs) {
  const admin = adminOrForbidden(context, request);
  const url = new URL(request.url);
  const [messages, subscribers] = await loadOr404(async () => {
    // The shared pagination rules for both lists (a bad value is the 400 page).
    const subscriberPage = parsePaging({ page: url.searchParams.get("subscribers") }, 50).page;
    const [m, s] = await Promise.all([
      context.services.contact.inboxPage(admin, { page: url.searchParams.get("page"), limit: 20 }),
      context.services.newsletter.subscribers(admin, { page: subscriberPage }),
    ]);
    return [m, { items: s.subscribers, total: s.total, page: s.page, pages: s.pages }] as const;
  });
  return { messages, subscribers };
}

export default function Inbox() {
  const { messages: messagePage, subscribers: subscriberPage } = useLoaderData<typeof loader>();
  const messages = messagePage.items;
  const subscribers = subscriberPage.items;
  return (
    <>
      <DashboardHeader
        title="Inbox"
        description="Messages sent through the contact page, and the newsletter's subscribers."
      />
      <div className="grid gap-8 xl:grid-cols-[minmax(0,1fr)_18rem]">
        <section aria-labelledby="messages-heading">
          <h2 id="messages-heading" className="flex items-center gap-2 text-lg font-semibold text-ink">
            Contact messages
            <span className="rounded-full bg-brand-50 px-2 py-0.5 text-xs font-semibold text-brand-700">
              {messagePage.total}
            </span>
          </h2>
          {messages.length === 0 ? (
            <EmptyState as="p" className="mt-4">
              No messages yet.
            </EmptyState>
          ) : (
            <ul className="mt-4 flex flex-col gap-4">
              {messages.map((m) => (
                <li key={m._id}>
                  <article
                    aria-labelledby={`m-${m._id}`}
                    className="rounded-2xl border border-gray-200 bg-white p-4 shadow-sm sm:p-5"
                  >
                    <header className="flex flex-wrap items-baseline justify-between gap-x-4 gap-y-1">
                      <h3 id={`m-${m._id}`} className="font-semibold text-ink">
                        {m.subject || "(no subject)"}
                      </h3>
                      <LocalTime iso={m.created_at} withTime className="text-xs text-gray-500" />
                    </header>
                    <p className="mt-1 text-sm text-gray-600">
                      From {m.name}{" "}
                      <a href={`mailto:${m.email}`} className="break-all text-brand-700 hover:underline">
                        &lt;{m.email}&gt;
                      </a>
                    </p>
                    <p className="mt-3 text-sm whitespace-pre-line text-gray-800">{m.message}</p>
                  </article>
                </li>
              ))}
            </ul>
          )}
          {messagePage.pages > 1 ? (
            <div className="mt-6">
              <Pagination page={messagePage.page} pages={messagePage.pages} label="Message pages" />
            </div>
          ) : null}
        </section>
        <section aria-labelledby="subscribers-heading">
          <h2 id="subscribers-heading" className="flex items-center gap-2 text-lg font-semibold text-ink">
            Newsletter subscribers
            <span className="rounded-full bg-brand-50 px-2 py-0.5 text-xs font-semibold text-brand-700">
              {subscriberPage.total}
            </span>
          </h2>
          {subscribers.length === 0 ? (
            <EmptyState as="p" className="mt-4">
              No subscribers yet.
            </EmptyState>
          ) : (
            <ul className="mt-4 divide-y divide-gray-100 rounded-2xl border border-gray-200 bg-white shadow-sm">
              {subscribers.map((s) => (
                <li key={s._id} className="flex flex-col gap-0.5 px-4 py-3">
                  <span className="text-sm font-medium break-all text-ink">{s.email}</span>
                  <span className="text-xs text-gray-500">
                    {s.subscribed_at ? "Subscribed " : null}
                    <SubscribedAt subscriber={s} />
                  </span>
                </li>
              ))}
            </ul>
          )}
          {subscriberPage.pages > 1 ? (
            <div className="mt-4">
              <Pagination
                page={subscriberPage.page}
                pages={subscriberPage.pages}
                param="subscribers"
                label="Subscriber pages"
              />
            </div>
          ) : null}
        </section>
      </div>
    </>
  );
}
