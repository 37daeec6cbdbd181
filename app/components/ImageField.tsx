import { useEffect, useId, useRef, useState } from "react";
import { useKeptCover } from "#app/lib/kept-cover.ts";
import { FieldError } from "./form";
import { FILE_INPUT_CLASS } from "./ui";

/**
 * An image file input with a live preview of the chosen file (a local object URL, nothing is sent
 * until the form is). `current` shows the stored image on edit forms until a new file is chosen.
 * `keep` names a hidden field for the chosen file's uploaded URL, so autosave can keep the cover
 * (app/lib/kept-cover.ts); a kept URL stands in for a required file.
 */
export function ImageField({
  name = "image",
  label,
  required = false,
  error,
  current,
  hint,
  round = false,
  keep,
}: {
  name?: string;
  label: string;
  required?: boolean;
  error?: string;
  current?: string | null;
  hint?: string;
  /** A small round preview, for a person's photo rather than a cover image. */
  round?: boolean;
  keep?: string;
}) {
  const id = useId();
  const [preview, setPreview] = useState<string | null>(null);
  const urlRef = useRef<string | null>(null);
  const hidden = useRef<HTMLInputElement>(null);
  const kept = useKeptCover(hidden);

  useEffect(
    () => () => {
      if (urlRef.current) URL.revokeObjectURL(urlRef.current);
    },
    [],
  );

  const shown = preview ?? (kept.url || null) ?? current ?? null;
  const describedBy =
    [hint ? `${id}-hint` : null, kept.note ? `${id}-kept` : null, error ? `${id}-error` : null]
      .filter(Boolean)
      .join(" ") || undefined;

  return (
    <div className="flex flex-col gap-1.5">
      <label htmlFor={id} className="text-sm font-medium text-gray-800">
        {label}
      </label>
      <div
        className={`flex gap-3 ${round ? "flex-col items-start min-[400px]:flex-row min-[400px]:items-center" : "flex-col sm:flex-row sm:items-center"}`}
      >
        <div
          className={`flex shrink-0 items-center justify-center overflow-hidden border border-dashed border-gray-300 bg-gray-50 ${
            round ? "h-20 w-20 rounded-full" : "aspect-[16/9] w-full rounded-xl sm:w-48"
          }`}
        >
          {shown ? (
            <img
              src={shown}
              alt={preview || kept.url ? "Preview of the chosen image" : "Current image"}
              width={192}
              height={108}
              className="h-full w-full object-cover"
            />
          ) : (
            <span className="px-3 text-center text-xs text-gray-500">{round ? "No photo" : "No image chosen yet"}</span>
          )}
        </div>
        <input
          id={id}
          name={name}
          type="file"
          accept="image/jpeg,image/png,image/webp,image/gif,image/avif"
          required={required && !kept.url}
          aria-invalid={error ? true : undefined}
          aria-describedby={describedBy}
          onChange={(e) => {
            if (urlRef.current) URL.revokeObjectURL(urlRef.current);
            const file = e.currentTarget.files?.[0];
            urlRef.current = file ? URL.createObjectURL(file) : null;
            setPreview(urlRef.current);
            if (keep) kept.keep(file);
          }}
          className={FILE_INPUT_CLASS}
        />
        {/* No value prop: on a hidden input the value is its default value, which React would put back to ""
            on every render, losing the kept URL. The field is only ever set by the kept cover and autosave. */}
        {keep ? <input ref={hidden} type="hidden" name={keep} /> : null}
      </div>
      {keep ? (
        <p id={`${id}-kept`} className="text-xs text-gray-600 empty:hidden" role="status">
          {kept.note}
        </p>
      ) : null}
      {hint ? (
        <p id={`${id}-hint`} className="text-xs text-gray-500">
          {hint}
        </p>
      ) : null}
      <FieldError id={id} error={error} />
    </div>
  );
}
