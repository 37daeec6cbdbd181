import Stripe from "stripe";
import { vi } from "vitest";
import { callWith } from "./mail";

export const STRIPE_ENV = {
  STRIPE_SECRET_KEY: "sk_test_membersTestKey0123456789",
  STRIPE_WEBHOOK_SECRET: "whsec_membersTestSecret0123456789",
};

type Obj = Record<string, unknown>;

/**
 * A stand-in for Stripe's API at the fetch boundary: `vi.spyOn(globalThis, "fetch")` answers the requests the
 * real SDK makes (form-encoded bodies, JSON answers) from a small in-memory account, and records them.
 * Other hosts go to the real fetch.
 */
export function fakeStripe() {
  const real = globalThis.fetch;
  const requests: { method: string; path: string; form: URLSearchParams; headers: Headers }[] = [];
  const store = {
    products: new Map<string, Obj>(),
    prices: new Map<string, Obj>(),
    subscriptions: new Map<string, Obj>(),
  };
  let n = 0;
  const id = (prefix: string) => `${prefix}_${Date.now().toString(36)}${(n++).toString(36)}`;

  const spy = vi.spyOn(globalThis, "fetch").mockImplementation(async (input, init) => {
    const request = new Request(input as RequestInfo, init);
    const url = new URL(request.url);
    if (url.hostname !== "api.stripe.com") return real(input as RequestInfo, init);
    const form = new URLSearchParams(
      request.method === "GET" ? url.search : new TextDecoder().decode(await request.arrayBuffer()),
    );
    requests.push({ method: request.method, path: url.pathname, form, headers: request.headers });
    const answer = (body: Obj, status = 200) => Response.json(body, { status, headers: { "Request-Id": id("req") } });
    const path = url.pathname;
    let m: RegExpMatchArray | null;
    if (request.method === "POST" && path === "/v1/products") {
      const p = { id: id("prod"), object: "product", name: form.get("name"), active: true };
      store.products.set(p.id, p);
      return answer(p);
    }
    if (request.method === "POST" && (m = path.match(/^\/v1\/products\/([^/]+)$/))) {
      const p = store.products.get(m[1]!) ?? { id: m[1] };
      if (form.has("active")) p.active = form.get("active") === "true";
      if (form.has("name")) p.name = form.get("name");
      return answer(p);
    }
    if (request.method === "POST" && path === "/v1/prices") {
      const p = {
        id: id("price"),
        object: "price",
        product: form.get("product"),
        unit_amount: Number(form.get("unit_amount")),
        currency: form.get("currency"),
        recurring: { interval: form.get("recurring[interval]") },
      };
      store.prices.set(p.id, p);
      return answer(p);
    }
    if (request.method === "POST" && path === "/v1/customers")
      return answer({ id: id("cus"), object: "customer", email: form.get("email") });
    if (request.method === "POST" && path === "/v1/checkout/sessions") {
      const sid = id("cs_test");
      return answer({ id: sid, object: "checkout.session", url: `https://checkout.stripe.com/c/pay/${sid}` });
    }
    if (request.method === "POST" && path === "/v1/billing_portal/sessions")
      return answer({
        id: id("bps"),
        object: "billing_portal.session",
        url: "https://billing.stripe.com/p/session/test",
      });
    if (request.method === "DELETE" && (m = path.match(/^\/v1\/customers\/([^/]+)$/))) {
      // Deleting a Customer cancels its subscriptions at once; a second delete is refused.
      const mine = [...store.subscriptions.values()].filter((s) => s.customer === m![1]);
      if (mine.length > 0 && mine.every((s) => s.status === "canceled"))
        return answer({ error: { type: "invalid_request_error", message: "No such customer" } }, 404);
      for (const sub of mine) sub.status = "canceled";
      return answer({ id: m[1], object: "customer", deleted: true });
    }
    if ((m = path.match(/^\/v1\/subscriptions\/([^/]+)$/))) {
      const sub = store.subscriptions.get(m[1]!);
      if (!sub) return answer({ error: { type: "invalid_request_error", message: "No such subscription" } }, 404);
      if (request.method === "POST" && form.has("cancel_at_period_end"))
        sub.cancel_at_period_end = form.get("cancel_at_period_end") === "true";
      if (request.method === "DELETE") {
        // Stripe refuses to cancel a subscription twice.
        if (sub.status === "canceled")
          return answer({ error: { type: "invalid_request_error", message: "already canceled" } }, 400);
        sub.status = "canceled";
      }
      return answer(sub);
    }
    return answer({ error: { type: "invalid_request_error", message: `unstubbed ${request.method} ${path}` } }, 404);
  });

  return {
    spy,
    requests,
    store,
    /** A subscription as Stripe's API (2025-03 and later) answers it: the period lives on the item. */
    subscription(s: {
      id?: string;
      customer: string;
      status: string;
      price: string;
      metadata?: Record<string, string>;
      periodEnd?: number;
      cancelAtPeriodEnd?: boolean;
    }): Obj {
      const price = store.prices.get(s.price);
      const sub = {
        id: s.id ?? id("sub"),
        object: "subscription",
        customer: s.customer,
        status: s.status,
        cancel_at_period_end: s.cancelAtPeriodEnd ?? false,
        cancel_at: null,
        metadata: s.metadata ?? {},
        items: {
          object: "list",
          data: [
            { id: id("si"), price, current_period_end: s.periodEnd ?? Math.floor(Date.now() / 1000) + 30 * 86400 },
          ],
        },
      };
      store.subscriptions.set(sub.id, sub);
      return sub;
    },
    restore: () => spy.mockRestore(),
  };
}

const signer = new Stripe(STRIPE_ENV.STRIPE_SECRET_KEY);

/** An event as Stripe sends it, and its Stripe-Signature header signed by the SDK's own test helper. */
export async function signedEvent(
  type: string,
  object: Obj,
  options: { id?: string; timestamp?: number; secret?: string } = {},
) {
  const payload = JSON.stringify({
    id: options.id ?? `evt_${crypto.randomUUID().replaceAll("-", "")}`,
    object: "event",
    type,
    api_version: "2026-10-28.endive",
    created: Math.floor(Date.now() / 1000),
    data: { object },
  });
  const header = await signer.webhooks.generateTestHeaderStringAsync({
    payload,
    secret: options.secret ?? STRIPE_ENV.STRIPE_WEBHOOK_SECRET,
    timestamp: options.timestamp,
    cryptoProvider: Stripe.createSubtleCryptoProvider(),
  });
  return { payload, header };
}

/** Posts a signed event to the webhook through the real Worker entry, as Stripe does; answers the Worker's answer. */
export async function deliverEvent(
  env: Cloudflare.Env,
  type: string,
  object: Obj,
  options: Parameters<typeof signedEvent>[2] = {},
): Promise<Response> {
  const { payload, header } = await signedEvent(type, object, options);
  return callWith(env, "/api/stripe/webhook", {
    method: "POST",
    headers: { "Content-Type": "application/json", "Stripe-Signature": header },
    body: payload,
  });
}
