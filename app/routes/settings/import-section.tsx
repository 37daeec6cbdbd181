import { Form } from "@remix-run/react";
import { SubmitButton } from "#app/components/form.tsx";
import { Section } from "./sections";

/** A writer brings their own posts from another platform; the import's page (/dashboard/import) shows the rest. */
export function ImportSection() {
  return (
    <Section
      id="import"
      title="Import your posts"
      description="Bring your posts from WordPress (.xml), Ghost (.json), Medium or Substack (.zip). Every post becomes yours; you see a preview first, and importing the same file twice creates nothing twice."
    >
      <Form
        method="post"
        action="/dashboard/import"
        encType="multipart/form-data"
        className="flex flex-col gap-3 sm:flex-row sm:items-center"
      >
        <input type="hidden" name="intent" value="upload-own" />
        <label className="text-sm font-medium text-gray-800">
          <span className="sr-only">Export file</span>
          <input type="file" name="file" accept=".xml,.json,.zip" required className="text-sm" />
        </label>
        <SubmitButton pendingText="Reading the file…">Upload and preview</SubmitButton>
      </Form>
    </Section>
  );
}
