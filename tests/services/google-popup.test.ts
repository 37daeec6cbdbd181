import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { openGooglePopup } from "#app/lib/google-popup.ts";

// The helper runs in browsers; the tests run in workerd. A stand-in for the few browser window APIs
// it touches (window.open, location, message events), so that its own logic is what is tested.
type Listener = (event: MessageEvent) => void;

function fakeBrowser({ blockPopups = false } = {}) {
  const listeners = new Set<Listener>();
  const popup = { closed: false, focus: vi.fn() };
  const win = {
    screenX: 100,
    screenY: 50,
    outerWidth: 1300,
    outerHeight: 900,
    location: { origin: "https://blog.test", assign: vi.fn() },
    open: vi.fn(() => (blockPopups ? null : popup)),
    addEventListener: (type: string, fn: Listener) => type === "message" && listeners.add(fn),
    removeEventListener: (type: string, fn: Listener) => type === "message" && listeners.delete(fn),
  };
  vi.stubGlobal("window", win);
  const post = (data: unknown, { origin = "https://blog.test", source = popup as unknown } = {}) => {
    for (const fn of [...listeners]) fn({ data, origin, source } as unknown as MessageEvent);
  };
  return { win, popup, post, listeners };
}

beforeEach(() => {
  vi.useFakeTimers();
});

afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

describe("openGooglePopup", () => {
  it("opens the 500 by 600 popup on the popup flow, carrying intent and destination", async () => {
    const { win, post } = fakeBrowser();
    const pending = openGooglePopup({ intent: "register", redirectTo: "/Profile" });

    expect(win.open).toHaveBeenCalledTimes(1);
    const [url, name, features] = win.open.mock.calls[0] as unknown as [string, string, string];
    const parsed = new URL(url, "https://blog.test");
    expect(parsed.pathname).toBe("/auth/google");
    expect(Object.fromEntries(parsed.searchParams)).toEqual({
      mode: "popup",
      intent: "register",
      redirectTo: "/Profile",
    });
    expect(name).toBe("google-signin");
    expect(features).toContain("width=500");
    expect(features).toContain("height=600");
    // Centred over the page.
    expect(features).toContain("left=500");

    post({ type: "auth:google", ok: true, isNewUser: true, intent: "register", redirectTo: "/Profile" });
    await expect(pending).resolves.toEqual({ ok: true, isNewUser: true, intent: "register", redirectTo: "/Profile" });
  });

  it("listens only to its own popup on this origin, speaking the auth:google protocol", async () => {
    const { post, listeners } = fakeBrowser();
    const pending = openGooglePopup();
    let settled = false;
    void pending.then(() => (settled = true));

    post({ type: "auth:google", ok: true, isNewUser: false, redirectTo: "/" }, { origin: "https://evil.test" });
    post({ type: "auth:google", ok: true, isNewUser: false, redirectTo: "/" }, { source: {} });
    post({ type: "something-else", ok: true });
    post("auth:google");
    await Promise.resolve();
    expect(settled).toBe(false);

    post({ type: "auth:google", ok: false, code: "access-denied", message: "Google sign-in was cancelled." });
    await expect(pending).resolves.toEqual({
      ok: false,
      code: "access-denied",
      message: "Google sign-in was cancelled.",
    });
    expect(listeners.size).toBe(0);
  });

  it("falls back to a full-page redirect when the popup is blocked", async () => {
    const { win } = fakeBrowser({ blockPopups: true });
    const result = await openGooglePopup({ intent: "login", redirectTo: "/allBlogs" });

    expect(result).toMatchObject({ ok: false, code: "popup-blocked" });
    expect(win.location.assign).toHaveBeenCalledTimes(1);
    const target = new URL(win.location.assign.mock.calls[0]![0] as string, "https://blog.test");
    expect(target.pathname).toBe("/auth/google");
    expect(Object.fromEntries(target.searchParams)).toEqual({
      mode: "redirect",
      intent: "login",
      redirectTo: "/allBlogs",
    });
  });

  it("answers popup-closed-by-user when the popup closes without a result", async () => {
    const { popup, listeners } = fakeBrowser();
    const pending = openGooglePopup();
    popup.closed = true;
    await vi.advanceTimersByTimeAsync(1000);
    await expect(pending).resolves.toMatchObject({ ok: false, code: "popup-closed-by-user" });
    expect(listeners.size).toBe(0);
  });

  it("still takes a result that arrives just as the popup closes", async () => {
    const { popup, post } = fakeBrowser();
    const pending = openGooglePopup();
    popup.closed = true;
    await vi.advanceTimersByTimeAsync(500);
    post({ type: "auth:google", ok: true, isNewUser: false, intent: "login", redirectTo: "/" });
    await vi.advanceTimersByTimeAsync(1000);
    await expect(pending).resolves.toMatchObject({ ok: true });
  });

  it("cancels an earlier sign-in when a new one starts", async () => {
    const { post } = fakeBrowser();
    const first = openGooglePopup();
    const second = openGooglePopup();
    await expect(first).resolves.toMatchObject({ ok: false, code: "cancelled-popup-request" });
    let settled = false;
    void second.then(() => (settled = true));
    await Promise.resolve();
    expect(settled).toBe(false);
    post({ type: "auth:google", ok: true, isNewUser: false, intent: "login", redirectTo: "/" });
    await expect(second).resolves.toMatchObject({ ok: true });
  });
});
