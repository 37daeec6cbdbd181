import { env } from "cloudflare:workers";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { schema } from "#worker/db.ts";
import { createBlogService } from "#worker/services/blogs/service.ts";
import { countingD1 } from "../support/d1-counter";
import { db, makeBlog, makeUser } from "../support/factories";
import { flashOf } from "../support/flash";
import { call } from "../support/http";
import { cookieFor, getPage, pngFile, postForm, type Who } from "../support/pages";
import { postPath } from "#worker/services/blogs/slug.ts";
import { testKernel } from "../support/kernel";

const png = () => pngFile("cover.png");
const notAnImage = () => new File(["just some text"], "cover.png", { type: "image/png" });
/** What a browser sends for a file input left empty. */
const noFile = () => new File([], "", { type: "application/octet-stream" });

const post = (path: string, who: Who, fields: Record<string, string>, image?: File) =>
  postForm(path, who, fields, image ? { image } : {});
const get = getPage;

const imagesOf = (userId: string) => db().select().from(schema.images).where(eq(schema.images.ownerId, userId));
const blogsOf = (userId: string) => db().select().from(schema.blogs).where(eq(schema.blogs.authorId, userId));
const blogRow = (id: string) => db().query.blogs.findFirst({ where: eq(schema.blogs.id, id) });

const validPost = (title: string) => ({
  title,
  category: "Travel",
  date_time: "2026-11-21T10:30",
  tz: "+02:00",
  short_description: "A weekend with one small bag.",
  blog_details: "Packing light changes how you travel.",
});

describe("dashboard guards", () => {
  const pages = [
    "/dashboard",
    "/dashboard/writeBlogs",
    "/dashboard/myBlog",
    "/dashboard/manageBlogs",
    "/dashboard/feedback",
    "/dashboard/updateBlog/abcdefghij0123456789",
  ];

  for (const path of pages) {
    it(`sends a visitor from ${path} to /login carrying the path`, async () => {
      const res = await get(path, null);
      expect(res.status).toBe(302);
      expect(res.headers.get("Location")).toBe(`/login?redirectTo=${encodeURIComponent(path)}`);
    });
  }

  it("refuses a visitor's post to every writer action and stores nothing", async () => {
    const before = await db().select().from(schema.blogs);
    for (const path of ["/dashboard/writeBlogs", "/dashboard/feedback", "/dashboard/manageBlogs"]) {
      const res = await post(
        path,
        null,
        {
          ...validPost("Visitor post"),
          intent: "delete",
          id: before[0]?.id ?? "x",
          name: "V",
          designation: "D",
          review: "R",
        },
        png(),
      );
      expect(res.status).toBe(302);
      expect(res.headers.get("Location")).toBe(`/login?redirectTo=${encodeURIComponent(path)}`);
    }
    expect(await db().select().from(schema.blogs)).toHaveLength(before.length);
  });
});

