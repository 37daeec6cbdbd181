// A local stand-in for Stripe (README, "Paid memberships"): the Worker's SDK talks to it instead of
// api.stripe.com when STRIPE_API_BASE names it. It answers the calls the members service makes (Products,
// Prices, Customers, Checkout and Billing Portal sessions, Subscriptions) from an in-memory account, serves a
// checkout page whose "Pay" button makes the subscription and posts the events Stripe would, each signed
// with the endpoint's secret by the SDK's own test helper, and has a few control routes for tests
// (/__stand-in/...): end a subscription (customer.subscription.deleted), send the last event again.
// Local runs and tests only: nothing here is ever production.
import { createServer } from "node:http";
import Stripe from "stripe";

const html = (s) =>
  String(s).replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]);

/** Stripe's form encoding (`a[b][0][c]=v`) read back into plain objects and arrays, as the API does. */
export function decodeForm(params) {
  const out = {};
  for (const [key, value] of params) {
    const parts = key.replace(/\]/g, "").split("[");
    let node = out;
    parts.forEach((part, i) => {
      if (i === parts.length - 1) node[part] = value;
      else node = node[part] ??= /^\d+$/.test(parts[i + 1]) ? [] : {};
    });
  }
  return out;
}

/**
 * Starts the stand-in on `port` (0: any free one). `webhookUrl` is the Worker's POST /api/stripe/webhook,
 * `secret` its STRIPE_WEBHOOK_SECRET. Answers { url, port, stop, events }.
 */
