import { Link, useLocation } from "@remix-run/react";
import { useEffect, useRef, useState, type FormEvent, type ReactNode } from "react";
import type { Actor } from "#worker/services/shared/policy.ts";
import { alertDialog, confirmAsk } from "#app/lib/dialogs.ts";
import { useHydrated } from "#app/lib/use-hydrated.ts";
import { MSG } from "#app/lib/messages.ts";
import { Avatar } from "./Avatar";
import { ConfirmStepFields } from "./ConfirmForm";
import { Disclosure } from "./Disclosure";

const MENU_ID = "account-menu";
const itemClass =
  "flex w-full items-center gap-2 rounded-lg px-3 py-2 text-left text-sm font-medium text-gray-700 hover:bg-gray-50 hover:text-brand-700 focus-visible:bg-gray-50";

/**
 * The signed-in person's avatar button and its menu (Profile, Dashboard, Write, Reading list, Following, Settings, Sign Out). Before hydration (or
 * without JavaScript) it is a <details> disclosure and Sign Out asks on the /confirm page; once
 * hydrated it is a button with aria-expanded that toggles on click and closes on Profile, Escape,
 * a click outside or focus leaving it, and Sign Out asks for confirmation first.
 */
export function AvatarMenu({ user }: { user: Pick<Actor, "name" | "email" | "photoURL"> }) {
  const hydrated = useHydrated();
  const [open, setOpen] = useState(false);
  const root = useRef<HTMLDivElement>(null);
  const button = useRef<HTMLButtonElement>(null);
  const menu = useRef<HTMLDivElement>(null);
  const location = useLocation();

  useEffect(() => setOpen(false), [location.pathname, location.search]);

  useEffect(() => {
    if (!open) return;
    menu.current?.querySelector<HTMLElement>("a, button")?.focus();
    const onPointerDown = (e: PointerEvent) => {
      if (!root.current?.contains(e.target as Node)) setOpen(false);
    };
    const onKeyDown = (e: KeyboardEvent) => {
      if (e.key !== "Escape") return;
      setOpen(false);
      button.current?.focus();
    };
    document.addEventListener("pointerdown", onPointerDown);
    document.addEventListener("keydown", onKeyDown);
    return () => {
      document.removeEventListener("pointerdown", onPointerDown);
      document.removeEventListener("keydown", onKeyDown);
    };
  }, [open]);

  /**
   * The spec's sign-out: confirm, sign out (/logout ends the session and clears the cookie), then home,
   * loaded afresh so nothing of the account stays on screen, where "Logged Out!" shows. A failure (the
   * network, or the server's answer) shows "Error!" with what went wrong, and the person stays.
   */
  async function signOut(e: FormEvent<HTMLFormElement>) {
    e.preventDefault();
    const form = e.currentTarget;
    setOpen(false);
    if (!(await confirmAsk("sign-out"))) {
      button.current?.focus();
      return;
    }
    try {
      const response = await fetch("/logout", {
        method: "POST",
        body: new FormData(form),
        headers: { Accept: "application/json" },
      });
      if (!response.ok) throw new Error(await failureOf(response));
    } catch (err) {
      await alertDialog(MSG.signOut.errorTitle, err instanceof Error ? err.message : String(err), "error");
      return;
    }
    window.location.assign("/");
  }

  const here = `${location.pathname}${location.search}`;
  const items: ReactNode = (
    <>
      <div className="border-b border-gray-100 px-3 pb-2 pt-1">
        <p className="truncate text-sm font-semibold text-ink">{user.name}</p>
        <p className="truncate text-xs text-gray-500">{user.email}</p>
      </div>
      <ul className="mt-1 flex flex-col">
        <li>
          <Link to="/Profile" className={itemClass} onClick={() => setOpen(false)}>
            Profile
          </Link>
        </li>
        <li>
          <Link to="/dashboard" className={itemClass} onClick={() => setOpen(false)}>
            Dashboard
          </Link>
        </li>
        <li>
          <Link to="/dashboard/writeBlogs" className={itemClass} onClick={() => setOpen(false)}>
            Write
          </Link>
        </li>
        <li>
          <Link to="/saved" className={itemClass} onClick={() => setOpen(false)}>
            Reading list
          </Link>
        </li>
        <li>
          <Link to="/following" className={itemClass} onClick={() => setOpen(false)}>
            Following
          </Link>
        </li>
        <li>
          <Link to="/settings" className={itemClass} onClick={() => setOpen(false)}>
            Settings
          </Link>
        </li>
        <li>
          {/* Without JavaScript, Sign Out asks on the /confirm page, which then posts to /logout. */}
          <form {...(hydrated ? { onSubmit: (e) => void signOut(e) } : { method: "get", action: "/confirm" })}>
            {hydrated ? null : <ConfirmStepFields ask="sign-out" to="/logout" fields={[["redirectTo", here]]} />}
            <input type="hidden" name="redirectTo" value={here} />
            <button type="submit" className={itemClass}>
              Sign Out
            </button>
          </form>
        </li>
      </ul>
    </>
  );

  const panel = "absolute right-0 mt-2 w-60 rounded-xl border border-gray-200 bg-white p-2 shadow-lg";
  const avatar = <Avatar photoURL={user.photoURL} size={40} eager className="ring-brand-100" />;
  const label = `Account menu for ${user.name}`;

  if (!hydrated) {
    return (
      <Disclosure className="relative" summaryClassName="flex rounded-full" summaryLabel={label} summary={avatar}>
        <div className={panel}>{items}</div>
      </Disclosure>
    );
  }

  return (
    <div
      ref={root}
      className="relative"
      onBlur={(e) => {
        // Tabbing out of the menu closes it, as a click outside does.
        if (open && !root.current?.contains(e.relatedTarget as Node | null) && e.relatedTarget) setOpen(false);
      }}
    >
      <button
        ref={button}
        type="button"
        aria-label={label}
        aria-expanded={open}
        aria-controls={MENU_ID}
        onClick={() => setOpen((v) => !v)}
        className="flex rounded-full"
      >
        {avatar}
      </button>
      <div ref={menu} id={MENU_ID} hidden={!open} className={panel}>
        {items}
      </div>
    </div>
  );
}

/** The sentence an error answer carries (`{error: {message}}`), or its status when it has none. */
async function failureOf(response: Response): Promise<string> {
  const body = (await response.json().catch(() => null)) as { error?: { message?: unknown } } | null;
  const message = body?.error?.message;
  return typeof message === "string" && message
    ? message
    : `The server answered ${response.status} ${response.statusText}`.trim();
}
