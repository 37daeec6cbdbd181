import type { ReactNode } from "react";

/**
 * The site's button look, for <button>, <Link> and <a> alike: one place for the brand colours,
 * the pill shape and the sizes, so every call to action looks and behaves the same.
 */
const BUTTON_BASE =
  "inline-flex items-center justify-center gap-2 rounded-full text-sm font-semibold shadow-sm disabled:cursor-wait disabled:opacity-70";
const BUTTON_TONES = {
  primary: "bg-brand-600 text-white hover:bg-brand-700",
  secondary: "border border-gray-300 bg-white text-gray-800 hover:bg-gray-50",
  danger: "bg-red-600 text-white hover:bg-red-700",
} as const;
const BUTTON_SIZES = { sm: "px-4 py-2", md: "px-5 py-2.5", lg: "px-6 py-3" } as const;

export function buttonClass({
  tone = "primary",
  size = "md",
  className = "",
}: { tone?: keyof typeof BUTTON_TONES; size?: keyof typeof BUTTON_SIZES; className?: string } = {}): string {
  return `${BUTTON_BASE} ${BUTTON_TONES[tone]} ${BUTTON_SIZES[size]} ${className}`.trim();
}

/** What a list says when it has nothing to show: a dashed box with the message and, often, a way on. */
export function EmptyState({
  children,
  className = "",
  as: Tag = "div",
}: {
  children: ReactNode;
  className?: string;
  as?: "div" | "p";
}) {
  return (
    <Tag
      className={`rounded-2xl border border-dashed border-gray-300 bg-white px-6 py-12 text-center text-gray-600 ${className}`.trim()}
    >
      {children}
    </Tag>
  );
}
