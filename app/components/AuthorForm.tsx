import { Form } from "@remix-run/react";
import { LIMITS } from "#worker/services/shared/limits.ts";

import { useOnActionResult } from "#app/lib/use-on-action-result.ts";
import type { Author } from "#worker/services/authors.ts";
import { Field, FormError, SubmitButton, TextArea } from "#app/components/form.tsx";
import { ImageField } from "#app/components/ImageField.tsx";
import { failureText, refusal, type FormFailure } from "#app/lib/form-result.ts";
import { alertDialog } from "#app/lib/dialogs.ts";
import { MSG } from "#app/lib/messages.ts";

/** What a refusal says: [dialog title, dialog text, inline text]. Update Author has the spec's two dialogs (the picture, everything else). */
function refusalTexts(failure: FormFailure, editing: boolean): [string, string, string] {
  if (!editing)
    return [
      MSG.admin.actionFailedTitle,
      failureText(failure, MSG.admin.actionFailedTitle),
      failureText(failure, "The author could not be added."),
    ];
  const [title, text] =
    failure.code === "image-upload-failed"
      ? [MSG.author.imageErrorTitle, MSG.author.imageErrorText]
      : [MSG.author.updateFailed, failureText(failure, "The author could not be updated.")];
  return [title, text, `${title}: ${text}`];
}

/**
 * The author form of Add Author (no `author`: name, bio and picture required, the file sent as
 * `image`) and Update Author (`author` preloaded: every field optional, an empty one keeps its value,
 * a new picture only if one is chosen, sent as `img`). `result` is the action's answer: a refusal, or
 * on update `{modifiedCount: 0}` ("No Changes Made!"), each shown inline and, with JavaScript, as a dialog.
 */
export function AuthorForm({ author, result }: { author?: Author; result: unknown }) {
  const editing = author !== undefined;
  const failure = refusal(result);
  const unchanged =
    editing &&
    !failure &&
    typeof result === "object" &&
    result !== null &&
    (result as { modifiedCount?: unknown }).modifiedCount === 0;
  const values = failure?.values ?? {};
  const errors = failure?.fields ?? {};

  useOnActionResult(result, () => {
    if (failure) {
      const [title, text] = refusalTexts(failure, editing);
      void alertDialog(title, text, "error");
    }
    if (unchanged) void alertDialog(MSG.author.noChanges, undefined, "info");
  });

  const value = (field: "name" | "bio" | "twitter" | "linkedin" | "github") =>
    editing ? (values[field] ?? author[field] ?? "") : values[field];
  const imageField = editing ? "img" : "image";

  return (
    <Form
      method="post"
      encType="multipart/form-data"
      className="flex max-w-3xl flex-col gap-5"
      aria-label={editing ? "Update author" : "Add author"}
    >
      {failure ? <FormError message={refusalTexts(failure, editing)[2]} /> : null}
      {unchanged ? (
        <div
          role="status"
          className="rounded-lg border border-gray-200 bg-gray-50 px-4 py-3 text-sm font-semibold text-gray-800"
        >
          {MSG.author.noChanges}
        </div>
      ) : null}
      <Field
        label="Name"
        name="name"
        required={!editing}
        maxLength={LIMITS.name}
        defaultValue={value("name")}
        error={errors.name}
        autoComplete="off"
      />
      <TextArea
        label="Bio"
        name="bio"
        required={!editing}
        maxLength={LIMITS.bio}
        rows={4}
        defaultValue={value("bio")}
        error={errors.bio}
      />
      <ImageField
        name={imageField}
        label="Picture"
        required={!editing}
        current={author?.img}
        error={errors[imageField]}
        hint={
          editing
            ? "Optional: choose a new file to replace the current picture."
            : "JPEG, PNG, WebP, GIF or AVIF, up to 5 MB. A square photo looks best."
        }
      />
      <fieldset className="flex flex-col gap-4 rounded-2xl border border-gray-200 p-4 sm:p-5">
        <legend className="px-1 text-sm font-semibold text-gray-800">Profile links (optional)</legend>
        <div className="grid gap-4 md:grid-cols-3">
          <Field
            label="Twitter"
            name="twitter"
            type="url"
            inputMode="url"
            placeholder={editing ? undefined : "https://twitter.com/…"}
            defaultValue={value("twitter")}
            error={errors.twitter}
          />
          <Field
            label="LinkedIn"
            name="linkedin"
            type="url"
            inputMode="url"
            placeholder={editing ? undefined : "https://linkedin.com/in/…"}
            defaultValue={value("linkedin")}
            error={errors.linkedin}
          />
          <Field
            label="GitHub"
            name="github"
            type="url"
            inputMode="url"
            placeholder={editing ? undefined : "https://github.com/…"}
            defaultValue={value("github")}
            error={errors.github}
          />
        </div>
      </fieldset>
      <div className="flex justify-end border-t border-gray-100 pt-5">
        <SubmitButton pendingText={editing ? "Updating…" : "Adding…"}>
          {editing ? "Update Author" : "Add Author"}
        </SubmitButton>
      </div>
    </Form>
  );
}