export async function startStripeStandIn({ port = 0, webhookUrl, secret, log = () => {} }) {
  const signer = new Stripe("sk_test_standin");
  let n = 0;
  const id = (prefix) => `${prefix}_standin${Date.now().toString(36)}${(n++).toString(36)}`;
  const now = () => Math.floor(Date.now() / 1000);
  const store = {
    products: new Map(),
    prices: new Map(),
    customers: new Map(),
    sessions: new Map(),
    subscriptions: new Map(),
  };
  /** Every event sent, newest last: { event, status } (the Worker's answer). */
  const events = [];
  let base = "";

  /** Posts an event to the Worker, signed `age` seconds ago (Stripe's tolerance is 300). Answers the status. */
  async function post(payload, age = 0) {
    const header = signer.webhooks.generateTestHeaderString({ payload, secret, timestamp: now() - age });
    const res = await fetch(webhookUrl, {
      method: "POST",
      headers: { "Content-Type": "application/json", "Stripe-Signature": header },
      body: payload,
    });
    await res.text();
    return res.status;
  }

  async function send(type, object) {
    const event = { id: id("evt"), object: "event", type, api_version: "2026-10-28.endive", created: now() };
    event.data = { object: structuredClone(object) };
    const status = await post(JSON.stringify(event));
    events.push({ event, status });
    log(`stripe stand-in: ${type} ${event.id} -> ${status}`);
    return status;
  }

  function subscriptionFor(session) {
    const price = store.prices.get(session.line_items?.[0]?.price);
    if (!price) throw new Error(`no such price ${session.line_items?.[0]?.price}`);
    const days = price.recurring.interval === "year" ? 365 : 30;
    const sub = {
      id: id("sub"),
      object: "subscription",
      customer: session.customer,
      status: "active",
      cancel_at_period_end: false,
      cancel_at: null,
      canceled_at: null,
      metadata: session.subscription_data?.metadata ?? {},
      items: {
        object: "list",
        data: [{ id: id("si"), object: "subscription_item", price, current_period_end: now() + days * 86400 }],
      },
    };
    store.subscriptions.set(sub.id, sub);
    return sub;
  }

  /** The API: answers JSON as Stripe does, errors in Stripe's shape. */
  async function api(method, path, form) {
    let m;
    const make = (map, prefix, fields) => {
      const obj = { id: id(prefix), ...fields };
      map.set(obj.id, obj);
      return obj;
    };
    if (method === "POST" && path === "/v1/products")
      return make(store.products, "prod", { object: "product", active: true, ...form });
    if (method === "POST" && (m = path.match(/^\/v1\/products\/([^/]+)$/))) {
      const p = store.products.get(m[1]);
      if (!p) return null;
      Object.assign(p, form, "active" in form ? { active: form.active === "true" } : {});
      return p;
    }
    if (method === "POST" && path === "/v1/prices")
      return make(store.prices, "price", {
        object: "price",
        active: true,
        product: form.product,
        unit_amount: Number(form.unit_amount),
        currency: form.currency,
        recurring: { interval: form.recurring?.interval },
      });
    if (method === "POST" && path === "/v1/customers")
      return make(store.customers, "cus", { object: "customer", email: form.email, metadata: form.metadata ?? {} });
    if (method === "POST" && path === "/v1/checkout/sessions") {
      const session = make(store.sessions, "cs_test", { object: "checkout.session", status: "open", ...form });
      session.url = `${base}/checkout/${session.id}`;
      return session;
    }
    if (method === "POST" && path === "/v1/billing_portal/sessions") {
      const session = { id: id("bps"), object: "billing_portal.session", ...form };
      session.url = `${base}/portal?return=${encodeURIComponent(form.return_url ?? "")}`;
      return session;
    }
    // Deleting a Customer cancels every subscription of it at once (Stripe says so with customer.subscription.deleted).
    if (method === "DELETE" && (m = path.match(/^\/v1\/customers\/([^/]+)$/))) {
      if (!store.customers.delete(m[1])) return null;
      for (const sub of store.subscriptions.values())
        if (sub.customer === m[1] && sub.status !== "canceled") {
          sub.status = "canceled";
          await send("customer.subscription.deleted", sub);
        }
      return { id: m[1], object: "customer", deleted: true };
    }
    if ((m = path.match(/^\/v1\/subscriptions\/([^/]+)$/))) {
      const sub = store.subscriptions.get(m[1]);
      if (!sub) return null;
      if (method === "POST" && "cancel_at_period_end" in form) {
        sub.cancel_at_period_end = form.cancel_at_period_end === "true";
        await send("customer.subscription.updated", sub);
      }
      return sub;
    }
    return undefined;
  }

  const page = (title, body) =>
    `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${html(title)}</title>` +
    `<meta name="viewport" content="width=device-width"></head><body style="font-family:sans-serif;max-width:30rem;margin:3rem auto">${body}</body></html>`;

  /** The checkout page, its payment (the subscription and Stripe's three events), and the tests' controls. */
  async function browser(method, url, res) {
    let m;
    if ((m = url.pathname.match(/^\/checkout\/([^/]+)$/)) && method === "GET") {
      const session = store.sessions.get(m[1]);
      if (!session) return false;
      const price = store.prices.get(session.line_items?.[0]?.price);
      res.writeHead(200, { "Content-Type": "text/html; charset=utf-8" });
      res.end(
        page(
          "Stripe stand-in checkout",
          `<h1>Stripe stand-in checkout</h1><p>${html((price?.unit_amount ?? 0) / 100)} ${html(price?.currency ?? "")} a ${html(price?.recurring?.interval ?? "")}</p>` +
            `<form method="post" action="/checkout/${html(session.id)}/pay"><button type="submit">Pay</button></form>` +
            `<p><a href="${html(session.cancel_url)}">Back</a></p>`,
        ),
      );
      return true;
    }
    if ((m = url.pathname.match(/^\/checkout\/([^/]+)\/pay$/)) && method === "POST") {
      const session = store.sessions.get(m[1]);
      if (!session) return false;
      if (session.status === "open") {
        const sub = subscriptionFor(session);
        Object.assign(session, { status: "complete", payment_status: "paid", subscription: sub.id });
        // In the order Stripe usually sends them; the Worker copes with any order.
        await send("checkout.session.completed", session);
        await send("customer.subscription.created", sub);
        await send("invoice.paid", {
          id: id("in"),
          object: "invoice",
          customer: sub.customer,
          status: "paid",
          parent: { type: "subscription_details", subscription_details: { subscription: sub.id } },
        });
      }
      res.writeHead(303, { Location: session.success_url });
      res.end();
      return true;
    }
    if (url.pathname === "/portal" && method === "GET") {
      res.writeHead(200, { "Content-Type": "text/html; charset=utf-8" });
      res.end(
        page(
          "Stripe stand-in billing portal",
          `<h1>Billing portal</h1><p><a href="${html(url.searchParams.get("return") ?? "/")}">Return to the site</a></p>`,
        ),
      );
      return true;
    }
    // The period ran out after a cancellation: Stripe ends the subscription and says so.
    if ((m = url.pathname.match(/^\/__stand-in\/subscriptions\/([^/]+)\/end$/)) && method === "POST") {
      const sub = store.subscriptions.get(m[1]);
      if (!sub) return false;
      Object.assign(sub, { status: "canceled", canceled_at: now() });
      const status = await send("customer.subscription.deleted", sub);
      json(res, 200, { status });
      return true;
    }
    // Stripe delivers again: the last event, same id, signed anew (?age=N: signed N seconds ago).
    if (url.pathname === "/__stand-in/events/last/resend" && method === "POST") {
      const last = events.at(-1);
      if (!last) return false;
      const status = await post(JSON.stringify(last.event), Number(url.searchParams.get("age") ?? 0));
      json(res, 200, { id: last.event.id, type: last.event.type, status });
      return true;
    }
    if (url.pathname === "/__stand-in/subscriptions" && method === "GET") {
      json(res, 200, { data: [...store.subscriptions.values()] });
      return true;
    }
    return false;
  }

  function json(res, status, body) {
    res.writeHead(status, { "Content-Type": "application/json", "Request-Id": id("req") });
    res.end(JSON.stringify(body));
  }

  const server = createServer(async (req, res) => {
    try {
      const url = new URL(req.url ?? "/", base);
      const chunks = [];
      for await (const chunk of req) chunks.push(chunk);
      const body = Buffer.concat(chunks).toString("utf8");
      if (url.pathname.startsWith("/v1/")) {
        const form = decodeForm(new URLSearchParams(req.method === "GET" ? url.search : body));
        const answer = await api(req.method, url.pathname, form);
        if (answer) return json(res, 200, answer);
        const message =
          answer === null ? `No such object: ${url.pathname}` : `The stand-in has no ${req.method} ${url.pathname}`;
        return json(res, 404, { error: { type: "invalid_request_error", message } });
      }
      if (!(await browser(req.method, url, res))) json(res, 404, { error: { message: "not found" } });
    } catch (err) {
      json(res, 500, { error: { type: "api_error", message: err instanceof Error ? err.message : String(err) } });
    }
  });
  await new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, "127.0.0.1", resolve);
  });
  const bound = server.address().port;
  base = `http://127.0.0.1:${bound}`;
  return {
    url: base,
    port: bound,
    events,
    stop: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
