import { ImportUploadForm } from "#app/components/ImportUploadForm.tsx";
import { Section } from "./sections";

/** A writer brings their own posts from another platform; the import's page (/dashboard/import) shows the rest. */
export function ImportSection() {
  return (
    <Section
      id="import"
      title="Import your posts"
      description="Bring your posts from WordPress (.xml), Ghost (.json), Medium or Substack (.zip). Every post becomes yours; you see a preview first, and importing the same file twice creates nothing twice."
    >
      <ImportUploadForm intent="upload-own" />
    </Section>
  );
}
