import { useId } from "react";
import { Field, FieldError } from "#app/components/form.tsx";
import { FILE_INPUT_CLASS } from "#app/components/ui.tsx";
import { LIMITS } from "#worker/services/shared/limits.ts";
import { SLUG_MAX } from "#worker/services/blogs/slug.ts";

/** The field names of the SEO part: an error in any of them opens it. */
const SEO_FIELDS = ["seo_title", "slug", "meta_description", "social_image", "social_image_file"] as const;

/**
 * Tags and the optional SEO fields of a post, the same on Write Blogs and both edit forms.
 * Tags are typed comma-separated; the service normalises them ("#Edge Cache" -> edge-cache).
 */
export function PostExtraFields({
  values,
  errors,
  current,
}: {
  values: Record<string, string | undefined>;
  errors: Record<string, string | undefined>;
  current?: {
    tags: string[];
    meta_description: string;
    social_image: string;
    seo_title: string;
    custom_slug: string;
    slug: string;
  };
}) {
  return (
    <>
      <Field
        label="Tags"
        name="tags"
        maxLength={LIMITS.tags * (LIMITS.tag + 3)}
        defaultValue={values.tags ?? current?.tags.join(", ") ?? ""}
        error={errors.tags}
        hint={`Optional: up to ${LIMITS.tags} tags beside the category, separated by commas, spelled as readers will see them (e.g. Edge, Web Performance, café).`}
        autoComplete="off"
      />
      <details
        className="rounded-lg border border-gray-200 px-4 py-3"
        open={SEO_FIELDS.some((name) => Boolean(errors[name]))}
        data-testid="seo-fields"
      >
        <summary className="cursor-pointer text-sm font-semibold text-ink">Search and sharing (optional)</summary>
        <div className="mt-4 flex flex-col gap-5">
          <Field
            label="Search headline"
            name="seo_title"
            maxLength={LIMITS.seoTitle}
            defaultValue={values.seo_title ?? current?.seo_title ?? ""}
            error={errors.seo_title}
            hint={`The SEO title: what search engines and shared links show, up to ${LIMITS.seoTitle} characters. Empty: the post's title.`}
          />
          <Field
            label="Custom slug"
            name="slug"
            maxLength={SLUG_MAX}
            defaultValue={values.slug ?? current?.custom_slug ?? ""}
            placeholder={current?.slug}
            error={errors.slug}
            autoComplete="off"
            autoCapitalize="none"
            spellCheck={false}
            hint="The end of the post's link: lower-case letters in any language, digits and hyphens, used by no other post. Empty: made from the title. Links with an older slug still lead to the post."
          />
          <Field
            label="Meta description"
            name="meta_description"
            maxLength={LIMITS.metaDescription}
            defaultValue={values.meta_description ?? current?.meta_description ?? ""}
            error={errors.meta_description}
            hint="What search engines show under the title. Empty: the short description."
          />
          <div className="grid gap-5 sm:grid-cols-2">
            <Field
              label="Social image URL"
              name="social_image"
              type="url"
              inputMode="url"
              maxLength={LIMITS.url}
              defaultValue={values.social_image ?? current?.social_image ?? ""}
              error={errors.social_image}
              hint="The picture shown when the post is shared. Empty: a card drawn from the title, category and writer."
            />
            <SocialImageFile error={errors.social_image_file} />
          </div>
        </div>
      </details>
    </>
  );
}

/** The social image as a file: stored like the cover when the form is sent, and its URL kept as the social image. */
function SocialImageFile({ error }: { error?: string }) {
  const id = useId();
  return (
    <div className="flex flex-col gap-1.5">
      <label htmlFor={id} className="text-sm font-medium text-gray-800">
        Or upload a social image
      </label>
      <input
        id={id}
        name="social_image_file"
        type="file"
        accept="image/jpeg,image/png,image/webp,image/gif,image/avif"
        aria-invalid={error ? true : undefined}
        aria-describedby={`${id}-hint${error ? ` ${id}-error` : ""}`}
        className={FILE_INPUT_CLASS}
      />
      <p id={`${id}-hint`} className="text-xs text-gray-500">
        A file you choose here replaces the link beside it: JPEG, PNG, WebP, GIF or AVIF, up to 5 MB.
      </p>
      <FieldError id={id} error={error} />
    </div>
  );
}
