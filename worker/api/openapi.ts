import { escapeHtml } from "#worker/content/escape.ts";
import type { Hono } from "hono";
import { z } from "zod";
import { authorChangesInput, newAuthorInput } from "#worker/services/authors.ts";
import { blogChangesInput, newBlogInput } from "#worker/services/blogs/input.ts";
import { autosaveInput } from "#worker/services/blogs/autosave.ts";
import { subscribeInput } from "#worker/services/newsletter/model.ts";
import { summaryQuery, summaryResponse } from "#worker/services/analytics/service.ts";
import { newReviewInput } from "#worker/services/reviews.ts";
import { reportInput } from "#worker/services/comments/reports.ts";
import { checkoutInput, compInput, newTierInput, tierChangesInput } from "#worker/services/members/model.ts";

/**
 * The OpenAPI 3.1 document of /api, built from the routes the Hono app really has (so a route cannot be
 * served and missing from it) and the services' own zod schemas for the bodies they validate
 * (docs/decisions/044-openapi-from-the-routes.md).
 */

/** Request bodies by "METHOD /path" (OpenAPI path syntax): the very schemas the services parse with. */
const BODIES: Record<string, z.ZodType> = {
  "POST /blogs": newBlogInput,
  "PUT /blogs/{id}": blogChangesInput,
  "PUT /drafts/autosave": autosaveInput,
  "POST /addAuthor": newAuthorInput,
  "PUT /author/{id}": authorChangesInput,
  "POST /review": newReviewInput,
  "POST /newsletter": subscribeInput,
  "POST /comments/{id}/report": reportInput,
  "POST /members/tiers": newTierInput,
  "PUT /members/tiers/{id}": tierChangesInput,
  "POST /members/checkout": checkoutInput,
  "POST /members/{userId}/comp": compInput,
};

/** Query strings a service validates with a schema: each property is a query parameter. */
const QUERIES: Record<string, z.ZodType> = {
  "GET /analytics/summary": summaryQuery,
};

/** Success bodies described by a schema. */
const RESPONSES: Record<string, z.ZodType> = {
  "GET /analytics/summary": summaryResponse,
};

/** Short words for the routes a newcomer reaches for first; the rest are named by method and path. */
const SUMMARIES: Record<string, string> = {
  "GET /health": "Whether the Worker and its database answer",
  "GET /blogs": "Published posts, newest first, one page at a time (limit, cursor or page)",
  "GET /blogs/{id}": "One post (a draft only for its writer and admins)",
  "GET /drafts/autosave": "The signed-in writer's own autosaved Write Blogs text (null when none)",
  "PUT /drafts/autosave": "Keeps what the signed-in writer is typing on Write Blogs, for their other devices",
  "POST /blogs": "Write a post (publish, save as draft or schedule)",
  "PUT /blogs/{id}": "Change a post",
  "DELETE /blogs/{id}": "Delete a post",
  "POST /auth/register": "Create an account (a confirmation mail follows)",
  "POST /auth/login": "Sign in with email and password (sets the session cookie)",
  "POST /auth/logout": "Sign out",
  "GET /auth/me": "The signed-in account, or null",
  "GET /openapi.json": "This document",
  "GET /docs": "This document as a readable page",
  "GET /analytics/summary":
    "Visitors and pageviews of a range (the site for admins, a writer's own posts, or one post), with top posts, sources, countries and devices",
  "POST /analytics/hit": "The page-view beacon (JSON {path, referrer}); answers 204 and sets no cookie",
  "GET /analytics/hit.gif": "The no-JavaScript page-view pixel",
  "POST /comments/{id}/report": "Report someone else's comment with a reason (spam, abuse, or other with a short note)",
  "DELETE /comments/{id}/report": "Withdraw your own report of a comment",
  "POST /stripe/webhook":
    "Stripe's events (raw body, Stripe-Signature checked; 400 when missing, wrong or older than 5 minutes)",
  "GET /members/tiers": "Membership tiers that take sign-ups, cheapest first",
  "POST /members/tiers": "Create a tier (admin; makes its Stripe Product and Prices)",
  "PUT /members/tiers/{id}": "Change a tier (admin; a new amount makes a new Stripe Price)",
  "DELETE /members/tiers/{id}": "Archive a tier (admin): no new sign-ups, its members keep it",
  "POST /members/checkout": "Start a Stripe Checkout for a tier and cadence; answers {url}",
  "POST /members/portal": "Open Stripe's Billing Portal for the signed-in member; answers {url}",
  "GET /members/me": "The signed-in reader's plan: status, tier, cadence, renewal, cancel_at_period_end",
  "POST /members/me/cancel": "Cancel at the end of the paid period",
  "POST /members/me/resume": "Take a cancellation back before the period ends",
  "GET /members": "Members (admin), filtered by status and email, one page at a time",
  "POST /members/{userId}/comp": "Give an account a tier for free, for good or until a date (admin)",
  "DELETE /members/{userId}/comp": "End an account's comp (admin)",
  "GET /members/stats":
    "Counts of paid, comped and free accounts, MRR per currency, paid sign-ups and ended subscriptions per month, paid sign-ups per post (admin)",
};

