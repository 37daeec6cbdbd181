import { test as base, expect } from "@playwright/test";

/**
 * Every spec's `page` fails its test if the browser reports a Content-Security-Policy violation, so the
 * whole suite proves the strict CSP (worker/security/headers.ts) blocks nothing the site itself needs.
 */
let client = 0;
const run = Math.floor(Math.random() * 0xffff).toString(16);

/** A client address of its own for a context a test opens itself (`browser.newContext`): see `page` below. */
export const ownAddress = () => ({ "CF-Connecting-IP": `2001:db8:${run}:${(client++).toString(16)}::1` });

export const test = base.extend({
  page: async ({ page }, use) => {
    // Each test is its own visitor: a client address of its own (a /64 of the documentation prefix), as
    // Cloudflare would send. Without one, every request of the suite counts as one shared client and the
    // per-client limits (sign-ups, sign-ins) would refuse later specs.
    await page.context().setExtraHTTPHeaders(ownAddress());
    const violations: string[] = [];
    page.on("console", (message) => {
      if (/Content Security Policy/i.test(message.text())) violations.push(message.text());
    });
    await page.addInitScript(() => {
      document.addEventListener("securitypolicyviolation", (event) => {
        console.error(
          `Content Security Policy violation: ${event.violatedDirective} ${event.blockedURI} at ${event.sourceFile}:${event.lineNumber}:${event.columnNumber} ${event.sample}`,
        );
      });
    });
    await use(page);
    expect(violations, "CSP violations in the browser console").toEqual([]);
  },
});

export { expect };
