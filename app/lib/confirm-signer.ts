import { createContext, useContext } from "react";
import type { ConfirmKind } from "./confirm";

/**
 * Signs one ask-first button for the /confirm step (worker/security/confirm-token.ts). Only the server
 * render has one (entry.server.tsx binds it to the session); in the browser it is null, and the
 * hydrated button asks with the dialog instead, so no token is needed there.
 */
export type ConfirmSigner = (ask: ConfirmKind, to: string, fields: [string, string][]) => string;

export const ConfirmSignerContext = createContext<ConfirmSigner | null>(null);

/** The token for this button, on the server; undefined in the browser. */
export function useConfirmToken(ask: ConfirmKind, to: string, fields: [string, string][]): string | undefined {
  const sign = useContext(ConfirmSignerContext);
  return sign ? sign(ask, to, fields) : undefined;
}
