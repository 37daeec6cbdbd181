import type { ReactNode } from "react";

const TONES = {
  success: "border-green-300 text-green-600",
  warning: "border-amber-300 text-amber-500",
  ask: "border-brand-200 text-brand-700",
} as const;
const SIGNS = { success: "✓", warning: "!", ask: "✉" } as const;

/** A small centred card for one-step pages (newsletter confirmation and unsubscribe). */
export function NoticeCard({
  title,
  tone = "success",
  children,
}: {
  title: string;
  /** "ask": a step not taken yet (a button to press), so no ✓ before it is done (issue 47). */
  tone?: "success" | "warning" | "ask";
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
          data-tone={tone}
          className={`mx-auto flex h-14 w-14 items-center justify-center rounded-full border-4 text-2xl font-bold ${TONES[tone]}`}
        >
          {SIGNS[tone]}
        </div>
        <h1 id="notice-title" className="mt-4 text-2xl font-bold text-ink">
          {title}
        </h1>
        <div className="mt-2 text-gray-700">{children}</div>
      </section>
    </div>
  );
}