describe("dashboard layout", () => {
  it("shows the writer menu, exactly the spec's four links, with the current page marked", async () => {
    const writer = await makeUser();
    const html = await (await get("/dashboard/writeBlogs", writer)).text();
    const nav = html.slice(html.indexOf('aria-label="Dashboard"'));
    for (const [href, label] of [
      ["/dashboard/writeBlogs", "Write Blogs"],
      ["/dashboard/manageBlogs", "Manage Blogs"],
      ["/dashboard/feedback", "Send Feedback"],
      ["/", "Home"],
    ]) {
      expect(nav).toMatch(new RegExp(`href="${href}"[^>]*>.*?${label}</a>`));
    }
    expect(html).toMatch(
      /aria-current="page"[^>]*href="\/dashboard\/writeBlogs"|href="\/dashboard\/writeBlogs"[^>]*aria-current="page"/,
    );
    for (const admin of ["Add Author", "Manage Users", "Manage Review", "Manage Authors"])
      expect(html).not.toContain(`${admin}</a>`);
    // The phone menu is a <details> button, so it collapses without JavaScript.
    expect(html).toMatch(/<details[^>]*>\s*<summary[^>]*>.*Dashboard menu/s);
  });

  it("shows the admin menu to an admin", async () => {
    const admin = await makeUser({ role: "admin" });
    const page = await (await get("/dashboard", admin)).text();
    const html = page.slice(
      page.indexOf('aria-label="Dashboard"'),
      page.indexOf("</nav>", page.indexOf('aria-label="Dashboard"')),
    );
    for (const [href, label] of [
      ["/dashboard/addAuthor", "Add Author"],
      ["/dashboard/manageUsers", "Manage Users"],
      ["/dashboard/manageAllBlogs", "Manage Blogs"],
      ["/dashboard/manageReview", "Manage Review"],
      ["/dashboard/manageAuthors", "Manage Authors"],
    ]) {
      // (Manage Review may carry the number of pending reviews after its label.)
      expect(html).toMatch(new RegExp(`href="${href}"[^>]*>.*?${label}.*?</a>`));
    }
    expect(html).not.toContain('href="/dashboard/feedback"');
  });

  it("the overview counts the person's own posts and links to them", async () => {
    const writer = await makeUser();
    const other = await makeUser();
    await makeBlog(writer, { title: "Overview one" });
    await makeBlog(writer, { title: "Overview two" });
    await makeBlog(other, { title: "Someone else's overview" });
    const html = await (await get("/dashboard", writer)).text();
    expect(html).toMatch(/data-testid="post-count"[^>]*>2</);
    expect(html).toContain("Overview one");
    expect(html).not.toContain("Someone else&#x27;s overview");
    expect(html).toContain('href="/dashboard/myBlog"');
  });
});

describe("/dashboard/writeBlogs", () => {
  it("posts a blog as the signed-in writer, whatever the form says about the writer, and stores the image", async () => {
    const writer = await makeUser({ name: "Jo Writer" });
    const res = await post(
      "/dashboard/writeBlogs",
      writer,
      { ...validPost("Light travel"), author_name: "Someone Else", email: "someone@else.test" },
      png(),
    );
    expect(res.status).toBe(302);
    expect(res.headers.get("Location")).toBe("/dashboard/myBlog");
    expect(flashOf(res)).toMatchObject({ kind: "toast", title: "Blog Posted Successfully!" });

    const [blog] = await blogsOf(writer.id);
    expect(blog).toMatchObject({
      title: "Light travel",
      authorName: "Jo Writer",
      email: writer.email,
      likes: 0,
      category: "Travel",
    });
    // 10:30 at +02:00 is 08:30 UTC: the writer's own zone is kept.
    expect(blog?.dateTime).toBe("2026-11-21T08:30:00.000Z");
    const [image] = await imagesOf(writer.id);
    expect(blog?.image).toBe(`/images/${image?.key}`);
    expect(image?.expiresAt).toBeNull();
    expect(await env.IMAGES.head(image!.key)).not.toBeNull();
  });

  it("refuses missing fields beside each field, keeps what was typed, and uploads nothing", async () => {
    const writer = await makeUser();
    const res = await post(
      "/dashboard/writeBlogs",
      writer,
      { ...validPost("   "), category: "", blog_details: "Kept <b>details</b>" },
      png(),
    );
    expect(res.status).toBe(400);
    const html = await res.text();
    expect(html).toContain("Title is required.");
    expect(html).toContain("Category is required.");
    expect(html).toContain("A weekend with one small bag.");
    expect(html).toContain("Kept &lt;b&gt;details&lt;/b&gt;");
    expect(html).toContain('value="2026-11-21T10:30"');
    expect(await imagesOf(writer.id)).toHaveLength(0);
    expect(await blogsOf(writer.id)).toHaveLength(0);
  });

  it("requires the image, and says so beside the field", async () => {
    const writer = await makeUser();
    const res = await post("/dashboard/writeBlogs", writer, validPost("No picture"), noFile());
    expect(res.status).toBe(400);
    expect(await res.text()).toContain("Image is required.");
    expect(await blogsOf(writer.id)).toHaveLength(0);
  });

  it("refuses a file that is not an image with 'Image upload failed' and keeps the text", async () => {
    const writer = await makeUser();
    const res = await post("/dashboard/writeBlogs", writer, validPost("Disguised"), notAnImage());
    expect(res.status).toBe(400);
    const html = await res.text();
    expect(html).toContain("Image upload failed: Only JPEG, PNG, WebP, GIF and AVIF images are accepted.");
    expect(html).toContain('value="Disguised"');
    expect(await blogsOf(writer.id)).toHaveLength(0);
    expect(await imagesOf(writer.id)).toHaveLength(0);
  });

  it("answers a body that is not a form with 400, not 500", async () => {
    const writer = await makeUser();
    const res = await call("/dashboard/writeBlogs", {
      method: "POST",
      headers: {
        "Content-Type": "multipart/form-data; boundary=nope",
        Accept: "text/html",
        ...(await cookieFor(writer)),
      },
      body: "garbage",
      redirect: "manual",
    });
    expect(res.status).toBe(400);
  });
});

