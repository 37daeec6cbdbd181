import { useEffect, useState } from "react";
import type { StoredDraft } from "#app/lib/autosave-store.ts";
import type { useFormAutosave } from "#app/lib/form-autosave.ts";

type Autosave = ReturnType<typeof useFormAutosave>;

const banner =
  "flex flex-wrap items-center justify-between gap-2 rounded-lg border border-brand-100 bg-brand-50 px-4 py-2.5 text-sm text-brand-700";
const action = "font-semibold underline underline-offset-2 hover:no-underline";

/** "Saved a moment ago", "Saved 3 minutes ago": how long ago the draft on this device was kept. */
export function savedAgo(savedAt: number, now = Date.now()): string {
  const minutes = Math.floor((now - savedAt) / 60_000);
  if (minutes < 1) return "Saved a moment ago";
  if (minutes < 60) return `Saved ${minutes} minute${minutes === 1 ? "" : "s"} ago`;
  const hours = Math.floor(minutes / 60);
  return `Saved ${hours} hour${hours === 1 ? "" : "s"} ago`;
}

function when(draft: StoredDraft): string {
  return draft.savedAt ? ` from ${new Date(draft.savedAt).toLocaleString()}` : "";
}

/**
 * What the editor says about its local draft, above the fields: the words it restored (with Discard),
 * or, on an edit, the words it offers to restore, and whether the post changed since they were written.
 */
export function DraftNotice({ autosave }: { autosave: Autosave }) {
  if (autosave.status === "restored")
    return (
      <div role="status" className={banner}>
        <span>We restored the text you were writing.</span>
        <button type="button" onClick={autosave.discard} className={action}>
          Discard it
        </button>
      </div>
    );
  if (autosave.status !== "offered" || !autosave.offer) return null;
  // The account's copy (another device) or this device's own changes: one banner, its words chosen.
  const fromAccount = autosave.offer.source === "account";
  const text = fromAccount
    ? `Your account kept a post you were writing in another browser or on another device${when(autosave.offer)}.`
    : `You have unsaved changes to this post${when(autosave.offer)}, kept on this device.${
        autosave.stale
          ? " The post was saved again after them: restoring puts your words over the newer ones in the form (nothing is saved until you update)."
          : ""
      }`;
  return (
    <div role="status" className={banner} data-testid="draft-offer">
      <span>{text}</span>
      <span className="flex gap-4">
        <button type="button" onClick={autosave.restoreOffer} className={action}>
          {fromAccount ? "Restore that draft" : "Restore my changes"}
        </button>
        <button type="button" onClick={autosave.discard} className={action}>
          {fromAccount ? "Discard it" : "Discard them"}
        </button>
      </span>
    </div>
  );
}

/** The polite live region beside the buttons: present from the start, so a screen reader hears each change. */
export function SavedStatus({ savedAt }: { savedAt: number | null }) {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    if (savedAt === null) return;
    setNow(Date.now());
    const tick = setInterval(() => setNow(Date.now()), 20_000);
    return () => clearInterval(tick);
  }, [savedAt]);
  return (
    <p className="text-xs text-gray-500" role="status" aria-live="polite" data-testid="autosave-status">
      {savedAt === null ? "" : `${savedAgo(savedAt, Math.max(now, savedAt))} on this device`}
    </p>
  );
}
