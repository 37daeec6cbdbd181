import type { ReactNode } from "react";

/** A small centred card for one-step pages (newsletter confirmation and unsubscribe). */
export function NoticeCard({
  title,
  tone = "success",
  children,
}: {
  title: string;
  tone?: "success" | "warning";
  children?: ReactNode;
}) {
  return (
    <div className="mx-auto flex max-w-lg px-4 py-16 sm:py-24">
      <section
        aria-labelledby="notice-title"
        className="w-full rounded-2xl border border-gray-200 bg-white p-6 text-center shadow-sm sm:p-8"
      >
        <div
          aria-hidden="true"
          className={`mx-auto flex h-14 w-14 items-center justify-center rounded-full border-4 text-2xl font-bold ${
            tone === "success" ? "border-green-300 text-green-600" : "border-amber-300 text-amber-500"
          }`}
        >
          {tone === "success" ? "✓" : "!"}
        </div>
        <h1 id="notice-title" className="mt-4 text-2xl font-bold text-ink">
          {title}
        </h1>
        <div className="mt-2 text-gray-700">{children}</div>
      </section>
    </div>
  );
}
