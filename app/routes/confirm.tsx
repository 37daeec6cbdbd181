import { configOf } from "#worker/config.ts";
import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { Link, useLoaderData } from "@remix-run/react";
import { buttonClass } from "#app/components/ui.tsx";
import { readConfirmation, type ConfirmKind } from "#app/lib/confirm.ts";
import { holdingsText } from "#app/lib/holdings.ts";
import { MSG } from "#app/lib/messages.ts";
import { brandOf } from "#app/lib/site-name.ts";
import { verifyConfirmStep } from "#worker/security/confirm-token.ts";

export const meta: MetaFunction = ({ matches }) => [
  { title: `${MSG.confirm.delete.title} | ${brandOf(matches)}` },
  { name: "robots", content: "noindex" },
];

/**
 * The confirmation step of Delete, Make Admin, Remove admin and Sign Out without JavaScript: nothing
 * changes here; the page asks in the dialog's words and posts the original form only on "Yes".
 */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const confirmation = readConfirmation(new URL(request.url));
  if (!confirmation) throw new Response("There is nothing to confirm here.", { status: 400 });
  // Only a button this site rendered, for this session, a short while ago, with these very fields:
  // a link someone else made (or changed) cannot arm the form below.
  const { kind, to, fields, token } = confirmation;
  const genuine = verifyConfirmStep(
    configOf(context.env).sessionSecret,
    context.sessionId,
    { ask: kind, to, fields },
    token,
  );
  if (!genuine) throw new Response("There is nothing to confirm here.", { status: 400 });
  return { kind, to, back: confirmation.back, fields, text: await detailText(context, kind, fields) };
}

/** Deleting an account says what goes with it, with the counts, as the dialog does. */
async function detailText(context: LoaderFunctionArgs["context"], kind: ConfirmKind, fields: [string, string][]) {
  const id = fields.find(([name]) => name === "id")?.[1];
  if (kind !== "delete-user" || !id) return null;
  try {
    return holdingsText(await context.services.users.holdings(context.user, id));
  } catch {
    // Not an admin, or the account is gone: the usual words; the delete itself refuses in its action.
    return null;
  }
}

export default function Confirm() {
  const { kind, to, back, fields, text } = useLoaderData<typeof loader>();
  const words = MSG.confirm[kind];
  const danger = kind === "delete" || kind === "delete-user" || kind === "remove-admin";
  return (
    <div className="mx-auto flex max-w-lg px-4 py-16 sm:py-24">
      <section
        aria-labelledby="confirm-title"
        className="w-full rounded-2xl border border-gray-200 bg-white p-6 text-center shadow-sm sm:p-8"
      >
        <div
          aria-hidden="true"
          className="mx-auto flex h-14 w-14 items-center justify-center rounded-full border-4 border-amber-300 text-2xl font-bold text-amber-500"
        >
          !
        </div>
        <h1 id="confirm-title" className="mt-4 text-2xl font-bold text-ink">
          {words.title}
        </h1>
        <p className="mt-2 text-gray-700">{text ?? words.text}</p>
        <form method="post" action={to} className="mt-6 flex flex-wrap items-center justify-center gap-3">
          {fields.map(([name, value]) => (
            <input key={name} type="hidden" name={name} value={value} />
          ))}
          <button type="submit" className={buttonClass({ tone: danger ? "danger" : "primary" })}>
            {words.button}
          </button>
          <Link to={back} className={buttonClass({ tone: "secondary" })}>
            Cancel
          </Link>
        </form>
      </section>
    </div>
  );
}
