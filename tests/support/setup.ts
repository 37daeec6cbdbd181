import { applyD1Migrations } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { afterAll, vi } from "vitest";
import { forgetIsolateCopies, purgeTags } from "#worker/cache/edge.ts";

/**
 * Every test file starts from a fresh site: the schema the migrations describe, the rows the migrations
 * themselves write and nothing else, an empty bucket and an empty edge cache.
 *
 * The pool runs without per-file isolation (vitest.config.ts, `isolate: false`): one workerd and one module
 * graph serve every file of a project, in turn, instead of a new runtime that loads the whole Worker again
 * for each of 150 files (about 10 s a file on two cores, three quarters of the suite's time). What a file
 * leaves behind is removed here before the next one starts: D1's rows, R2's objects, the cached pages
 * (through the app's own purge, which also empties the isolate's near copies), and the file's mocks, fake
 * clocks and stubbed globals (afterAll below). Files never run at the same time in one runtime.
 */

type Row = Record<string, unknown>;
interface Baseline {
  /** The tables a test may write (not D1's own, SQLite's, or an FTS index's shadow tables). */
  tables: string[];
  /** Rows the migrations wrote, per table, put back after each wipe. */
  rows: [string, Row[]][];
}
const KEY = "__edgeBlogTestBaseline";
const store = globalThis as unknown as Record<string, Baseline | undefined>;
const quote = (name: string) => `"${name.replace(/"/g, '""')}"`;

async function describeSchema(): Promise<Baseline> {
  const { results } = await env.DB.prepare(
    "select name, sql from sqlite_master where type = 'table' and name not like 'sqlite_%' and name not like '_cf_%' and name <> 'd1_migrations'",
  ).all<{ name: string; sql: string | null }>();
  const virtual = results.filter((t) => /create virtual table/i.test(t.sql ?? "")).map((t) => t.name);
  const shadow = (name: string) => virtual.some((v) => name.startsWith(`${v}_`));
  const tables = results.map((t) => t.name).filter((name) => !shadow(name));
  const rows: [string, Row[]][] = [];
  for (const table of tables.filter((t) => !virtual.includes(t))) {
    const found = (await env.DB.prepare(`select * from ${quote(table)}`).all<Row>()).results;
    if (found.length) rows.push([table, found]);
  }
  return { tables, rows };
}

async function emptyCache(): Promise<void> {
  forgetIsolateCopies();
  const { results } = await env.DB.prepare("select distinct tag from cache_tags").all<{ tag: string }>();
  for (let i = 0; i < results.length; i += 50) {
    await purgeTags(
      env,
      undefined,
      results.slice(i, i + 50).map((r) => r.tag),
    );
  }
}

async function emptyBucket(): Promise<void> {
  let cursor: string | undefined;
  do {
    const page = await env.IMAGES.list({ cursor, limit: 1000 });
    if (page.objects.length) await env.IMAGES.delete(page.objects.map((o) => o.key));
    cursor = page.truncated ? page.cursor : undefined;
  } while (cursor);
}

async function wipe(baseline: Baseline): Promise<void> {
  const statements = [
    // Children and parents go in one transaction, in any order: the keys are checked at its end.
    env.DB.prepare("pragma defer_foreign_keys = on"),
    ...baseline.tables.map((t) => env.DB.prepare(`delete from ${quote(t)}`)),
    env.DB.prepare("delete from sqlite_sequence where name <> 'd1_migrations'"),
  ];
  for (const [table, rows] of baseline.rows) {
    for (const row of rows) {
      const columns = Object.keys(row);
      statements.push(
        env.DB.prepare(
          `insert into ${quote(table)} (${columns.map(quote).join(", ")}) values (${columns.map(() => "?").join(", ")})`,
        ).bind(...columns.map((c) => row[c] ?? null)),
      );
    }
  }
  await env.DB.batch(statements);
}

const applied = await env.DB.prepare("select count(*) as n from sqlite_master where name = 'd1_migrations'").first<{
  n: number;
}>();
let baseline = store[KEY];
if (!applied?.n || !baseline) {
  // The first file in this runtime: the migrations, applied once, and what they leave is the baseline.
  await applyD1Migrations(env.DB, env.TEST_MIGRATIONS);
  baseline = store[KEY] = await describeSchema();
} else {
  await emptyCache();
  await wipe(baseline);
  await emptyBucket();
}

afterAll(() => {
  vi.restoreAllMocks();
  vi.useRealTimers();
  vi.unstubAllGlobals();
  vi.unstubAllEnvs();
});
