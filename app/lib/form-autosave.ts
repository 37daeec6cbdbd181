import { useLocation, useNavigation } from "@remix-run/react";
import { clearAutosave, control, isText, readAutosave, typedIn, type StoredDraft } from "#app/lib/autosave-store.ts";
import { useCallback, useEffect, useMemo, useRef, useState, type RefObject } from "react";
import {
  accountDraft,
  clearAccountAutosave,
  sendAccountAutosave,
  type AccountAutosave,
} from "#app/lib/account-autosave.ts";

/**
 * Keeps a copy of a form's text fields in localStorage while the person types (a local draft), and
 * brings it back when they return: the one autosave of every post editor. Two ways back:
 * - "fill" (Write Blogs, a new post): the draft goes into the empty fields at once, so values the
 *   server sent back are never overwritten;
 * - "offer" (Update Blog): the form holds the post as stored, so the draft is offered, never applied
 *   silently, and the offer says when the post was saved again after the draft was made (its version,
 *   the post's updatedAt, differs), so a newer version on the server is not overwritten unawares.
 * Storage that is full or blocked (private windows) just means no draft.
 * Write Blogs also keeps an account copy (`account`, app/lib/account-autosave.ts): sent a little after
 * the typing stops, and offered back on another device when it is newer than that device's own draft.
 */
/** The words a post editor keeps on this device while the person types (Autosave on every editor). */
export const POST_AUTOSAVE_FIELDS = [
  "title",
  "category",
  "short_description",
  "blog_details",
  "tags",
  "meta_description",
  "social_image",
  "seo_title",
  "slug",
  // The URL of the chosen cover, uploaded once (app/lib/kept-cover.ts): a File cannot be kept as words.
  "image_url",
] as const;

/** How long after the last keystroke the account's copy is sent (the device's own copy: 400 ms). */
const ACCOUNT_DELAY_MS = 1500;

export type AutosaveStatus = "none" | "restored" | "offered" | "saved";

export interface AutosaveOptions {
  key: string;
  fields: readonly string[];
  mode: "fill" | "offer";
  /** The refusal of the last submission, if any: the form then shows the server's copy of what was sent. */
  refused: unknown;
  /** The stored post's version (its updatedAt): a draft from another version says so when offered. */
  version?: string;
  /** Write Blogs: the account's copy as the page loaded it (null: none); undefined keeps no account copy. */
  account?: AccountAutosave | null;
}

