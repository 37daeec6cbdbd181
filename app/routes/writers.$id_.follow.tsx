import { redirect, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/cloudflare";
import { safeRedirect } from "#worker/auth/redirect.ts";
import type { FollowState } from "#worker/services/follows.ts";
import { authPageUrl } from "#app/lib/auth-url.ts";
import { handleForm, readForm } from "#app/lib/forms.server.ts";

/** Nothing to show here: the writer's page is. */
export function loader({ params }: LoaderFunctionArgs) {
  return redirect(`/writers/${encodeURIComponent(params.id ?? "")}`);
}

/**
 * The Follow button (app/components/FollowButton.tsx). Without JavaScript it is a plain form that
 * carries the page it was on (`redirectTo`) and comes back to it; with JavaScript a fetcher posts it
 * and gets the new state as data. A visitor goes to sign in first and comes back to the same page.
 */
export async function action({ context, params, request }: ActionFunctionArgs) {
  const form = await readForm(request);
  const writerId = params.id ?? "";
  const back = safeRedirect(form.get("redirectTo"), `/writers/${encodeURIComponent(writerId)}`);
  if (!context.user) throw redirect(authPageUrl("/login", back));
  const user = context.user;
  return handleForm(request, form, async (): Promise<({ ok: true } & FollowState) | Response> => {
    const { follows } = context.services;
    const unfollow = form.get("intent") === "unfollow";
    const state = unfollow ? await follows.unfollow(user, writerId) : await follows.follow(user, writerId);
    if (!form.has("redirectTo")) return { ok: true, ...state };
    // The writer page's button offers Undo after an unfollow: without JavaScript the page hears of it here.
    if (!unfollow || form.get("undoable") !== "1") return redirect(back);
    const [path, query = ""] = back.split("?");
    const params = new URLSearchParams(query);
    params.set("unfollowed", "1");
    return redirect(`${path}?${params.toString()}`);
  });
}
