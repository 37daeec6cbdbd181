import { configOf } from "#worker/config.ts";
import type { AppLoadContext, EntryContext } from "@remix-run/cloudflare";
import { RemixServer } from "@remix-run/react";
import { isbot } from "isbot";
import { renderToReadableStream } from "react-dom/server";
import { InlineCssContext } from "#app/lib/inline-css.tsx";
import { ConfirmSignerContext, type ConfirmSigner } from "#app/lib/confirm-signer.ts";
import { CspNonceContext } from "#app/lib/csp-nonce.ts";
import { signConfirmStep } from "#worker/security/confirm-token.ts";
import css from "#app/tailwind.css?inline";
import islands from "virtual:reading-islands";
import { ReadingIslandsContext } from "#app/lib/reading-page.ts";
import { logError } from "#worker/log.ts";

const ABORT_DELAY = 5_000;

export default async function handleRequest(
  request: Request,
  responseStatusCode: number,
  responseHeaders: Headers,
  remixContext: EntryContext,
  loadContext: AppLoadContext,
) {
  // Ask-first buttons sign their /confirm step for this session while they render (worker/security/confirm-token.ts).
  const secret = loadContext.env ? configOf(loadContext.env).sessionSecret : "";
  const sessionId = loadContext.sessionId ?? null;
  const signer: ConfirmSigner | null =
    secret && sessionId ? (ask, to, fields) => signConfirmStep(secret, sessionId, { ask, to, fields }) : null;

  // The framework's own inline scripts carry this render's nonce; nothing else does (worker/security/headers.ts).
  const nonce = loadContext.cspNonce;

  const controller = new AbortController();
  const timeoutId = setTimeout(() => controller.abort(), ABORT_DELAY);

  const body = await renderToReadableStream(
    <CspNonceContext.Provider value={nonce}>
      <InlineCssContext.Provider value={css}>
        <ConfirmSignerContext.Provider value={signer}>
          <ReadingIslandsContext.Provider value={islands}>
            <RemixServer context={remixContext} url={request.url} abortDelay={ABORT_DELAY} nonce={nonce} />
          </ReadingIslandsContext.Provider>
        </ConfirmSignerContext.Provider>
      </InlineCssContext.Provider>
    </CspNonceContext.Provider>,
    {
      nonce,
      signal: controller.signal,
      onError(error: unknown) {
        if (!controller.signal.aborted) logError("page render failed", error, { path: new URL(request.url).pathname });
        responseStatusCode = 500;
      },
    },
  );
  body.allReady.then(() => clearTimeout(timeoutId));

  // Crawlers get the complete document at once; people get it streamed.
  if (isbot(request.headers.get("user-agent") || "")) await body.allReady;

  // Security headers (CSP with this nonce or its scripts' hashes, HSTS, ...) are set in one place: worker/security.
  responseHeaders.set("Content-Type", "text/html; charset=utf-8");
  return new Response(body, { headers: responseHeaders, status: responseStatusCode });
}
