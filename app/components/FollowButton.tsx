import { useFetcher, useLocation } from "@remix-run/react";
import { useHydrated } from "#app/lib/use-hydrated.ts";

type FollowAnswer = { ok: true; following: boolean; followers: number };

/**
 * Follow / Following for a writer, on writer pages, bylines and "Who to Follow". A plain form post
 * without JavaScript (the action comes back to this page); with it, a fetcher that flips at once.
 * `following` is null for a visitor: the button then leads to sign-in and back. "Following" reads
 * "Unfollow" under the pointer or keyboard focus, and always on a touch screen (no hover), so
 * what a press does is said before it is done.
 *
 * `undoable` (the writer page): after an unfollow, "Unfollowed {name}." with an Undo that follows again.
 * Without JavaScript the action marks the page it returns to (`?unfollowed=1`) and the page passes
 * `justUnfollowed`.
 */
export function FollowButton(props: {
  writerId: string;
  writerName: string;
  following: boolean | null;
  size?: "sm" | "md";
  undoable?: boolean;
  justUnfollowed?: boolean;
}) {
  const fetcher = useFetcher<FollowAnswer>();
  const hydrated = useHydrated();
  const location = useLocation();
  const pending = fetcher.formData?.get("intent");
  const following =
    pending !== undefined && pending !== null
      ? pending === "follow"
      : fetcher.data?.ok
        ? fetcher.data.following
        : props.following === true;
  // The last answer (or, before any, the page's word) was an unfollow of this writer.
  const unfollowed =
    props.undoable === true &&
    !following &&
    (fetcher.state === "idle" && fetcher.data?.ok ? !fetcher.data.following : props.justUnfollowed === true);
  const size = props.size ?? "sm";
  const base =
    size === "sm"
      ? "group rounded-full px-3 py-1 text-xs font-semibold transition-colors"
      : "group rounded-full px-5 py-2 text-sm font-semibold transition-colors";
  const tone = following
    ? "border border-gray-300 bg-white text-gray-800 hover:border-red-300 hover:bg-red-50 hover:text-red-800 focus-visible:border-red-300 focus-visible:bg-red-50 focus-visible:text-red-800"
    : "border border-brand-600 bg-brand-600 text-white hover:bg-brand-700";
  // Back to this page, without a previous answer's mark.
  const params = new URLSearchParams(location.search);
  params.delete("unfollowed");
  const here = `${location.pathname}${params.size ? `?${params.toString()}` : ""}`;
  const returnField =
    hydrated && props.following !== null ? null : <input type="hidden" name="redirectTo" value={here} />;
  const button = (
    <fetcher.Form method="post" action={`/writers/${props.writerId}/follow`} className="shrink-0">
      {/* Without JavaScript, or for a visitor (sent to sign in first): the action redirects back here. */}
      {returnField}
      {props.undoable ? <input type="hidden" name="undoable" value="1" /> : null}
      <button
        type="submit"
        name="intent"
        value={following ? "unfollow" : "follow"}
        aria-pressed={following}
        aria-label={`${following ? "Unfollow" : "Follow"} ${props.writerName}`}
        className={`${base} ${tone}`}
      >
        {following ? (
          <>
            {/* A touch screen has no hover to say it first: there the button names what a tap does. */}
            <span className="group-hover:hidden group-focus-visible:hidden [@media(hover:none)]:hidden">Following</span>
            <span className="hidden group-hover:inline group-focus-visible:inline [@media(hover:none)]:inline">
              Unfollow
            </span>
          </>
        ) : (
          "Follow"
        )}
      </button>
    </fetcher.Form>
  );
  if (!props.undoable) return button;
  return (
    <div className="flex min-w-0 flex-wrap items-center gap-3">
      {button}
      <div role="status" className="empty:hidden" data-testid="unfollow-notice">
        {unfollowed ? (
          <fetcher.Form method="post" action={`/writers/${props.writerId}/follow`} className="flex items-center gap-2">
            {returnField}
            <span className="text-sm text-gray-700">Unfollowed {props.writerName}.</span>
            <button
              type="submit"
              name="intent"
              value="follow"
              className="rounded-full border border-gray-300 bg-white px-3 py-1 text-xs font-semibold text-gray-800 hover:bg-gray-50"
            >
              Undo<span className="sr-only">: follow {props.writerName} again</span>
            </button>
          </fetcher.Form>
        ) : null}
      </div>
    </div>
  );
}
