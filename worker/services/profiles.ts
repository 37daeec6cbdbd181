import { eq } from "drizzle-orm";
import { z } from "zod";
import { schema } from "#worker/db.ts";
import { anyStatusList, countQuery, newestPageQuery } from "#worker/services/blogs/lists.ts";
import { parsePaging, toPage, type Page } from "#worker/services/shared/pagination.ts";
import { findOr404, saveChanges } from "#worker/services/shared/records.ts";
import { toBlog, type Blog } from "#worker/services/blogs/model.ts";
import { Conflict, Forbidden } from "#worker/services/shared/errors.ts";
import { newId } from "#worker/services/shared/ids.ts";
import { isAdmin, requireUser, type Actor } from "#worker/services/shared/policy.ts";
import { LIMITS, emailField, clearableText, parse, requiredText } from "#worker/services/shared/validation.ts";
import type { Kernel } from "#worker/services/kernel.ts";

type ProfileRow = typeof schema.profiles.$inferSelect;

export interface Profile {
  _id: string;
  name: string;
  email: string;
  bio: string;
  designation: string;
}

export function toProfile(row: ProfileRow): Profile {
  return { _id: row.id, name: row.name, email: row.email, bio: row.bio, designation: row.designation };
}

/** The create-profile dialog: bio and designation required; name and email are locked to the account. */
export const createInput = z.object({
  bio: requiredText("Bio", LIMITS.bio),
  designation: requiredText("Designation", LIMITS.designation),
});

/** Edit profile (spec section 5): name and designation required, bio optional (missing keeps it, emptied clears it). */
export const updateInput = z.object({
  name: requiredText("Name", LIMITS.name),
  designation: requiredText("Designation", LIMITS.designation),
  bio: clearableText("Bio", LIMITS.bio),
});

export const listInput = z.object({ email: emailField() });

/** Posts per page of the Profile's post list. */
export const PROFILE_PAGE_SIZE = 9;

export function createProfileService(k: Kernel) {
  const { db, purge } = k;
  return {
    /**
     * The /Profile page: the actor's own profile (or null) and a page of their blogs, newest first, with
     * their total, in one D1 round trip.
     */
    async overview(
      actor: Actor | null,
      input: { page?: unknown } = {},
    ): Promise<{ profile: Profile | null; blogs: Page<Blog> }> {
      const user = requireUser(actor);
      const paging = parsePaging({ page: input.page }, PROFILE_PAGE_SIZE);
      const mine = anyStatusList({ by: "author", key: user.id });
      const [profiles, rows, totals] = await db.batch([
        db.select().from(schema.profiles).where(eq(schema.profiles.userId, user.id)).limit(1),
        newestPageQuery(db, mine, paging),
        countQuery(db, mine),
      ]);
      return {
        profile: profiles[0] ? toProfile(profiles[0]) : null,
        blogs: toPage(
          rows.map((row) => toBlog(row)),
          totals[0]?.total ?? 0,
          paging,
        ),
      };
    },

    /** The profiles of an email, as the spec's array: your own, or anyone's for an admin. */
    async byEmail(actor: Actor | null, input: { email?: unknown }): Promise<Profile[]> {
      const user = requireUser(actor);
      const { email } = parse(listInput, input);
      if (email !== user.email.toLowerCase() && !isAdmin(user))
        throw new Forbidden("You can only see your own profile.");
      const rows = await db.select().from(schema.profiles).where(eq(schema.profiles.email, email));
      return rows.map(toProfile);
    },

    /** Creates the actor's own profile; the name and email in the payload are ignored for the session's. */
    async create(actor: Actor | null, input: unknown): Promise<{ insertedId: string }> {
      const user = requireUser(actor);
      const data = parse(createInput, input, { missingCode: "profile-incomplete" });
      const id = newId();
      const inserted = await db
        .insert(schema.profiles)
        .values({
          id,
          userId: user.id,
          name: user.name,
          email: user.email.toLowerCase(),
          bio: data.bio,
          designation: data.designation,
        })
        .onConflictDoNothing({ target: schema.profiles.userId })
        .returning({ id: schema.profiles.id });
      if (!inserted[0]) throw new Conflict("You already have a profile.", "profile-exists");
      // The writer's public page shows the new designation and bio.
      await purge({ kind: "profile.changed", userId: user.id });
      return { insertedId: id };
    },

    async byId(actor: Actor | null, id: string): Promise<Profile> {
      const user = requireUser(actor);
      return toProfile(await findOwned(user, id));
    },

    async update(actor: Actor | null, id: string, input: unknown): Promise<{ modifiedCount: number }> {
      const user = requireUser(actor);
      const row = await findOwned(user, id);
      const data = parse(updateInput, input);
      const result = await saveChanges<ProfileRow>(db, schema.profiles, row, {
        name: data.name,
        designation: data.designation,
        bio: data.bio,
      });
      if (result.modifiedCount) await purge({ kind: "profile.changed", userId: row.userId });
      return result;
    },
  };

  async function findOwned(user: Actor, id: string): Promise<ProfileRow> {
    const row = await findOr404(id, "Profile not found.", (id) =>
      db.query.profiles.findFirst({ where: eq(schema.profiles.id, id) }),
    );
    if (row.userId !== user.id && !isAdmin(user)) throw new Forbidden("You can only see and edit your own profile.");
    return row;
  }
}

export type ProfileService = ReturnType<typeof createProfileService>;
