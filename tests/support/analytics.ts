import { env } from "cloudflare:workers";
import type { AnalyticsHit } from "#worker/services/analytics/model.ts";
import { callWith } from "./mail";
import { recordingQueue } from "./queue";

export const CHROME =
  "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36";
export const IPHONE =
  "Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1";
export const GOOGLEBOT = "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)";

/** The analytics queue as the platform would run it (tests/support/queue.ts), and an env that sends to it. */
export function analyticsWorld(batchSize = 2) {
  const queue = recordingQueue<AnalyticsHit>(batchSize, "edge-blog-analytics");
  return { queue, env: { ...env, ANALYTICS_QUEUE: queue.binding } as Cloudflare.Env };
}

export interface Reader {
  ip: string;
  ua: string;
  country?: string;
  headers?: Record<string, string>;
}

/** The beacon as the inline script sends it: a same-origin POST of `{path, referrer}` as text/plain. */
export function hit(workerEnv: Cloudflare.Env, who: Reader, path: string, referrer = "") {
  return callWith(workerEnv, "/api/analytics/hit", {
    method: "POST",
    headers: {
      Origin: "https://blog.test",
      "Content-Type": "text/plain;charset=UTF-8",
      "CF-Connecting-IP": who.ip,
      "User-Agent": who.ua,
      ...(who.country ? { "CF-IPCountry": who.country } : {}),
      ...who.headers,
    },
    body: JSON.stringify({ path, referrer }),
  });
}
