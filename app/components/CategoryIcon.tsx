import type { Category } from "#worker/services/categories.ts";

/** Line icons for the ten categories (24x24, stroke = currentColor). */
const PATHS: Record<Category, string[]> = {
  Technology: ["M7 7h10v10H7z", "M10 10h4v4h-4z", "M9 3v4M15 3v4M9 17v4M15 17v4M3 9h4M3 15h4M17 9h4M17 15h4"],
  Travel: [
    "M2.5 19h19",
    "M10.5 13.5 4 11l1.5-1.5 7 1 4-4a2.1 2.1 0 0 1 3 3l-4 4 1 7L16 22l-2.5-6.5-3 3V21L9 22l-1-3.5L4.5 17.5 5.5 16h2.5z",
  ],
  Health: [
    "M20.8 8.6a5 5 0 0 0-8.8-3.2 5 5 0 0 0-8.8 3.2c0 5.4 8.8 11.4 8.8 11.4s8.8-6 8.8-11.4z",
    "M3.5 12h4l1.5-3 3 6 1.5-3h7",
  ],
  Finance: [
    "M12 3v18",
    "M16.5 7.5c-.7-1.5-2.3-2.5-4.5-2.5-2.5 0-4.5 1.3-4.5 3.3 0 4.7 9.5 2.5 9.5 7.4 0 2-2 3.3-5 3.3-2.3 0-4-1-4.8-2.6",
  ],
  AI: [
    "M12 3l1.8 4.7L18.5 9.5l-4.7 1.8L12 16l-1.8-4.7L5.5 9.5l4.7-1.8z",
    "M18.5 15l.9 2.1 2.1.9-2.1.9-.9 2.1-.9-2.1-2.1-.9 2.1-.9zM5.5 15.5l.6 1.4 1.4.6-1.4.6-.6 1.4-.6-1.4L3.5 17.5l1.4-.6z",
  ],
  Education: ["M2 9l10-5 10 5-10 5z", "M6 11v5c0 1.5 2.7 3 6 3s6-1.5 6-3v-5", "M22 9v6"],
  Business: ["M3 8h18v12H3z", "M8 8V5.5A1.5 1.5 0 0 1 9.5 4h5A1.5 1.5 0 0 1 16 5.5V8", "M3 13h18", "M11 12h2v2h-2z"],
  Science: ["M9 3h6", "M10 3v6L4.5 18.5A1.7 1.7 0 0 0 6 21h12a1.7 1.7 0 0 0 1.5-2.5L14 9V3", "M7 15h10"],
  Marketing: ["M3 10v4h3l6 4V6L6 10z", "M16 9a4 4 0 0 1 0 6", "M18.5 6.5a7.5 7.5 0 0 1 0 11"],
  Lifestyle: [
    "M4 9h13v5a5 5 0 0 1-5 5H9a5 5 0 0 1-5-5z",
    "M17 10h1.5a2.5 2.5 0 0 1 0 5H17",
    "M8 3.5c-.7 1 .7 2 0 3M12 3.5c-.7 1 .7 2 0 3",
    "M3 21.5h15",
  ],
};

export function CategoryIcon({
  name,
  size = 28,
  className = "",
}: {
  name: Category;
  size?: number;
  className?: string;
}) {
  return (
    <svg
      viewBox="0 0 24 24"
      width={size}
      height={size}
      fill="none"
      stroke="currentColor"
      strokeWidth={1.7}
      strokeLinecap="round"
      strokeLinejoin="round"
      aria-hidden="true"
      className={className}
    >
      {PATHS[name].map((d) => (
        <path key={d} d={d} />
      ))}
    </svg>
  );
}
