import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { createServices } from "#worker/services/index.ts";
import type { Actor } from "#worker/services/shared/policy.ts";
import { makeUser } from "../support/factories";
import { recordingFederationQueue, remoteAccount, receiveNow, stubFediverse } from "../support/fediverse";

/**
 * What a JSON-LD reader (Fedify expands every document) sees of ours: every property and type we write
 * must be a term one of the document's contexts defines, or expansion drops it (the activitystreams
 * context maps unknown names to blank nodes through `"@vocab": "_:"`), and a dropped `assertionMethod`
 * means no Multikey, so no proof of ours verifies there.
 *
 * The term lists below are those of the published context documents (only the terms that matter here,
 * as their documents define them at the top level, and inside a type's scoped context).
 */
const AS_TERMS = [
  "id",
  "type",
  "Accept",
  "Announce",
  "Article",
  "Create",
  "Delete",
  "Follow",
  "Image",
  "Note",
  "Organization",
  "Person",
  "Tombstone",
  "Undo",
  "Update",
  "actor",
  "attachment",
  "attributedTo",
  "cc",
  "content",
  "endpoints",
  "followers",
  "following",
  "href",
  "icon",
  "image",
  "inReplyTo",
  "inbox",
  "mediaType",
  "name",
  "object",
  "outbox",
  "preferredUsername",
  "preview",
  "published",
  "sharedInbox",
  "summary",
  "tag",
  "to",
  "updated",
  "url",
];
/** https://w3id.org/security/v1 (a JSON-LD 1.0 context, nothing scoped). */
const SECURITY_V1_TERMS = ["publicKey", "owner", "publicKeyPem", "created", "expires", "signature"];
/** https://w3id.org/security/multikey/v1: `controller` and `publicKeyMultibase` only inside a Multikey. */
const MULTIKEY_V1 = {
  top: ["id", "type", "Multikey"],
  scoped: { Multikey: ["id", "type", "controller", "revoked", "expires", "publicKeyMultibase", "secretKeyMultibase"] },
};
/** https://w3id.org/security/data-integrity/v1: `proof`, and the proof's own terms inside a DataIntegrityProof. */
const DATA_INTEGRITY_V1 = {
  top: ["id", "type", "proof", "DataIntegrityProof"],
  scoped: {
    DataIntegrityProof: [
      "id",
      "type",
      "challenge",
      "created",
      "domain",
      "expires",
      "nonce",
      "previousProof",
      "proofPurpose",
      "cryptosuite",
      "proofValue",
      "verificationMethod",
    ],
  },
};
const DOCUMENTS: Record<string, { top: string[]; scoped?: Record<string, string[]> }> = {
  "https://www.w3.org/ns/activitystreams": { top: AS_TERMS },
  "https://w3id.org/security/v1": { top: SECURITY_V1_TERMS },
  "https://w3id.org/security/multikey/v1": MULTIKEY_V1,
  "https://w3id.org/security/data-integrity/v1": DATA_INTEGRITY_V1,
};

type Terms = { top: Set<string>; scoped: Map<string, Set<string>> };

/** The terms a `@context` value defines (remote documents by the lists above, inline objects by their keys). */
function termsOf(context: unknown, into: Terms = { top: new Set(), scoped: new Map() }): Terms {
  for (const entry of [context].flat()) {
    if (typeof entry === "string") {
      const doc = DOCUMENTS[entry];
      if (!doc) throw new Error(`a context this test does not know: ${entry}`);
      doc.top.forEach((t) => into.top.add(t));
      for (const [type, terms] of Object.entries(doc.scoped ?? {})) into.scoped.set(type, new Set(terms));
    } else if (entry && typeof entry === "object") {
      for (const key of Object.keys(entry)) if (!key.startsWith("@")) into.top.add(key);
    }
  }
  return into;
}

