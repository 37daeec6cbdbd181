import { afterEach, describe, expect, it, vi } from "vitest";
import { log, logError } from "#worker/log.ts";

/** One logger writes one JSON shape: `{level, msg, ...fields}`, with the failure's text. */
describe("worker/log.ts", () => {
  afterEach(() => vi.restoreAllMocks());

  it("writes a failure as one JSON line with its level, message, fields, error and cause", () => {
    const error = vi.spyOn(console, "error").mockImplementation(() => {});
    logError("mail: deliver failed", new Error("refused", { cause: "quota" }), { outbox: "o1" });
    expect(error).toHaveBeenCalledTimes(1);
    const line = JSON.parse(String(error.mock.calls[0]![0]));
    expect(line).toMatchObject({
      level: "error",
      msg: "mail: deliver failed",
      outbox: "o1",
      error: "Error: refused",
      cause: "quota",
    });
  });

  it("writes info to console.log and warnings to console.warn, in the same shape", () => {
    const info = vi.spyOn(console, "log").mockImplementation(() => {});
    const warn = vi.spyOn(console, "warn").mockImplementation(() => {});
    log("info", "request", { status: 200 });
    log("warn", "mail: not sent", { attempt: 2 }, "timeout");
    expect(JSON.parse(String(info.mock.calls[0]![0]))).toEqual({ level: "info", msg: "request", status: 200 });
    expect(JSON.parse(String(warn.mock.calls[0]![0]))).toEqual({
      level: "warn",
      msg: "mail: not sent",
      attempt: 2,
      error: "timeout",
    });
  });
});
