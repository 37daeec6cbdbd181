/**
 * Passkeys in the browser: the WebAuthn ceremonies through @simplewebauthn/browser, which is imported
 * only when a person presses a passkey button, so no page carries it in its first-load JavaScript.
 * Browser-only; call these from event handlers.
 */
import { MSG } from "./messages";

/** Whether this browser can do WebAuthn at all. */
export function passkeysSupported(): boolean {
  return typeof window !== "undefined" && typeof window.PublicKeyCredential === "function";
}

/** The sentence of an error answer (`{error: {message}}`), or its status. */
async function failureOf(response: Response): Promise<string> {
  try {
    const body = (await response.json()) as { error?: { message?: string } };
    if (body.error?.message) return body.error.message;
  } catch {
    // not JSON
  }
  return `The server answered ${response.status}.`;
}

async function post(path: string, body?: unknown): Promise<unknown> {
  const response = await fetch(path, {
    method: "POST",
    headers: { Accept: "application/json", ...(body === undefined ? {} : { "Content-Type": "application/json" }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (!response.ok) throw new Error(await failureOf(response));
  return response.json();
}

/** What to tell a person when the browser's part failed: a cancel is not an error of theirs. */
export function passkeyErrorText(err: unknown): string {
  const name = err instanceof Error ? err.name : "";
  if (name === "NotAllowedError" || name === "AbortError") return MSG.settings.passkeyCancelled;
  if (name === "InvalidStateError") return "This device already holds a passkey for your account.";
  return err instanceof Error ? err.message : String(err);
}

/** Creates a passkey on this device for the signed-in account and stores it on the server. */
export async function addPasskey(name?: string): Promise<void> {
  const { startRegistration } = await import("@simplewebauthn/browser");
  const optionsJSON = (await post("/api/auth/passkeys/register/options")) as Parameters<
    typeof startRegistration
  >[0]["optionsJSON"];
  const response = await startRegistration({ optionsJSON });
  await post("/api/auth/passkeys/register/verify", { response, name });
}

/** Signs in with a passkey this device holds (no email needed); the session cookie comes back with the answer. */
export async function signInWithPasskey(): Promise<void> {
  const { startAuthentication } = await import("@simplewebauthn/browser");
  const optionsJSON = (await post("/api/auth/passkeys/login/options")) as Parameters<
    typeof startAuthentication
  >[0]["optionsJSON"];
  const response = await startAuthentication({ optionsJSON });
  await post("/api/auth/passkeys/login/verify", { response });
}
