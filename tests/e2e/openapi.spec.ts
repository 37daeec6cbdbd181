import { Validator } from "@seriousme/openapi-schema-validator";
import { expect, test } from "./fixtures";

test("/api/openapi.json is a valid OpenAPI 3.1 document of the routes the API serves", async ({ request }) => {
  const res = await request.get("/api/openapi.json");
  expect(res.status()).toBe(200);
  const doc = await res.json();
  const validator = new Validator();
  const result = await validator.validate(doc);
  expect(result.errors ?? []).toEqual([]);
  expect(result.valid).toBe(true);
  expect(validator.version).toBe("3.1");

  const operations = Object.entries(doc.paths as Record<string, Record<string, unknown>>).flatMap(([p, ops]) =>
    Object.keys(ops).map((m) => `${m.toUpperCase()} ${p}`),
  );
  for (const known of [
    "GET /health",
    "GET /blogs",
    "GET /blogs/{id}",
    "POST /blogs",
    "PUT /blogs/{id}",
    "DELETE /blogs/{id}",
    "POST /auth/login",
    "POST /blogs/{id}/comments",
    "GET /newsletter/subscribers.csv",
    "GET /openapi.json",
    "GET /analytics/summary",
    "POST /analytics/hit",
  ])
    expect(operations).toContain(known);
  expect(operations.length).toBeGreaterThanOrEqual(90);
  // Each listed GET without parameters is really served (a 2xx, or a 4xx for a signed-out caller; never 404).
  for (const op of operations.filter((o) => o.startsWith("GET ") && !o.includes("{"))) {
    const path = op.slice(4);
    const answer = await request.get(`/api${path}`, { maxRedirects: 0 });
    expect(answer.status(), path).not.toBe(404);
    expect(answer.status(), path).toBeLessThan(500);
  }
  const summary = doc.paths["/analytics/summary"].get;
  expect(summary.parameters.map((p: { name: string }) => p.name)).toEqual(
    expect.arrayContaining(["from", "to", "post"]),
  );
  expect(summary.responses["200"].content["application/json"].schema.properties).toHaveProperty("visitors");
  // The body of a post is described by the schema the service validates with.
  const body = doc.paths["/blogs"].post.requestBody.content["application/json"].schema;
  expect(body.properties).toHaveProperty("title");
});

test("/api/docs is a readable reference page", async ({ page }) => {
  await page.goto("/api/docs");
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Edge Blog REST API");
  await expect(page.getByText("/api/blogs/{id}").first()).toBeVisible();
});
