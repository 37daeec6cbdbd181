import { asc, count, eq } from "drizzle-orm";
import { parsePaging, toPage, type Page } from "#worker/services/shared/pagination.ts";
import type { ImageCleanup } from "#worker/services/images/cleanup.ts";
import type { ImageService } from "#worker/services/images/service.ts";
import { hasUpload, withPendingUpload } from "#worker/services/shared/uploads.ts";
import { z } from "zod";
import { schema } from "#worker/db.ts";
import { findOr404, saveChanges } from "#worker/services/shared/records.ts";
import { newId } from "#worker/services/shared/ids.ts";
import { requireAdmin, type Actor } from "#worker/services/shared/policy.ts";
import {
  LIMITS,
  optionalText,
  optionalUrl,
  parse,
  requiredText,
  requiredUrl,
} from "#worker/services/shared/validation.ts";
import type { Kernel } from "#worker/services/kernel.ts";

type AuthorRow = typeof schema.authors.$inferSelect;

/** An author as the REST contract and the home page's "Meet Our Authors" see it (the picture is `img`). */
export interface Author {
  _id: string;
  name: string;
  bio: string;
  img: string;
  twitter: string | null;
  linkedin: string | null;
  github: string | null;
}

export function toAuthor(row: AuthorRow): Author {
  return {
    _id: row.id,
    name: row.name,
    bio: row.bio,
    img: row.img,
    twitter: row.twitter,
    linkedin: row.linkedin,
    github: row.github,
  };
}

/** Profile links point at other sites, so unlike pictures they cannot be one of our /images/ paths. */
const socialLink = (label: string) =>
  optionalUrl(label).refine((v) => v === undefined || /^https?:\/\//i.test(v), {
    error: `${label} must be an http(s) link.`,
  });

/** Add author: name, bio and image required; the three social links optional (spec section 5). The form sends `image`. */
export const newAuthorInput = z.object({
  name: requiredText("Name", LIMITS.name),
  bio: requiredText("Bio", LIMITS.bio),
  image: requiredUrl("Image"),
  twitter: socialLink("Twitter"),
  linkedin: socialLink("LinkedIn"),
  github: socialLink("GitHub"),
});

/** Update author: nothing required, an empty field keeps the stored value. The form sends `img`. */
export const authorChangesInput = z.object({
  name: optionalText("Name", LIMITS.name),
  bio: optionalText("Bio", LIMITS.bio),
  img: optionalUrl("Image"),
  twitter: socialLink("Twitter"),
  linkedin: socialLink("LinkedIn"),
  github: socialLink("GitHub"),
});

export function createAuthorService(
  k: Kernel,
  deps: { images: ImageService; imageCleanup: Pick<ImageCleanup, "release"> },
) {
  const { db, purge } = k;
  const { images } = deps;
  const { release } = deps.imageCleanup;
  // In the order they were added, so the home page grid stays stable as authors join.
  const listRows = () =>
    db.select().from(schema.authors).orderBy(asc(schema.authors.createdAt), asc(schema.authors.id));

  return {
    /** Public: the home page's author cards. */
    async list(): Promise<Author[]> {
      return (await listRows()).map(toAuthor);
    },

    /** The admin's Manage Authors table. */
    async adminList(actor: Actor | null): Promise<Author[]> {
      requireAdmin(actor);
      return (await listRows()).map(toAuthor);
    },

    /** GET /api/authors (public) and GET /api/author (admin): a page in the order they were added (50 without paging). */
    async page(
      actor: Actor | null,
      input: { page?: unknown; limit?: unknown },
      adminOnly = false,
    ): Promise<Page<Author>> {
      if (adminOnly) requireAdmin(actor);
      const paging = parsePaging(input, 50);
      const t = schema.authors;
      const [rows, totals] = await db.batch([
        db.select().from(t).orderBy(asc(t.createdAt), asc(t.id)).limit(paging.limit).offset(paging.offset),
        db.select({ total: count() }).from(t),
      ]);
      return toPage(rows.map(toAuthor), totals[0]?.total ?? 0, paging);
    },

    /** The admin's edit preload. */
    async byId(actor: Actor | null, id: string): Promise<Author> {
      requireAdmin(actor);
      return toAuthor(await findRow(id));
    },

    /** `upload`: the form's picture file, stored only once the rest is accepted. */
    async create(actor: Actor | null, input: unknown, upload?: unknown): Promise<{ insertedId: string }> {
      const admin = requireAdmin(actor);
      const data = parse(newAuthorInput, withPendingUpload(input, upload));
      const image = hasUpload(upload) ? await images.storeUpload(admin, upload) : data.image;
      const id = newId();
      await db.insert(schema.authors).values({
        id,
        name: data.name,
        bio: data.bio,
        img: image,
        twitter: data.twitter ?? null,
        linkedin: data.linkedin ?? null,
        github: data.github ?? null,
      });
      await purge({ kind: "author.changed" });
      return { insertedId: id };
    },

    /** Writes only the fields that were given and differ, so "no change" is answered without touching D1. */
    async update(
      actor: Actor | null,
      id: string,
      input: unknown,
      upload?: unknown,
    ): Promise<{ modifiedCount: number }> {
      const admin = requireAdmin(actor);
      const row = await findRow(id);
      const data = parse(authorChangesInput, withPendingUpload(input, upload, "img"));
      const { name, bio, twitter, linkedin, github } = data;
      const img = hasUpload(upload) ? await images.storeUpload(admin, upload, { field: "img" }) : data.img;
      const result = await saveChanges<AuthorRow>(db, schema.authors, row, {
        name,
        bio,
        img,
        twitter,
        linkedin,
        github,
      });
      if (result.modifiedCount) await purge({ kind: "author.changed" });
      if (img && img !== row.img) await release([row.img]);
      return result;
    },

    async remove(actor: Actor | null, id: string): Promise<{ deletedCount: number }> {
      requireAdmin(actor);
      const row = await findRow(id);
      const deleted = await db
        .delete(schema.authors)
        .where(eq(schema.authors.id, row.id))
        .returning({ id: schema.authors.id });
      await purge({ kind: "author.changed" });
      await release([row.img]);
      return { deletedCount: deleted.length };
    },
  };

  function findRow(id: string): Promise<AuthorRow> {
    return findOr404(id, "Author not found.", (id) => db.query.authors.findFirst({ where: eq(schema.authors.id, id) }));
  }
}

export type AuthorService = ReturnType<typeof createAuthorService>;
