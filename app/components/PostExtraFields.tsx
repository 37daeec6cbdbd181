import { Field } from "#app/components/form.tsx";
import { LIMITS } from "#worker/services/shared/limits.ts";

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
  current?: { tags: string[]; meta_description: string; social_image: string };
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
        open={Boolean(errors.meta_description || errors.social_image)}
      >
        <summary className="cursor-pointer text-sm font-semibold text-ink">Search and sharing (optional)</summary>
        <div className="mt-4 flex flex-col gap-5">
          <Field
            label="Meta description"
            name="meta_description"
            maxLength={LIMITS.metaDescription}
            defaultValue={values.meta_description ?? current?.meta_description ?? ""}
            error={errors.meta_description}
            hint="What search engines show under the title. Empty: the short description."
          />
          <Field
            label="Social image URL"
            name="social_image"
            type="url"
            inputMode="url"
            maxLength={LIMITS.url}
            defaultValue={values.social_image ?? current?.social_image ?? ""}
            error={errors.social_image}
            hint="The picture shown when the post is shared. Empty: the cover image."
          />
        </div>
      </details>
    </>
  );
}
