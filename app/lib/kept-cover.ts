import { useCallback, useEffect, useState, type RefObject } from "react";
import { precheck, uploadImage, UploadRefused } from "#app/lib/editor-upload.ts";

/**
 * Autosave keeps the chosen cover. A File cannot go in localStorage, so with JavaScript the chosen file
 * is uploaded once, as soon as it is chosen, through the one image call (POST /api/images, the editor's
 * own uploader), and its `/images/...` URL goes into a hidden field that autosave keeps like the words:
 * on this device and in the account's copy, so a reload or another device gets the cover back. Chosen
 * over keeping the File in IndexedDB because one URL serves every device (IndexedDB stays on this one),
 * needs no second store to clear, and the form then sends the URL instead of the same file again (the
 * actions take a kept URL over a file). Without JavaScript the file simply goes with the form.
 */
export type KeptCover = { url: string; note: string; keep: (file: File | undefined) => void };

export function useKeptCover(hidden: RefObject<HTMLInputElement | null>): KeptCover {
  const [url, setUrl] = useState("");
  const [note, setNote] = useState("");

  // Autosave puts a kept URL back by setting the field and telling it (an input event).
  useEffect(() => {
    const el = hidden.current;
    if (!el) return;
    const heard = () => setUrl(el.value);
    heard();
    el.addEventListener("input", heard);
    return () => el.removeEventListener("input", heard);
  }, [hidden]);

  const set = useCallback(
    (value: string) => {
      const el = hidden.current;
      if (!el) return;
      el.value = value;
      el.dispatchEvent(new Event("input", { bubbles: true }));
    },
    [hidden],
  );

  const keep = useCallback(
    (file: File | undefined) => {
      // A new choice replaces the kept one at once: the form never sends an older cover's URL.
      set("");
      if (!file) return setNote("");
      const refused = precheck(file);
      if (refused) return setNote(refused);
      setNote("Keeping the cover with your draft…");
      uploadImage(file, () => {}).then(
        (stored) => {
          set(stored);
          setNote("The cover is kept with your draft.");
        },
        // A refused file is said as such, with what to do (issue 47: "…are accepted. It is sent with the form.");
        // only a file the server could not take just now is still sent when the form is.
        (err: unknown) =>
          setNote(
            err instanceof UploadRefused
              ? `${err.message} Choose another image.`
              : `${err instanceof Error ? err.message : "The cover could not be kept."} The chosen file is still sent when you post.`,
          ),
      );
    },
    [set],
  );

  return { url, note, keep };
}
