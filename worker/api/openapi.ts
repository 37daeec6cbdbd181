import { escapeHtml } from "#worker/content/escape.ts";
import type { OpenAPIHono } from "@hono/zod-openapi";
import type { ApiEnv } from "#worker/api/context.ts";

/**
 * The OpenAPI 3.1 document of /api, generated from the routes' own declarations (createRoute: params,
 * query, body and every answer as zod schemas), so a route's contract and its document are one thing
 * (docs/decisions/058-routes-declared-as-contracts.md).
 */
export function openApiDocument(app: OpenAPIHono<ApiEnv>, base = "/api") {
  return app.getOpenAPI31Document({
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
  });
}

const escape = escapeHtml;

/** The document as a plain, readable page: every path, its operations, parameters and body schema. */
export function openApiPage(doc: ReturnType<typeof openApiDocument>): string {
  const sections = Object.entries(doc.paths ?? {})
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([path, ops]) => {
      const items = Object.entries((ops ?? {}) as Record<string, unknown>).map(([method, raw]) => {
        const op = raw as { summary?: string; requestBody?: { content: Record<string, { schema: unknown }> } };
        const schema = op.requestBody?.content["application/json"]?.schema;
        return (
          `<li><strong>${method.toUpperCase()}</strong> <code>/api${escape(path)}</code>: ${escape(op.summary ?? `${method.toUpperCase()} /api${path}`)}` +
          (schema
            ? `<details><summary>JSON body</summary><pre>${escape(JSON.stringify(schema, null, 2))}</pre></details>`
            : "") +
          `</li>`
        );
      });
      return items.join("");
    });
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${escape(doc.info.title)}</title></head><body><main><h1>${escape(doc.info.title)}</h1><p>${escape(doc.info.description ?? "")}</p><p>Machine-readable: <a href="/api/openapi.json">/api/openapi.json</a> (OpenAPI ${doc.openapi}).</p><ul>${sections.join("")}</ul></main></body></html>`;
}
