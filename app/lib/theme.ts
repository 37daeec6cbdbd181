/**
 * Dark mode. Pages are shared between anonymous readers by the edge cache, so the server renders the
 * same HTML for everyone and the theme is applied in the browser before first paint by THEME_SCRIPT
 * (inline in <head>, with the render's CSP nonce like the framework's own scripts: worker/security/headers.ts).
 * The reader's choice lives in localStorage; with none, the system setting (prefers-color-scheme) rules.
 */
export const THEME_KEY = "theme";
export type Theme = "light" | "dark";

export const THEME_SCRIPT = `(function(){var d;try{var t=localStorage.getItem("${THEME_KEY}");d=t==="dark"||(t!=="light"&&matchMedia("(prefers-color-scheme: dark)").matches)}catch(e){d=false}var h=document.documentElement;h.classList.add("js");h.classList.toggle("dark",d);h.style.colorScheme=d?"dark":"light"})();`;

export function currentTheme(): Theme {
  return document.documentElement.classList.contains("dark") ? "dark" : "light";
}

/** Applies and remembers the reader's choice (a browser that refuses storage still switches for this page). */
export function setTheme(theme: Theme) {
  const html = document.documentElement;
  html.classList.toggle("dark", theme === "dark");
  html.style.colorScheme = theme;
  try {
    localStorage.setItem(THEME_KEY, theme);
  } catch {
    // Storage refused (private mode, quota): the switch lasts for this page only.
  }
}
