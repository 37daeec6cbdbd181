import { describe, expect, it } from "vitest";
import { errorWords, handleForm } from "#app/lib/forms.server.ts";
import { ERROR_WORDS, MSG } from "#app/lib/messages.ts";
import {
  Conflict,
  DomainError,
  NotFound,
  RateLimited,
  Unauthorized,
  ValidationError,
} from "#worker/services/shared/errors.ts";
import { makeUser } from "../support/factories";
import { postForm, withSession } from "../support/pages";

/** handleForm is the one mapping from a refusal to a page's answer. */
const request = new Request("https://blog.test/somewhere?x=1", { method: "POST" });
const typed = () => {
  const form = new FormData();
  form.set("email", "a@example.com");
  form.set("password", "secret-never-echoed");
  return form;
};
async function answer(err: unknown) {
  try {
    const res = (await handleForm(request, typed(), () => Promise.reject(err))) as unknown as {
      data: Record<string, unknown>;
      init: ResponseInit | null;
    };
    return { kind: "form" as const, status: res.init?.status, body: res.data };
  } catch (thrown) {
    if (thrown instanceof Response)
      return { kind: "thrown" as const, status: thrown.status, location: thrown.headers.get("Location") };
    throw thrown;
  }
}

describe("handleForm", () => {
  it("lets a bug through to the error boundary instead of dressing it up as a refusal", async () => {
    await expect(answer(new TypeError("a bug"))).rejects.toThrow("a bug");
  });

  it("sends a missing session to /login, but answers a refused sign-in in its form (401)", async () => {
    expect(await answer(new Unauthorized())).toMatchObject({
      kind: "thrown",
      status: 302,
      location: "/login?redirectTo=%2Fsomewhere%3Fx%3D1",
    });
    const refused = await answer(new Unauthorized("Invalid email or password.", "invalid-credentials"));
    expect(refused).toMatchObject({ kind: "form", status: 401, body: { formError: "Invalid email or password." } });
    expect(refused.kind === "form" && refused.body.values).toEqual({ email: "a@example.com" });
  });

  it("answers each kind with its status, the 404 as the error page, and a conflict's field beside its field", async () => {
    expect(await answer(new NotFound())).toMatchObject({ kind: "thrown", status: 404 });
    expect(await answer(new ValidationError({ email: "Bad." }))).toMatchObject({
      status: 400,
      body: { fields: { email: "Bad." } },
    });
    expect(await answer(new Conflict("Taken.", "email-already-in-use", { email: "Taken." }))).toMatchObject({
      status: 409,
      body: { code: "email-already-in-use", fields: { email: "Taken." } },
    });
    expect(await answer(new RateLimited(30))).toMatchObject({ status: 429 });
    expect(await answer(new DomainError("storage-unavailable", "Down.", "unavailable"))).toMatchObject({ status: 503 });
  });

  it("shows the spec's words by code from the one table, else the service's sentence", () => {
    expect(errorWords(new Conflict("You already have a profile.", "profile-exists"))).toBe(MSG.profile.createFailed);
    expect(ERROR_WORDS["profile-incomplete"]).toBe(MSG.profile.allRequired);
    expect(errorWords(new Conflict("Other.", "other"))).toBe("Other.");
  });
});

describe("the pages that used to map errors their own way", () => {
  it("/Profile: a bio too long is its field's message, not 'All fields are required!'", async () => {
    const user = await withSession(await makeUser());
    const res = await postForm("/Profile", user, {
      intent: "create-profile",
      bio: "x".repeat(5000),
      designation: "Dev",
    });
    expect(res.status).toBe(400);
    const html = await res.text();
    expect(html).toContain("Bio must be at most");
    expect(html).not.toContain(MSG.profile.allRequired);
  });

  it("/Profile: a second profile is a 409 with the spec's failure words", async () => {
    const user = await withSession(await makeUser());
    const fields = { intent: "create-profile", bio: "Hello.", designation: "Dev" };
    expect((await postForm("/Profile", user, fields)).status).toBe(302);
    const again = await postForm("/Profile", user, fields);
    expect(again.status).toBe(409);
    expect(await again.text()).toContain(MSG.profile.createFailed);
  });

  it("/login: a malformed email is shown beside the email field", async () => {
    const res = await postForm("/login", null, { email: "not-an-email", password: "whatever" });
    expect(res.status).toBe(400);
    expect(await res.text()).toMatch(/<input(?=[^>]*name="email")(?=[^>]*aria-invalid="true")[^>]*>/);
  });
});
