import type { Holdings } from "#worker/services/accounts/users-admin.ts";

const counted = (n: number, cap: number, one: string, many: string) =>
  `${n >= cap ? `more than ${(cap - 1).toLocaleString("en-US")}` : n.toLocaleString("en-US")} ${n === 1 ? one : many}`;

/**
 * What deleting an account takes with it, in words: the same sentence in the dialog (with
 * JavaScript) and on the /confirm page (without).
 */
export function holdingsText(h: Holdings): string {
  const parts = [
    counted(h.posts, h.cap, "post", "posts"),
    counted(h.comments, h.cap, "comment", "comments"),
    counted(h.likes, h.cap, "like", "likes"),
    counted(h.saves, h.cap, "saved post", "saved posts"),
  ];
  return `Deleting ${h.name}'s account also deletes ${parts.slice(0, -1).join(", ")} and ${parts.at(-1)}. You won't be able to revert this!`;
}
