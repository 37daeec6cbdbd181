import { Link } from "@remix-run/react";
import { useEffect, useState } from "react";
import { alertDialog, toast } from "#app/lib/dialogs.ts";
import type { Flash } from "#app/lib/flash.server.ts";

/**
 * Shows the flash of the current page once: a SweetAlert2 toast or dialog once hydrated, then a notice on
 * the page that stays until the person dismisses it. A toast closes itself, so its words must not vanish with
 * it (WCAG 2.2.1): when it closes, the notice keeps them, with the flash's ways on ("View it", "Share it").
 * The two are never on screen together (issue 47: a banner and a modal with the same words): with
 * JavaScript (the head script's `js` class) the notice waits for the toast or dialog to close; without it,
 * the notice is the only message.
 */
export function FlashMessage({ flash }: { flash: Flash | null }) {
  const [dismissed, setDismissed] = useState<Flash | null>(null);
  const [closed, setClosed] = useState<Flash | null>(null);
  useEffect(() => {
    if (!flash) return;
    const shown =
      flash.kind === "toast"
        ? toast(flash.title, flash.text, flash.icon ?? "success")
        : alertDialog(flash.title, flash.text, flash.icon ?? "info");
    void shown.then(() => setClosed(flash));
  }, [flash]);

  if (!flash || dismissed === flash) return null;
  const tone =
    flash.icon === "error" ? "border-red-200 bg-red-50 text-red-800" : "border-green-200 bg-green-50 text-green-800";
  return (
    <div
      role="status"
      data-testid="flash-notice"
      className={`mx-4 mt-4 flex items-start gap-3 rounded-lg border px-4 py-3 text-sm sm:mx-auto sm:max-w-3xl ${tone} ${closed === flash ? "" : "js:hidden"}`}
    >
      <p className="flex-1">
        <strong className="font-semibold">{flash.title}</strong>
        {flash.text ? <span> {flash.text}</span> : null}
        {flash.links?.map((l) => (
          <Link
            key={l.href}
            to={l.href}
            className="ml-3 inline-block font-semibold whitespace-nowrap underline underline-offset-2"
          >
            {l.label}
          </Link>
        ))}
      </p>
      <button
        type="button"
        onClick={() => setDismissed(flash)}
        aria-label="Dismiss message"
        className="-my-1 rounded-full px-2 py-1 text-base leading-none font-semibold hover:bg-black/5"
      >
        ×
      </button>
    </div>
  );
}
