import { Form, Link, useNavigation } from "@remix-run/react";
import { useEffect, useRef, type ReactNode, type RefObject } from "react";
import { Avatar } from "#app/components/Avatar.tsx";
import { EmptyPage, PagedList, type Paged } from "#app/components/PagedList.tsx";
import { buttonClass } from "#app/components/ui.tsx";
import type { FollowedWriter } from "#worker/services/follows.ts";

/**
 * The hidden fields of /following's two forms (Unfollow, Undo): which writer, and the page to come back
 * to (the action keeps its `page` and `posts` and adds what it did, so the answer shows without JavaScript).
 */
function FollowFields({ intent, writerId, back }: { intent: "follow" | "unfollow"; writerId: string; back: string }) {
  return (
    <>
      <input type="hidden" name="intent" value={intent} />
      <input type="hidden" name="writerId" value={writerId} />
      <input type="hidden" name="back" value={back} />
    </>
  );
}

/** A form's button that is busy only while its own writer's change is on the way (not every row's). */
function ChangeButton({
  intent,
  writerId,
  pendingText,
  buttonRef,
  children,
}: {
  intent: "follow" | "unfollow";
  writerId: string;
  pendingText: string;
  buttonRef?: RefObject<HTMLButtonElement>;
  children: ReactNode;
}) {
  const navigation = useNavigation();
  const pending =
    navigation.state === "submitting" &&
    navigation.formData?.get("intent") === intent &&
    navigation.formData.get("writerId") === writerId;
  return (
    <button
      ref={buttonRef}
      type="submit"
      disabled={pending}
      aria-busy={pending || undefined}
      className={buttonClass({ tone: "secondary", size: "sm", className: "min-h-10" })}
    >
      {pending ? pendingText : children}
    </button>
  );
}

/**
 * What the last change on /following did: "Unfollowed {name}." with an Undo that follows again, or the
 * follow back. A live region that is always there, so the words are read out when they appear; after an
 * unfollow the row (and its focused button) is gone, so focus moves to Undo rather than to the page's start.
 */
export function FollowNotice({
  notice,
  back,
}: {
  notice: { kind: "unfollowed" | "followed"; writerId: string; name: string } | null;
  back: string;
}) {
  const undo = useRef<HTMLButtonElement>(null);
  const key = notice ? `${notice.kind}:${notice.writerId}` : "";
  useEffect(() => {
    if (key.startsWith("unfollowed:")) undo.current?.focus();
  }, [key]);
  return (
    <div role="status" className="mt-6 empty:hidden" data-testid="follow-notice">
      {notice ? (
        <div className="flex flex-wrap items-center gap-3 rounded-lg border border-green-200 bg-green-50 px-4 py-3 text-sm text-green-900">
          <p className="flex-1">
            {notice.kind === "unfollowed" ? `Unfollowed ${notice.name}.` : `You follow ${notice.name} again.`}
          </p>
          {notice.kind === "unfollowed" ? (
            <Form method="post" preventScrollReset>
              <FollowFields intent="follow" writerId={notice.writerId} back={back} />
              <ChangeButton intent="follow" writerId={notice.writerId} pendingText="Following again…" buttonRef={undo}>
                Undo<span className="sr-only">: follow {notice.name} again</span>
              </ChangeButton>
            </Form>
          ) : null}
        </div>
      ) : null}
    </div>
  );
}

/** The writers the reader follows: avatar, name (to their page), visible posts, and Unfollow. */
export function FollowedWriterList({ writers, back }: { writers: Paged<FollowedWriter>; back: string }) {
  return (
    <PagedList
      list={writers}
      className="mt-6 divide-y divide-gray-100 rounded-2xl border border-gray-200 bg-white shadow-sm"
      label="Writers you follow"
      itemClassName="flex flex-wrap items-center gap-3 px-4 py-3 sm:flex-nowrap"
      pagerLabel="Pages of writers you follow"
      renderItem={(w) => (
        <>
          <Avatar photoURL={w.photoURL} size={48} />
          <span className="min-w-0 flex-1">
            <Link
              to={`/writers/${w._id}`}
              className="block truncate font-semibold text-ink hover:text-brand-700 hover:underline"
            >
              {w.name}
            </Link>
            <span className="block text-sm text-gray-600">
              {w.posts === 0 ? "No posts yet" : `${w.posts} ${w.posts === 1 ? "post" : "posts"}`}
            </span>
          </span>
          <Form method="post" preventScrollReset className="shrink-0">
            <FollowFields intent="unfollow" writerId={w._id} back={back} />
            <ChangeButton intent="unfollow" writerId={w._id} pendingText="Unfollowing…">
              Unfollow<span className="sr-only"> {w.name}</span>
            </ChangeButton>
          </Form>
        </>
      )}
      empty={
        <EmptyPage
          list={writers}
          title="You do not follow anyone yet"
          text="Follow writers from their pages, their posts or the “Who to Follow” list: they will be listed here, and their new posts below."
        >
          <Link to="/allBlogs" className={buttonClass({ className: "mt-6" })}>
            Find writers to follow
          </Link>
        </EmptyPage>
      }
    />
  );
}
