import { describe, expect, it } from "vitest";
import { makeUser } from "../support/factories";
import { getPage, postForm } from "../support/pages";

const wxr = (site: string) =>
  `<?xml version="1.0" encoding="UTF-8"?><rss version="2.0" xmlns:content="http://purl.org/rss/1.0/modules/content/" ` +
  `xmlns:wp="http://wordpress.org/export/1.2/"><channel><title>x</title><wp:base_site_url>https://${site}</wp:base_site_url>` +
  `<item><title>One</title><content:encoded><![CDATA[<p>Hi.</p>]]></content:encoded><wp:post_id>1</wp:post_id>` +
  `<wp:status>publish</wp:status><wp:post_type>post</wp:post_type><category domain="category"><![CDATA[Voyages]]></category></item></channel></rss>`;

describe("the import screens", () => {
  it("preselect no fallback category, and list recent imports in words", async () => {
    const admin = await makeUser({ role: "admin", email: `admin-${crypto.randomUUID()}@example.com` });
    const upload = await postForm(
      "/dashboard/import?upload=site",
      admin,
      {},
      { file: new File([wxr(`screens-${crypto.randomUUID().slice(0, 6)}.example`)], "site.xml") },
    );
    expect(upload.status).toBe(302);
    const html = await (await getPage(upload.headers.get("location")!, admin)).text();
    const select = /<select name="default_category"[\s\S]*?<\/select>/.exec(html)![0];
    expect(select).toContain("required");
    expect(select).not.toMatch(/<option[^>]*selected[^>]*>(?!Choose)/);
    expect(select).toMatch(/<option value="" disabled="" selected="">Choose a category<\/option>/);
    const text = html.replace(/<!-- -->/g, "");
    // A preview has read nothing yet: no "0 of 1 done" (issue 47).
    expect(text).toContain("Waiting for you to start it · ");
    expect(text).not.toMatch(/Waiting for you to start it · \d+ of/);
    expect(text).not.toMatch(/>preview · /);
  });
});
