import { Link } from "@remix-run/react";

/**
 * The top bar's bell (signed-in only): a link to /notifications with the unread count. The count comes
 * from the signed-in layout's loader, which is never cached for anyone else.
 */
export function NotificationBell({ unread }: { unread: number }) {
  const shown = unread > 99 ? "99+" : String(unread);
  return (
    <Link
      to="/notifications"
      aria-label={unread > 0 ? `Notifications, ${unread} unread` : "Notifications"}
      data-testid="notification-bell"
      className="relative flex h-10 w-10 shrink-0 items-center justify-center rounded-full text-gray-700 hover:bg-gray-100 hover:text-brand-700"
    >
      <svg
        width={22}
        height={22}
        viewBox="0 0 24 24"
        fill="none"
        stroke="currentColor"
        strokeWidth={1.8}
        strokeLinecap="round"
        strokeLinejoin="round"
        aria-hidden="true"
      >
        <path d="M6 8a6 6 0 1 1 12 0c0 7 3 9 3 9H3s3-2 3-9" />
        <path d="M10.3 21a1.94 1.94 0 0 0 3.4 0" />
      </svg>
      {unread > 0 ? (
        <span
          data-testid="notification-count"
          className="absolute -right-0.5 -top-0.5 min-w-5 rounded-full bg-red-600 px-1.5 text-center text-[11px] font-bold leading-5 text-white"
        >
          {shown}
        </span>
      ) : null}
    </Link>
  );
}
