/** A form value or a stored one, as a person reads it: trimmed, LF line breaks, a list as "a, b". */
function readable(value: unknown): string {
  if (Array.isArray(value)) return value.map(readable).join(", ");
  if (typeof value === "boolean") return value ? "on" : "off";
  return typeof value === "string" || typeof value === "number" ? String(value).replace(/\r\n?/g, "\n").trim() : "";
}

function sentence(parts: string[]): string {
  if (parts.length <= 1) return parts.join("");
  return `${parts.slice(0, -1).join(", ")} and ${parts[parts.length - 1]}`;
}

/**
 * What a save changed, in a person's words ("Changed: the title and the tags."), from the values before and
 * the form's answers: a field the form did not carry (undefined) is not a change. "" when nothing is named,
 * so a confirmation says what changed once instead of a second copy of its title.
 */
export function whatChanged(
  before: object,
  after: object,
  labels: Record<string, string>,
  extra: string[] = [],
): string {
  const was = before as Record<string, unknown>;
  const now = after as Record<string, unknown>;
  const named = Object.entries(labels)
    .filter(([key]) => now[key] !== undefined && now[key] !== null && readable(now[key]) !== readable(was[key]))
    .map(([key, label]) => (readable(now[key]) === "" ? `${label} (now empty)` : label));
  const all = [...named, ...extra];
  return all.length ? `Changed: ${sentence(all)}.` : "";
}