const errorSchema = {
  type: "object",
  required: ["error"],
  properties: {
    error: {
      type: "object",
      required: ["code", "message"],
      properties: {
        code: { type: "string" },
        message: { type: "string" },
        fields: { type: "object", additionalProperties: { type: "string" } },
      },
    },
  },
} as const;

const SUCCESS: Record<string, string> = { GET: "200", POST: "200", PUT: "200", PATCH: "200", DELETE: "200" };

/** Hono's "/blogs/:id{[0-9]+}" as OpenAPI's "/blogs/{id}". */
export const openApiPath = (path: string) => path.replace(/:(\w+)(\{[^}]*\})?\??/g, "{$1}");

function bodySchema(schema: z.ZodType, io: "input" | "output" = "input"): Record<string, unknown> {
  try {
    const json = z.toJSONSchema(schema, { io, unrepresentable: "any" }) as Record<string, unknown>;
    // The document declares its own dialect (OpenAPI 3.1's); a nested $schema is noise there.
    delete json.$schema;
    return json;
  } catch {
    return { type: "object" };
  }
}

export function openApiDocument(app: { routes: Hono["routes"] }, base = "/api") {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const route of app.routes) {
    const method = route.method.toUpperCase();
    if (!(method in SUCCESS) || route.path.includes("*")) continue;
    const path = openApiPath(route.path);
    const key = `${method} ${path}`;
    const params: Record<string, unknown>[] = [...path.matchAll(/\{(\w+)\}/g)].map((m) => ({
      name: m[1],
      in: "path",
      required: true,
      schema: { type: "string" },
    }));
    const query = QUERIES[key];
    if (query) {
      const json = bodySchema(query) as { properties?: Record<string, unknown>; required?: string[] };
      for (const [name, schema] of Object.entries(json.properties ?? {}))
        params.push({ name, in: "query", required: json.required?.includes(name) ?? false, schema });
    }
    const answer = RESPONSES[key];
    const tag = path.split("/")[1] || "root";
    const body = BODIES[key];
    const operation: Record<string, unknown> = {
      operationId: `${method.toLowerCase()}${path.replace(/[^A-Za-z0-9]+(\w)?/g, (_, c: string = "") => c.toUpperCase())}`,
      summary: SUMMARIES[key] ?? `${method} ${base}${path}`,
      tags: [tag],
      ...(params.length ? { parameters: params } : {}),
      ...(body
        ? { requestBody: { required: true, content: { "application/json": { schema: bodySchema(body) } } } }
        : {}),
      responses: {
        [SUCCESS[method]!]: {
          description: "Success (creates answer 201 {insertedId} where the spec says so)",
          ...(answer ? { content: { "application/json": { schema: bodySchema(answer, "output") } } } : {}),
        },
        "4XX": {
          description: "Refused: 400 invalid, 401 signed out, 403 not allowed, 404, 409, 413, 415 or 429",
          content: { "application/json": { schema: { $ref: "#/components/schemas/Error" } } },
        },
      },
    };
    (paths[path] ??= {})[method.toLowerCase()] = operation;
  }
  return {
    openapi: "3.1.0",
    info: {
      title: "Edge Blog REST API",
      version: "1.0.0",
      description:
        "The JSON contract under /api. Records carry _id; creates answer 201 {insertedId}, updates " +
        "{modifiedCount}, deletes {deletedCount}; errors are {error: {code, message, fields?}}. Lists are " +
        "paginated (limit capped). Writes need the session cookie and a same-origin Origin header.",
    },
    servers: [{ url: base }],
    paths,
    components: { schemas: { Error: errorSchema } },
  };
}

const escape = escapeHtml;

/** The document as a plain, readable page: every path, its operations, parameters and body schema. */
export function openApiPage(doc: ReturnType<typeof openApiDocument>): string {
  const sections = Object.entries(doc.paths)
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([path, ops]) => {
      const items = Object.entries(ops).map(([method, raw]) => {
        const op = raw as { summary: string; requestBody?: { content: Record<string, { schema: unknown }> } };
        const schema = op.requestBody?.content["application/json"]?.schema;
        return (
          `<li><strong>${method.toUpperCase()}</strong> <code>/api${escape(path)}</code>: ${escape(op.summary)}` +
          (schema
            ? `<details><summary>JSON body</summary><pre>${escape(JSON.stringify(schema, null, 2))}</pre></details>`
            : "") +
          `</li>`
        );
      });
      return items.join("");
    });
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${escape(doc.info.title)}</title></head><body><main><h1>${escape(doc.info.title)}</h1><p>${escape(doc.info.description)}</p><p>Machine-readable: <a href="/api/openapi.json">/api/openapi.json</a> (OpenAPI ${doc.openapi}).</p><ul>${sections.join("")}</ul></main></body></html>`;
}
