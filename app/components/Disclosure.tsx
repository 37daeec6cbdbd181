import { useLocation } from "@remix-run/react";
import { useEffect, useRef, type ReactNode } from "react";

/**
 * A menu that opens without JavaScript: a <details> whose <summary> is the button. Once hydrated it
 * closes when the page changes (a link in it was followed) and on Escape, which hands focus back to
 * its button, as a disclosure should. The top bar's phone menu and the dashboard's phone menu use it.
 */
export function Disclosure({
  summary,
  summaryClassName = "",
  summaryLabel,
  className,
  children,
}: {
  /** What the button shows. */
  summary: ReactNode;
  summaryClassName?: string;
  /** The button's accessible name when `summary` is only an icon. */
  summaryLabel?: string;
  className?: string;
  children: ReactNode;
}) {
  const details = useRef<HTMLDetailsElement>(null);
  const location = useLocation();

  useEffect(() => {
    if (details.current) details.current.open = false;
  }, [location.pathname, location.search]);

  return (
    // eslint-disable-next-line jsx-a11y/no-noninteractive-element-interactions -- Escape closes the open menu, as a disclosure should
    <details
      ref={details}
      className={className}
      onKeyDown={(e) => {
        if (e.key === "Escape" && details.current?.open) {
          details.current.open = false;
          details.current.querySelector("summary")?.focus();
        }
      }}
    >
      <summary
        className={`cursor-pointer list-none [&::-webkit-details-marker]:hidden ${summaryClassName}`.trim()}
        aria-label={summaryLabel}
      >
        {summary}
      </summary>
      {children}
    </details>
  );
}