describe("/dashboard/myBlog and /dashboard/manageBlogs", () => {
  it("lists only the person's own blogs, 3 a page, each linking to its post", async () => {
    const writer = await makeUser();
    const other = await makeUser();
    const mine = [];
    for (let i = 0; i < 4; i++)
      mine.push(await makeBlog(writer, { title: `Mine ${i}`, dateTime: `2026-01-0${i + 1}T10:00:00.000Z` }));
    await makeBlog(other, { title: "Not mine" });

    const first = await (await get("/dashboard/myBlog", writer)).text();
    for (const i of [3, 2, 1]) expect(first).toContain(`href="${postPath(mine[i]!)}"`);
    expect(first).not.toContain(mine[0]!.id);
    expect(first).not.toContain("Not mine");
    expect(first).toMatch(/aria-current="page"[^>]*>1</);

    const second = await (await get("/dashboard/myBlog?page=2", writer)).text();
    expect(second).toContain(`href="${postPath(mine[0]!)}"`);
    expect(second).not.toContain(mine[3]!.id);
  });

  it("says how many posts are published, drafts and later schedules not counted", async () => {
    const writer = await makeUser();
    for (let i = 0; i < 3; i++) await makeBlog(writer);
    await makeBlog(writer, { status: "draft" });
    await makeBlog(writer, { status: "scheduled", publishAt: Date.now() + 24 * 60 * 60 * 1000 });
    const html = await (await get("/dashboard/myBlog", writer)).text();
    expect(html).toContain("You have published 3 posts.");
  });

  it("shows the table with the spec's columns and Edit links", async () => {
    const writer = await makeUser({ name: "Table Writer" });
    const blog = await makeBlog(writer, { title: "In the table" });
    await makeBlog(await makeUser(), { title: "Not in my table" });
    const html = await (await get("/dashboard/manageBlogs", writer)).text();
    for (const column of ["#", "Name", "Email", "Title", "Edit", "Delete"])
      expect(html).toContain(`<th scope="col" class="px-3 py-3">${column}</th>`);
    expect(html).toContain("In the table");
    expect(html).toContain(writer.email);
    expect(html).toContain(`href="/dashboard/updateBlog/${blog.id}"`);
    expect(html).not.toContain("Not in my table");
  });

  it("deletes the owner's blog with the spec's Deleted! message", async () => {
    const writer = await makeUser();
    const blog = await makeBlog(writer);
    const res = await post("/dashboard/manageBlogs", writer, { intent: "delete", id: blog.id });
    expect(res.status).toBe(302);
    expect(flashOf(res)).toMatchObject({ title: "Deleted!", text: "It has been deleted for good." });
    expect(await blogRow(blog.id)).toBeUndefined();
  });

  it("refuses to delete someone else's blog with 403 and leaves it", async () => {
    const owner = await makeUser();
    const intruder = await makeUser();
    const blog = await makeBlog(owner);
    const res = await post("/dashboard/manageBlogs", intruder, { intent: "delete", id: blog.id });
    expect(res.status).toBe(403);
    expect(await blogRow(blog.id)).toBeDefined();
  });

  it("answers an unknown id with 404", async () => {
    const writer = await makeUser();
    expect((await post("/dashboard/manageBlogs", writer, { intent: "delete", id: "not-an-id" })).status).toBe(404);
  });
});

