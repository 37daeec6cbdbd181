import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { MSG } from "#app/lib/messages.ts";
import { CONFIRM_DEFAULTS } from "#app/lib/dialogs.ts";
import { schema } from "#worker/db.ts";
import { newId } from "#worker/services/shared/ids.ts";
import { db, makeBlog, makeUser } from "../support/factories";
import { flashOf } from "../support/flash";
import { getPage, postForm, withSession, type Who } from "../support/pages";
import { CONFIRM_TOKEN_SECONDS, signConfirmStep, verifyConfirmStep } from "#worker/security/confirm-token.ts";
import { postPath } from "#worker/services/blogs/slug.ts";

interface ParsedForm {
  method: string;
  action: string;
  fields: Record<string, string>;
  buttons: string[];
}

/** The forms of a page as a browser sees them, read with workerd's own HTML parser. */
async function formsOf(res: Response): Promise<ParsedForm[]> {
  const forms: ParsedForm[] = [];
  let button: string[] | null = null;
  await new HTMLRewriter()
    .on("form", {
      element(el) {
        forms.push({
          method: (el.getAttribute("method") ?? "get").toLowerCase(),
          action: el.getAttribute("action") ?? "",
          fields: {},
          buttons: [],
        });
      },
    })
    .on("form input[type=hidden]", {
      element(el) {
        forms.at(-1)!.fields[el.getAttribute("name")!] = el.getAttribute("value") ?? "";
      },
    })
    .on("form button", {
      element(el) {
        const text: string[] = [];
        button = text;
        forms.at(-1)!.buttons.push("");
        el.onEndTag(() => {
          const form = forms.at(-1)!;
          form.buttons[form.buttons.length - 1] = text.join("").replace(/\s+/g, " ").trim();
          button = null;
        });
      },
      text(chunk) {
        button?.push(chunk.text);
      },
    })
    .transform(res)
    .arrayBuffer();
  return forms;
}

/** What a browser without JavaScript sends when a GET form is submitted. */
function submitGet(form: ParsedForm, who: Who) {
  return getPage(`${form.action}?${new URLSearchParams(form.fields)}`, who);
}

const authorCount = async (id: string) =>
  (await db().select().from(schema.authors).where(eq(schema.authors.id, id))).length;

