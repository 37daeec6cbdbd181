/** The device's copy of a form's words (localStorage), and the form's controls by name. */

/** What is kept per form: the changed words, when they were kept, and the server version they started from. */
export interface StoredDraft {
  values: Record<string, string>;
  savedAt: number | null;
  version?: string;
  /** Where the offered words were kept: this device (the default) or the account, from another device. */
  source?: "device" | "account";
}

type Control = HTMLInputElement | HTMLTextAreaElement | HTMLSelectElement;

export function control(form: HTMLFormElement, name: string): Control | null {
  const el = form.elements.namedItem(name);
  return el instanceof HTMLInputElement || el instanceof HTMLTextAreaElement || el instanceof HTMLSelectElement
    ? el
    : null;
}

export const isText = (v: unknown): v is string => typeof v === "string";

export function readAutosave(key: string): StoredDraft | null {
  try {
    const raw = window.localStorage.getItem(key);
    const value: unknown = raw ? JSON.parse(raw) : null;
    if (!value || typeof value !== "object") return null;
    const record = value as Record<string, unknown>;
    // The first drafts were the bare field values.
    const values = record.values && typeof record.values === "object" ? record.values : record;
    const kept = Object.fromEntries(Object.entries(values as Record<string, unknown>).filter(([, v]) => isText(v)));
    return {
      values: kept as Record<string, string>,
      savedAt: typeof record.savedAt === "number" ? record.savedAt : null,
      version: isText(record.version) ? record.version : undefined,
    };
  } catch {
    return null;
  }
}

export function clearAutosave(key: string) {
  try {
    window.localStorage.removeItem(key);
  } catch {
    // nothing stored, nothing to clear
  }
}

/** Whether a writer typed into this field: a text field or text area with words in it (not a choice or hidden). */
export const typedIn = (input: ReturnType<typeof control>) =>
  (input instanceof HTMLTextAreaElement || (input instanceof HTMLInputElement && input.type !== "hidden")) &&
  input.value.trim() !== "";
