import { Form } from "@remix-run/react";
import { SubmitButton } from "./form";

/**
 * The export file's upload, posted to /dashboard/import's action: `upload` imports a whole site (admins),
 * `upload-own` a writer's own posts. The dashboard's import page and /settings both show it.
 */
export function ImportUploadForm({ intent }: { intent: "upload" | "upload-own" }) {
  return (
    <Form
      method="post"
      action="/dashboard/import"
      encType="multipart/form-data"
      className="flex flex-col gap-3 sm:flex-row sm:items-center"
    >
      <input type="hidden" name="intent" value={intent} />
      <label className="text-sm font-medium text-gray-800">
        <span className="sr-only">Export file</span>
        <input type="file" name="file" accept=".xml,.json,.zip" required className="text-sm" />
      </label>
      <SubmitButton pendingText="Reading the file…">Upload and preview</SubmitButton>
    </Form>
  );
}
