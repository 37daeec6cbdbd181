import { data, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/cloudflare";
import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import { NoticeCard } from "#app/components/NoticeCard.tsx";
import { buttonClass } from "#app/components/ui.tsx";
import { brandOf } from "#app/lib/site-name.ts";
import { DomainError } from "#worker/services/shared/errors.ts";

export const meta: MetaFunction = ({ matches }) => [
  { title: `Unsubscribe | ${brandOf(matches)}` },
  { name: "robots", content: "noindex" },
];

const tokenOf = (request: Request) => new URL(request.url).searchParams.get("token");

/** GET only shows the page (a link scanner that opens it unsubscribes nobody): RFC 8058. */
export async function loader({ context, request }: LoaderFunctionArgs) {
  try {
    const { email, state } = await context.services.newsletter.unsubscribeInfo(tokenOf(request));
    return { ok: true as const, email, unsubscribed: state === "unsubscribed" };
  } catch (err) {
    if (err instanceof DomainError) return data({ ok: false as const, message: err.message }, { status: 400 });
    throw err;
  }
}

/**
 * One click: the mail client's POST (body `List-Unsubscribe=One-Click`, RFC 8058) or the page's button.
 * The signed token in the URL is the only credential: no session, no further question.
 */
export async function action({ context, request }: ActionFunctionArgs) {
  try {
    const { email } = await context.services.newsletter.unsubscribe(tokenOf(request));
    return { ok: true as const, email };
  } catch (err) {
    if (err instanceof DomainError) return data({ ok: false as const, message: err.message }, { status: 400 });
    throw err;
  }
}

export default function NewsletterUnsubscribe() {
  const page = useLoaderData<typeof loader>();
  const done = useActionData<typeof action>();
  const failure = done && !done.ok ? done : !page.ok ? page : null;
  if (failure) {
    return (
      <NoticeCard title="This unsubscribe link does not work" tone="warning">
        <p>{failure.message}</p>
        {/* A broken link must never trap anyone on the list: two other ways out. */}
        <p className="mt-4">
          The unsubscribe link in any newer newsletter message works too. Or{" "}
          <Link to="/settings#newsletter" className="font-semibold text-brand-700 underline underline-offset-2">
            unsubscribe in your settings
          </Link>{" "}
          if you have an account, or{" "}
          <Link to="/contact" className="font-semibold text-brand-700 underline underline-offset-2">
            write to us
          </Link>{" "}
          with your address and we will take it off the list.
        </p>
      </NoticeCard>
    );
  }
  if ((done && done.ok) || (page.ok && page.unsubscribed)) {
    const email = done?.ok ? done.email : page.ok ? page.email : "";
    return (
      <NoticeCard title="You're unsubscribed">
        <p>
          <strong className="break-all">{email}</strong> will get no more newsletter messages.
        </p>
        <p className="mt-6">
          <Link to="/#newsletter" className={buttonClass({ tone: "secondary" })}>
            Changed your mind? Subscribe again
          </Link>
        </p>
      </NoticeCard>
    );
  }
  return (
    <NoticeCard title="Unsubscribe from the newsletter?" tone="warning">
      <p>
        <strong className="break-all">{page.ok ? page.email : ""}</strong> will get no more new posts by email.
      </p>
      <Form method="post" className="mt-6 flex flex-wrap items-center justify-center gap-3">
        <input type="hidden" name="List-Unsubscribe" value="One-Click" />
        <button type="submit" className={buttonClass({ tone: "danger" })}>
          Unsubscribe
        </button>
        <Link to="/" className={buttonClass({ tone: "secondary" })}>
          Keep me subscribed
        </Link>
      </Form>
    </NoticeCard>
  );
}
