import { LocalTime } from "./LocalTime";

/**
 * When a newsletter subscriber subscribed, the same on every page that lists them (Inbox, Newsletter): the
 * service's one `subscribed_at`, in the reader's zone; a pending or unsubscribed address says so instead.
 */
export function SubscribedAt({
  subscriber,
}: {
  subscriber: { state: "pending" | "confirmed" | "unsubscribed"; subscribed_at: string | null };
}) {
  if (subscriber.subscribed_at) return <LocalTime iso={subscriber.subscribed_at} withTime />;
  return <span>{subscriber.state === "pending" ? "Not confirmed yet" : "No longer subscribed"}</span>;
}
