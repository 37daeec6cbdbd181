import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction, SerializeFrom } from "@remix-run/cloudflare";
import { Form, Link, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { DashboardHeader } from "#app/components/DashboardHeader.tsx";
import { LocalTime } from "#app/components/LocalTime.tsx";
import { Pagination } from "#app/components/Pagination.tsx";
import { buttonClass, EmptyState } from "#app/components/ui.tsx";
import { rowActionClass } from "#app/components/ConfirmForm.tsx";
import { samePage } from "#app/lib/admin.server.ts";
import { dashboardMeta } from "#app/lib/dashboard.ts";
import { redirectWithFlash } from "#app/lib/flash.server.ts";
import { handleForm, loadOr404, readForm, unknownAction, type FormFailure } from "#app/lib/forms.server.ts";
import { adminOrForbidden } from "#app/lib/guards.server.ts";
import { CONFIRM_SERVER_BLOCK } from "#worker/services/texts.ts";

export const handle = { title: "Fediverse" };

export const meta: MetaFunction = ({ matches }) => dashboardMeta("Fediverse", matches);

/**
 * The site on the fediverse (its handle, who follows it and its writers, how deliveries fare) and the blocked
 * remote accounts and servers, newest first (services.federation.blocksPage, paginated).
 */
export async function loader({ context, request }: LoaderFunctionArgs) {
  const admin = adminOrForbidden(context, request);
  const page = new URL(request.url).searchParams.get("page");
  const federation = context.services.federation;
  const [status, blocks] = await loadOr404(() =>
    Promise.all([federation.status(admin), federation.blocksPage(admin, { page })]),
  );
  return { status, blocks };
}

/** Block an account (its URL) or a server (its name); or lift a block. Through the blocks service. */
export async function action({ context, request }: ActionFunctionArgs) {
  const admin = adminOrForbidden(context, request);
  const form = await readForm(request);
  return handleForm(request, form, async () => {
    switch (form.get("intent")) {
      case "block": {
        const { insertedId } = await context.services.federation.block(admin, {
          target: form.get("target"),
          confirm: form.get("confirm"),
        });
        return redirectWithFlash(samePage(request), { kind: "toast", title: `Blocked ${insertedId}`, icon: "success" });
      }
      case "unblock": {
        const target = String(form.get("target") ?? "");
        await context.services.federation.unblock(admin, target);
        return redirectWithFlash(samePage(request), { kind: "toast", title: `Unblocked ${target}`, icon: "success" });
      }
      default:
        return unknownAction(form);
    }
  });
}

const card = "rounded-2xl border border-gray-200 bg-white p-4 shadow-sm sm:p-5";

/** The site's handle, followers and deliveries, above the blocks. */
function Status({ status }: { status: SerializeFrom<typeof loader>["status"] }) {
  const { deliveries } = status;
  return (
    <section aria-labelledby="fediverse-status" className="mb-8 flex flex-col gap-4">
      <h2 id="fediverse-status" className="text-lg font-semibold text-ink">
        On the fediverse
      </h2>
      <dl className="grid gap-4 sm:grid-cols-3">
        <div className={card}>
          <dt className="text-xs font-semibold tracking-wide text-gray-600 uppercase">The site's handle</dt>
          <dd className="mt-1 font-mono text-sm break-all text-ink">{status.siteHandle}</dd>
          <dd className="mt-1 text-xs text-gray-600">
            {status.siteFollowers} {status.siteFollowers === 1 ? "follower" : "followers"}: every post, from every
            writer
          </dd>
        </div>
        <div className={card}>
          <dt className="text-xs font-semibold tracking-wide text-gray-600 uppercase">Followers in all</dt>
          <dd className="mt-1 text-2xl font-bold text-ink tabular-nums">{status.totalFollowers}</dd>
          <dd className="mt-1 text-xs text-gray-600">Of the site and its writers</dd>
        </div>
        <div className={card}>
          <dt className="text-xs font-semibold tracking-wide text-gray-600 uppercase">Deliveries, last 24 hours</dt>
          <dd className="mt-1 text-2xl font-bold text-ink tabular-nums">{deliveries.recent}</dd>
          <dd className="mt-1 text-xs text-gray-600">
            {deliveries.lastAt ? (
              <>
                Latest <LocalTime iso={deliveries.lastAt} withTime />
              </>
            ) : (
              "None yet"
            )}
            {deliveries.lastAt && deliveries.failing.length === 0 ? " · every server answering" : null}
          </dd>
        </div>
      </dl>
      {deliveries.failing.length ? (
        <div className="rounded-2xl border border-amber-300 bg-amber-50 p-4 sm:p-5">
          <h3 className="text-sm font-semibold text-ink">Servers not taking deliveries</h3>
          <p className="mt-1 text-xs text-gray-700">
            Deliveries to them are retried for a while, then given up; nothing else is needed.
          </p>
          <ul className="mt-2 flex flex-col gap-1 text-sm text-gray-800" aria-label="Servers not taking deliveries">
            {deliveries.failing.map((f) => (
              <li key={f.host}>
                <span className="font-medium break-all">{f.host}</span> · failing since{" "}
                <LocalTime iso={f.since} withTime />
              </li>
            ))}
          </ul>
        </div>
      ) : null}
      <div className={card}>
        <h3 className="text-sm font-semibold text-ink">Writers' followers</h3>
        {status.writers.length === 0 ? (
          <p className="mt-1 text-sm text-gray-600">No writer has a follower on the fediverse yet.</p>
        ) : (
          <ul className="mt-2 flex flex-col divide-y divide-gray-100" aria-label="Writers' followers on the fediverse">
            {status.writers.map((w) => (
              <li key={w.userId} className="flex flex-wrap items-baseline justify-between gap-x-3 py-2 text-sm">
                <span className="min-w-0">
                  <Link to={`/writers/${w.userId}`} className="font-medium text-ink hover:underline">
                    {w.name}
                  </Link>{" "}
                  <span className="font-mono text-xs break-all text-gray-600">{w.handle}</span>
                </span>
                <span className="text-gray-700 tabular-nums">
                  {w.followers} {w.followers === 1 ? "follower" : "followers"}
                </span>
              </li>
            ))}
          </ul>
        )}
      </div>
    </section>
  );
}

export default function FediverseBlocks() {
  const { status, blocks } = useLoaderData<typeof loader>();
  const failure = useActionData<FormFailure>();
  const navigation = useNavigation();
  const blocking = navigation.formData?.get("intent") === "block";
  // A whole-server block is asked first: the answer says what it removes, and a second button confirms.
  const asking = failure?.code === CONFIRM_SERVER_BLOCK ? failure.values?.target : undefined;
  const error = asking ? undefined : (failure?.fields?.target ?? failure?.formError);
  return (
    <>
      <DashboardHeader
        title="Fediverse"
        description="The site's account and its writers' on the fediverse, and how deliveries to other servers fare. Block a remote account (its URL or @name@server) or a whole server (its name): its deliveries are refused, its follows end and its replies are removed. A whole server is blocked only after you confirm."
      />
      <Status status={status} />
      <h2 className="mb-3 text-lg font-semibold text-ink">Blocks</h2>
      {/* Keyed by the list's size: a block that took clears the field. */}
      <Form
        key={blocks.total}
        method="post"
        className="mb-8 rounded-2xl border border-gray-200 bg-white p-4 shadow-sm sm:p-5"
      >
        <input type="hidden" name="intent" value="block" />
        <label htmlFor="block-target" className="block text-sm font-semibold text-ink">
          Account URL, handle or server name
        </label>
        <div className="mt-2 flex flex-col gap-2 sm:flex-row">
          <input
            id="block-target"
            name="target"
            required
            maxLength={500}
            placeholder="https://server.example/users/name, @name@server.example or server.example"
            defaultValue={failure?.values?.target ?? ""}
            aria-invalid={error ? true : undefined}
            aria-describedby={error ? "block-target-error" : undefined}
            className="min-w-0 flex-1 rounded-xl border border-gray-300 px-3 py-2 text-[15px]"
          />
          <button type="submit" disabled={blocking} className={buttonClass()}>
            {blocking ? "Blocking…" : "Block"}
          </button>
        </div>
        {error ? (
          <p id="block-target-error" role="alert" className="mt-2 text-sm text-red-700">
            {error}
          </p>
        ) : null}
      </Form>
      {asking ? (
        <Form
          method="post"
          role="alertdialog"
          aria-labelledby="server-block-question"
          className="-mt-4 mb-8 rounded-2xl border border-amber-300 bg-amber-50 p-4 sm:p-5"
        >
          <input type="hidden" name="intent" value="block" />
          <input type="hidden" name="target" value={asking} />
          <input type="hidden" name="confirm" value="yes" />
          <p id="server-block-question" className="text-sm text-ink">
            {failure?.fields?.target ?? failure?.formError}
          </p>
          <button type="submit" disabled={blocking} className={`${buttonClass()} mt-3`}>
            Block the whole server
          </button>
        </Form>
      ) : null}
      {blocks.items.length === 0 ? (
        <EmptyState as="p">No accounts or servers are blocked.</EmptyState>
      ) : (
        <ul className="flex flex-col gap-3" aria-label="Blocked accounts and servers">
          {blocks.items.map((b) => (
            <li
              key={b.target}
              className="flex flex-wrap items-center justify-between gap-3 rounded-2xl border border-gray-200 bg-white p-4 shadow-sm"
            >
              <div className="min-w-0">
                <p className="font-semibold break-all text-ink">{b.target}</p>
                <p className="text-xs text-gray-600">
                  {b.kind === "host" ? "Whole server" : "Account"} · blocked <LocalTime iso={b.createdAt} withTime />
                </p>
              </div>
              <Form method="post">
                <input type="hidden" name="intent" value="unblock" />
                <input type="hidden" name="target" value={b.target} />
                <button type="submit" aria-label={`Unblock ${b.target}`} className={rowActionClass()}>
                  Unblock
                </button>
              </Form>
            </li>
          ))}
        </ul>
      )}
      {blocks.pages > 1 ? (
        <div className="mt-6">
          <Pagination page={blocks.page} pages={blocks.pages} label="Pages of blocks" />
        </div>
      ) : null}
    </>
  );
}
