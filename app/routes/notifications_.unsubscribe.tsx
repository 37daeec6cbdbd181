import { data, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/cloudflare";
import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import { NoticeCard } from "#app/components/NoticeCard.tsx";
import { buttonClass } from "#app/components/ui.tsx";
import { brandOf } from "#app/lib/site-name.ts";
import { KIND_LABELS } from "#worker/services/notifications/texts.ts";
import { DomainError } from "#worker/services/shared/errors.ts";

export const meta: MetaFunction = ({ matches }) => [
  { title: `Stop these emails | ${brandOf(matches)}` },
  { name: "robots", content: "noindex" },
];

const tokenOf = (request: Request) => new URL(request.url).searchParams.get("token");

/** GET only shows the page (a link scanner that opens it turns nothing off): RFC 8058. */
export async function loader({ context, request }: LoaderFunctionArgs) {
  try {
    const { kind } = await context.services.notifications.unsubscribeInfo(tokenOf(request));
    return { ok: true as const, label: KIND_LABELS[kind] };
  } catch (err) {
    if (err instanceof DomainError) return data({ ok: false as const, message: err.message }, { status: 400 });
    throw err;
  }
}

/** One click: the mail client's POST (`List-Unsubscribe=One-Click`) or the page's button. */
export async function action({ context, request }: ActionFunctionArgs) {
  try {
    const { label } = await context.services.notifications.unsubscribe(tokenOf(request));
    return { ok: true as const, label };
  } catch (err) {
    if (err instanceof DomainError) return data({ ok: false as const, message: err.message }, { status: 400 });
    throw err;
  }
}

export default function NotificationUnsubscribe() {
  const page = useLoaderData<typeof loader>();
  const done = useActionData<typeof action>();
  const failure = done && !done.ok ? done : !page.ok ? page : null;
  if (failure) {
    return (
      <NoticeCard title="This link does not work" tone="warning">
        <p>{failure.message}</p>
      </NoticeCard>
    );
  }
  const label = done?.ok ? done.label : page.ok ? page.label : "";
  if (done?.ok) {
    return (
      <NoticeCard title="Those emails are off">
        <p>You will get no more emails for “{label}”. The notifications still show on the site.</p>
        <p className="mt-6">
          <Link to="/settings#notifications" className={buttonClass({ tone: "secondary" })}>
            Notification settings
          </Link>
        </p>
      </NoticeCard>
    );
  }
  return (
    <NoticeCard title="Stop these emails?">
      <p>No more emails for “{label}”. You can turn them back on in your settings.</p>
      <Form method="post" className="mt-6">
        <button type="submit" className={buttonClass({})}>
          Stop these emails
        </button>
      </Form>
    </NoticeCard>
  );
}
