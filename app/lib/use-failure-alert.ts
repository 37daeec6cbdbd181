import { useOnActionResult } from "#app/lib/use-on-action-result.ts";
import { failureText, refusal, type FormFailure } from "./form-result";
import { alertDialog } from "./dialogs";

/**
 * With JavaScript, a refused submission also gets the spec's error dialog (the page shows the same
 * message inline, which is all a visitor without JavaScript sees). Fires once per action answer.
 */
export function useFailureAlert(
  result: unknown,
  title: string,
  text: (failure: FormFailure) => string = (f) => failureText(f, title),
) {
  useOnActionResult(result, () => {
    const failure = refusal(result);
    if (failure) void alertDialog(title, text(failure), "error");
  });
}