describe("/dashboard/updateBlog/{id}", () => {
  it("preloads the owner's blog", async () => {
    const writer = await makeUser();
    const blog = await makeBlog(writer, { title: "Preloaded title", category: "Health" });
    const res = await get(`/dashboard/updateBlog/${blog.id}`, writer);
    expect(res.status).toBe(200);
    const html = await res.text();
    expect(html).toContain('value="Preloaded title"');
    expect(html).toMatch(/<option value="Health" selected="">/);
  });

  it("gives another user the 403 page, refuses their post, and changes nothing (no image either)", async () => {
    const owner = await makeUser();
    const intruder = await makeUser();
    const blog = await makeBlog(owner, { title: "Owner's title" });
    expect((await get(`/dashboard/updateBlog/${blog.id}`, intruder)).status).toBe(403);
    const res = await post(`/dashboard/updateBlog/${blog.id}`, intruder, { title: "Hijacked" }, png());
    expect(res.status).toBe(403);
    expect(await blogRow(blog.id)).toMatchObject({ title: "Owner's title", image: blog.image });
    expect(await imagesOf(intruder.id)).toHaveLength(0);
  });

  it("lets an admin open someone's blog", async () => {
    const admin = await makeUser({ role: "admin" });
    const blog = await makeBlog(await makeUser());
    expect((await get(`/dashboard/updateBlog/${blog.id}`, admin)).status).toBe(200);
  });

  it("answers a missing blog with 404", async () => {
    const writer = await makeUser();
    expect((await get("/dashboard/updateBlog/abcdefghij0123456789", writer)).status).toBe(404);
  });

  it("updates what changed, keeps empty fields, and says Blog Updated Successfully!", async () => {
    const writer = await makeUser();
    const blog = await makeBlog(writer, { title: "Before", dateTime: "2026-03-01T09:00:00.000Z" });
    const res = await post(`/dashboard/updateBlog/${blog.id}`, writer, {
      title: "After",
      category: "",
      short_description: "",
      blog_details: "",
      date_time: "2026-03-01T09:00",
      tz: "+00:00",
    });
    expect(res.status).toBe(302);
    expect(res.headers.get("Location")).toBe("/dashboard/manageBlogs");
    expect(flashOf(res)).toMatchObject({ kind: "toast", title: "Blog Updated Successfully!" });
    expect(await blogRow(blog.id)).toMatchObject({
      title: "After",
      category: blog.category,
      shortDescription: blog.shortDescription,
      blogDetails: blog.blogDetails,
      dateTime: "2026-03-01T09:00:00.000Z",
    });
  });

  it("replaces the image when a new one is chosen", async () => {
    const writer = await makeUser();
    const blog = await makeBlog(writer);
    const res = await post(`/dashboard/updateBlog/${blog.id}`, writer, { title: blog.title }, png());
    expect(res.status).toBe(302);
    const [image] = await imagesOf(writer.id);
    expect((await blogRow(blog.id))?.image).toBe(`/images/${image?.key}`);
  });

  it("answers No Changes Made! when the form sends what is stored (seconds the input cannot show included)", async () => {
    const writer = await makeUser();
    const blog = await makeBlog(writer, { dateTime: "2026-04-02T12:34:56.789Z" });
    const before = await blogRow(blog.id);
    const res = await post(
      `/dashboard/updateBlog/${blog.id}`,
      writer,
      {
        title: blog.title,
        category: blog.category,
        short_description: blog.shortDescription,
        blog_details: blog.blogDetails,
        date_time: "2026-04-02T14:34",
        tz: "+02:00",
      },
      noFile(),
    );
    expect(res.status).toBe(200);
    expect(await res.text()).toContain("No Changes Made!");
    expect(await blogRow(blog.id)).toEqual(before);
  });

  it("shows Error! with 'Image upload failed' when the new image is refused, and changes nothing", async () => {
    const writer = await makeUser();
    const blog = await makeBlog(writer, { title: "Stays" });
    const res = await post(`/dashboard/updateBlog/${blog.id}`, writer, { title: "Would change" }, notAnImage());
    expect(res.status).toBe(400);
    const html = await res.text();
    expect(html).toContain("Error!");
    expect(html).toContain("Image upload failed");
    expect(html).toContain('value="Would change"');
    expect((await blogRow(blog.id))?.title).toBe("Stays");
  });

  it("refuses an invalid category before uploading anything", async () => {
    const writer = await makeUser();
    const blog = await makeBlog(writer);
    const res = await post(`/dashboard/updateBlog/${blog.id}`, writer, { category: "Cooking" }, png());
    expect(res.status).toBe(400);
    expect(await res.text()).toContain("Category must be one of");
    expect(await imagesOf(writer.id)).toHaveLength(0);
  });
});

