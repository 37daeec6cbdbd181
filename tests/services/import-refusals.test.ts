import { env } from "cloudflare:workers";
import { zipSync } from "fflate";
import { describe, expect, it } from "vitest";
import { IMPORT_ERRORS } from "#worker/services/import/archive.ts";
import { DomainError } from "#worker/services/shared/errors.ts";
import { makeUser } from "../support/factories";
import { fileOf, importHarness } from "../support/imports";

const rows = async () => {
  const r = await env.DB.batch([
    env.DB.prepare("select count(*) as n from import_jobs"),
    env.DB.prepare("select count(*) as n from import_items"),
    env.DB.prepare("select count(*) as n from blogs"),
    env.DB.prepare("select count(*) as n from users"),
  ]);
  return r.map((x) => (x.results[0] as { n: number }).n);
};

const wxr = (body: string) =>
  `<?xml version="1.0"?>${body}<rss><channel><title>x</title><item><title>&lol;</title><wp:post_type>post</wp:post_type><wp:status>publish</wp:status></item></channel></rss>`;

describe("bad files are refused with a clear message and change nothing", () => {
  const cases: [string, () => File, string][] = [
    ["neither XML, JSON nor a zip", () => fileOf("just some text, not an export", "notes.txt"), IMPORT_ERRORS.unknown],
    ["XML that is not well formed", () => fileOf("<rss><channel><item></channel>", "broken.xml"), IMPORT_ERRORS.notXml],
    [
      "an XML entity bomb",
      () =>
        fileOf(
          wxr(
            `<!DOCTYPE lolz [<!ENTITY lol "lol"><!ENTITY lol2 "&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;"><!ENTITY lol3 "&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;">]>`,
          ),
          "bomb.xml",
        ),
      IMPORT_ERRORS.entities,
    ],
    [
      "XML with an external entity",
      () => fileOf(wxr(`<!DOCTYPE foo [<!ENTITY xxe SYSTEM "file:///etc/passwd">]>`), "xxe.xml"),
      IMPORT_ERRORS.entities,
    ],
    [
      "a zip bomb",
      () => fileOf(zipSync({ "posts/a.html": new Uint8Array(20 * 1024 * 1024) }, { level: 9 }), "bomb.zip"),
      IMPORT_ERRORS.bomb,
    ],
    [
      "a path traversal inside a zip",
      () =>
        fileOf(
          zipSync({ "../../etc/evil.html": new TextEncoder().encode("<p>x</p>"), "posts.csv": new Uint8Array(1) }),
          "evil.zip",
        ),
      IMPORT_ERRORS.traversal,
    ],
    [
      "a broken zip",
      () => fileOf(new Uint8Array([0x50, 0x4b, 0x03, 0x04, 1, 2, 3, 4, 5]), "broken.zip"),
      IMPORT_ERRORS.notZip,
    ],
    ["a file over the size limit", () => fileOf(new Uint8Array(41 * 1024 * 1024), "huge.xml"), IMPORT_ERRORS.tooLarge],
    ["JSON that is not a Ghost export", () => fileOf('{"hello": "world"}', "x.json"), "not a Ghost export"],
    ["an empty file", () => fileOf("", "empty.xml"), IMPORT_ERRORS.empty],
  ];

  for (const [what, file, message] of cases)
    it(`refuses ${what}`, async () => {
      const u = await makeUser({ role: "admin" });
      const admin = { id: u.id, name: u.name, email: u.email, role: "admin" as const, photoURL: null };
      const before = await rows();
      const h = importHarness();
      const error = await h
        .services()
        .imports.start(admin, file(), "site")
        .then(
          () => null,
          (e: unknown) => e,
        );
      expect(error).toBeInstanceOf(DomainError);
      expect((error as DomainError).message).toContain(message);
      expect(["invalid", "too-large", "unsupported-type"]).toContain((error as DomainError).kind);
      expect(await rows()).toEqual(before);
    }, 30_000);
});

describe("images on private addresses", () => {
  it("are never fetched: the post keeps a placeholder and the report says why", async () => {
    const u = await makeUser({ role: "admin" });
    const admin = { id: u.id, name: u.name, email: u.email, role: "admin" as const, photoURL: null };
    const hosts = [
      "http://127.0.0.1/a.png",
      "http://10.0.0.8/b.png",
      "http://[::1]/c.png",
      "http://localhost/d.png",
      "http://169.254.169.254/e.png",
    ];
    const body = hosts.map((src) => `<img src="${src}" alt="x">`).join("");
    const file = `<?xml version="1.0"?><rss xmlns:content="http://purl.org/rss/1.0/modules/content/" xmlns:wp="http://wordpress.org/export/1.2/"><channel><link>https://private.example</link>
<item><title>Private images</title><content:encoded><![CDATA[<p>Hi</p>${body}]]></content:encoded><wp:post_id>1</wp:post_id><wp:status>publish</wp:status><wp:post_type>post</wp:post_type></item></channel></rss>`;
    const calls: string[] = [];
    const original = globalThis.fetch;
    globalThis.fetch = (async (input: RequestInfo | URL) => {
      calls.push(String(input));
      return new Response("no");
    }) as typeof fetch;
    try {
      const { view } = await importHarness().importFile(admin, fileOf(file, "private.xml"));
      expect(view.job.imagesFailed).toBe(hosts.length);
      const failed = view.report.items[0]!.note.failedImages as { url: string; reason: string }[];
      expect(failed.map((f) => f.reason)).toEqual(hosts.map(() => "a private or loopback address"));
      expect(calls).toEqual([]);
    } finally {
      globalThis.fetch = original;
    }
  });
});
