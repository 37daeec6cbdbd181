import { createContext, useContext } from "react";

/**
 * This render's CSP nonce (worker/security/headers.ts issues it; entry.server.tsx provides it). The
 * framework's own inline scripts carry it, and only those are allowed: a private page's CSP names the
 * nonce, a shared page's CSP lists the hashes of the scripts that carried it. In the browser it is
 * undefined (browsers hide nonces from the DOM; the scripts have already run).
 */
export const CspNonceContext = createContext<string | undefined>(undefined);

export function useCspNonce(): string | undefined {
  return useContext(CspNonceContext);
}
