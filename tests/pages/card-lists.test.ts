import { beforeAll, describe, expect, it } from "vitest";
import { makeBlog, makeUser } from "../support/factories";
import { getPage } from "../support/pages";

/**
 * One card mapper: every list of posts sends each post as its card draws it
 * (app/lib/cards.ts), never the body. The lists' loader data goes out in the HTML and the .data
 * answers, so a post's body (blog_details) must not ride along on the home page, All Blogs, a writer's
 * page, the Profile or My Blogs.
 */
describe("post lists send cards, not bodies", () => {
  const BODY = "zq-body-only-words-5521 appear in the post page alone.";
  const TITLE = "Wombat card mapper notes";
  let writer: Awaited<ReturnType<typeof makeUser>>;
  let postId: string;

  beforeAll(async () => {
    writer = await makeUser({ name: "Card Writer" });
    postId = (await makeBlog(writer, { title: TITLE, blogDetails: BODY, category: "Travel" })).id;
  });

  it("keeps the body out of every list's HTML and .data answer", async () => {
    const lists: [string, typeof writer | null][] = [
      ["/", null],
      ["/_root.data", null],
      ["/allBlogs", null],
      ["/allBlogs.data", null],
      [`/writers/${writer.id}`, null],
      [`/writers/${writer.id}.data`, null],
      ["/Profile.data", writer],
      ["/dashboard/myBlog", writer],
      ["/dashboard/myBlog.data", writer],
    ];
    for (const [path, who] of lists) {
      const res = await getPage(path, who);
      expect(res.status, path).toBe(200);
      const text = await res.text();
      // The list really shows the post: its title is there, only the body is not.
      expect(text.includes(TITLE), path).toBe(true);
      expect(text.includes("zq-body-only-words-5521"), path).toBe(false);
    }
  });

  it("still shows the body on the post's own page", async () => {
    const post = await getPage(`/blogs/${postId}/wombat-card-mapper-notes`, null);
    expect(post.status).toBe(200);
    expect(await post.text()).toContain("zq-body-only-words-5521");
  });
});
