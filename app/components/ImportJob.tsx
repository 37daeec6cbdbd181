import { Form, Link, useRevalidator } from "@remix-run/react";
import { useEffect } from "react";
import { SubmitButton } from "#app/components/form.tsx";
import { CATEGORIES } from "#worker/services/categories.ts";
import type { ImportService } from "#worker/services/import/service.ts";

export type ImportView = Awaited<ReturnType<ImportService["get"]>>;

const PLATFORM: Record<string, string> = {
  wordpress: "WordPress",
  ghost: "Ghost",
  medium: "Medium",
  substack: "Substack",
  "edge-blog": "Edge Blog export",
};

/**
 * Progress: entries done of total, then what they were: posts imported, the source's pages left out (this site
 * has posts only, so they are not counted as posts), other skips, errors, images. Updates itself (JavaScript)
 * or by a refresh (without).
 */
export function ImportProgress({ job, counts }: { job: ImportView["job"]; counts: ImportView["counts"] }) {
  const revalidator = useRevalidator();
  const running = job.status === "running";
  useEffect(() => {
    if (!running) return;
    const timer = setInterval(() => {
      if (revalidator.state === "idle") revalidator.revalidate();
    }, 1500);
    return () => clearInterval(timer);
  }, [running, revalidator]);
  const percent = job.total > 0 ? Math.round((job.done / job.total) * 100) : 100;
  const posts = counts.post;
  const postTotal = Object.values(posts).reduce((a, n) => a + (n ?? 0), 0);
  const pages = counts.page.skipped ?? 0;
  const sitePages = counts["site-page"].done ?? 0;
  // One string, so the words read (and are found) as one sentence.
  const line = [
    `${posts.done ?? 0} of ${plural(postTotal, "post")} imported`,
    ...(sitePages > 0 ? [`${plural(sitePages, "site page")} restored`] : []),
    ...(posts.skipped ? [`${posts.skipped} skipped`] : []),
    `${plural(posts.failed ?? 0, "error")}`,
    `${job.imagesDone} images copied`,
    `${job.imagesFailed} images failed`,
  ].join(" · ");
  return (
    <section aria-labelledby="progress-heading" className="flex flex-col gap-3">
      {/* Without JavaScript the page refreshes itself while the import runs. */}
      {running ? (
        <noscript>
          <meta httpEquiv="refresh" content="3" />
        </noscript>
      ) : null}
      <h2 id="progress-heading" className="text-lg font-semibold text-ink">
        {running ? "Importing…" : "Import finished"}
      </h2>
      <div
        role="progressbar"
        aria-label="Import progress"
        aria-valuemin={0}
        aria-valuemax={job.total}
        aria-valuenow={job.done}
        aria-valuetext={`${job.done} of ${job.total} entries read`}
        className="h-4 w-full overflow-hidden rounded-full bg-gray-200"
      >
        <div className="h-full rounded-full bg-brand-600 transition-all" style={{ width: `${percent}%` }} />
      </div>
      <p className="text-sm text-gray-700" data-testid="import-counts">
        {line}
        {pages > 0 ? (
          <span data-testid="import-pages">{` · ${plural(pages, "page")} left out: this site has posts only`}</span>
        ) : null}
      </p>
    </section>
  );
}

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? "" : "s"}`;

/** The preview: what the file holds, and where its categories go, before anything is written. */
export function ImportPreview({ view }: { view: ImportView }) {
  const { summary, job } = view;
  const select = "rounded-lg border border-gray-300 px-3 py-2 text-base";
  return (
    <section aria-labelledby="preview-heading" className="flex flex-col gap-4">
      <h2 id="preview-heading" className="text-lg font-semibold text-ink">
        Preview: {PLATFORM[job.platform] ?? job.platform} file “{job.filename}”
      </h2>
      <ul className="grid grid-cols-2 gap-2 text-sm sm:grid-cols-3 lg:grid-cols-6">
        {(
          [
            ["Posts", summary.posts],
            ["Drafts", summary.drafts],
            ["Comments", summary.comments],
            ["Images", summary.images],
            ["Subscribers", summary.subscribers],
            ["Pages skipped", summary.pages ?? 0],
            ...(summary.sitePages ? ([["Site pages", summary.sitePages]] as const) : []),
            ...(summary.follows ? ([["Follows", summary.follows]] as const) : []),
          ] as const
        ).map(([label, n]) => (
          <li key={label} className="rounded-xl border border-gray-200 bg-white p-3">
            <span className="block text-2xl font-semibold text-ink">{n}</span>
            {label}
          </li>
        ))}
      </ul>
      <Form method="post" className="flex flex-col gap-4 rounded-2xl border border-gray-200 bg-white p-4">
        <input type="hidden" name="intent" value="confirm" />
        <input type="hidden" name="job" value={job.id} />
        <label className="flex flex-col gap-1 text-sm font-medium text-gray-800">
          Category for posts whose categories match none of ours
          {/* Nothing preselected: where unmatched posts go is the importer's choice, never a silent default. */}
          <select name="default_category" defaultValue="" required className={select}>
            <option value="" disabled>
              Choose a category
            </option>
            {CATEGORIES.map((c) => (
              <option key={c}>{c}</option>
            ))}
          </select>
        </label>
        {summary.unmatched.length > 0 ? (
          <fieldset className="flex flex-col gap-2">
            <legend className="text-sm font-medium text-gray-800">
              Their categories (a name that matches ours maps by itself)
            </legend>
            {summary.unmatched.map((name) => (
              <label
                key={name}
                className="flex flex-col gap-1 text-sm text-gray-700 sm:flex-row sm:items-center sm:justify-between"
              >
                <span className="break-all">{name}</span>
                <select name={`map:${name}`} defaultValue="" className={select}>
                  <option value="">Use the category above</option>
                  {CATEGORIES.map((c) => (
                    <option key={c}>{c}</option>
                  ))}
                </select>
              </label>
            ))}
          </fieldset>
        ) : null}
        <SubmitButton pendingText="Starting…">Start import</SubmitButton>
      </Form>
      {summary.problems?.length ? (
        <div className="rounded-xl border border-amber-300 bg-amber-50 p-3 text-sm text-amber-900">
          <p className="font-medium">Posts with a problem ({summary.problems.length}):</p>
          <ul className="list-disc pl-5">
            {summary.problems.map((p, i) => (
              <li key={i}>
                {p.title}: {p.warning}
              </li>
            ))}
          </ul>
        </div>
      ) : null}
      {summary.tags.length > 0 ? (
        <p className="text-sm text-gray-600">
          Tags kept on the posts (five at most a post, spelled as they are there):{" "}
          {summary.tags.slice(0, 40).join(", ")}
          {summary.tags.length > 40 ? "…" : ""}
        </p>
      ) : null}
    </section>
  );
}

/** The end: what came in (with links), what was skipped and why, which images failed. */
export function ImportReport({ view }: { view: ImportView }) {
  const { report, summary } = view;
  return (
    <section aria-labelledby="report-heading" className="flex flex-col gap-3">
      <h2 id="report-heading" className="text-lg font-semibold text-ink">
        Report
      </h2>
      <SubscribersOutcome outcome={view.subscribers} />
      {view.job.imagesFailed > 0 ? (
        <Form method="post" className="flex flex-wrap items-center gap-3 text-sm text-gray-700">
          <input type="hidden" name="intent" value="retry-images" />
          <input type="hidden" name="job" value={view.job.id} />
          <span>
            {view.job.imagesFailed} {view.job.imagesFailed === 1 ? "image was" : "images were"} not copied.
          </span>
          <SubmitButton pendingText="Retrying…">Retry failed images</SubmitButton>
        </Form>
      ) : null}
      <ol className="divide-y divide-gray-100 rounded-2xl border border-gray-200 bg-white text-sm">
        {report.items.map((item) => {
          const failed = Array.isArray(item.note.failedImages)
            ? (item.note.failedImages as { url: string; reason: string }[])
            : [];
          return (
            <li key={item.seq} className="flex flex-col gap-1 px-4 py-3">
              <span className="flex flex-wrap items-center gap-2">
                <span className="rounded-full bg-gray-100 px-2 py-0.5 text-xs font-semibold text-gray-700">
                  {item.state}
                </span>
                {item.blogId && item.state === "done" ? (
                  <Link to={`/blogs/${item.blogId}`} className="font-medium text-brand-700 underline">
                    {item.title}
                  </Link>
                ) : typeof item.note.page === "string" && item.state === "done" ? (
                  <Link to={item.note.page} className="font-medium text-brand-700 underline">
                    {item.title}
                  </Link>
                ) : (
                  <span className="font-medium text-ink">{item.title}</span>
                )}
                {typeof item.note.reason === "string" ? (
                  <span className="text-gray-600">— {item.note.reason}</span>
                ) : null}
              </span>
              {Array.isArray(item.note.warnings)
                ? (item.note.warnings as string[]).map((w) => (
                    <span key={w} className="text-xs text-amber-800 dark:text-amber-300">
                      Warning: {w}
                    </span>
                  ))
                : null}
              {failed.map((f) => (
                <span key={f.url} className="break-all text-xs text-red-700">
                  Image not copied ({f.reason}): {f.url}
                </span>
              ))}
            </li>
          );
        })}
      </ol>
      {report.pages > 1 ? (
        <nav aria-label="Report pages" className="flex gap-3 text-sm">
          {report.page > 1 ? <Link to={`?job=${view.job.id}&page=${report.page - 1}`}>Prev</Link> : null}
          <span>
            Page {report.page} of {report.pages}
          </span>
          {report.page < report.pages ? <Link to={`?job=${view.job.id}&page=${report.page + 1}`}>Next</Link> : null}
        </nav>
      ) : null}
      {summary.skipped.length > 0 ? (
        <details className="text-sm text-gray-700">
          <summary>Left out while reading the file ({summary.skipped.length})</summary>
          <ul className="mt-2 list-disc pl-5">
            {summary.skipped.map((s, i) => (
              <li key={i}>
                {s.title}: {s.reason}
              </li>
            ))}
          </ul>
        </details>
      ) : null}
    </section>
  );
}

/** What became of every subscriber the preview counted, so a number that shrank says why. */
function SubscribersOutcome({ outcome }: { outcome: ImportView["subscribers"] }) {
  if (outcome.promised === 0) return null;
  const twice = Math.max(
    0,
    outcome.promised -
      outcome.added -
      outcome.alreadyListed -
      outcome.invalid.length -
      outcome.notAllowed -
      outcome.pending,
  );
  return (
    <div
      data-testid="import-subscribers"
      className="rounded-2xl border border-gray-200 bg-white p-4 text-sm text-gray-700"
    >
      <p>
        <strong className="text-ink">
          {outcome.added} of {outcome.promised} subscribers added
        </strong>
        {outcome.alreadyListed > 0 ? (
          <> · {outcome.alreadyListed} already on the list (or left it, and are not re-added)</>
        ) : null}
        {outcome.notAllowed > 0 ? <> · {outcome.notAllowed} not added: only an admin imports subscribers</> : null}
        {twice > 0 ? <> · {twice} listed twice in the file</> : null}
        {outcome.pending > 0 ? <> · {outcome.pending} still to come</> : null}
      </p>
      {outcome.invalid.length > 0 ? (
        <p className="mt-1">
          {outcome.invalid.length} {outcome.invalid.length === 1 ? "is not an address" : "are not addresses"} this site
          can send to: <span className="break-all">{outcome.invalid.join(", ")}</span>
        </p>
      ) : null}
    </div>
  );
}
