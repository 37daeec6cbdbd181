import { useEffect, useRef, useState, type TextareaHTMLAttributes } from "react";
import { TextArea } from "#app/components/form.tsx";
import { renderMarkdown, withAutoDirection } from "#worker/content/markdown.ts";
import { EDITOR_IMAGE_TYPES, imageMarkdown, precheck, uploadImage } from "#app/lib/editor-upload.ts";
import { MEMBERS_ONLY_MARKER } from "#worker/services/blogs/gate.ts";

/**
 * A mark the toolbar adds around the selection (or a placeholder), in front of each selected line, or as a
 * line of its own where the cursor is (`alone`: there is only ever one, so an earlier one is taken out).
 */
interface Mark {
  label: string;
  text: string;
  wrap?: [string, string];
  line?: string;
  alone?: string;
  placeholder: string;
}

const MARKS: Mark[] = [
  { label: "Bold", text: "B", wrap: ["**", "**"], placeholder: "bold text" },
  { label: "Italic", text: "I", wrap: ["_", "_"], placeholder: "italic text" },
  { label: "Heading", text: "H", line: "## ", placeholder: "Heading" },
  { label: "Bulleted list", text: "• List", line: "- ", placeholder: "List item" },
  { label: "Link", text: "Link", wrap: ["[", "](https://)"], placeholder: "link text" },
  { label: "Quote", text: "❝ Quote", line: "> ", placeholder: "Quote" },
  { label: "Code block", text: "</> Code", wrap: ["\n```\n", "\n```\n"], placeholder: "code" },
  // Where a members' post's free preview ends (worker/services/blogs/gate.ts reads the first such line).
  { label: "Members only from here", text: "Members only from here", alone: MEMBERS_ONLY_MARKER, placeholder: "" },
];

/** `mark.alone` as a line of its own after the cursor's line; any earlier copy of it is taken out first. */
function applyAlone(value: string, start: number, line: string) {
  let at = start;
  let text = value;
  for (let found = text.indexOf(line); found >= 0; found = text.indexOf(line)) {
    const end =
      text.slice(found + line.length, found + line.length + 1) === "\n" ? found + line.length + 1 : found + line.length;
    text = text.slice(0, found) + text.slice(end);
    if (at > found) at = Math.max(found, at - (end - found));
  }
  const lineEnd = text.indexOf("\n", at);
  const cut = at === 0 || text[at - 1] === "\n" ? at : lineEnd === -1 ? text.length : lineEnd + 1;
  const before = text.slice(0, cut);
  const inserted = `${before && !before.endsWith("\n") ? "\n" : ""}${line}\n`;
  const caret = cut + inserted.length;
  return { value: before + inserted + text.slice(cut), start: caret, end: caret };
}

/** The textarea's text with `mark` applied to the selection, and the selection to keep afterwards. */
export function applyMark(value: string, start: number, end: number, mark: Mark) {
  if (mark.alone) return applyAlone(value, start, mark.alone);
  const selected = value.slice(start, end) || mark.placeholder;
  if (mark.wrap) {
    const [before, after] = mark.wrap;
    const next = value.slice(0, start) + before + selected + after + value.slice(end);
    return { value: next, start: start + before.length, end: start + before.length + selected.length };
  }
  const lineStart = value.lastIndexOf("\n", start - 1) + 1;
  const block = value.slice(lineStart, end) || mark.placeholder;
  const marked = block
    .split("\n")
    .map((l) => mark.line + l)
    .join("\n");
  return {
    value: value.slice(0, lineStart) + marked + value.slice(end),
    start: lineStart,
    end: lineStart + marked.length,
  };
}

/**
 * The Details field with Markdown: a plain textarea (the form works without JavaScript), and with
 * JavaScript a toolbar for the common marks and a live preview beside it, drawn by the same renderer
 * and sanitiser as the post page (worker/content/markdown.ts). Loaded on dashboard pages only.
 */
