import { Validator } from "@seriousme/openapi-schema-validator";
import addFormats from "ajv-formats";
// The validator's own Ajv and 3.1 schema: workerd reads no files, so the test hands over what it would read.
// eslint-disable-next-line no-restricted-imports -- the validator's own nested copy of Ajv, by path (no alias reaches it)
import Ajv2020 from "../../node_modules/@seriousme/openapi-schema-validator/node_modules/ajv/dist/2020.js";
import schema31 from "@seriousme/openapi-schema-validator/schemas/v3.1/schema.json";
import { describe, expect, it } from "vitest";
import { api } from "#worker/api/index.ts";
import { call, json } from "../support/http";

type Schema = Record<string, unknown>;
interface Operation {
  parameters?: { name: string; in: string; schema?: Schema }[];
  requestBody?: { content: Record<string, { schema?: Schema }> };
  responses: Record<string, { content?: Record<string, { schema?: Schema }> }>;
}
interface Document {
  openapi: string;
  paths: Record<string, Record<string, Operation>>;
}

/** Routes that answer no body: a 204, a redirect. */
const BODYLESS = new Set(["204", "301", "302", "304"]);

describe("/api/openapi.json, generated from the routes' declarations", () => {
  it("is a valid OpenAPI 3.1 document", async () => {
    const res = await call("/api/openapi.json");
    expect(res.status).toBe(200);
    const doc = await json<Document>(res);
    const validator = new Validator();
    // Compiled as Validator.getAjvValidator does, from the same file.
    const own = validator as unknown as { ajvOptions: object; ajvValidators: Record<string, unknown> };
    const ajv = new Ajv2020(own.ajvOptions);
    addFormats(ajv);
    ajv.addFormat("media-range", true);
    own.ajvValidators["3.1"] = ajv.compile(schema31);
    const result = await validator.validate(doc as unknown as Parameters<Validator["validate"]>[0]);
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
    expect(validator.version).toBe("3.1");
    // A body is described by the schema its service parses it with.
    const post = doc.paths["/blogs"]!.post!.requestBody!.content["application/json"]!.schema!;
    expect(post.properties).toHaveProperty("title");
  });

  it("gives every operation a schema for each input it reads and for every status it answers", async () => {
    const doc = await json<Document>(await call("/api/openapi.json"));
    const operations = Object.entries(doc.paths).flatMap(([path, ops]) =>
      Object.entries(ops).map(([method, op]) => ({ key: `${method.toUpperCase()} ${path}`, path, op })),
    );
    expect(operations.length).toBeGreaterThanOrEqual(90);
    for (const { key, path, op } of operations) {
      const params = op.parameters ?? [];
      // Every {name} in the path is a declared parameter with a schema.
      for (const [, name] of path.matchAll(/\{(\w+)\}/g))
        expect(params.find((p) => p.in === "path" && p.name === name)?.schema, `${key}: path ${name}`).toBeDefined();
      for (const p of params) expect(p.schema, `${key}: ${p.in} ${p.name}`).toBeDefined();
      for (const [type, media] of Object.entries(op.requestBody?.content ?? {}))
        expect(media.schema, `${key}: body ${type}`).toBeDefined();
      const statuses = Object.keys(op.responses);
      expect(
        statuses.some((s) => s.startsWith("2") || s.startsWith("3")),
        `${key}: a success`,
      ).toBe(true);
      for (const status of statuses.filter((s) => !BODYLESS.has(s))) {
        const content = Object.entries(op.responses[status]!.content ?? {});
        expect(content.length, `${key} ${status}: content`).toBeGreaterThan(0);
        for (const [type, media] of content) expect(media.schema, `${key} ${status} ${type}`).toBeDefined();
      }
    }
  });

  it("lists every route the API serves: a route declared without createRoute would be missing", async () => {
    const doc = await json<Document>(await call("/api/openapi.json"));
    const documented = new Set(
      Object.entries(doc.paths).flatMap(([path, ops]) => Object.keys(ops).map((m) => `${m.toUpperCase()} ${path}`)),
    );
    const served = new Set(
      api.routes
        .filter((r) => r.method !== "ALL")
        .map((r) => `${r.method.toUpperCase()} ${r.path.replace(/:(\w+)/g, "{$1}")}`),
    );
    expect(served.size).toBeGreaterThanOrEqual(90);
    for (const route of served) expect(documented.has(route), route).toBe(true);
  });
});
