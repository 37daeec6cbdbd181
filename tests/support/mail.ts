import { createExecutionContext, waitOnExecutionContext } from "cloudflare:test";
import { env } from "cloudflare:workers";
import worker from "#worker/index.ts";

/**
 * A stand-in for the Email Service binding (the one outbound edge mail crosses): it keeps what it
 * was asked to send, or fails like a service that is down.
 */
export function mailbox() {
  const sent: EmailMessageBuilder[] = [];
  let failure: string | null = null;
  const binding = {
    async send(message: EmailMessageBuilder | EmailMessage) {
      if (failure) throw new Error(failure);
      sent.push(message as EmailMessageBuilder);
      return { messageId: `<${sent.length}@test>` };
    },
  } as unknown as SendEmail;
  return {
    binding,
    sent,
    /** The Worker's env with this mailbox as its EMAIL binding. */
    env: (overrides: Partial<Cloudflare.Env> = {}): Cloudflare.Env => ({ ...env, EMAIL: binding, ...overrides }),
    fail(message = "Email Service unavailable") {
      failure = message;
    },
    recover() {
      failure = null;
    },
    /** Messages sent to one address, oldest first. */
    to(address: string) {
      return sent.filter((m) => m.to === address);
    },
  };
}

export type Mailbox = ReturnType<typeof mailbox>;

/** The first absolute URL in a message's text part whose path is `path`. */
export function linkIn(message: EmailMessageBuilder | undefined, path: string): URL {
  const urls = (message?.text ?? "").match(/https?:\/\/\S+/g) ?? [];
  const found = urls.map((u) => new URL(u)).find((u) => u.pathname === path);
  if (!found) throw new Error(`no ${path} link in: ${message?.text ?? "(no message)"}`);
  return found;
}

let clients = 0;
/** A client address of its own for each request (a test that means one client passes CF-Connecting-IP). */
const nextClient = () => `10.${(clients >> 16) & 255}.${(clients >> 8) & 255}.${clients++ & 255}`;

/**
 * Sends a request through the real Worker entry with another env (a mailbox as its EMAIL, say). Each
 * request comes from its own client address unless the test sets CF-Connecting-IP: per-client limits
 * only meet the tests about them.
 */
export async function callWith(workerEnv: Cloudflare.Env, path: string, init: RequestInit = {}): Promise<Response> {
  const ctx = createExecutionContext();
  const headers = new Headers(init.headers);
  if (!headers.has("CF-Connecting-IP")) headers.set("CF-Connecting-IP", nextClient());
  const res = await worker.fetch(
    new Request(new URL(path, "https://blog.test"), { redirect: "manual", ...init, headers }) as Request<
      unknown,
      IncomingRequestCfProperties
    >,
    workerEnv,
    ctx,
  );
  await waitOnExecutionContext(ctx);
  return res;
}

/** A JSON request through the real Worker entry with another env. */
export function sendWith(
  workerEnv: Cloudflare.Env,
  method: string,
  path: string,
  body: unknown,
  headers: Record<string, string> = {},
): Promise<Response> {
  return callWith(workerEnv, path, {
    method,
    headers: { "Content-Type": "application/json", ...headers },
    body: JSON.stringify(body),
  });
}
