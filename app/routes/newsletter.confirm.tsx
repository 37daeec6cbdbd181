import { data, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/cloudflare";
import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import { NoticeCard } from "#app/components/NoticeCard.tsx";
import { buttonClass } from "#app/components/ui.tsx";
import { brandOf } from "#app/lib/site-name.ts";
import { tokenPageHeaders } from "#app/lib/token-page.ts";
import { DomainError } from "#worker/services/shared/errors.ts";

export const meta: MetaFunction = ({ matches }) => [
  { title: `Newsletter | ${brandOf(matches)}` },
  { name: "robots", content: "noindex" },
];

// The URL carries the signed token: same-origin, so the no-JS button's POST still carries an Origin.
export const headers = tokenPageHeaders;

const tokenOf = (request: Request) => new URL(request.url).searchParams.get("token");

/**
 * The link of the confirmation mail (double opt-in). Opening it subscribes nobody: mail scanners follow
 * links, so GET only checks the signed link and shows a "Confirm subscription" button, a form that posts
 * to this same URL (without JavaScript too). The link expires; confirming again changes nothing.
 */
export async function loader({ context, request }: LoaderFunctionArgs) {
  try {
    const { email, state } = await context.services.newsletter.confirmInfo(tokenOf(request));
    return { ok: true as const, email, confirmed: state === "confirmed" };
  } catch (err) {
    if (err instanceof DomainError) return data({ ok: false as const, message: err.message }, { status: 400 });
    throw err;
  }
}

/** The button: the signed token in the URL is the only credential (no session). */
export async function action({ context, request }: ActionFunctionArgs) {
  try {
    const { email, unsubscribeToken } = await context.services.newsletter.confirm(tokenOf(request));
    return {
      ok: true as const,
      email,
      unsubscribe: `/newsletter/unsubscribe?token=${encodeURIComponent(unsubscribeToken)}`,
    };
  } catch (err) {
    if (err instanceof DomainError) return data({ ok: false as const, message: err.message }, { status: 400 });
    throw err;
  }
}

export default function NewsletterConfirm() {
  const page = useLoaderData<typeof loader>();
  const done = useActionData<typeof action>();
  const failure = done && !done.ok ? done : !page.ok ? page : null;
  if (failure) {
    return (
      <NoticeCard title="We could not confirm this address" tone="warning">
        <p>{failure.message}</p>
        <p className="mt-6">
          <Link to="/#newsletter" className={buttonClass({ tone: "primary" })}>
            Subscribe again
          </Link>
        </p>
      </NoticeCard>
    );
  }
  if (done?.ok) {
    return (
      <NoticeCard title="You're subscribed">
        <p>
          <strong className="break-all">{done.email}</strong> will get every new post as it is published.
        </p>
        <p className="mt-6 flex flex-wrap items-center justify-center gap-3">
          <Link to="/allBlogs" className={buttonClass({ tone: "primary" })}>
            Read the latest posts
          </Link>
          <Link to={done.unsubscribe} className={buttonClass({ tone: "secondary" })}>
            Unsubscribe
          </Link>
        </p>
      </NoticeCard>
    );
  }
  const email = page.ok ? page.email : "";
  const confirmed = page.ok && page.confirmed;
  return (
    <NoticeCard
      title={confirmed ? "This address is subscribed" : "Confirm your subscription"}
      tone={confirmed ? "success" : "ask"}
    >
      <p>
        {confirmed ? (
          <>
            <strong className="break-all">{email}</strong> already gets every new post as it is published.
          </>
        ) : (
          <>
            Press the button and <strong className="break-all">{email}</strong> will get every new post by email. If you
            did not ask for this, close this page and nothing happens.
          </>
        )}
      </p>
      {confirmed ? (
        <p className="mt-6">
          <Link to="/allBlogs" className={buttonClass({ tone: "primary" })}>
            Read the latest posts
          </Link>
        </p>
      ) : (
        <Form method="post" className="mt-6 flex flex-wrap items-center justify-center gap-3">
          <button type="submit" className={buttonClass({ tone: "primary" })}>
            Confirm subscription
          </button>
        </Form>
      )}
    </NoticeCard>
  );
}
