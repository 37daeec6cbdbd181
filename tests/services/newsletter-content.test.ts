import { describe, expect, it } from "vitest";
import { Forbidden, ValidationError } from "#worker/services/shared/errors.ts";
import type { Actor } from "#worker/services/shared/policy.ts";
import { linkIn } from "../support/mail";
import { newsletterWorld, tag, type NewsletterWorld } from "../support/kernel";
import { confirmedSubscriber, newsletterPost, writerActor } from "../support/newsletter";

const address = () => `content-${tag()}@example.com`;

/** A post whose body has a heading, a paragraph, a relative image and link, and a script that must not survive. */
const BODY = [
  "## Field notes",
  "",
  "The river rose two metres overnight.",
  "",
  "![The map](/images/map-0001.png)",
  "",
  "See [the earlier post](/blogs/abc) and [the notes](#notes).",
  "",
  "<script>alert('mail')</script>",
].join("\n");

/** Publishes a post to one fresh confirmed subscriber and answers the newsletter message it got. */
async function mailedPost(w: NewsletterWorld, extra: Record<string, unknown> = {}) {
  const email = address();
  await confirmedSubscriber(email);
  await w.services().blogs.create(await writerActor(), newsletterPost({ blog_details: BODY, ...extra }));
  await w.queue.drain(w.env);
  const [message] = w.box.to(email);
  expect(message, "the subscriber got the post").toBeDefined();
  return message!;
}

async function setDefault(w: NewsletterWorld, content: string) {
  const admin: Actor = { ...(await writerActor()), role: "admin" };
  await w.services().newsletter.setContentDefault(admin, { content });
  expect(await w.services().newsletter.contentDefault(admin)).toBe(content);
}

function expectTeaser(message: EmailMessageBuilder) {
  expect(message.text).toContain("What happened this week.");
  expect(message.text).toContain("Read the post:");
  for (const part of [message.html ?? "", message.text ?? ""]) {
    expect(part).not.toContain("Field notes");
    expect(part).not.toContain("The river rose");
  }
}

function expectWholePost(message: EmailMessageBuilder) {
  const html = message.html ?? "";
  expect(html).toContain('<h2 dir="auto">Field notes</h2>');
  expect(html).toContain('<p dir="auto">The river rose two metres overnight.</p>');
  // Mail clients have no base URL: the post's relative image and links are absolute on the site's origin.
  expect(html).toContain('src="https://blog.test/images/map-0001.png"');
  expect(html).toContain('href="https://blog.test/blogs/abc"');
  expect(html).toMatch(/href="https:\/\/blog\.test\/blogs\/[^"#]+#notes"/);
  expect(html).not.toContain('src="/images/map-0001.png"');
  expect(html).not.toMatch(/<script/i);
  // The text part reads as text, with the same absolute URLs.
  const text = message.text ?? "";
  expect(text).toContain("Field notes");
  expect(text).toContain("The river rose two metres overnight.");
  expect(text).toContain("https://blog.test/images/map-0001.png");
  expect(text).toContain("the earlier post (https://blog.test/blogs/abc)");
  expect(text).not.toContain("<h2>");
  // Still the link to the post, the unsubscribe link and the one-click headers.
  expect(text).toContain("Read it on the site:");
  const unsubscribe = linkIn(message, "/newsletter/unsubscribe");
  const headers = (message as unknown as { headers: Record<string, string> }).headers;
  expect(headers["List-Unsubscribe"]).toBe(`<${unsubscribe.href}>`);
  expect(headers["List-Unsubscribe-Post"]).toBe("List-Unsubscribe=One-Click");
}

describe("newsletter: the teaser or the whole post", () => {
  it("mails the teaser by default; once the admin chooses the whole post, a new post mails its whole body", async () => {
    const w = newsletterWorld();
    const admin: Actor = { ...(await writerActor()), role: "admin" };
    expect(await w.services().newsletter.contentDefault(admin)).toBe("teaser");
    expectTeaser(await mailedPost(w));

    await setDefault(w, "full");
    expectWholePost(await mailedPost(w));
    await setDefault(w, "teaser");
  });

  it("a post's own choice wins over the site's default, either way", async () => {
    const w = newsletterWorld();
    await setDefault(w, "full");
    expectTeaser(await mailedPost(w, { newsletter_content: "teaser" }));
    expectWholePost(await mailedPost(w, { newsletter_content: "" }));

    await setDefault(w, "teaser");
    expectWholePost(await mailedPost(w, { newsletter_content: "full" }));
    expectTeaser(await mailedPost(w, { newsletter_content: "" }));
  });

  it("only an admin sets the default, and only to one of its values", async () => {
    const w = newsletterWorld();
    const writer = await writerActor();
    await expect(w.services().newsletter.setContentDefault(writer, { content: "full" })).rejects.toBeInstanceOf(
      Forbidden,
    );
    const admin: Actor = { ...writer, role: "admin" };
    for (const content of ["everything", "", null, 1]) {
      const err = await w
        .services()
        .newsletter.setContentDefault(admin, { content })
        .catch((e: unknown) => e);
      expect(err, String(content)).toBeInstanceOf(ValidationError);
      expect(Object.keys((err as ValidationError).fields)).toEqual(["content"]);
    }
    expect(await w.services().newsletter.contentDefault(admin)).toBe("teaser");
  });
});
