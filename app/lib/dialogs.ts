/**
 * SweetAlert2 dialogs and toasts with the spec's defaults (OK / No / Cancel, 1.5 s toasts).
 * SweetAlert2 touches `document`, so it is imported on demand in the browser only.
 */
import type { ConfirmKind } from "./confirm";
import { DIALOG_DEFAULTS, MSG, TOAST_MS } from "./messages";

type Icon = "success" | "error" | "warning" | "info" | "question";

async function swal() {
  const { default: Swal } = await import("sweetalert2");
  return Swal.mixin({ ...DIALOG_DEFAULTS, buttonsStyling: true, confirmButtonColor: "#3b55e6" });
}

/**
 * A success message that closes itself after 1.5 s (or at once with its close button). What it says after a
 * page change also stays on the page as a notice (FlashMessage).
 */
export async function toast(title: string, text?: string, icon: Icon = "success") {
  const Swal = await swal();
  await Swal.fire({ title, text, icon, timer: TOAST_MS, showConfirmButton: false, showCloseButton: true });
}

export async function alertDialog(title: string, text?: string, icon: Icon = "info", confirmButtonText?: string) {
  const Swal = await swal();
  await Swal.fire({ title, text, icon, ...(confirmButtonText ? { confirmButtonText } : {}) });
}

/** A confirm dialog focuses Cancel, as platform guidelines do, so Enter never deletes or signs out by accident. */
export const CONFIRM_DEFAULTS = { showCancelButton: true, focusCancel: true, cancelButtonColor: "#6b7280" } as const;

/** Resolves true when the person confirms. */
export async function confirmDialog(options: { title: string; text: string; confirmButtonText: string; icon?: Icon }) {
  const Swal = await swal();
  const result = await Swal.fire({
    title: options.title,
    text: options.text,
    icon: options.icon ?? "warning",
    ...CONFIRM_DEFAULTS,
    confirmButtonText: options.confirmButtonText,
  });
  return result.isConfirmed;
}

/** Asks before an action, in the words of `MSG.confirm` (the same words the no-JS /confirm page shows). */
export function confirmAsk(kind: ConfirmKind, text?: string) {
  const words = MSG.confirm[kind];
  return confirmDialog({ title: words.title, text: text ?? words.text, confirmButtonText: words.button });
}
