import type { StoredDraft } from "#app/lib/autosave-store.ts";

/**
 * The account's copy of Write Blogs' autosave (PUT/GET/DELETE /api/drafts/autosave): what the writer
 * typed, kept on the server for their other devices, readable only by them, never a post. The cover
 * travels as the URL of its upload (app/lib/kept-cover.ts), in the form's `image_url` field.
 */
export interface AccountAutosave {
  fields: Record<string, string>;
  cover: string;
  saved_at: string;
}

const PATH = "/api/drafts/autosave";
export const COVER_FIELD = "image_url";

/** Keeps the form's words on the server (or forgets them when there are none); a failure only means no copy. */
export async function sendAccountAutosave(values: Record<string, string>): Promise<void> {
  const { [COVER_FIELD]: cover = "", ...fields } = values;
  try {
    await (Object.keys(values).length === 0
      ? fetch(PATH, { method: "DELETE", keepalive: true })
      : fetch(PATH, {
          method: "PUT",
          // Sent as the page is left too (a flush on pagehide): keepalive lets it finish after the page.
          keepalive: true,
          headers: { "Content-Type": "application/json" },
          body: JSON.stringify({ fields, cover }),
        }));
  } catch {
    // offline: this device's copy still holds the words
  }
}

export function clearAccountAutosave(): void {
  void fetch(PATH, { method: "DELETE" }).catch(() => {});
}

/** The account's copy as the autosave offers it back. */
export function accountDraft(saved: AccountAutosave): StoredDraft {
  const values = { ...saved.fields, ...(saved.cover ? { [COVER_FIELD]: saved.cover } : {}) };
  return { values, savedAt: Date.parse(saved.saved_at) || null, source: "account" };
}
