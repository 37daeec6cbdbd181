import { schema } from "#worker/db.ts";
import {
  blogChangesInput,
  extraColumns,
  newBlogInput,
  newDraftInput,
  publication,
  requestedStatus,
  requireComplete,
} from "#worker/services/blogs/input.ts";
import type { BlogRow } from "#worker/services/blogs/model.ts";
import { outreachNotice, writerVerified, type Created } from "#worker/services/blogs/outreach.ts";
import type { BlogRevisions } from "#worker/services/blogs/revisions.ts";
import { asSlugRefusal, ensureSlugFree } from "#worker/services/blogs/slug-check.ts";
import { tagWrites } from "#worker/services/blogs/tags.ts";
import type { ImageService } from "#worker/services/images/service.ts";
import type { Kernel } from "#worker/services/kernel.ts";
import { newId } from "#worker/services/shared/ids.ts";
import { Forbidden } from "#worker/services/shared/errors.ts";
import { isAdmin, type Actor } from "#worker/services/shared/policy.ts";
import { hasUpload, withPendingUpload } from "#worker/services/shared/uploads.ts";
import { parse } from "#worker/services/shared/validation.ts";

/**
 * The two writes of a writer's form: a new post, and an edit of a stored one. Both check every field,
 * the schedule and a custom slug's owner (once) before they store an upload (the cover, and the social
 * image chosen as a file), so a refused form never leaves an image in R2. `images` keeps an upload (the
 * composition root passes the images service; a read-only test may leave it out).
 */
export function createPostWriting(
  k: Kernel,
  deps: { history: BlogRevisions; images?: Pick<ImageService, "storeUpload"> },
) {
  const { db, purge, events } = k;
  const { history, images } = deps;
  const storeUpload = (actor: Actor, file: Blob) => {
    if (!images) throw new Error("createPostWriting: no image store to keep an upload in");
    return images.storeUpload(actor, file);
  };
  /**
   * Who a post's newsletter goes to is the admin's choice (issue 46): anyone else may send the value as it stands
   * (a record read and sent back), never a change.
   */
  const audienceAllowed = (actor: Actor, data: { newsletter_audience?: string | undefined }, stored = "") => {
    if (data.newsletter_audience !== undefined && data.newsletter_audience !== stored && !isAdmin(actor))
      throw new Forbidden("Only an admin chooses who a post's newsletter goes to.");
  };
  /** The input as its schema checks it: each chosen file stands in for the URL it will get. */
  const pending = (input: unknown, upload: unknown, socialUpload: unknown) =>
    withPendingUpload(withPendingUpload(input, upload), socialUpload, "social_image");
  const stored = async (actor: Actor, file: unknown, otherwise: string | undefined) =>
    hasUpload(file) ? await storeUpload(actor, file) : otherwise;

  return {
    async create(user: Actor, input: unknown, upload?: unknown, socialUpload?: unknown): Promise<Created> {
      // A draft needs only a title; a post readers will see needs every field.
      const draft = requestedStatus(input) === "draft";
      const data = parse(draft ? newDraftInput : newBlogInput, pending(input, upload, socialUpload));
      audienceAllowed(user, data);
      const dateTime = data.date_time ?? new Date().toISOString();
      const { status, publishAt } = publication(data.status ?? "published", dateTime);
      await ensureSlugFree(db, data.slug);
      const image = (await stored(user, upload, data.image)) ?? "";
      const socialImage = await stored(user, socialUpload, data.social_image);
      const id = newId();
      const insert = db.insert(schema.blogs).values({
        ...extraColumns({ ...data, social_image: socialImage }),
        status,
        publishAt,
        id,
        authorId: user.id,
        title: data.title,
        shortDescription: data.short_description ?? "",
        blogDetails: data.blog_details ?? "",
        category: data.category ?? "",
        authorName: user.name,
        email: user.email.toLowerCase(),
        authorImage: user.photoURL,
        dateTime,
        image,
        likes: 0,
        emailSubscribers: !data.no_email,
      });
      // The post and its tags in one batch: never a post without the tags it was sent with.
      await asSlugRefusal(data.slug, () => db.batch([insert, ...tagWrites(db, id, data.tags ?? [], false)]));
      await purge({ kind: "blog.created" });
      // Beyond the site only for a verified writer (outreach.ts): subscribers and followers when it is
      // public now, the fediverse either way.
      const verified = await writerVerified(db, id);
      if (verified && status === "published") await events.emit("post.published", { blogId: id });
      if (verified !== false) await events.emit("post.changed", { blogId: id });
      const notice = outreachNotice(user, status);
      return notice ? { insertedId: id, notice } : { insertedId: id };
    },

    /**
     * Every edit of a post loaded once (the service's `edit`): check the fields, the schedule and a changed
     * slug (here, the one check of this write), then store new images (if any came), then save.
     */
    async applyChanges(
      actor: Actor,
      row: BlogRow,
      input: unknown,
      upload?: unknown,
      socialUpload?: unknown,
    ): Promise<{ modifiedCount: number }> {
      const data = parse(blogChangesInput, pending(input, upload, socialUpload));
      audienceAllowed(actor, data, row.newsletterAudience);
      const published = data.status ? publication(data.status, data.date_time ?? row.dateTime) : {};
      // A draft saved with only its title is complete before it is published or scheduled.
      if ((data.status ?? row.status) !== "draft") requireComplete(row, data, hasUpload(upload));
      if (data.slug !== row.slug) await ensureSlugFree(db, data.slug, row.id);
      const image = await stored(actor, upload, data.image);
      const socialImage = await stored(actor, socialUpload, data.social_image);
      return history.save(actor, row, {
        title: data.title,
        shortDescription: data.short_description,
        blogDetails: data.blog_details,
        category: data.category,
        dateTime: data.date_time,
        image,
        ...(data.no_email === undefined ? {} : { emailSubscribers: !data.no_email }),
        ...extraColumns({ ...data, social_image: socialImage }),
        ...published,
      });
    },
  };
}
