import { useEffect, useRef, useState, type TextareaHTMLAttributes } from "react";
import { TextArea } from "#app/components/form.tsx";
import { renderMarkdown } from "#worker/content/markdown.ts";

/** A mark the toolbar adds around the selection (or a placeholder), or in front of each selected line. */
interface Mark {
  label: string;
  text: string;
  wrap?: [string, string];
  line?: string;
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
];

/** The textarea's text with `mark` applied to the selection, and the selection to keep afterwards. */
export function applyMark(value: string, start: number, end: number, mark: Mark) {
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

  useEffect(() => {
    const textarea = box.current?.querySelector("textarea");
    if (!textarea) return;
    setEnhanced(true);
    const update = () => setHtml(renderMarkdown(textarea.value));
    update();
    textarea.addEventListener("input", update);
    return () => textarea.removeEventListener("input", update);
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
        </div>
      ) : null}
      <div className={enhanced ? "grid gap-4 lg:grid-cols-2" : ""}>
        <TextArea
          label={label}
          error={error}
          hint="Markdown: ## heading, **bold**, _italic_, - list, [link](https://…), > quote, ``` code ```."
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