/** Every key (and type name) of a document that no context defines, as paths. */
function undefinedTerms(node: unknown, terms: Terms, path = "$"): string[] {
  if (Array.isArray(node)) return node.flatMap((item, i) => undefinedTerms(item, terms, `${path}[${i}]`));
  if (!node || typeof node !== "object") return [];
  const record = node as Record<string, unknown>;
  const local = record["@context"] !== undefined ? termsOf(record["@context"], cloneTerms(terms)) : terms;
  const types = [record.type].flat().filter((t): t is string => typeof t === "string");
  const here = new Set(local.top);
  for (const type of types) local.scoped.get(type)?.forEach((t) => here.add(t));
  const missing: string[] = [];
  for (const type of types) if (!here.has(type) && !type.includes(":")) missing.push(`${path}.type=${type}`);
  for (const [key, value] of Object.entries(record)) {
    if (key.startsWith("@")) continue;
    if (!here.has(key) && !key.includes(":")) missing.push(`${path}.${key}`);
    missing.push(...undefinedTerms(value, local, `${path}.${key}`));
  }
  return missing;
}

function cloneTerms(terms: Terms): Terms {
  return { top: new Set(terms.top), scoped: new Map(terms.scoped) };
}

const check = (doc: Record<string, unknown>) => undefinedTerms(doc, termsOf(doc["@context"]));

describe("our documents as a JSON-LD reader sees them", () => {
  it("the actor's publicKey, assertionMethod, Multikey, controller and publicKeyMultibase are all defined terms", async () => {
    const user = await makeUser({ name: `Ada ${Date.now().toString(36)}` });
    const services = createServices(env, undefined, "https://blog.test");
    const doc = await services.federation.actorDocument(user.id);
    expect(doc.assertionMethod).toBeDefined();
    expect(check(doc)).toEqual([]);
    const terms = termsOf(doc["@context"]);
    expect(terms.top.has("assertionMethod")).toBe(true);
    // And it means what did/v1 (which Fedify reads it by) means.
    const inline = [doc["@context"]].flat().find((c) => c && typeof c === "object") as Record<string, unknown>;
    expect(inline.assertionMethod).toEqual({
      "@id": "https://w3id.org/security#assertionMethod",
      "@type": "@id",
      "@container": "@set",
    });
  });

  it("an outgoing activity with a proof names data-integrity/v1, so `proof` and its terms are defined", async () => {
    const queue = recordingFederationQueue();
    const services = createServices(
      { ...env, FEDERATION_QUEUE: queue.binding } as never,
      undefined,
      "https://blog.test",
    );
    const u = await makeUser({ name: `Ada ${Date.now().toString(36)}` });
    const actor: Actor = { id: u.id, name: u.name, email: u.email, role: "user", photoURL: null };
    const bob = await remoteAccount(`j${Date.now().toString(36)}.example`, "bob");
    const stub = stubFediverse([bob]);
    const follow = {
      "@context": "https://www.w3.org/ns/activitystreams",
      id: `${bob.id}/follows/1`,
      type: "Follow",
      actor: bob.id,
      object: `https://blog.test/ap/users/${u.id}`,
    };
    await services.federation.actors.writer(u.id);
    expect(await receiveNow(services, queue, await bob.deliver("/ap/inbox", follow))).toBe("followed");
    await services.blogs.create(actor, {
      title: "Terms",
      short_description: "Every term defined.",
      blog_details: "The body.",
      category: "Technology",
      date_time: "2026-11-20T10:00:00.000Z",
      image: "/images/cover-0001.png",
    });
    await queue.drain((job) => services.federation.runJob(job));
    const sent = stub.posted.map((p) => p.body);
    expect(sent.map((b) => b.type).sort()).toEqual(["Accept", "Create"]);
    for (const body of sent) {
      expect(body.proof).toMatchObject({ type: "DataIntegrityProof", cryptosuite: "eddsa-jcs-2022" });
      expect([body["@context"]].flat()).toContain("https://w3id.org/security/data-integrity/v1");
      expect(check(body)).toEqual([]);
    }
  });
});
