import { useCallback, useEffect, useMemo, useRef, useState, type RefObject } from "react";

/**
 * Keeps a copy of a form's text fields in localStorage while the person types, and puts it back when
 * they return (forms that never lose work). Only empty fields are filled, so values the server sent
 * back are never overwritten. Storage that is full or blocked (private windows) just means no draft.
 */
export type AutosaveStatus = "none" | "restored" | "saved";

type Control = HTMLInputElement | HTMLTextAreaElement | HTMLSelectElement;

function control(form: HTMLFormElement, name: string): Control | null {
  const el = form.elements.namedItem(name);
  return el instanceof HTMLInputElement || el instanceof HTMLTextAreaElement || el instanceof HTMLSelectElement
    ? el
    : null;
}

export function readAutosave(key: string): Record<string, string> | null {
  try {
    const raw = window.localStorage.getItem(key);
    const value: unknown = raw ? JSON.parse(raw) : null;
    return value && typeof value === "object" ? (value as Record<string, string>) : null;
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

export function useFormAutosave(
  form: RefObject<HTMLFormElement | null>,
  key: string,
  fields: readonly string[],
  restore: boolean,
) {
  const [status, setStatus] = useState<AutosaveStatus>("none");
  // The fields list is fixed per form: its words, not a new array's identity, decide a re-run.
  const fieldsKey = fields.join("\n");
  const names = useMemo(() => fieldsKey.split("\n"), [fieldsKey]);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);

  useEffect(() => {
    const el = form.current;
    if (!el) return;
    if (restore) {
      const draft = readAutosave(key);
      let restored = false;
      for (const name of names) {
        const input = control(el, name);
        const value = draft?.[name];
        if (input && typeof value === "string" && value !== "" && input.value === "") {
          input.value = value;
          // Enhancements that follow the field (the Markdown preview) hear about the restored text.
          input.dispatchEvent(new Event("input", { bubbles: true }));
          restored = true;
        }
      }
      if (restored) setStatus("restored");
    }

    const save = () => {
      clearTimeout(timer.current);
      timer.current = setTimeout(() => {
        const values: Record<string, string> = {};
        for (const name of names) {
          const input = control(el, name);
          if (input && input.value.trim() !== "") values[name] = input.value;
        }
        try {
          if (Object.keys(values).length === 0) window.localStorage.removeItem(key);
          else window.localStorage.setItem(key, JSON.stringify(values));
          setStatus("saved");
        } catch {
          // storage full or blocked: the form itself still holds the text
        }
      }, 400);
    };
    el.addEventListener("input", save);
    el.addEventListener("change", save);
    return () => {
      clearTimeout(timer.current);
      el.removeEventListener("input", save);
      el.removeEventListener("change", save);
    };
  }, [form, key, restore, names]);

  const discard = useCallback(() => {
    clearTimeout(timer.current);
    clearAutosave(key);
    const el = form.current;
    if (el)
      for (const name of names) {
        const input = control(el, name);
        if (input) input.value = "";
      }
    setStatus("none");
  }, [form, key, names]);

  return { status, discard };
}
