import { useState } from "react";
import { copyText } from "#app/lib/clipboard.ts";
import { buttonClass } from "./ui";

/**
 * The fediverse handle of a writer or of the site, with a copy button and how to follow it
 * from Mastodon or any ActivityPub server. Without JavaScript the handle is plain text to select.
 */
export function FediverseHandle({ handle, who }: { handle: string; who: string }) {
  const [copied, setCopied] = useState(false);
  const copy = async () => {
    await copyText(handle);
    setCopied(true);
  };
  return (
    <section
      aria-labelledby="fediverse-heading"
      className="mt-6 max-w-3xl rounded-2xl border border-gray-200 bg-gray-50 p-4"
      data-testid="fediverse-handle"
    >
      <h2 id="fediverse-heading" className="text-sm font-semibold text-ink">
        Follow from Mastodon
      </h2>
      <div className="mt-2 flex flex-wrap items-center gap-2">
        <code className="break-all rounded-lg bg-white px-3 py-1.5 text-sm font-semibold text-brand-700 ring-1 ring-gray-200">
          {handle}
        </code>
        <button
          type="button"
          onClick={() => void copy()}
          // The reading pages' island copies it when the page is served without the framework.
          data-copy-link={handle}
          className={buttonClass({ tone: "secondary", size: "sm", className: "h-9" })}
        >
          Copy handle
        </button>
        <span role="status" className="text-sm text-green-700" data-copied="Copied.">
          {copied ? "Copied." : ""}
        </span>
      </div>
      <p className="mt-2 text-sm text-gray-700">
        {`To follow ${who} from Mastodon, Threads or any other fediverse server: paste this handle into your server's search box, open the profile it finds, and press Follow. New posts then arrive whole in your timeline, and your replies show here as comments.`}
      </p>
    </section>
  );
}
