import { useFetcher, useLocation } from "@remix-run/react";
import { useHydrated } from "#app/lib/use-hydrated.ts";

/**
 * Follow / Following for a writer, on writer pages, bylines and "Who to Follow". A plain form post
 * without JavaScript (the action comes back to this page); with it, a fetcher that flips at once.
 * `following` is null for a visitor: the button then leads to sign-in and back.
 */
export function FollowButton(props: {
  writerId: string;
  writerName: string;
  following: boolean | null;
  size?: "sm" | "md";
}) {
  const fetcher = useFetcher<{ ok: true; following: boolean; followers: number }>();
  const hydrated = useHydrated();
  const location = useLocation();
  const pending = fetcher.formData?.get("intent");
  const following =
    pending !== undefined && pending !== null
      ? pending === "follow"
      : fetcher.data?.ok
        ? fetcher.data.following
        : props.following === true;
  const size = props.size ?? "sm";
  const base =
    size === "sm"
      ? "rounded-full px-3 py-1 text-xs font-semibold transition-colors"
      : "rounded-full px-5 py-2 text-sm font-semibold transition-colors";
  const tone = following
    ? "border border-gray-300 bg-white text-gray-800 hover:bg-gray-50"
    : "border border-brand-600 bg-brand-600 text-white hover:bg-brand-700";
  return (
    <fetcher.Form method="post" action={`/writers/${props.writerId}/follow`} className="shrink-0">
      {/* Without JavaScript, or for a visitor (sent to sign in first): the action redirects back here. */}
      {hydrated && props.following !== null ? null : (
        <input type="hidden" name="redirectTo" value={`${location.pathname}${location.search}`} />
      )}
      <button
        type="submit"
        name="intent"
        value={following ? "unfollow" : "follow"}
        aria-pressed={following}
        aria-label={`${following ? "Unfollow" : "Follow"} ${props.writerName}`}
        className={`${base} ${tone}`}
      >
        {following ? "Following" : "Follow"}
      </button>
    </fetcher.Form>
  );
}
