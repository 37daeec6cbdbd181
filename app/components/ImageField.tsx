import { useEffect, useId, useRef, useState } from "react";
import { FieldError } from "./form";
import { FILE_INPUT_CLASS } from "./ui";

/**
 * An image file input with a live preview of the chosen file (a local object URL, nothing is sent
 * until the form is). `current` shows the stored image on edit forms until a new file is chosen.
 */
export function ImageField({
  name = "image",
  label,
  required = false,
  error,
  current,
  hint,
  round = false,
}: {
  name?: string;
  label: string;
  required?: boolean;
  error?: string;
  current?: string | null;
  hint?: string;
  /** A small round preview, for a person's photo rather than a cover image. */
  round?: boolean;
}) {
  const id = useId();
  const [preview, setPreview] = useState<string | null>(null);
  const urlRef = useRef<string | null>(null);

  useEffect(
    () => () => {
      if (urlRef.current) URL.revokeObjectURL(urlRef.current);
    },
    [],
  );

  const shown = preview ?? current ?? null;
  const describedBy = [hint ? `${id}-hint` : null, error ? `${id}-error` : null].filter(Boolean).join(" ") || undefined;

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
              alt={preview ? "Preview of the chosen image" : "Current image"}
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
          required={required}
          aria-invalid={error ? true : undefined}
          aria-describedby={describedBy}
          onChange={(e) => {
            if (urlRef.current) URL.revokeObjectURL(urlRef.current);
            const file = e.currentTarget.files?.[0];
            urlRef.current = file ? URL.createObjectURL(file) : null;
            setPreview(urlRef.current);
          }}
          className={FILE_INPUT_CLASS}
        />
      </div>
      {hint ? (
        <p id={`${id}-hint`} className="text-xs text-gray-500">
          {hint}
        </p>
      ) : null}
      <FieldError id={id} error={error} />
    </div>
  );
}
