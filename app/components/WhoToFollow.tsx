import { Link } from "@remix-run/react";
import { Avatar } from "#app/components/Avatar.tsx";
import { FollowButton } from "#app/components/FollowButton.tsx";
import { WHO_TO_FOLLOW } from "#app/lib/who-to-follow.ts";
import type { SuggestedWriter } from "#worker/services/follows.ts";

/**
 * The all-blogs sidebar's "Who to Follow": real writers the reader does not follow yet, each with a
 * working Follow button. Only when there are none does it show the spec's three static people.
 * `signedIn` false: a visitor's copy is shared, so every button leads to sign-in.
 */
export function WhoToFollowList({ writers, signedIn }: { writers: SuggestedWriter[]; signedIn: boolean }) {
  if (writers.length === 0) return <StaticPeople />;
  return (
    <ul className="flex flex-col gap-4" data-testid="who-to-follow">
      {writers.map((w) => (
        <li key={w._id} className="flex items-center gap-3">
          <Avatar photoURL={w.photoURL} size={40} />
          <span className="min-w-0 flex-1">
            <Link
              to={`/writers/${w._id}`}
              className="block truncate text-sm font-semibold text-ink hover:text-brand-700 hover:underline"
            >
              {w.name}
            </Link>
            <span className="block truncate text-xs text-gray-600">
              {w.designation || `${w.posts} ${w.posts === 1 ? "post" : "posts"}`}
            </span>
          </span>
          <FollowButton writerId={w._id} writerName={w.name} following={signedIn ? false : null} />
        </li>
      ))}
    </ul>
  );
}

function StaticPeople() {
  return (
    <ul className="flex flex-col gap-4">
      {WHO_TO_FOLLOW.map((p) => (
        <li key={p.name} className="flex items-center gap-3">
          <span
            aria-hidden="true"
            className={`flex h-10 w-10 shrink-0 items-center justify-center rounded-full text-sm font-bold ${p.tone}`}
          >
            {p.initials}
          </span>
          <span className="min-w-0 flex-1">
            <span className="block text-sm font-semibold text-ink">{p.name}</span>
            <span className="block truncate text-xs text-gray-600">{p.role}</span>
          </span>
          {/* Inert on purpose (spec): these people are placeholders until the site has writers. */}
          <button
            type="button"
            aria-label={`Follow ${p.name}`}
            className="rounded-full border border-gray-300 px-3 py-1 text-xs font-semibold text-gray-800 hover:bg-gray-50"
          >
            Follow
          </button>
        </li>
      ))}
    </ul>
  );
}