describe("/dashboard/feedback", () => {
  const feedback = { name: "Fiona Feedback", designation: "Librarian", rating: "4.5", review: "Lovely place to read." };

  it("renders the star rating as radios in half steps, 0 checked by default", async () => {
    const writer = await makeUser();
    const html = await (await get("/dashboard/feedback", writer)).text();
    const radios = [...html.matchAll(/<input type="radio"[^>]*name="rating"[^>]*value="([\d.]+)"/g)].map((m) => m[1]);
    expect(radios).toEqual(["0", "0.5", "1", "1.5", "2", "2.5", "3", "3.5", "4", "4.5", "5"]);
    const radioTags = html.match(/<input type="radio"[^>]*name="rating"[^>]*>/g) ?? [];
    expect(
      radioTags.filter((tag) => tag.includes('checked=""')).map((tag) => /value="([\d.]+)"/.exec(tag)?.[1]),
    ).toEqual(["0"]);
  });

  it("saves the review with its rating and keeps its photo from expiring", async () => {
    const writer = await makeUser();
    const res = await post("/dashboard/feedback", writer, feedback, png());
    expect(res.status).toBe(302);
    expect(res.headers.get("Location")).toBe("/dashboard");
    // It waits for an admin, and the reviewer is told so.
    expect(flashOf(res)).toMatchObject({
      kind: "alert",
      title: "Thank you for your feedback!",
      text: expect.stringContaining("pending approval"),
    });
    const review = await db().query.reviews.findFirst({ where: eq(schema.reviews.userId, writer.id) });
    expect(review).toMatchObject({
      name: "Fiona Feedback",
      designation: "Librarian",
      rating: 4.5,
      review: "Lovely place to read.",
      status: "pending",
    });
    const [image] = await imagesOf(writer.id);
    expect(review?.image).toBe(`/images/${image?.key}`);
    expect(image?.expiresAt).toBeNull();
  });

  it("refuses missing fields and an out-of-range rating, keeps the text, and uploads nothing", async () => {
    const writer = await makeUser();
    const res = await post("/dashboard/feedback", writer, { ...feedback, designation: " ", rating: "7" }, png());
    expect(res.status).toBe(400);
    const html = await res.text();
    expect(html).toContain("Designation is required.");
    expect(html).toMatch(/Rating/);
    expect(html).toContain("Lovely place to read.");
    expect(await imagesOf(writer.id)).toHaveLength(0);
    expect(await db().query.reviews.findFirst({ where: eq(schema.reviews.userId, writer.id) })).toBeUndefined();
  });

  it("requires the photo", async () => {
    const writer = await makeUser();
    const res = await post("/dashboard/feedback", writer, feedback, noFile());
    expect(res.status).toBe(400);
    expect(await res.text()).toContain("Image is required.");
  });
});

describe("D1 round trips of the writer pages' loaders", () => {
  it("My Blogs and the overview: 1 (a batch); Manage Blogs: 1; Update Blog: 1", async () => {
    const writer = await makeUser();
    const blog = await makeBlog(writer);
    const actor = { id: writer.id, name: writer.name, email: writer.email, role: "user" as const, photoURL: null };
    const counter = countingD1(env.DB);
    const blogs = createBlogService(testKernel(counter.db), { imageCleanup: { release: async () => {} } });
    await blogs.ownPage(actor, { page: 1 }, 3);
    expect(counter.trips()).toBe(1);
    await blogs.ownPage(actor, { page: 2 }, 10);
    expect(counter.trips()).toBe(2);
    await blogs.editable(actor, blog.id);
    expect(counter.trips()).toBe(3);
  });
});
