import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { postPath } from "#worker/services/blogs/slug.ts";
import { Form, Link, useLoaderData } from "@remix-run/react";
import { DashboardHeader, buttonSecondary } from "#app/components/DashboardHeader.tsx";
import { EmptyState, buttonClass } from "#app/components/ui.tsx";
import { formatDate } from "#app/lib/blog-text.ts";
import { LocalTime } from "#app/components/LocalTime.tsx";
import { dashboardMeta } from "#app/lib/dashboard.ts";
import { redirectWithFlash } from "#app/lib/flash.server.ts";
import { handleForm, loadOr404, readForm, unknownAction } from "#app/lib/forms.server.ts";
import { signedInOrRedirect } from "#app/lib/guards.server.ts";
import { diffVersions, type PostVersion } from "#worker/content/revision-diff.ts";

export const handle = { title: "Revisions" };

export const meta: MetaFunction = ({ matches }) => dashboardMeta("Revisions", matches);

const CURRENT = "current";

/**
 * A post's history (its author or an admin; others get the 403 page): the earlier versions newest first,
 * and what changed between two of them (?from=&to=, revision ids or "current"); by default the newest
 * revision against the post as it is now. The diff is computed here, on the server.
 */
export async function loader({ context, request, params }: LoaderFunctionArgs) {
  const user = signedInOrRedirect(context, request);
  const { blog, revisions } = await loadOr404(() => context.services.blogs.revisions(user, params.id ?? ""));
  const url = new URL(request.url);
  const versions = new Map<string, PostVersion>([[CURRENT, blog], ...revisions.map((r) => [r._id, r] as const)]);
  const pick = (key: string | null, fallback: string) => (key && versions.has(key) ? key : fallback);
  const to = pick(url.searchParams.get("to"), CURRENT);
  const from = pick(url.searchParams.get("from"), revisions[0]?._id ?? CURRENT);
  // Every field that changed or has words (tags and SEO fields included); an empty, unchanged one says nothing.
  const diff = revisions.length
    ? diffVersions(versions.get(from)!, versions.get(to)!).filter((d) => d.changed || d.parts.some((p) => p.value))
    : [];
  return {
    blog: { _id: blog._id, title: blog.title },
    editPath: user.role === "admin" && blog.email !== user.email ? "updateAllBlogs" : "updateBlog",
    revisions: revisions.map((r) => ({
      _id: r._id,
      title: r.title,
      saved_at: r.saved_at,
      saved_by_name: r.saved_by_name,
    })),
    from,
    to,
    diff,
  };
}

/** Restore: the guard again (a layout does not protect actions), then an ordinary save through the service. */
export async function action({ context, request, params }: ActionFunctionArgs) {
  const user = signedInOrRedirect(context, request);
  const id = params.id ?? "";
  const form = await readForm(request);
  if (form.get("intent") !== "restore") return unknownAction(form);
  return handleForm(request, form, async () => {
    const { modifiedCount } = await context.services.blogs.restoreRevision(
      user,
      id,
      String(form.get("revision") ?? ""),
    );
    return redirectWithFlash(`/dashboard/blogs/${id}/revisions`, {
      kind: "toast",
      title: modifiedCount ? "Version restored" : "No Changes Made!",
      text: modifiedCount ? "The post now shows that version; the one it replaced is kept below." : undefined,
      icon: modifiedCount ? "success" : "info",
    });
  });
}

