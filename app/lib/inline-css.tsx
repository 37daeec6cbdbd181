import { createContext, useContext } from "react";

/**
 * The site's one stylesheet, inlined in <head> (No render-blocking stylesheet request).
 * The server gets the CSS text from app/entry.server.tsx (a `?inline` import, so it never enters the
 * browser's JavaScript); in the browser the text is read back from the element the server wrote,
 * so hydration sees the same <style>, and a client re-render of the document keeps it.
 */
const STYLE_ID = "site-css";

const fromDocument = typeof document === "undefined" ? "" : (document.getElementById(STYLE_ID)?.textContent ?? "");

export const InlineCssContext = createContext(fromDocument);

export function InlineStyles() {
  const css = useContext(InlineCssContext);
  return <style id={STYLE_ID} dangerouslySetInnerHTML={{ __html: css }} />;
}