describe("the confirmation step without JavaScript", () => {
  let admin: { id: string; email: string; token: string };
  let member: { id: string; email: string; token: string };

  beforeAll(async () => {
    admin = await withSession(await makeUser({ name: "Confirm Admin", role: "admin" }));
    member = await withSession(await makeUser({ name: "Confirm Member" }));
  });

  it("Delete on Manage Authors asks on /confirm first, changes nothing until Yes, then deletes", async () => {
    const id = newId();
    await db().insert(schema.authors).values({ id, name: "Ask First Author", img: "/images/a.png", bio: "Bio." });

    const page = await getPage("/dashboard/manageAuthors", admin);
    const form = (await formsOf(page)).find((f) => f.fields.id === id)!;
    // The server's HTML (what a browser without JavaScript keeps) opens the confirm page, it does not post.
    expect(form).toMatchObject({ method: "get", action: "/confirm" });
    expect(form.fields).toMatchObject({ ask: "delete", to: "/dashboard/manageAuthors", intent: "delete", id });
    expect(form.buttons[0]).toMatch(/^Delete/);

    const confirm = await submitGet(form, admin);
    expect(confirm.status).toBe(200);
    expect(confirm.headers.get("Cache-Control")).toBe("private, no-store");
    const html = await confirm.clone().text();
    expect(html).toContain(MSG.confirm.delete.title);
    expect(html).toContain(MSG.confirm.delete.text.replace("'", "&#x27;"));
    expect(html).toMatch(/<a[^>]*href="\/dashboard\/manageAuthors"[^>]*>Cancel<\/a>/);
    expect(await authorCount(id)).toBe(1);

    const yes = (await formsOf(confirm)).find((f) => f.buttons.includes(MSG.confirm.delete.button))!;
    expect(yes).toEqual({
      method: "post",
      action: "/dashboard/manageAuthors",
      fields: { intent: "delete", id },
      buttons: [MSG.confirm.delete.button],
    });
    const done = await postForm(yes.action, admin, yes.fields);
    expect(done.status).toBe(302);
    expect(flashOf(done)).toMatchObject({ title: MSG.delete.doneTitle, text: MSG.delete.doneText });
    expect(await authorCount(id)).toBe(0);
  });

  it("Make Admin and Remove admin on Manage Users ask in their own words and keep the page (with its ?page=)", async () => {
    const page = await getPage("/dashboard/manageUsers?page=1", admin);
    const forms = await formsOf(page);
    const make = forms.find((f) => f.fields.intent === "make-admin" && f.fields.id === member.id)!;
    expect(make).toMatchObject({ method: "get", action: "/confirm" });
    expect(make.fields).toMatchObject({ ask: "make-admin", to: "/dashboard/manageUsers?page=1" });

    const confirm = await submitGet(make, admin);
    const html = await confirm.clone().text();
    expect(html).toContain(MSG.confirm["make-admin"].text);
    const yes = (await formsOf(confirm)).find((f) => f.method === "post")!;
    expect(yes).toMatchObject({
      action: "/dashboard/manageUsers?page=1",
      fields: { intent: "make-admin", id: member.id },
      buttons: [MSG.confirm["make-admin"].button],
    });
    const [before] = await db().select().from(schema.users).where(eq(schema.users.id, member.id));
    expect(before!.role).toBe("user");
    const done = await postForm(yes.action, admin, yes.fields);
    expect(done.headers.get("Location")).toBe("/dashboard/manageUsers?page=1");
    const [after] = await db().select().from(schema.users).where(eq(schema.users.id, member.id));
    expect(after!.role).toBe("admin");

    const remove = (await formsOf(await getPage("/dashboard/manageUsers", admin))).find(
      (f) => f.fields.intent === "remove-admin" && f.fields.id === member.id,
    )!;
    expect(remove.fields.ask).toBe("remove-admin");
    const removeHtml = await (await submitGet(remove, admin)).text();
    expect(removeHtml).toContain(MSG.confirm["remove-admin"].text);
    expect(removeHtml).toContain(MSG.confirm["remove-admin"].button);
  });

  it("Delete on Manage Users says what goes with the account, with the counts, on /confirm and to the dialog", async () => {
    const leaving = await makeUser({ name: "Leaving Lee" });
    const other = await makeUser({ name: "Other Writer" });
    const own = [await makeBlog(leaving), await makeBlog(leaving)];
    const theirs = await makeBlog(other);
    await db()
      .insert(schema.comments)
      .values(
        [own[0]!, theirs, theirs].map((b) => ({
          id: newId(),
          blogId: b.id,
          userId: leaving.id,
          body: "A comment.",
        })),
      );
    await db().insert(schema.blogLikes).values({ blogId: theirs.id, userId: leaving.id });
    const words = "Deleting Leaving Lee's account also deletes 2 posts, 3 comments, 1 like and 0 saved posts.";

    const del = (await formsOf(await getPage("/dashboard/manageUsers?q=Leaving", admin))).find(
      (f) => f.fields.intent === "delete" && f.fields.id === leaving.id,
    )!;
    expect(del.fields.ask).toBe("delete-user");
    const confirm = await submitGet(del, admin);
    const html = await confirm.clone().text();
    expect(html).toContain(words.replace("'", "&#x27;"));
    const yes = (await formsOf(confirm)).find((f) => f.method === "post")!;
    expect(yes.fields).toEqual({ intent: "delete", id: leaving.id });

    // The dialog's words (with JavaScript) come from the same service, admins only.
    const detail = await getPage(`/dashboard/users/${leaving.id}/holdings`, admin);
    expect(detail.headers.get("Cache-Control")).toBe("private, no-store");
    expect(await detail.json()).toMatchObject({
      posts: 2,
      comments: 3,
      likes: 1,
      saves: 0,
      text: expect.stringContaining(words),
    });
    const plain = await withSession(await makeUser({ name: "Not An Admin" }));
    expect((await getPage(`/dashboard/users/${leaving.id}/holdings`, plain)).status).toBe(403);
    expect((await getPage(`/dashboard/users/${newId()}/holdings`, admin)).status).toBe(404);

    const done = await postForm(yes.action, admin, yes.fields);
    expect(done.status).toBe(302);
    expect(await db().select().from(schema.users).where(eq(schema.users.id, leaving.id))).toEqual([]);
  });

  it("deleting a comment on a post page asks too", async () => {
    const writer = await withSession(await makeUser({ name: "Comment Owner" }));
    const blog = await makeBlog(writer);
    const commentId = newId();
    await db()
      .insert(schema.comments)
      .values({ id: commentId, blogId: blog.id, userId: writer.id, body: "Mine to delete." });
    const form = (await formsOf(await getPage(postPath(blog), writer))).find((f) => f.fields.commentId === commentId)!;
    expect(form).toMatchObject({ method: "get", action: "/confirm" });
    expect(form.fields).toMatchObject({ ask: "delete", to: postPath(blog), intent: "delete-comment" });
    const yes = (await formsOf(await submitGet(form, writer))).find((f) => f.method === "post")!;
    expect(yes.action).toBe(postPath(blog));
    expect((await postForm(yes.action, writer, yes.fields)).status).toBeLessThan(400);
    expect(await db().select().from(schema.comments).where(eq(schema.comments.id, commentId))).toHaveLength(0);
  });

  it("Sign Out in the top bar asks on /confirm, Cancel goes back, Yes signs out", async () => {
    const user = await withSession(await makeUser({ name: "Leaving Reader" }));
    const signOut = (await formsOf(await getPage("/about", user))).find((f) => f.buttons.includes("Sign Out"))!;
    expect(signOut).toMatchObject({ method: "get", action: "/confirm" });
    expect(signOut.fields).toMatchObject({ ask: "sign-out", to: "/logout", redirectTo: "/about" });
    expect(signOut.fields.ct).toMatch(/^\d+\.[\w-]{43}$/);

    const confirm = await submitGet(signOut, user);
    const html = await confirm.clone().text();
    expect(html).toContain(MSG.confirm["sign-out"].title);
    expect(html).toContain(MSG.confirm["sign-out"].text);
    expect(html).toMatch(/<a[^>]*href="\/about"[^>]*>Cancel<\/a>/);
    // Still signed in while the question is asked.
    expect((await getPage("/Profile", user)).status).toBe(200);

    const yes = (await formsOf(confirm)).find((f) => f.method === "post")!;
    expect(yes).toMatchObject({ action: "/logout", buttons: [MSG.confirm["sign-out"].button] });
    const done = await postForm(yes.action, user, yes.fields);
    expect(done.headers.get("Location")).toBe("/");
    expect(flashOf(done)).toMatchObject({ title: MSG.signOut.successTitle });
  });

  it("refuses a confirm URL this site would not make: unknown question, another site, itself, odd fields", async () => {
    for (const query of [
      "ask=explode&to=%2Fdashboard%2FmanageAuthors",
      "ask=delete&to=%2F%2Fevil.example.com%2F",
      "ask=delete&to=https%3A%2F%2Fevil.example.com%2F",
      "ask=delete&to=%2Fconfirm%3Fask%3Ddelete",
      "ask=delete",
      "ask=delete&to=%2Fx&bad%20name=1",
      `ask=delete&to=%2Fx&${Array.from({ length: 9 }, (_, i) => `f${i}=1`).join("&")}`,
      `ask=delete&to=%2Fx&id=${"a".repeat(501)}`,
    ]) {
      const res = await getPage(`/confirm?${query}`, admin);
      expect(res.status, query).toBe(400);
      const html = await res.clone().text();
      expect(html, query).toContain("There is nothing to confirm here.");
      expect(
        (await formsOf(res)).filter((f) => f.method === "post"),
        query,
      ).toEqual([]);
    }
  });

  it("cannot be armed by a link: the make-admin gadget, changed fields, another session, an old token", async () => {
    const attacker = await makeUser({ name: "Would-be Admin" });
    const postsOf = async (res: Response) => (await formsOf(res)).filter((f) => f.method === "post");
    const refused = async (query: string, who: Who = admin) => {
      const res = await getPage(`/confirm?${query}`, who);
      expect(res.status, query).toBe(400);
      expect(await postsOf(res), query).toEqual([]);
    };
    // The reported link: a "Yes, Logout" button that would post make-admin to Manage Users.
    await refused(
      new URLSearchParams({
        ask: "sign-out",
        to: "/dashboard/manageUsers",
        intent: "make-admin",
        id: attacker.id,
      }).toString(),
    );
    await refused(
      new URLSearchParams({
        ask: "delete",
        to: "/dashboard/manageUsers",
        intent: "delete",
        id: attacker.id,
      }).toString(),
    );

    // A genuine token from the admin's own Sign Out button, reused for anything else.
    const signOut = (await formsOf(await getPage("/about", admin))).find((f) => f.buttons.includes("Sign Out"))!;
    const real = signOut.fields;
    expect((await getPage(`/confirm?${new URLSearchParams(real)}`, admin)).status).toBe(200);
    await refused(
      new URLSearchParams({ ...real, to: "/dashboard/manageUsers", intent: "make-admin", id: attacker.id }).toString(),
    );
    await refused(new URLSearchParams({ ...real, intent: "make-admin" }).toString());
    await refused(new URLSearchParams({ ...real, ask: "make-admin" }).toString());
    await refused(new URLSearchParams({ ...real, redirectTo: "/dashboard" }).toString());

    // A genuine Make Admin token for one member does not make another.
    const make = (await formsOf(await getPage("/dashboard/manageUsers", admin))).find(
      (f) => f.fields.intent === "make-admin" && f.fields.id !== attacker.id,
    )!;
    expect((await getPage(`/confirm?${new URLSearchParams(make.fields)}`, admin)).status).toBe(200);
    await refused(new URLSearchParams({ ...make.fields, id: attacker.id }).toString());
    // Nor does it work for another session of the same admin, a visitor, or once expired.
    await refused(new URLSearchParams(make.fields).toString(), { id: admin.id, email: admin.email });
    await refused(new URLSearchParams(make.fields).toString(), null);
    const [expires, mac] = make.fields.ct!.split(".");
    await refused(new URLSearchParams({ ...make.fields, ct: `${Number(expires) - 3600}.${mac}` }).toString());
    await refused(new URLSearchParams({ ...make.fields, ct: "" }).toString());
    expect((await db().select().from(schema.users).where(eq(schema.users.id, attacker.id)))[0]!.role).toBe("user");
  });

  it("an expired token is refused even with its own fields (the clock moves past its 30 minutes)", () => {
    const step = {
      ask: "delete",
      to: "/dashboard/manageAuthors",
      fields: [
        ["intent", "delete"],
        ["id", "x"],
      ] as [string, string][],
    };
    const secret = "s".repeat(40);
    const token = signConfirmStep(secret, "sid-1", step, Date.now());
    expect(verifyConfirmStep(secret, "sid-1", step, token)).toBe(true);
    expect(verifyConfirmStep(secret, "sid-1", step, token, Date.now() + CONFIRM_TOKEN_SECONDS * 1000 + 1000)).toBe(
      false,
    );
    expect(verifyConfirmStep(secret, "sid-2", step, token)).toBe(false);
    expect(verifyConfirmStep("t".repeat(40), "sid-1", step, token)).toBe(false);
  });
});

describe("the confirm dialogs (SweetAlert2)", () => {
  it("focus Cancel, so Enter never confirms a delete or a sign-out", () => {
    expect(CONFIRM_DEFAULTS).toMatchObject({ showCancelButton: true, focusCancel: true });
  });
});
