import { test as base, expect } from "@playwright/test";

/**
 * Every spec's `page` fails its test if the browser reports a Content-Security-Policy violation, so the
 * whole suite proves the strict CSP (worker/security/headers.ts) blocks nothing the site itself needs.
 */
export const test = base.extend({
  page: async ({ page }, use) => {
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
