/** Whether an answer to this request should be JSON: the API, or a page's script that asked for it. */
export function wantsJson(request: Request): boolean {
  return (
    new URL(request.url).pathname.startsWith("/api/") ||
    (request.headers.get("Accept") ?? "").includes("application/json")
  );
}