export function useFormAutosave(form: RefObject<HTMLFormElement | null>, options: AutosaveOptions) {
  const { key, mode, refused, version } = options;
  const restore = !refused;
  const [status, setStatus] = useState<AutosaveStatus>("none");
  const [savedAt, setSavedAt] = useState<number | null>(null);
  const [offer, setOffer] = useState<StoredDraft | null>(null);
  // The fields list and the baseline are fixed per form: their words, not an object's identity, decide a re-run.
  const fieldsKey = options.fields.join("\n");
  const names = useMemo(() => fieldsKey.split("\n"), [fieldsKey]);
  // What counts as a change: for a new post any words; for an edit, words other than those the form
  // showed when it first drew the stored post (read from the fields, as the browser normalised them).
  const baseline = useRef<Record<string, string> | null>(null);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const accountTimer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const synced = options.account !== undefined;
  const account = useRef(options.account);
  // While the account's copy is offered and not yet taken or discarded, this device does not replace it.
  const holdAccount = useRef(false);

  /** The fields whose words differ from the form's baseline: what a draft keeps. */
  const changes = useCallback(() => {
    const values: Record<string, string> = {};
    const el = form.current;
    if (!el) return values;
    for (const name of names) {
      const input = control(el, name);
      if (input && input.value.trim() !== (baseline.current?.[name] ?? "").trim()) values[name] = input.value;
    }
    return values;
  }, [form, names]);

  /** Whether leaving now would lose words (or a chosen file) that are not saved to the post. */
  const isDirty = useCallback(() => {
    const el = form.current;
    if (!el) return false;
    if ([...el.querySelectorAll<HTMLInputElement>('input[type="file"]')].some((f) => (f.files?.length ?? 0) > 0))
      return true;
    return Object.keys(changes()).length > 0;
  }, [form, changes]);

  useEffect(() => {
    const el = form.current;
    if (!el) return;
    if (mode === "offer" && baseline.current === null)
      baseline.current = Object.fromEntries(names.map((name) => [name, control(el, name)?.value ?? ""]));
    let restoredHere = false;
    if (restore) {
      const draft = readAutosave(key);
      const differs =
        draft !== null && Object.entries(draft.values).some(([name, v]) => control(el, name)?.value !== v);
      if (draft && mode === "fill") {
        let restored = false;
        for (const name of names) {
          const input = control(el, name);
          const value = draft.values[name];
          if (input && isText(value) && value !== "" && input.value === "") {
            input.value = value;
            // Enhancements that follow the field (the Markdown preview) hear about the restored text.
            input.dispatchEvent(new Event("input", { bubbles: true }));
            restored = true;
          }
        }
        if (restored) setStatus("restored");
        restoredHere = restored;
      } else if (draft && differs) {
        setOffer(draft);
        setStatus("offered");
      } else if (draft) {
        clearAutosave(key);
      }
      // Another device's words, newer than this device's own and not what the form already shows.
      const remote = account.current ? accountDraft(account.current) : null;
      const newer = remote && (draft?.savedAt ?? 0) < (remote.savedAt ?? 0);
      if (remote && newer && Object.entries(remote.values).some(([name, v]) => v && control(el, name)?.value !== v)) {
        holdAccount.current = true;
        setOffer(remote);
        setStatus("offered");
      }
    }

    const keepOnDevice = () => {
      timer.current = undefined;
      const values = changes();
      const at = Date.now();
      try {
        if (Object.keys(values).length === 0) window.localStorage.removeItem(key);
        else window.localStorage.setItem(key, JSON.stringify({ values, savedAt: at, version }));
        setSavedAt(at);
        setStatus((s) => (s === "offered" ? s : "saved"));
      } catch {
        // storage full or blocked: the form itself still holds the text
      }
    };
    const keepOnAccount = () => {
      accountTimer.current = undefined;
      void sendAccountAutosave(changes());
    };
    const save = () => {
      clearTimeout(timer.current);
      timer.current = setTimeout(keepOnDevice, 400);
      if (synced && !holdAccount.current) {
        clearTimeout(accountTimer.current);
        accountTimer.current = setTimeout(keepOnAccount, ACCOUNT_DELAY_MS);
      }
    };
    // Leaving (a reload, a closed tab, the phone switching apps) before the pause is over: what is still
    // waiting is kept now, so the last words typed (or a cover just kept) are not lost to the delay.
    const flush = () => {
      if (timer.current !== undefined) {
        clearTimeout(timer.current);
        keepOnDevice();
      }
      if (accountTimer.current !== undefined) {
        clearTimeout(accountTimer.current);
        keepOnAccount();
      }
    };
    // Sent: the action clears the account's copy once the post is saved; no late copy may follow it.
    const sent = () => {
      clearTimeout(accountTimer.current);
      accountTimer.current = undefined;
    };
    const hidden = () => void (document.visibilityState === "hidden" && flush());
    el.addEventListener("input", save);
    el.addEventListener("change", save);
    el.addEventListener("submit", sent);
    // Words typed into a new post before the page was ready (before these listeners) are kept as well.
    if (mode === "fill" && !restoredHere && names.some((name) => typedIn(control(el, name)))) save();
    window.addEventListener("pagehide", flush);
    document.addEventListener("visibilitychange", hidden);
    return () => {
      clearTimeout(timer.current);
      clearTimeout(accountTimer.current);
      el.removeEventListener("input", save);
      el.removeEventListener("change", save);
      el.removeEventListener("submit", sent);
      window.removeEventListener("pagehide", flush);
      document.removeEventListener("visibilitychange", hidden);
    };
  }, [form, key, restore, names, mode, changes, version, synced]);

  /** Puts the offered draft's words into the form (nothing is saved to the post until it is submitted). */
  const restoreOffer = useCallback(() => {
    const el = form.current;
    if (!el || !offer) return;
    // Taken: from now on this device's words are the account's copy.
    holdAccount.current = false;
    for (const [name, value] of Object.entries(offer.values)) {
      const input = control(el, name);
      if (!input) continue;
      input.value = value;
      input.dispatchEvent(new Event("input", { bubbles: true }));
    }
    setOffer(null);
    setStatus("restored");
  }, [form, offer]);

  /** Forgets the draft; a new post's fields are emptied too, an edit's keep the stored post. */
  const discard = useCallback(() => {
    clearTimeout(timer.current);
    clearTimeout(accountTimer.current);
    clearAutosave(key);
    // A new post's words are forgotten everywhere; an offered account copy is forgotten too.
    if (synced && (mode === "fill" || offer?.source === "account")) clearAccountAutosave();
    holdAccount.current = false;
    setOffer(null);
    const el = form.current;
    if (el && mode === "fill")
      for (const name of names) {
        const input = control(el, name);
        if (!input) continue;
        input.value = "";
        // Heard by the field itself (the kept cover's preview), not by the form's autosave.
        input.dispatchEvent(new Event("input"));
      }
    setStatus("none");
    setSavedAt(null);
  }, [form, key, names, mode, synced, offer]);

  useClearAfterAcceptedSubmit(key, refused);

  const stale = Boolean(offer && offer.version && version && offer.version !== version);
  return { status, savedAt, offer, stale, restoreOffer, discard, isDirty };
}

/**
 * A submission the server accepted redirects away, so the form unmounts; a refused one stays (and
 * resets the mark). Leaving after an accepted save is when the draft has done its job.
 */
function useClearAfterAcceptedSubmit(key: string, refused: unknown) {
  const navigation = useNavigation();
  const location = useLocation();
  const submitted = useRef(false);
  if (navigation.state === "submitting" && navigation.formAction === location.pathname) submitted.current = true;
  useEffect(() => {
    if (refused) submitted.current = false;
  }, [refused]);
  useEffect(
    () => () => {
      if (submitted.current) clearAutosave(key);
    },
    [key],
  );
}
