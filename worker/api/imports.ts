import type { Context } from "hono";
import { createRoute, z } from "@hono/zod-openapi";
import type { ApiEnv } from "#worker/api/context.ts";
import { readBytesUpTo } from "#worker/http/bytes.ts";
import {
  bodyErrors,
  contractApp,
  errors,
  fileForm,
  IdParams,
  json,
  jsonBody,
  rawBody,
  readsJson,
  Record_,
} from "#worker/api/contract.ts";
import { confirmInput } from "#worker/services/import/service.ts";
import { IMPORT_ERRORS, MAX_IMPORT_BYTES } from "#worker/services/import/archive.ts";
import type { ImportScope } from "#worker/services/import/service.ts";
import { tooLarge, unsupportedType, ValidationError } from "#worker/services/shared/errors.ts";

/** Room for the multipart boundary and part headers around a 40 MB export file. */
const MAX_FORM_BYTES = MAX_IMPORT_BYTES + 64 * 1024;

/** The upload's form: 415 unless multipart, 413 past the size limit (read no further), 400 for a broken form. */
async function readImportFile(c: Context<ApiEnv>): Promise<unknown> {
  const type = c.req.header("Content-Type") ?? "";
  if (!/^multipart\/form-data\b/i.test(type)) throw unsupportedType("Send the export file as multipart/form-data.");
  const refuse = () => tooLarge(IMPORT_ERRORS.tooLarge, "import-too-large");
  if (Number(c.req.header("Content-Length") ?? "0") > MAX_FORM_BYTES) throw refuse();
  const bytes = await readBytesUpTo(c.req.raw.body, MAX_FORM_BYTES, refuse);
  try {
    const form = await new Response(bytes, { headers: { "Content-Type": type } }).formData();
    return form.get("file");
  } catch {
    const text = "The form data could not be read.";
    throw new ValidationError({ body: text }, text, "invalid-form");
  }
}

function scopeOf(value: unknown, isAdmin: boolean): ImportScope {
  if (value === null || value === undefined || value === "") return isAdmin ? "site" : "own";
  if (value === "site" || value === "own") return value;
  const text = 'The scope is "site" (an admin\'s import of the whole site) or "own" (your own posts).';
  throw new ValidationError({ scope: text }, text, "invalid-scope");
}

const routes = {
  list: createRoute({
    method: "get",
    path: "/imports",
    summary: "The signed-in person's imports, newest first",
    responses: { 200: json(z.array(Record_)), ...errors },
  }),
  upload: createRoute({
    method: "post",
    path: "/imports",
    summary: "Upload an export file (WordPress WXR, Ghost JSON, CSV or a zip of Markdown) for its preview",
    request: {
      query: z.object({
        scope: z.string().optional().openapi({ description: '"site" (an admin\'s whole site) or "own" posts' }),
        source_url: z.string().optional().openapi({ description: "Where the export came from (for links)" }),
      }),
      body: rawBody("multipart/form-data", fileForm("file"), "The export file, at most 40 MB"),
    },
    responses: { 201: json(Record_, "Staged: the job with its preview"), ...bodyErrors },
  }),
  get: createRoute({
    method: "get",
    path: "/imports/{id}",
    summary: "An import job with its ledger, a page at a time",
    request: { params: IdParams, query: z.object({ page: z.string().optional() }) },
    responses: { 200: json(Record_), ...errors },
  }),
  retryImages: createRoute({
    method: "post",
    path: "/imports/{id}/retry-images",
    summary: "Fetch again the images an import could not",
    request: { params: IdParams },
    responses: { 200: json(Record_), ...errors },
  }),
  start: createRoute({
    method: "post",
    path: "/imports/{id}/start",
    summary: "Start a staged import, with the category for posts that name none",
    middleware: [readsJson()] as const,
    request: { params: IdParams, body: jsonBody(confirmInput) },
    responses: { 202: json(Record_, "Started: the job"), ...bodyErrors },
  }),
};

/**
 * Imports as JSON: upload (staged for the preview), start, and the job's status with its
 * ledger, the same service the /dashboard/import and /settings pages use. Personal answers
 * (`private, no-store`: worker/cache/policy.ts shares no /api/imports URL).
 */
export const importsApi = contractApp()
  .openapi(routes.list, async (c) => {
    const jobs = await c.var.services.imports.list(c.var.user);
    return c.json(
      jobs.map((j) => ({ ...j, createdAt: new Date(j.createdAt).toISOString() })),
      200,
    );
  })
  .openapi(routes.upload, async (c) => {
    const user = c.var.user;
    const query = c.req.valid("query");
    const scope = scopeOf(query.scope, user?.role === "admin");
    // Who may import is checked before the body is read: the service reads it through the thunk.
    const { jobId } = await c.var.services.imports.start(user, () => readImportFile(c), scope, query.source_url);
    return c.json(await c.var.services.imports.get(user, jobId), 201);
  })
  .openapi(routes.get, async (c) =>
    c.json(await c.var.services.imports.get(c.var.user, c.req.valid("param").id, c.req.valid("query")), 200),
  )
  .openapi(routes.retryImages, async (c) => {
    const { id } = c.req.valid("param");
    const result = await c.var.services.imports.retryImages(c.var.user, id);
    return c.json({ ...result, ...(await c.var.services.imports.get(c.var.user, id)) }, 200);
  })
  .openapi(routes.start, async (c) => {
    const { id } = c.req.valid("param");
    await c.var.services.imports.confirm(c.var.user, id, c.req.valid("json"));
    return c.json(await c.var.services.imports.get(c.var.user, id), 202);
  });
