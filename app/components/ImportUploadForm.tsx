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
      {/* A named field with a button that looks like one (issue 47: it was bare "Choose File" text). */}
      <label className="flex max-w-md flex-col gap-1 text-sm font-medium text-gray-800">
        Export file
        <input
          type="file"
          name="file"
          accept=".xml,.json,.zip"
          required
          aria-describedby={`${intent}-file-help`}
          className="rounded-lg border border-dashed border-gray-300 p-2 text-sm font-normal text-gray-700 file:mr-3 file:cursor-pointer file:rounded-md file:border-0 file:bg-brand-50 file:px-3 file:py-2 file:text-sm file:font-semibold file:text-brand-700 hover:file:bg-brand-100"
        />
        <span id={`${intent}-file-help`} className="text-xs font-normal text-gray-600">
          An export from WordPress (.xml), Ghost (.json), or Substack, Medium or a site like this one (.zip).
        </span>
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
