/**
 * The one logger: every line, from the Worker, its services and the pages alike, is one JSON object
 * `{level, msg, ...fields}`, with `error` (and `cause`) when a failure is logged. Workers Logs and
 * `wrangler tail` index its fields; nothing else in app/ or worker/ calls console directly.
 */
export type LogLevel = "info" | "warn" | "error";

export interface LogLine {
  level: LogLevel;
  msg: string;
  [field: string]: unknown;
}

/** What a thrown value says in a log line: its text, its cause's, and its stack for an Error. */
function describe(err: unknown): Record<string, string | undefined> {
  if (!(err instanceof Error)) return { error: String(err) };
  return { error: String(err), cause: err.cause === undefined ? undefined : String(err.cause), stack: err.stack };
}

/** Writes one line. Pass `err` for a failure: its text goes into `error` (and `cause`, `stack`). */
export function log(level: LogLevel, msg: string, fields: Record<string, unknown> = {}, err?: unknown): LogLine {
  const line: LogLine = { level, msg, ...fields, ...(err === undefined ? {} : describe(err)) };
  const write = level === "error" ? console.error : level === "warn" ? console.warn : console.log;
  write(JSON.stringify(line));
  return line;
}

/** A failure: `logError("mail: deliver failed", err, { id })`. */
export const logError = (msg: string, err: unknown, fields: Record<string, unknown> = {}) =>
  log("error", msg, fields, err);