export function MarkdownEditor({
  label,
  error,
  ...props
}: { label: string; error?: string } & TextareaHTMLAttributes<HTMLTextAreaElement>) {
  const box = useRef<HTMLDivElement>(null);
  const [enhanced, setEnhanced] = useState(false);
  const [html, setHtml] = useState("");
  const picker = useRef<HTMLInputElement>(null);
  const [upload, setUpload] = useState<{ name: string; percent: number } | null>(null);
  const [uploadError, setUploadError] = useState("");

  /** Uploads each image file in turn and puts its Markdown where the cursor is. */
  const insertImages = useRef<(files: File[]) => Promise<void>>(async () => {});
  insertImages.current = async (files: File[]) => {
    const textarea = box.current?.querySelector("textarea");
    if (!textarea) return;
    setUploadError("");
    for (const file of files) {
      const refused = precheck(file);
      if (refused) {
        setUploadError(refused);
        continue;
      }
      setUpload({ name: file.name, percent: 0 });
      try {
        const url = await uploadImage(file, (percent) => setUpload({ name: file.name, percent }));
        const at = textarea.selectionStart;
        const before = textarea.value.slice(0, at);
        const text = `${before && !before.endsWith("\n") ? "\n" : ""}${imageMarkdown(file, url)}\n`;
        textarea.value = before + text + textarea.value.slice(textarea.selectionEnd);
        textarea.setSelectionRange(at + text.length, at + text.length);
        // The preview and the form autosave follow the field's input events.
        textarea.dispatchEvent(new Event("input", { bubbles: true }));
      } catch (err) {
        setUploadError(err instanceof Error ? err.message : "The image could not be uploaded.");
      }
    }
    setUpload(null);
  };

  useEffect(() => {
    const textarea = box.current?.querySelector("textarea");
    if (!textarea) return;
    setEnhanced(true);
    const update = () => setHtml(withAutoDirection(renderMarkdown(textarea.value)));
    update();
    const images = (list: FileList | null | undefined) => [...(list ?? [])].filter((f) => f.type.startsWith("image/"));
    const onDragOver = (event: DragEvent) => {
      if (event.dataTransfer?.types.includes("Files")) event.preventDefault();
    };
    const onDrop = (event: DragEvent) => {
      const files = [...(event.dataTransfer?.files ?? [])];
      if (files.length === 0) return;
      event.preventDefault();
      textarea.focus();
      void insertImages.current(files);
    };
    const onPaste = (event: ClipboardEvent) => {
      const files = images(event.clipboardData?.files);
      if (files.length === 0) return;
      event.preventDefault();
      void insertImages.current(files);
    };
    textarea.addEventListener("input", update);
    textarea.addEventListener("dragover", onDragOver);
    textarea.addEventListener("drop", onDrop);
    textarea.addEventListener("paste", onPaste);
    return () => {
      textarea.removeEventListener("input", update);
      textarea.removeEventListener("dragover", onDragOver);
      textarea.removeEventListener("drop", onDrop);
      textarea.removeEventListener("paste", onPaste);
    };
  }, []);

  function mark(m: Mark) {
    const textarea = box.current?.querySelector("textarea");
    if (!textarea) return;
    const next = applyMark(textarea.value, textarea.selectionStart, textarea.selectionEnd, m);
    textarea.value = next.value;
    textarea.focus();
    textarea.setSelectionRange(next.start, next.end);
    // The preview and the form autosave follow the field's input events.
    textarea.dispatchEvent(new Event("input", { bubbles: true }));
  }

  return (
    <div ref={box} className="flex flex-col gap-2">
      {enhanced ? (
        <div role="toolbar" aria-label="Formatting" className="flex flex-wrap gap-1">
          {MARKS.map((m) => (
            <button
              key={m.label}
              type="button"
              aria-label={m.label}
              title={m.label}
              onClick={() => mark(m)}
              className="rounded-md border border-gray-300 bg-white px-2.5 py-1 text-sm font-semibold text-gray-700 hover:bg-gray-50"
            >
              {m.text}
            </button>
          ))}
          <button
            type="button"
            onClick={() => picker.current?.click()}
            disabled={upload !== null}
            className="rounded-md border border-gray-300 bg-white px-2.5 py-1 text-sm font-semibold text-gray-700 hover:bg-gray-50"
          >
            Insert image
          </button>
          {/* No name: the picked file is uploaded at once, never sent with the form. */}
          <input
            ref={picker}
            type="file"
            accept={EDITOR_IMAGE_TYPES}
            multiple
            hidden
            aria-hidden="true"
            tabIndex={-1}
            onChange={(event) => {
              const files = [...(event.currentTarget.files ?? [])];
              event.currentTarget.value = "";
              void insertImages.current(files);
            }}
          />
        </div>
      ) : null}
      {enhanced ? (
        <div className="flex flex-col gap-1 text-sm">
          <div role="status" aria-live="polite" className="flex items-center gap-2 text-gray-700">
            {upload ? (
              <>
                <progress
                  data-testid="image-upload-progress"
                  max={100}
                  value={upload.percent}
                  aria-label={`Uploading ${upload.name}`}
                  className="h-2 w-40 max-w-full"
                />
                <span className="min-w-0 break-all">{`Uploading ${upload.name}… ${upload.percent}%`}</span>
              </>
            ) : null}
          </div>
          {uploadError ? (
            <p role="alert" className="font-medium text-red-700">
              {uploadError}
            </p>
          ) : null}
        </div>
      ) : null}
      <div className={enhanced ? "grid gap-4 lg:grid-cols-2" : ""}>
        <TextArea
          label={label}
          error={error}
          hint="Markdown: ## heading, **bold**, _italic_, - list, [link](https://…), > quote, ``` code ```. Drop or paste an image here, or use Insert image."
          {...props}
        />
        {enhanced ? (
          <section aria-label="Preview" className="min-w-0">
            <p className="mb-1.5 text-sm font-medium text-gray-700">Preview</p>
            <div
              data-testid="markdown-preview"
              className="post-body min-h-28 space-y-4 overflow-auto rounded-lg border border-gray-200 bg-gray-50 p-4 font-serif text-base leading-7 text-gray-800"
              dangerouslySetInnerHTML={{ __html: html }}
            />
          </section>
        ) : null}
      </div>
    </div>
  );
}
