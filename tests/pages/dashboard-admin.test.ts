import { env } from "cloudflare:workers";
import { and, asc, eq, ne } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { schema } from "#worker/db.ts";
import { createServices } from "#worker/services/index.ts";
import { newId } from "#worker/services/shared/ids.ts";
import type { Actor } from "#worker/services/shared/policy.ts";
import { countingD1 } from "../support/d1-counter";
import { db, makeBlog, makeUser } from "../support/factories";
import { flashOf } from "../support/flash";
import { getPage, pngFile, postForm } from "../support/pages";

const png = () => pngFile("face.png");
const notAnImage = () => new File(["just some text"], "face.png", { type: "image/png" });

type Row = Awaited<ReturnType<typeof makeUser>>;
const post = postForm;
const get = getPage;

const stamp = () => `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;

async function makeReview(overrides: Partial<typeof schema.reviews.$inferInsert> = {}) {
  const row = {
    id: newId(),
    name: `Reviewer ${stamp()}`,
    designation: "Nurse",
    rating: 4.5,
    review: "Lovely to read.",
    image: "/images/test-image-0001.png",
    ...overrides,
  };
  await db().insert(schema.reviews).values(row);
  return row;
}

async function makeAuthor(overrides: Partial<typeof schema.authors.$inferInsert> = {}) {
  const row = {
    id: newId(),
    name: `Author ${stamp()}`,
    bio: "Writes about tools.",
    img: "/images/test-image-0002.png",
    twitter: "https://twitter.com/someone",
    ...overrides,
  };
  await db().insert(schema.authors).values(row);
  return row;
}

/** Everything an admin action could change: what a refused post must leave exactly as it was. */
async function snapshot() {
  const d = db();
  const [users, blogs, reviews, authors, images] = await d.batch([
    d.select({ id: schema.users.id, role: schema.users.role }).from(schema.users).orderBy(asc(schema.users.id)),
    d
      .select({ id: schema.blogs.id, title: schema.blogs.title, image: schema.blogs.image })
      .from(schema.blogs)
      .orderBy(asc(schema.blogs.id)),
    d
      .select({
        id: schema.reviews.id,
        name: schema.reviews.name,
        review: schema.reviews.review,
        status: schema.reviews.status,
      })
      .from(schema.reviews)
      .orderBy(asc(schema.reviews.id)),
    d
      .select({ id: schema.authors.id, name: schema.authors.name, bio: schema.authors.bio, img: schema.authors.img })
      .from(schema.authors)
      .orderBy(asc(schema.authors.id)),
    d.select({ key: schema.images.key }).from(schema.images).orderBy(asc(schema.images.key)),
  ]);
  return { users, blogs, reviews, authors, images };
}

const userRow = (id: string) => db().query.users.findFirst({ where: eq(schema.users.id, id) });
const blogRow = (id: string) => db().query.blogs.findFirst({ where: eq(schema.blogs.id, id) });
const reviewRow = (id: string) => db().query.reviews.findFirst({ where: eq(schema.reviews.id, id) });
const authorRow = (id: string) => db().query.authors.findFirst({ where: eq(schema.authors.id, id) });
const imagesOf = (userId: string) => db().select().from(schema.images).where(eq(schema.images.ownerId, userId));

const actorOf = (row: Row): Actor => ({ id: row.id, name: row.name, email: row.email, role: row.role, photoURL: null });

let admin: Row;
let member: Row;
let writer: Row;
let blog: Awaited<ReturnType<typeof makeBlog>>;
let review: Awaited<ReturnType<typeof makeReview>>;
let author: Awaited<ReturnType<typeof makeAuthor>>;

beforeAll(async () => {
  admin = await makeUser({ name: "Ada Admin", role: "admin" });
  member = await makeUser({ name: "Mo Member" });
  writer = await makeUser({ name: "Wren Writer" });
  blog = await makeBlog(writer, { title: "The writer's own post" });
  review = await makeReview();
  author = await makeAuthor();
});

describe("admin pages: who may open them", () => {
  const routes = () => [
    ["/dashboard/manageAllBlogs", "Manage All Blogs"],
    [`/dashboard/updateAllBlogs/${blog.id}`, "Update Blog"],
    ["/dashboard/manageUsers", "Manage Users"],
    ["/dashboard/manageReview", "Manage Review"],
    [`/dashboard/editReview/${review.id}`, "Edit Review"],
    ["/dashboard/addAuthor", "Add Author"],
    ["/dashboard/manageAuthors", "Manage Authors"],
    [`/dashboard/updateAuthor/${author.id}`, "Update Author"],
    ["/dashboard/inbox", "Inbox"],
  ];

  it("sends a visitor to /login carrying the path", async () => {
    for (const [path] of routes()) {
      const res = await get(path!, null);
      expect(res.status, path).toBe(302);
      expect(res.headers.get("Location"), path).toBe(`/login?redirectTo=${encodeURIComponent(path!)}`);
    }
  });

  it("shows a signed-in non-admin the 403 page, not the admin screen", async () => {
    for (const [path, title] of routes()) {
      const res = await get(path!, member);
      expect(res.status, path).toBe(403);
      const html = await res.text();
      expect(html, path).toContain("Access denied");
      expect(html, path).not.toContain(`>${title}</h1>`);
    }
  });

  it("shows an admin the screen", async () => {
    for (const [path, title] of routes()) {
      const res = await get(path!, admin);
      expect(res.status, path).toBe(200);
      expect(await res.text(), path).toContain(`>${title}</h1>`);
    }
  });

  it("answers unknown or malformed ids on the edit screens with the 404 page", async () => {
    for (const path of ["/dashboard/updateAllBlogs/", "/dashboard/editReview/", "/dashboard/updateAuthor/"]) {
      expect((await get(`${path}abcdefghij0123456789`, admin)).status, path).toBe(404);
      expect((await get(`${path}not-an-id`, admin)).status, path).toBe(404);
    }
  });

  it("lists the admin's Inbox link in the dashboard menu", async () => {
    const html = await (await get("/dashboard/manageUsers", admin)).text();
    expect(html).toMatch(/href="\/dashboard\/inbox"[^>]*>.*?Inbox<\/a>/);
  });
});

describe("admin actions posted directly by someone who is not an admin", () => {
  const attempts = (): { path: string; fields: Record<string, string>; files?: Record<string, File> }[] => [
    { path: "/dashboard/manageAllBlogs", fields: { intent: "delete", id: blog.id } },
    { path: `/dashboard/updateAllBlogs/${blog.id}`, fields: { title: "Hijacked" }, files: { image: png() } },
    { path: "/dashboard/manageUsers", fields: { intent: "make-admin", id: member.id } },
    { path: "/dashboard/manageUsers", fields: { intent: "delete", id: writer.id } },
    { path: "/dashboard/manageUsers", fields: { intent: "remove-admin", id: admin.id } },
    { path: "/dashboard/manageReview", fields: { intent: "delete", id: review.id } },
    { path: "/dashboard/manageReview", fields: { intent: "status", id: review.id, status: "hidden" } },
    { path: `/dashboard/editReview/${review.id}`, fields: { name: "Hijacked", designation: "X", review: "Y" } },
    { path: "/dashboard/addAuthor", fields: { name: "Sneaky", bio: "Not allowed" }, files: { image: png() } },
    { path: "/dashboard/manageAuthors", fields: { intent: "delete", id: author.id } },
    { path: `/dashboard/updateAuthor/${author.id}`, fields: { name: "Hijacked" }, files: { img: png() } },
  ];

  it("refuses a signed-in non-admin with 403 and changes nothing in D1 (no image stored either)", async () => {
    const before = await snapshot();
    for (const { path, fields, files } of attempts()) {
      const res = await post(path, member, fields, files);
      expect(res.status, `${path} ${JSON.stringify(fields)}`).toBe(403);
    }
    expect(await snapshot()).toEqual(before);
    expect(await imagesOf(member.id)).toEqual([]);
  });

  it("sends a visitor to /login and changes nothing", async () => {
    const before = await snapshot();
    for (const { path, fields, files } of attempts()) {
      const res = await post(path, null, fields, files);
      expect(res.status, path).toBe(302);
      expect(res.headers.get("Location"), path).toBe(`/login?redirectTo=${encodeURIComponent(path)}`);
    }
    expect(await snapshot()).toEqual(before);
  });
});

describe("/dashboard/manageAllBlogs and /dashboard/updateAllBlogs/{id}", () => {
  it("lists every writer's blogs with #, Name, Email, Title, Edit and Delete", async () => {
    const html = await (await get("/dashboard/manageAllBlogs", admin)).text();
    for (const header of ["#", "Name", "Email", "Title", "Edit", "Delete"]) expect(html).toContain(`>${header}</th>`);
    expect(html).toContain("The writer&#x27;s own post");
    expect(html).toContain(writer.email);
    expect(html).toContain(`href="/dashboard/updateAllBlogs/${blog.id}"`);
  });

  it("pages through the blogs ten at a time and sends a page past the end to the last page", async () => {
    const many = await makeUser({ name: "Prolific" });
    for (let i = 0; i < 11; i++) await makeBlog(many, { title: `Paged ${i}` });
    const total = (await db().select().from(schema.blogs)).length;
    const pages = Math.ceil(total / 10);
    const first = await (await get("/dashboard/manageAllBlogs", admin)).text();
    expect(first.match(/role="row"/g)?.length).toBe(11); // the header row and ten blogs
    expect(first).toContain('aria-label="Blog pages"');
    const last = await get(`/dashboard/manageAllBlogs?page=${pages}`, admin);
    expect(last.status).toBe(200);
    const beyond = await get(`/dashboard/manageAllBlogs?page=${pages + 1}`, admin);
    expect(beyond.status).toBe(302);
    expect(beyond.headers.get("Location")).toBe(
      pages > 1 ? `/dashboard/manageAllBlogs?page=${pages}` : "/dashboard/manageAllBlogs",
    );
  });

  it("lets an admin edit anyone's blog: a change, then no change, then a refused image that keeps what was typed", async () => {
    const target = await makeBlog(writer, { title: "Before the admin edit" });
    const changed = await post(`/dashboard/updateAllBlogs/${target.id}`, admin, {
      title: "After the admin edit",
      category: "",
      short_description: "",
      blog_details: "",
      date_time: "",
    });
    expect(changed.status).toBe(302);
    expect(changed.headers.get("Location")).toBe("/dashboard/manageAllBlogs");
    expect(flashOf(changed)).toMatchObject({ title: "Blog Updated Successfully!" });
    const row = await blogRow(target.id);
    expect(row).toMatchObject({
      title: "After the admin edit",
      shortDescription: target.shortDescription,
      authorId: writer.id,
      email: writer.email,
    });

    const same = await post(`/dashboard/updateAllBlogs/${target.id}`, admin, { title: "After the admin edit" });
    expect(same.status).toBe(200);
    expect(await same.text()).toContain("No Changes Made!");

    const refused = await post(
      `/dashboard/updateAllBlogs/${target.id}`,
      admin,
      { title: "Typed but refused" },
      { image: notAnImage() },
    );
    expect(refused.status).toBe(400);
    const html = await refused.text();
    expect(html).toContain("Error!");
    expect(html).toContain("Image upload failed");
    expect(html).toContain('value="Typed but refused"');
    expect((await blogRow(target.id))?.title).toBe("After the admin edit");
  });

  it("treats a form's CRLF line breaks as the stored LF ones: an untouched post is No Changes Made!", async () => {
    const target = await makeBlog(writer, { blogDetails: "First paragraph.\n\nSecond paragraph." });
    const res = await post(`/dashboard/updateAllBlogs/${target.id}`, admin, {
      title: target.title,
      blog_details: "First paragraph.\r\n\r\nSecond paragraph.",
    });
    expect(res.status).toBe(200);
    expect(await res.text()).toContain("No Changes Made!");
  });

  it("shows a validation error beside the field and keeps the other values", async () => {
    const res = await post(`/dashboard/updateAllBlogs/${blog.id}`, admin, {
      title: "Kept title",
      category: "Gardening",
    });
    expect(res.status).toBe(400);
    const html = await res.text();
    expect(html).toContain("Category must be one of");
    expect(html).toContain('value="Kept title"');
    expect((await blogRow(blog.id))?.title).toBe("The writer's own post");
  });

  it("deletes a blog and says Deleted! / It has been deleted for good.", async () => {
    const doomed = await makeBlog(writer, { title: "Doomed" });
    const res = await post("/dashboard/manageAllBlogs?page=1", admin, { intent: "delete", id: doomed.id });
    expect(res.status).toBe(302);
    expect(res.headers.get("Location")).toBe("/dashboard/manageAllBlogs?page=1");
    expect(flashOf(res)).toMatchObject({ title: "Deleted!", text: "It has been deleted for good." });
    expect(await blogRow(doomed.id)).toBeUndefined();
  });
});

describe("/dashboard/manageUsers", () => {
  it("lists Name, Email, Make Admin and Delete, with the admin's own Delete disabled", async () => {
    const html = await (await get("/dashboard/manageUsers", admin)).text();
    for (const header of ["Name", "Email", "Make Admin", "Delete"]) expect(html).toContain(`>${header}</th>`);
    expect(html).toContain(member.email);
    // The own row's delete form: its button is disabled (another user's is not).
    const deleteButton = (id: string) =>
      new RegExp(`name="intent" value="delete"/><input type="hidden" name="id" value="${id}"/><button([^>]*)>`).exec(
        html,
      )?.[1];
    expect(deleteButton(admin.id)).toMatch(/ disabled=""/);
    expect(deleteButton(member.id)).toBeDefined();
    expect(deleteButton(member.id)).not.toMatch(/ disabled=""/);
  });

  it("makes a user admin (the button then shows Admin), and removes it again", async () => {
    const target = await makeUser({ name: "Soon Admin" });
    const made = await post("/dashboard/manageUsers", admin, { intent: "make-admin", id: target.id });
    expect(made.status).toBe(302);
    expect(made.headers.get("Location")).toBe("/dashboard/manageUsers");
    expect(flashOf(made)).toMatchObject({ title: "User made admin successfully!" });
    expect((await userRow(target.id))?.role).toBe("admin");
    const html = await (await get("/dashboard/manageUsers", admin)).text();
    const row = html.slice(
      html.indexOf("Soon Admin"),
      html.indexOf(`name="id" value="${target.id}"`, html.indexOf("Soon Admin")) + 200,
    );
    expect(row).toMatch(/>Admin<\/button>/);
    expect(row).not.toContain("Make Admin<");

    const removed = await post("/dashboard/manageUsers", admin, { intent: "remove-admin", id: target.id });
    expect(removed.status).toBe(302);
    expect(flashOf(removed)).toMatchObject({ title: "Admin rights removed." });
    expect((await userRow(target.id))?.role).toBe("user");
  });

  it("never removes the last admin: the service's message is shown and nothing changes", async () => {
    const solo = await makeUser({ name: "Solo Admin", role: "admin" });
    // Make `solo` the only admin for this test (other admins become users, then come back).
    const others = await db()
      .select({ id: schema.users.id })
      .from(schema.users)
      .where(and(eq(schema.users.role, "admin"), ne(schema.users.id, solo.id)));
    await db()
      .update(schema.users)
      .set({ role: "user" })
      .where(and(eq(schema.users.role, "admin"), ne(schema.users.id, solo.id)));
    try {
      const res = await post("/dashboard/manageUsers", solo, { intent: "remove-admin", id: solo.id });
      expect(res.status).toBe(409);
      expect(await res.text()).toContain("This is the last admin: make someone else an admin first.");
      expect((await userRow(solo.id))?.role).toBe("admin");
    } finally {
      for (const { id } of others)
        await db().update(schema.users).set({ role: "admin" }).where(eq(schema.users.id, id));
    }
  });

  it("deletes a user with User deleted successfully!", async () => {
    const target = await makeUser({ name: "Leaving Soon" });
    const res = await post("/dashboard/manageUsers", admin, { intent: "delete", id: target.id });
    expect(res.status).toBe(302);
    expect(flashOf(res)).toMatchObject({ title: "User deleted successfully!" });
    expect(await userRow(target.id)).toBeUndefined();
  });

  it("refuses an admin deleting themselves with the service's message, and keeps the account", async () => {
    const res = await post("/dashboard/manageUsers", admin, { intent: "delete", id: admin.id });
    expect(res.status).toBe(403);
    expect(await res.text()).toContain("You cannot delete your own account.");
    expect(await userRow(admin.id)).toBeDefined();
  });

  it("answers an unknown intent or user without a 500", async () => {
    expect((await post("/dashboard/manageUsers", admin, { intent: "promote-everyone", id: member.id })).status).toBe(
      400,
    );
    expect(
      (await post("/dashboard/manageUsers", admin, { intent: "make-admin", id: "abcdefghij0123456789" })).status,
    ).toBe(404);
    expect((await userRow(member.id))?.role).toBe("user");
  });
});

describe("/dashboard/manageReview and /dashboard/editReview/{id}", () => {
  it("lists the reviews with Edit and Delete", async () => {
    const html = await (await get("/dashboard/manageReview", admin)).text();
    expect(html).toContain(review.name);
    expect(html).toContain(`href="/dashboard/editReview/${review.id}"`);
  });

  it("preloads the review and updates it with Feedback Updated Successfully!", async () => {
    const target = await makeReview({ name: "Edit Me" });
    const page = await (await get(`/dashboard/editReview/${target.id}`, admin)).text();
    expect(page).toContain('value="Edit Me"');
    const res = await post(`/dashboard/editReview/${target.id}`, admin, {
      name: "Edited",
      designation: "Surgeon",
      review: "Even better now.",
    });
    expect(res.status).toBe(302);
    expect(res.headers.get("Location")).toBe("/dashboard/manageReview");
    expect(flashOf(res)).toMatchObject({ title: "Feedback Updated Successfully!" });
    expect(await reviewRow(target.id)).toMatchObject({
      name: "Edited",
      designation: "Surgeon",
      review: "Even better now.",
      rating: target.rating,
    });
  });

  it("requires name, designation and message: Error Updating Feedback, values kept, nothing stored", async () => {
    const target = await makeReview({ name: "Keep Me" });
    const res = await post(`/dashboard/editReview/${target.id}`, admin, {
      name: "",
      designation: "Typed designation",
      review: "Typed message",
    });
    expect(res.status).toBe(400);
    const html = await res.text();
    expect(html).toContain("Error Updating Feedback");
    expect(html).toContain("Name is required.");
    expect(html).toContain('value="Typed designation"');
    expect(html).toContain("Typed message</textarea>");
    expect((await reviewRow(target.id))?.name).toBe("Keep Me");
  });

  it("approves a pending review onto the home page and hides it again", async () => {
    const target = await makeReview({ name: `Pending ${stamp()}`, status: "pending" });
    const done = await makeReview({ name: `Approved ${stamp()}`, status: "approved" });
    const queue = await (await get("/dashboard/manageReview?status=pending", admin)).text();
    expect(queue).toContain(target.name);
    expect(queue).toContain("Pending approval");
    expect(queue).not.toContain(done.name);
    // The home page is cached without it (a visitor's shared copy)...
    expect(await (await get("/", null)).text()).not.toContain(target.name);
    const res = await post("/dashboard/manageReview?status=pending", admin, {
      intent: "status",
      id: target.id,
      status: "approved",
    });
    expect(res.status).toBe(302);
    expect(res.headers.get("Location")).toBe("/dashboard/manageReview?status=pending");
    expect(flashOf(res)).toMatchObject({ title: "Review approved: it is on the home page." });
    expect((await reviewRow(target.id))?.status).toBe("approved");
    // ...and purged by the approval.
    expect(await (await get("/", null)).text()).toContain(target.name);
    await post("/dashboard/manageReview", admin, { intent: "status", id: target.id, status: "hidden" });
    expect((await reviewRow(target.id))?.status).toBe("hidden");
    expect(await (await get("/", null)).text()).not.toContain(target.name);
  });

  it("refuses an unknown status with 400 and changes nothing", async () => {
    const target = await makeReview({ status: "pending" });
    const res = await post("/dashboard/manageReview", admin, { intent: "status", id: target.id, status: "gone" });
    expect(res.status).toBe(400);
    expect((await reviewRow(target.id))?.status).toBe("pending");
  });

  it("deletes a review with Deleted!", async () => {
    const target = await makeReview();
    const res = await post("/dashboard/manageReview", admin, { intent: "delete", id: target.id });
    expect(res.status).toBe(302);
    expect(flashOf(res)).toMatchObject({ title: "Deleted!", text: "It has been deleted for good." });
    expect(await reviewRow(target.id)).toBeUndefined();
  });
});

describe("/dashboard/addAuthor, /dashboard/manageAuthors and /dashboard/updateAuthor/{id}", () => {
  it("adds an author with an uploaded picture: Author Added / Author added successfully!", async () => {
    const name = `New Author ${stamp()}`;
    const res = await post(
      "/dashboard/addAuthor",
      admin,
      { name, bio: "Writes about the sea.", twitter: "", linkedin: "https://linkedin.com/in/sea", github: "" },
      { image: png() },
    );
    expect(res.status).toBe(302);
    expect(res.headers.get("Location")).toBe("/dashboard/manageAuthors");
    expect(flashOf(res)).toMatchObject({ title: "Author Added", text: "Author added successfully!" });
    const [row] = await db().select().from(schema.authors).where(eq(schema.authors.name, name));
    expect(row).toMatchObject({
      bio: "Writes about the sea.",
      twitter: null,
      linkedin: "https://linkedin.com/in/sea",
      github: null,
    });
    expect(row?.img).toMatch(/^\/images\/[0-9a-z_-]+\.png$/);
    // The picture is the admin's upload and does not expire.
    const images = await imagesOf(admin.id);
    expect(images.find((i) => `/images/${i.key}` === row?.img)?.expiresAt).toBeNull();
  });

  it("requires name, bio and picture: errors beside the fields, values kept, no image left behind", async () => {
    const before = (await imagesOf(admin.id)).length;
    const res = await post(
      "/dashboard/addAuthor",
      admin,
      { name: "", bio: "A bio that was typed", github: "not a link" },
      { image: png() },
    );
    expect(res.status).toBe(400);
    const html = await res.text();
    expect(html).toContain("Name is required.");
    expect(html).toContain("GitHub must be an http(s) link");
    expect(html).toContain("A bio that was typed</textarea>");
    expect(html).toContain('value="not a link"');
    expect((await imagesOf(admin.id)).length).toBe(before);

    const noPicture = await post("/dashboard/addAuthor", admin, { name: "No Picture", bio: "Bio" });
    expect(noPicture.status).toBe(400);
    expect(await noPicture.text()).toContain("Image is required.");
  });

  it("lists the authors with Name, Bio, Edit and Delete", async () => {
    const html = await (await get("/dashboard/manageAuthors", admin)).text();
    for (const header of ["Name", "Bio", "Edit", "Delete"]) expect(html).toContain(`>${header}</th>`);
    expect(html).toContain(author.name);
    expect(html).toContain(`href="/dashboard/updateAuthor/${author.id}"`);
  });

  it("updates an author (empty fields keep their values), then says No Changes Made!", async () => {
    const target = await makeAuthor({ name: "Update Me", github: "https://github.com/me" });
    const page = await (await get(`/dashboard/updateAuthor/${target.id}`, admin)).text();
    expect(page).toContain('value="Update Me"');

    const res = await post(
      `/dashboard/updateAuthor/${target.id}`,
      admin,
      { name: "", bio: "A new bio.", twitter: "", linkedin: "", github: "" },
      { img: png() },
    );
    expect(res.status).toBe(302);
    expect(res.headers.get("Location")).toBe("/dashboard/manageAuthors");
    expect(flashOf(res)).toMatchObject({ title: "Author Updated Successfully" });
    const row = await authorRow(target.id);
    expect(row).toMatchObject({
      name: "Update Me",
      bio: "A new bio.",
      twitter: target.twitter,
      github: "https://github.com/me",
    });
    expect(row?.img).toMatch(/^\/images\/[0-9a-z_-]+\.png$/);

    const same = await post(`/dashboard/updateAuthor/${target.id}`, admin, { name: "Update Me", bio: "A new bio." });
    expect(same.status).toBe(200);
    expect(await same.text()).toContain("No Changes Made!");
  });

  it("says Error Uploading Image / Please try again later. for a refused picture and keeps what was typed", async () => {
    const target = await makeAuthor({ name: "Picture Trouble" });
    const res = await post(
      `/dashboard/updateAuthor/${target.id}`,
      admin,
      { name: "Typed name" },
      { img: notAnImage() },
    );
    expect(res.status).toBe(400);
    const html = await res.text();
    expect(html).toContain("Error Uploading Image");
    expect(html).toContain("Please try again later.");
    expect(html).toContain('value="Typed name"');
    expect((await authorRow(target.id))?.name).toBe("Picture Trouble");
  });

  it("says Error Updating Author for any other refusal", async () => {
    const target = await makeAuthor();
    const res = await post(`/dashboard/updateAuthor/${target.id}`, admin, { twitter: "ftp://nope" });
    expect(res.status).toBe(400);
    const html = await res.text();
    expect(html).toContain("Error Updating Author");
    expect(html).toContain('value="ftp://nope"');
  });

  it("deletes an author with Deleted!", async () => {
    const target = await makeAuthor();
    const res = await post("/dashboard/manageAuthors", admin, { intent: "delete", id: target.id });
    expect(res.status).toBe(302);
    expect(flashOf(res)).toMatchObject({ title: "Deleted!", text: "It has been deleted for good." });
    expect(await authorRow(target.id)).toBeUndefined();
  });
});

describe("/dashboard/inbox", () => {
  it("lists contact messages and newsletter subscribers", async () => {
    const services = createServices(env);
    const subject = `Inbox subject ${stamp()}`;
    await services.contact.send(actorOf(member), {
      name: "Mo Member",
      email: member.email,
      subject,
      message: "Hello there.",
    });
    const subscriber = `reader-${stamp()}@example.com`;
    await services.newsletter.subscribe(subscriber);
    const html = await (await get("/dashboard/inbox", admin)).text();
    expect(html).toContain(subject);
    expect(html).toContain("Hello there.");
    expect(html).toContain(subscriber);
  });
});

describe("admin loaders' D1 budget", () => {
  it("each list is one query (the blogs page and its total are one batch), the inbox two in parallel", async () => {
    const counter = countingD1(env.DB);
    const services = createServices({ ...env, DB: counter.db });
    const me = actorOf(admin);
    const steps: [string, () => Promise<unknown>, number][] = [
      ["manageAllBlogs", () => services.blogs.page({ page: 1, limit: 10 }, 10), 1],
      // As the page asks: the admin reads the record whole (their own email rule and the members gate need no query).
      ["updateAllBlogs", () => services.blogs.byId(blog.id, me), 1],
      ["manageUsers", () => services.users.list(me), 1],
      ["manageReview", () => services.reviews.page({ page: 1, limit: 20, status: "all" }, me), 1],
      ["editReview", () => services.reviews.byId(me, review.id), 1],
      ["manageAuthors", () => services.authors.adminList(me), 1],
      ["updateAuthor", () => services.authors.byId(me, author.id), 1],
      ["inbox", () => Promise.all([services.contact.inbox(me), services.newsletter.list(me)]), 2],
    ];
    for (const [name, run, budget] of steps) {
      const before = counter.trips();
      await run();
      expect(counter.trips() - before, name).toBe(budget);
    }
  });
});
