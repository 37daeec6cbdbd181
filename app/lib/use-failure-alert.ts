import { useEffect } from "react";
import type { FormFailure } from "./forms.server";
import { alertDialog } from "./dialogs";

/** The refusal an action answered, if that is what it answered (forms.server's isFormFailure, for the browser). */
export function failureOf(result: unknown): FormFailure | null {
  return typeof result === "object" && result !== null && (result as { ok?: unknown }).ok === false ? (result as FormFailure) : null;
}

/**
 * With JavaScript, a refused submission also gets the spec's error dialog (the page shows the same
 * message inline, which is all a visitor without JavaScript sees). Fires once per action answer.
 */
export function useFailureAlert(result: unknown, title: string, text?: (failure: FormFailure) => string | undefined) {
  useEffect(() => {
    const failure = failureOf(result);
    if (!failure) return;
    void alertDialog(title, text ? text(failure) : failure.formError, "error");
    // Only a new answer should open the dialog again.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [result]);
}
