import { useEffect, useState } from "react";
import { currentTheme, setTheme, type Theme } from "#app/lib/theme.ts";

/**
 * The top bar's light/dark switch. Both icons are in the HTML and CSS shows the one for the theme the
 * head script applied, so the right icon is there on first paint; the pressed state is read after mount.
 */
export function ThemeToggle() {
  const [theme, setState] = useState<Theme | null>(null);
  useEffect(() => setState(currentTheme()), []);
  return (
    <button
      type="button"
      data-testid="theme-toggle"
      // The reading pages' island drives it when the page is served without the framework.
      data-theme-toggle=""
      aria-label="Dark mode"
      aria-pressed={theme === null ? undefined : theme === "dark"}
      title="Switch between light and dark theme"
      // Without JavaScript it could do nothing, so it is not shown (the theme then follows the system's).
      className="hidden h-10 w-10 items-center justify-center rounded-md text-gray-700 hover:bg-gray-100 js:flex"
      onClick={() => {
        const next = currentTheme() === "dark" ? "light" : "dark";
        setTheme(next);
        setState(next);
      }}
    >
      {/* Moon in the light theme, sun in the dark one. */}
      <svg viewBox="0 0 24 24" width={20} height={20} aria-hidden="true" className="dark:hidden" fill="currentColor">
        <path d="M21 12.8A9 9 0 1 1 11.2 3a7 7 0 0 0 9.8 9.8z" />
      </svg>
      <svg
        viewBox="0 0 24 24"
        width={20}
        height={20}
        aria-hidden="true"
        className="hidden dark:block"
        fill="none"
        stroke="currentColor"
        strokeWidth={2}
        strokeLinecap="round"
      >
        <circle cx="12" cy="12" r="4.5" />
        <path d="M12 1.5v2.5M12 20v2.5M4.6 4.6l1.8 1.8M17.6 17.6l1.8 1.8M1.5 12H4M20 12h2.5M4.6 19.4l1.8-1.8M17.6 6.4l1.8-1.8" />
      </svg>
    </button>
  );
}
