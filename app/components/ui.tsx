import type { HTMLAttributes, ReactNode } from "react";

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

/** The look of every file picker: its "Choose File" button a brand pill (lightened in the dark theme). */
export const FILE_INPUT_CLASS =
  "block w-full text-sm text-gray-700 file:mr-3 file:rounded-full file:border-0 file:bg-brand-50 file:px-4 file:py-2 file:text-sm file:font-semibold file:text-brand-700 hover:file:bg-brand-100";

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

/** How wide a page column may grow; the gutters are the same at every width. */
const CONTAINER_WIDTHS = {
  "7xl": "max-w-7xl",
  "6xl": "max-w-6xl",
  "5xl": "max-w-5xl",
  "4xl": "max-w-4xl",
  "3xl": "max-w-3xl",
  "2xl": "max-w-2xl",
} as const;
export type ContainerWidth = keyof typeof CONTAINER_WIDTHS;

/** The page column's classes: centred, capped at `width`, with the site's gutters (16/24/32 px). */
export function containerClass({ width = "7xl", className = "" }: { width?: ContainerWidth; className?: string } = {}) {
  return `mx-auto ${CONTAINER_WIDTHS[width]} px-4 sm:px-6 lg:px-8 ${className}`.trim();
}

/**
 * The page column every screen is laid out in (top bar, footer, lists, forms): one place for its width
 * and gutters. `as` picks the element (a <section> with its heading's id, a <header>...).
 */
export function Container({
  as: Tag = "div",
  width,
  className,
  children,
  ...rest
}: {
  as?: "div" | "section" | "header" | "article" | "footer";
  width?: ContainerWidth;
  className?: string;
  children: ReactNode;
} & Omit<HTMLAttributes<HTMLElement>, "className" | "children">) {
  return (
    <Tag className={containerClass({ width, className })} {...rest}>
      {children}
    </Tag>
  );
}
