import { normalizeDateTime } from "../../worker/services/blogs";
import { withZone } from "./datetime";

/**
 * The changes a blog edit form asks for, as the blog service's update takes them (the image apart).
 * The date input shows minutes only: the same minute as stored means the field was left alone.
 */
export function blogChangesFrom(form: FormData, storedDateTime: string) {
  let dateTime = withZone(form.get("date_time"), form.get("tz"));
  if (dateTime && normalizeDateTime(dateTime)?.slice(0, 16) === storedDateTime.slice(0, 16)) dateTime = undefined;
  return {
    title: form.get("title"),
    category: form.get("category"),
    short_description: form.get("short_description"),
    blog_details: form.get("blog_details"),
    date_time: dateTime,
  };
}
