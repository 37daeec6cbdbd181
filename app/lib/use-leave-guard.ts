import { useBlocker } from "@remix-run/react";
import { useCallback, useEffect, useRef } from "react";
import { confirmDialog } from "#app/lib/dialogs.ts";
import { MSG } from "#app/lib/messages.ts";

/**
 * Asks before leaving a form with unsaved changes: the browser's own question when the tab
 * closes or reloads (beforeunload), and ours for a link inside the site (Remix's useBlocker), with
 * "Cancel" focused so Enter stays. Submitting the form itself (an action on this same path) and the
 * redirect after an accepted save are never held back.
 */
export function useLeaveGuard(isDirty: () => boolean) {
  const dirty = useRef(isDirty);
  dirty.current = isDirty;

  useEffect(() => {
    const onBeforeUnload = (event: BeforeUnloadEvent) => {
      if (!dirty.current()) return;
      event.preventDefault();
      // Older browsers ask only when returnValue is set.
      event.returnValue = "";
    };
    window.addEventListener("beforeunload", onBeforeUnload);
    return () => window.removeEventListener("beforeunload", onBeforeUnload);
  }, []);

  const shouldBlock = useCallback(
    ({
      currentLocation,
      nextLocation,
    }: {
      currentLocation: { pathname: string };
      nextLocation: { pathname: string };
    }) => currentLocation.pathname !== nextLocation.pathname && dirty.current(),
    [],
  );
  const blocker = useBlocker(shouldBlock);
  const asking = useRef(false);

  useEffect(() => {
    if (blocker.state !== "blocked" || asking.current) return;
    asking.current = true;
    void confirmDialog({
      title: MSG.leave.title,
      text: MSG.leave.text,
      confirmButtonText: MSG.leave.button,
    }).then((leave) => {
      asking.current = false;
      if (leave) blocker.proceed();
      else blocker.reset();
    });
  }, [blocker]);
}
