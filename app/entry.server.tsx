import type { AppLoadContext, EntryContext } from "@remix-run/cloudflare";
import { RemixServer } from "@remix-run/react";
import { isbot } from "isbot";
import { renderToReadableStream } from "react-dom/server";
import { InlineCssContext } from "#app/lib/inline-css.tsx";
import css from "#app/tailwind.css?inline";

const ABORT_DELAY = 5_000;

export default async function handleRequest(
  request: Request,
  responseStatusCode: number,
  responseHeaders: Headers,
  remixContext: EntryContext,
  _loadContext: AppLoadContext,
) {
  const controller = new AbortController();
  const timeoutId = setTimeout(() => controller.abort(), ABORT_DELAY);

  const body = await renderToReadableStream(
    <InlineCssContext.Provider value={css}>
      <RemixServer context={remixContext} url={request.url} abortDelay={ABORT_DELAY} />
    </InlineCssContext.Provider>,
    {
      signal: controller.signal,
      onError(error: unknown) {
        if (!controller.signal.aborted) console.error(error);
        responseStatusCode = 500;
      },
    },
  );
  body.allReady.then(() => clearTimeout(timeoutId));

  // Crawlers get the complete document at once; people get it streamed.
  if (isbot(request.headers.get("user-agent") || "")) await body.allReady;

  // Security headers (CSP with the inline scripts' hashes, HSTS, ...) are set in one place: worker/security.
  responseHeaders.set("Content-Type", "text/html; charset=utf-8");
  return new Response(body, { headers: responseHeaders, status: responseStatusCode });
}
