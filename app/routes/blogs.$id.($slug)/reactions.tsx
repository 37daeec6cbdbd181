import { useFetcher, useLocation, useNavigate, useSearchParams } from "@remix-run/react";
import { useEffect, useRef, type FormEvent, type ReactNode } from "react";
import { BookmarkIcon, HeartIcon } from "#app/components/icons.tsx";
import { authPageUrl } from "#app/lib/auth-url.ts";
import { alertDialog, toast } from "#app/lib/dialogs.ts";
import { MSG } from "#app/lib/messages.ts";
import type { action } from "./route";

/** What the post page's action does, and what it answers when it worked. */
export type Intent = "like" | "comment" | "delete-comment" | "report-comment" | "withdraw-report" | "save" | "unsave";
export type Done = {
  ok: true;
  intent: Intent;
  liked?: boolean;
  likes?: number;
  alreadySaved?: boolean;
  /** The comment a report (or its withdrawal) was about, or the one just written. */
  commentId?: string;
};

/** Whether an action answer is the success of this intent. */
export const succeeded = (result: unknown, intent: Intent): boolean =>
  typeof result === "object" && result !== null && (result as Done).ok === true && (result as Done).intent === intent;

export const actionButton =
  "inline-flex min-h-10 items-center gap-2 rounded-full border border-gray-200 bg-white px-4 py-2 text-sm font-semibold text-gray-800 transition hover:border-brand-500 hover:text-brand-700 disabled:cursor-wait";
/** The four post actions: a row of four stacked icon buttons on phones, pills from 640 px. */
const barButton =
  "flex w-full flex-col items-center justify-center gap-1 rounded-xl border border-gray-200 bg-white px-1 py-2 text-xs font-semibold text-gray-800 transition hover:border-brand-500 hover:text-brand-700 disabled:cursor-wait sm:inline-flex sm:min-h-10 sm:w-auto sm:flex-row sm:gap-2 sm:rounded-full sm:px-4 sm:text-sm";

export function ToggleButton({
  open,
  controls,
  onToggle,
  icon,
  share,
  children,
}: {
  open: boolean;
  /** The Share toggle: what the reading pages' island hands the Web Share API (app/islands/reading.ts). */
  share?: { url: string; title: string };
  controls: string;
  onToggle: () => void;
  icon: ReactNode;
  children: ReactNode;
}) {
  return (
    <button
      type="button"
      data-toggle=""
      aria-expanded={open}
      aria-controls={controls}
      data-share-url={share?.url}
      data-share-title={share?.title}
      onClick={onToggle}
      // Styled by its aria-expanded, which the island sets too on a page without the framework.
      className={`${barButton} aria-expanded:border-brand-500 aria-expanded:bg-brand-50 aria-expanded:text-brand-700`}
    >
      {icon}
      <span>{children}</span>
    </button>
  );
}

/**
 * Like. A signed-in reader's like is stored, one per person, and the count shown is the stored one
 * (optimistic while it is sent). A visitor's press leads to sign in and back to this post (issue 45,
 * docs/decisions/059): the same form post, which the action answers with /login?redirectTo=<the post>,
 * with or without JavaScript.
 */
export function LikeButton({ likes, liked, signedIn }: { likes: number; liked: boolean; signedIn: boolean }) {
  const fetcher = useFetcher<typeof action>();
  const pending = signedIn && fetcher.formData?.get("intent") === "like";
  const shownLiked = pending ? !liked : liked;
  const shownCount = likes + (pending ? (liked ? -1 : 1) : 0);

  return (
    <fetcher.Form method="post" className="flex">
      <input type="hidden" name="intent" value="like" />
      <button
        type="submit"
        aria-pressed={shownLiked}
        title={signedIn ? undefined : "Sign in to like this post"}
        className={`${barButton} ${shownLiked ? "border-rose-200 bg-rose-50 text-rose-700 hover:border-rose-300 hover:text-rose-800" : ""}`}
      >
        <HeartIcon filled={shownLiked} />
        <span>
          <span>{shownLiked ? "Liked" : "Like"}</span>{" "}
          <span className="tabular-nums" data-testid="like-count">
            {shownCount}
          </span>
          <span className="sr-only">{shownCount === 1 ? " like" : " likes"}</span>
        </span>
      </button>
    </fetcher.Form>
  );
}

/** What a save says: the spec's text for the first save, a plain "already saved" for any later one. */
export const saveNotice = (done: Done): string =>
  done.intent === "unsave" ? MSG.save.removed : done.alreadySaved ? MSG.save.already : MSG.save.success;

/** Signed in: saved, then "Blog Saved Successfully" (1.5 s). A visitor gets the spec's error and goes to /login. */
export function SaveButton({ saved, signedIn }: { saved: boolean; signedIn: boolean }) {
  const fetcher = useFetcher<typeof action>();
  // Back to this very page (its readable link) after signing in.
  const { pathname } = useLocation();
  const navigate = useNavigate();
  const pending = fetcher.state !== "idle";
  // While the request runs the button already shows where it is going (saved, or back to Save).
  const asked = fetcher.formData?.get("intent");
  const shownSaved = pending && signedIn ? asked === "save" : saved;

  useEffect(() => {
    if (fetcher.state !== "idle") return;
    if (succeeded(fetcher.data, "save") || succeeded(fetcher.data, "unsave"))
      void toast(saveNotice(fetcher.data as Done));
  }, [fetcher.state, fetcher.data]);

  // A visitor who pressed Save comes back here signed in (or newly registered) with ?save=1: the save they
  // asked for happens then, once, and the address loses the mark.
  const [params, setParams] = useSearchParams();
  const savedOnReturn = useRef(false);
  useEffect(() => {
    if (!signedIn || params.get("save") !== "1" || savedOnReturn.current) return;
    savedOnReturn.current = true;
    if (!saved) fetcher.submit({ intent: "save" }, { method: "post" });
    const rest = new URLSearchParams(params);
    rest.delete("save");
    setParams(rest, { replace: true, preventScrollReset: true });
  }, [signedIn, saved, params, setParams, fetcher]);

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    if (signedIn) return;
    event.preventDefault();
    void alertDialog(MSG.save.needLogin, undefined, "error").then(() =>
      navigate(authPageUrl("/login", `${pathname}?save=1`)),
    );
  };

  return (
    <fetcher.Form method="post" onSubmit={onSubmit} className="flex sm:ml-auto">
      {/* Pressed once saved: pressing it again takes the post off the reading list. */}
      <input type="hidden" name="intent" value={saved ? "unsave" : "save"} />
      <button
        type="submit"
        disabled={pending}
        aria-pressed={signedIn ? shownSaved : undefined}
        title={shownSaved ? "Saved: press to remove it from your reading list" : undefined}
        className={`${barButton} ${shownSaved ? "border-brand-500 bg-brand-50 text-brand-700" : ""}`}
      >
        <BookmarkIcon filled={shownSaved} />
        <span>{shownSaved ? "Saved" : "Save"}</span>
      </button>
    </fetcher.Form>
  );
}
