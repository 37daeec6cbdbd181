import { onTestFinished, vi } from "vitest";
import { generateEd25519, generateKeyPair } from "#worker/services/federation/keys.ts";
import { withProof } from "#worker/services/federation/proofs.ts";
import { signedRequest } from "#worker/services/federation/signatures.ts";
import type { FederationJob } from "#worker/services/federation/delivery.ts";
import type { Services } from "#worker/services/index.ts";

/**
 * The fediverse in a test: remote accounts with real key pairs, a stub of the one outbound edge
 * (fetch) that serves their actor documents and records what our Worker POSTs to their inboxes, and a
 * recording stand-in for the federation queue.
 */
export interface RemoteAccount {
  id: string;
  keyId: string;
  inbox: string;
  sharedInbox: string;
  doc: Record<string, unknown>;
  privateKeyPem: string;
  publicKeyPem: string;
  /** Its Ed25519 `assertionMethod` (published in `doc`): the key of its object integrity proofs. */
  edPrivateKeyPem: string;
  edPublicMultibase: string;
  /** The activity with this account's eddsa-jcs-2022 proof (FEP-8b32). */
  prove(activity: Record<string, unknown>): Promise<Record<string, unknown>>;
  /** A delivery to one of our inboxes, signed with this account's key (or `withKey`'s: a forgery). */
  deliver(path: string, activity: Record<string, unknown>, withKey?: string): Promise<Request>;
}

export async function remoteAccount(host: string, name: string): Promise<RemoteAccount> {
  const keys = await generateKeyPair();
  const ed = await generateEd25519();
  const id = `https://${host}/users/${name}`;
  const doc = {
    "@context": ["https://www.w3.org/ns/activitystreams", "https://w3id.org/security/v1"],
    id,
    type: "Person",
    preferredUsername: name,
    name: `${name[0]!.toUpperCase()}${name.slice(1)} Remote`,
    url: `https://${host}/@${name}`,
    icon: { type: "Image", url: `https://${host}/avatars/${name}.png` },
    inbox: `${id}/inbox`,
    endpoints: { sharedInbox: `https://${host}/inbox` },
    publicKey: { id: `${id}#main-key`, owner: id, publicKeyPem: keys.publicKeyPem },
    assertionMethod: [
      { id: `${id}#ed25519-key`, type: "Multikey", controller: id, publicKeyMultibase: ed.edPublicMultibase },
    ],
  };
  return {
    id,
    keyId: `${id}#main-key`,
    inbox: `${id}/inbox`,
    sharedInbox: `https://${host}/inbox`,
    doc,
    ...keys,
    ...ed,
    prove: (activity) => withProof(activity, `${id}#ed25519-key`, ed.edPrivateKeyPem),
    deliver: (path, activity, withKey) =>
      signedRequest(
        new URL(path, "https://blog.test").href,
        { method: "POST", body: JSON.stringify(activity) },
        `${id}#main-key`,
        withKey ?? keys.privateKeyPem,
      ),
  };
}

export interface Posted {
  url: string;
  body: Record<string, unknown>;
  request: Request;
}

/**
 * Stubs fetch: GETs of the accounts' documents are answered, POSTs recorded (202, or what `inboxStatus`
 * answers for that request); anything else 404.
 */
export function stubFediverse(
  accounts: RemoteAccount[],
  opts: {
    inboxStatus?: (request: Request) => number;
    /** Other documents served by URL (a note given by reference), or a status (410 for a gone actor). */
    documents?: Record<string, Record<string, unknown> | number>;
    /** URLs answered with a 302 to another URL (an open redirect on a server). */
    redirects?: Record<string, string>;
  } = {},
) {
  const posted: Posted[] = [];
  const fetched: string[] = [];
  const spy = vi.spyOn(globalThis, "fetch").mockImplementation(async (input, init) => {
    const request = new Request(input as RequestInfo, init as RequestInit);
    if (request.method === "POST") {
      const text = await request.clone().text();
      posted.push({ url: request.url, body: JSON.parse(text) as Record<string, unknown>, request });
      return new Response(null, { status: opts.inboxStatus?.(request) ?? 202 });
    }
    fetched.push(request.url);
    const url = new URL(request.url);
    if (url.pathname === "/.well-known/webfinger") {
      // acct:name@host names the account https://host/users/name.
      const acct = (url.searchParams.get("resource") ?? "").match(/^acct:([^@]+)@(.+)$/);
      const found = acct && accounts.find((a) => a.id === `https://${acct[2]}/users/${acct[1]}`);
      if (!found) return new Response("not found", { status: 404 });
      return Response.json({
        subject: url.searchParams.get("resource"),
        links: [{ rel: "self", type: "application/activity+json", href: found.id }],
      });
    }
    const redirect = opts.redirects?.[request.url.split("#")[0]!];
    if (redirect) return new Response(null, { status: 302, headers: { Location: redirect } });
    const extra = opts.documents?.[request.url.split("#")[0]!];
    if (typeof extra === "number") return new Response("gone", { status: extra });
    if (extra) return new Response(JSON.stringify(extra), { headers: { "Content-Type": "application/activity+json" } });
    const account = accounts.find((a) => a.id === request.url.split("#")[0]);
    if (!account) return new Response("not found", { status: 404 });
    return new Response(JSON.stringify(account.doc), { headers: { "Content-Type": "application/activity+json" } });
  });
  // Put back when the test ends, whatever happens in it (as tests/support/clock.ts does).
  onTestFinished(() => spy.mockRestore());
  return { posted, fetched, restore: () => spy.mockRestore() };
}

/** A stand-in for the federation queue's producer: it keeps what was sent. */
export function recordingFederationQueue() {
  const jobs: FederationJob[] = [];
  const binding = {
    async send(body: FederationJob) {
      jobs.push(structuredClone(body));
    },
    async sendBatch(messages: Iterable<MessageSendRequest<FederationJob>>) {
      for (const m of messages) jobs.push(structuredClone(m.body));
    },
  } as unknown as Queue<FederationJob>;
  return {
    binding,
    jobs,
    /** Runs every queued job (and those they queue) through `run`; answers the jobs run. */
    async drain(run: (job: FederationJob) => Promise<unknown>) {
      const done: FederationJob[] = [];
      while (jobs.length) {
        const job = jobs.shift()!;
        await run(job);
        done.push(job);
      }
      return done;
    },
  };
}

/**
 * A delivery taken as the inbox route takes it (verified, recorded, queued: `receive`), then its queued
 * job run as the federation queue's consumer runs it. Answers what the handler did, or what `receive`
 * answered when nothing was queued ("duplicate" for an activity seen before, "ignored").
 */
export async function receiveNow(
  services: Services,
  queue: { jobs: FederationJob[] },
  request: Request,
): Promise<string> {
  const accepted = await services.federation.inbox.receive(request);
  if (accepted !== "queued") return accepted;
  const at = queue.jobs.findIndex((job) => job.kind === "inbox");
  if (at < 0) throw new Error("the inbox queued nothing");
  const [job] = queue.jobs.splice(at, 1);
  return services.federation.runJob(job!);
}

/**
 * Waits until `check` holds (at most `ms`): what an inbox POST queued is acted on by the Worker's own
 * queue handler, which the local queue runs on its own time (max_batch_timeout, wrangler.toml).
 */
export async function eventually(check: () => Promise<boolean>, ms = 10_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`not so after ${ms} ms`);
    await new Promise((r) => setTimeout(r, 100));
  }
}
