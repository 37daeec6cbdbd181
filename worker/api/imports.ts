import type { Context } from "hono";
import { Hono } from "hono";
import type { ApiEnv } from "#worker/api/context.ts";
import { readBytesUpTo } from "#worker/http/bytes.ts";
import { readJson } from "#worker/api/body.ts";
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

/**
 * Imports as JSON: upload (staged for the preview), start, and the job's status with its
 * ledger, the same service the /dashboard/import and /settings pages use. Personal answers
 * (`private, no-store`: worker/cache/policy.ts shares no /api/imports URL).
 */
export const importsApi = new Hono<ApiEnv>()
  .get("/imports", async (c) => {
    const jobs = await c.var.services.imports.list(c.var.user);
    return c.json(jobs.map((j) => ({ ...j, createdAt: new Date(j.createdAt).toISOString() })));
  })
  .post("/imports", async (c) => {
    const user = c.var.user;
    const scope = scopeOf(c.req.query("scope"), user?.role === "admin");
    // Who may import is checked before the body is read: the service reads it through the thunk.
    const { jobId } = await c.var.services.imports.start(
      user,
      () => readImportFile(c),
      scope,
      c.req.query("source_url"),
    );
    return c.json(await c.var.services.imports.get(user, jobId), 201);
  })
  .get("/imports/:id", async (c) =>
    c.json(await c.var.services.imports.get(c.var.user, c.req.param("id"), { page: c.req.query("page") })),
  )
  .post("/imports/:id/retry-images", async (c) => {
    const result = await c.var.services.imports.retryImages(c.var.user, c.req.param("id"));
    return c.json({ ...result, ...(await c.var.services.imports.get(c.var.user, c.req.param("id"))) });
  })
  .post("/imports/:id/start", async (c) => {
    await c.var.services.imports.confirm(c.var.user, c.req.param("id"), await readJson(c));
    return c.json(await c.var.services.imports.get(c.var.user, c.req.param("id")), 202);
  });