export default function Revisions() {
  const { blog, revisions, from, to, diff, editPath } = useLoaderData<typeof loader>();
  const label = (key: string) => {
    if (key === CURRENT) return "Current version";
    const r = revisions.find((x) => x._id === key);
    return r ? `Version of ${formatDate(r.saved_at, true)}` : key;
  };
  const options = [
    { key: CURRENT, text: "Current version" },
    ...revisions.map((r) => ({ key: r._id, text: label(r._id) })),
  ];
  return (
    <>
      <DashboardHeader
        title="Revisions"
        description={
          <>
            Earlier versions of <strong className="[overflow-wrap:anywhere]">{blog.title}</strong>. Every save keeps the
            version it replaces; restoring one is a save too, so nothing is lost.
          </>
        }
        actions={
          <>
            <Link to={`/dashboard/${editPath}/${blog._id}`} className={buttonSecondary}>
              Update Blog
            </Link>
            <Link to={postPath(blog)} className={buttonSecondary}>
              View post
            </Link>
          </>
        }
      />
      {revisions.length === 0 ? (
        <EmptyState>No earlier versions yet: they appear here once the post is updated.</EmptyState>
      ) : (
        <div className="grid gap-8 lg:grid-cols-[minmax(0,20rem)_minmax(0,1fr)]">
          <section aria-labelledby="history-heading">
            <h2 id="history-heading" className="text-lg font-semibold text-ink">
              History
            </h2>
            <ol className="mt-3 flex flex-col gap-3" aria-label="Earlier versions, newest first">
              {revisions.map((r) => (
                <li key={r._id} className="rounded-xl border border-gray-200 bg-white p-4 shadow-sm">
                  <p className="font-semibold [overflow-wrap:anywhere] text-ink">{r.title}</p>
                  <p className="mt-1 text-xs text-gray-600">
                    Replaced <LocalTime iso={r.saved_at} withTime /> by {r.saved_by_name}
                  </p>
                  <div className="mt-3 flex flex-wrap items-center gap-2">
                    <Link
                      to={`?from=${r._id}&to=${CURRENT}`}
                      className={buttonClass({ tone: "secondary", size: "sm" })}
                      aria-label={`Compare the version of ${formatDate(r.saved_at, true)} with the current one`}
                    >
                      Compare
                    </Link>
                    <Form method="post">
                      <input type="hidden" name="intent" value="restore" />
                      <input type="hidden" name="revision" value={r._id} />
                      <button
                        type="submit"
                        className={buttonClass({ size: "sm" })}
                        aria-label={`Restore the version of ${formatDate(r.saved_at, true)}`}
                      >
                        Restore
                      </button>
                    </Form>
                  </div>
                </li>
              ))}
            </ol>
          </section>

          <section aria-labelledby="compare-heading" className="min-w-0">
            <h2 id="compare-heading" className="text-lg font-semibold text-ink">
              What changed
            </h2>
            {/* Stacked: two selects of long version names side by side ran out of the column (defect 9). */}
            <Form method="get" className="mt-3 flex max-w-xl flex-col gap-3">
              <label className="flex min-w-0 flex-col gap-1 text-sm font-medium text-gray-700">
                From
                <select
                  name="from"
                  defaultValue={from}
                  className="w-full min-w-0 rounded-lg border border-gray-300 px-3 py-2"
                >
                  {options.map((o) => (
                    <option key={o.key} value={o.key}>
                      {o.text}
                    </option>
                  ))}
                </select>
              </label>
              <label className="flex min-w-0 flex-col gap-1 text-sm font-medium text-gray-700">
                To
                <select
                  name="to"
                  defaultValue={to}
                  className="w-full min-w-0 rounded-lg border border-gray-300 px-3 py-2"
                >
                  {options.map((o) => (
                    <option key={o.key} value={o.key}>
                      {o.text}
                    </option>
                  ))}
                </select>
              </label>
              <button type="submit" className={buttonClass({ tone: "secondary", size: "sm", className: "self-start" })}>
                Compare
              </button>
            </Form>
            <p className="mt-3 text-sm text-gray-600">
              {label(from)} → {label(to)}. <del className="bg-red-100 text-red-900">Removed</del>{" "}
              <ins className="bg-green-100 text-green-900 no-underline">added</ins>.
            </p>
            <dl className="mt-4 flex flex-col gap-4">
              {diff.map((d) => (
                <div key={d.field} className="rounded-xl border border-gray-200 bg-white p-4" data-field={d.field}>
                  <dt className="text-sm font-semibold text-gray-700">
                    {d.label} {d.changed ? null : <span className="font-normal text-gray-500">(unchanged)</span>}
                  </dt>
                  <dd className="mt-2 text-sm leading-6 [overflow-wrap:anywhere] whitespace-pre-wrap text-gray-800">
                    {d.parts.map((p, i) =>
                      p.added ? (
                        <ins key={i} className="bg-green-100 text-green-900 no-underline">
                          {p.value}
                        </ins>
                      ) : p.removed ? (
                        <del key={i} className="bg-red-100 text-red-900">
                          {p.value}
                        </del>
                      ) : (
                        <span key={i}>{p.value}</span>
                      ),
                    )}
                  </dd>
                </div>
              ))}
            </dl>
          </section>
        </div>
      )}
    </>
  );
}
