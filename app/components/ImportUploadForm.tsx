import { Form } from "@remix-run/react";
import { SubmitButton } from "./form";

/**
 * The export file's upload, posted to /dashboard/import's action: `upload` imports a whole site (admins),
 * `upload-own` a writer's own posts (`?upload=site|own` on the action). The dashboard's import page and /settings both show it.
 */
export function ImportUploadForm({ intent }: { intent: "upload" | "upload-own" }) {
  return (
    // The scope rides in the URL so the action checks who may import before it reads the file.
    <Form
      method="post"
      action={`/dashboard/import?upload=${intent === "upload" ? "site" : "own"}`}
      encType="multipart/form-data"
      className="flex flex-col gap-3"
    >
      <label className="text-sm font-medium text-gray-800">
        <span className="sr-only">Export file</span>
        <input type="file" name="file" accept=".xml,.json,.zip" required className="text-sm" />
      </label>
      <label className="flex max-w-md flex-col gap-1 text-sm font-medium text-gray-800">
        Old site&apos;s address (optional)
        <input
          type="text"
          name="source_url"
          inputMode="url"
          autoComplete="url"
          placeholder="https://yourblog.ghost.io"
          aria-describedby={`${intent}-source-url-help`}
          className="rounded-lg border border-gray-300 px-3 py-2 text-base font-normal"
        />
        <span id={`${intent}-source-url-help`} className="text-xs font-normal text-gray-600">
          A Ghost export does not say where its images live; give the address and they are copied too.
        </span>
      </label>
      <SubmitButton pendingText="Reading the file…" className="self-start">
        Upload and preview
      </SubmitButton>
    </Form>
  );
}
