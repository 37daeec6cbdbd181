import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { Form, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { Pagination } from "#app/components/Pagination.tsx";
import { buttonClass, containerClass, EmptyState } from "#app/components/ui.tsx";
import { rowActionClass } from "#app/components/ConfirmForm.tsx";
import { LocalTime } from "#app/components/LocalTime.tsx";
import { samePage } from "#app/lib/admin.server.ts";
import { redirectWithFlash } from "#app/lib/flash.server.ts";
import { handleForm, loadOr404, readForm, unknownAction, type FormFailure } from "#app/lib/forms.server.ts";
import { signedInOrRedirect } from "#app/lib/guards.server.ts";
import { brandOf } from "#app/lib/site-name.ts";

export const meta: MetaFunction = ({ matches }) => [
  { title: `Fediverse | ${brandOf(matches)}` },
  { name: "robots", content: "noindex" },
];

/**
 * The fediverse in miniature: follow accounts on other servers (Mastodon, another copy of
 * this site) by URL or handle, read what they post, reply. Personal: `private, no-store`.
 */
export async function loader({ context, request }: LoaderFunctionArgs) {
  const user = signedInOrRedirect(context, request);
  const page = new URL(request.url).searchParams.get("page");
  const { remoteFollows, timeline } = context.services.federation;
  const [following, posts] = await Promise.all([
    loadOr404(() => remoteFollows.list(user, {})),
    loadOr404(() => timeline.list(user, { page })),
  ]);
  return { following, posts };
}

export async function action({ context, request }: ActionFunctionArgs) {
  const user = signedInOrRedirect(context, request);
  const form = await readForm(request);
  const { remoteFollows, timeline } = context.services.federation;
  return handleForm(request, form, async () => {
    switch (form.get("intent")) {
      case "follow": {
        const account = await remoteFollows.follow(user, { target: form.get("target") });
        return redirectWithFlash(samePage(request), {
          kind: "toast",
          title: `Follow sent to ${account.handle}`,
          icon: "success",
        });
      }
      case "unfollow":
        await remoteFollows.unfollow(user, String(form.get("actor") ?? ""));
        return redirectWithFlash(samePage(request), { kind: "toast", title: "Unfollowed", icon: "success" });
      case "reply":
        await timeline.reply(user, { in_reply_to: form.get("in_reply_to"), body: form.get("body") });
        return redirectWithFlash(samePage(request), { kind: "toast", title: "Reply sent", icon: "success" });
      default:
        return unknownAction(form);
    }
  });
}

export default function Fediverse() {
  const { following, posts } = useLoaderData<typeof loader>();
  const failure = useActionData<FormFailure>();
  const navigation = useNavigation();
  const busy = (intent: string) => navigation.formData?.get("intent") === intent;
  const followError = failure?.values?.intent === "follow" ? (failure.fields?.target ?? failure.formError) : null;
  return (
    <div className={containerClass({ className: "py-10", width: "4xl" })}>
      <p className="text-sm font-semibold uppercase tracking-wider text-brand-600">Fediverse</p>
      <h1 className="mt-1 text-3xl font-extrabold tracking-tight text-ink sm:text-4xl">From other servers</h1>
      <p className="mt-2 text-gray-600">
        Follow accounts on Mastodon or any ActivityPub server by their URL or handle; their new posts arrive here.
      </p>
      <Form
        key={following.total}
        method="post"
        className="mt-6 rounded-2xl border border-gray-200 bg-white p-4 shadow-sm sm:p-5"
      >
        <input type="hidden" name="intent" value="follow" />
        <label htmlFor="follow-target" className="block text-sm font-semibold text-ink">
          Account URL or handle
        </label>
        <div className="mt-2 flex flex-col gap-2 sm:flex-row">
          <input
            id="follow-target"
            name="target"
            required
            maxLength={500}
            placeholder="@name@server.example or https://server.example/users/name"
            defaultValue={failure?.values?.target ?? ""}
            aria-invalid={followError ? true : undefined}
            aria-describedby={followError ? "follow-target-error" : undefined}
            className="min-w-0 flex-1 rounded-xl border border-gray-300 px-3 py-2 text-[15px]"
          />
          <button type="submit" disabled={busy("follow")} className={buttonClass()}>
            {busy("follow") ? "Following…" : "Follow"}
          </button>
        </div>
        {followError ? (
          <p id="follow-target-error" role="alert" className="mt-2 text-sm text-red-700">
            {followError}
          </p>
        ) : null}
      </Form>

      {following.items.length ? (
        <section aria-labelledby="following-heading" className="mt-8">
          <h2 id="following-heading" className="text-lg font-bold text-ink">
            You follow {following.total} {following.total === 1 ? "account" : "accounts"}
          </h2>
          <ul className="mt-3 flex flex-col gap-2">
            {following.items.map((a) => (
              <li
                key={a.id}
                className="flex flex-wrap items-center justify-between gap-2 rounded-xl bg-gray-50 px-4 py-2"
              >
                <span className="min-w-0 break-all">
                  <span className="font-semibold text-ink">{a.name}</span>{" "}
                  <span className="text-sm text-gray-600">{a.handle}</span>
                  {a.accepted ? null : (
                    <span className="ml-2 text-xs text-amber-700 dark:text-amber-300">(waiting for the server)</span>
                  )}
                </span>
                <Form method="post">
                  <input type="hidden" name="intent" value="unfollow" />
                  <input type="hidden" name="actor" value={a.id} />
                  <button type="submit" aria-label={`Unfollow ${a.handle}`} className={rowActionClass()}>
                    Unfollow
                  </button>
                </Form>
              </li>
            ))}
          </ul>
        </section>
      ) : null}

      <section aria-labelledby="posts-heading" className="mt-10">
        <h2 id="posts-heading" className="text-lg font-bold text-ink">
          Posts
        </h2>
        {posts.items.length === 0 ? (
          <EmptyState as="p">Nothing yet: posts from the accounts you follow show up here.</EmptyState>
        ) : (
          <ul className="mt-3 flex flex-col gap-4" aria-label="Posts from the fediverse">
            {posts.items.map((p) => (
              <li key={p.id}>
                <article className="rounded-2xl border border-gray-200 bg-white p-4 shadow-sm sm:p-5">
                  <header>
                    <p className="text-sm text-gray-600">
                      {p.author.profileUrl ? (
                        <a
                          href={p.author.profileUrl}
                          rel="nofollow noopener"
                          className="font-semibold text-brand-700 hover:underline"
                        >
                          {p.author.name}
                        </a>
                      ) : (
                        <span className="font-semibold text-ink">{p.author.name}</span>
                      )}{" "}
                      {p.author.handle} · <LocalTime iso={p.published} withTime />
                    </p>
                    {p.name ? <h3 className="mt-1 text-xl font-bold text-ink">{p.name}</h3> : null}
                  </header>
                  <p className="mt-2 max-h-96 overflow-y-auto text-[15px] break-words whitespace-pre-line text-gray-800">
                    {p.text}
                  </p>
                  {p.url ? (
                    <a
                      href={p.url}
                      rel="nofollow noopener"
                      className="mt-2 inline-block text-sm text-brand-700 hover:underline"
                    >
                      Open on its server
                    </a>
                  ) : null}
                  {p.replies.map((r) => (
                    <p
                      key={r.id}
                      className="mt-3 rounded-xl bg-brand-50 px-3 py-2 text-sm whitespace-pre-line text-gray-800"
                    >
                      <span className="font-semibold">You replied:</span> {r.text}
                    </p>
                  ))}
                  <Form key={p.replies.length} method="post" className="mt-3 flex flex-col gap-2 sm:flex-row">
                    <input type="hidden" name="intent" value="reply" />
                    <input type="hidden" name="in_reply_to" value={p.id} />
                    <label htmlFor={`reply-${p.id}`} className="sr-only">
                      Reply to {p.author.name}
                    </label>
                    <textarea
                      id={`reply-${p.id}`}
                      name="body"
                      required
                      maxLength={2000}
                      rows={2}
                      placeholder="Write a reply…"
                      className="min-w-0 flex-1 rounded-xl border border-gray-300 px-3 py-2 text-[15px]"
                    />
                    <button type="submit" className={buttonClass()}>
                      Reply
                    </button>
                  </Form>
                </article>
              </li>
            ))}
          </ul>
        )}
        {posts.pages > 1 ? (
          <div className="mt-6">
            <Pagination page={posts.page} pages={posts.pages} label="Pages of fediverse posts" />
          </div>
        ) : null}
      </section>
    </div>
  );
}
