import { data, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/cloudflare";
import { Link, useLoaderData } from "@remix-run/react";
import { NoticeCard } from "#app/components/NoticeCard.tsx";
import { buttonClass } from "#app/components/ui.tsx";
import { brandOf } from "#app/lib/site-name.ts";
import { DomainError } from "#worker/services/shared/errors.ts";

export const meta: MetaFunction = ({ matches }) => [
  { title: `Newsletter | ${brandOf(matches)}` },
  { name: "robots", content: "noindex" },
];

/**
 * The link of the confirmation mail (double opt-in): opening it confirms the address. It is signed and
 * expires, so only someone who read that mail can confirm; opening it again changes nothing.
 */
export async function loader({ context, request }: LoaderFunctionArgs) {
  const token = new URL(request.url).searchParams.get("token");
  try {
    const { email, unsubscribeToken } = await context.services.newsletter.confirm(token);
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
  const result = useLoaderData<typeof loader>();
  if (!result.ok) {
    return (
      <NoticeCard title="We could not confirm this address" tone="warning">
        <p>{result.message}</p>
        <p className="mt-6">
          <Link to="/#newsletter" className={buttonClass({ tone: "primary" })}>
            Subscribe again
          </Link>
        </p>
      </NoticeCard>
    );
  }
  return (
    <NoticeCard title="You're subscribed">
      <p>
        <strong className="break-all">{result.email}</strong> will get every new post as it is published.
      </p>
      <p className="mt-6 flex flex-wrap items-center justify-center gap-3">
        <Link to="/allBlogs" className={buttonClass({ tone: "primary" })}>
          Read the latest posts
        </Link>
        <Link to={result.unsubscribe} className={buttonClass({ tone: "secondary" })}>
          Unsubscribe
        </Link>
      </p>
    </NoticeCard>
  );
}
