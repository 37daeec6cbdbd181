import type { ReactNode } from "react";
import { useBrand } from "#app/lib/site-name.ts";
import { FacebookButton, GoogleButton } from "./SocialSignIn";
import type { GoogleIntent } from "#app/lib/google-popup.ts";
import { containerClass } from "./ui";

/** The frame of /login and /register: a welcome panel beside the form on wide screens, the form alone on phones. */
export function AuthLayout({
  title,
  subtitle,
  aside,
  children,
}: {
  title: string;
  /** The line under the title; none where the page says its one sentence elsewhere (a status box). */
  subtitle?: string;
  aside: { heading: string; text: string };
  children: ReactNode;
}) {
  const brand = useBrand();
  return (
    <div className="bg-gradient-to-b from-brand-50 to-white">
      <div
        className={containerClass({
          width: "6xl",
          className: "grid gap-10 py-10 sm:py-16 lg:grid-cols-2 lg:items-center",
        })}
      >
        <section aria-hidden="true" className="hidden lg:block">
          <div className="relative overflow-hidden rounded-3xl bg-brand-600 p-10 text-white shadow-xl">
            <div className="absolute -right-16 -top-16 h-56 w-56 rounded-full bg-white/10" />
            <div className="absolute -bottom-20 -left-10 h-64 w-64 rounded-full bg-white/5" />
            <p className="relative text-sm font-semibold uppercase tracking-widest text-brand-100">{brand}</p>
            <h2 className="relative mt-4 text-3xl font-bold leading-tight">{aside.heading}</h2>
            <p className="relative mt-4 text-brand-100">{aside.text}</p>
            <ul className="relative mt-8 space-y-3 text-sm">
              {[
                "Write and edit your own stories",
                "Save posts to read later",
                "Share ideas with readers everywhere",
              ].map((item) => (
                <li key={item} className="flex items-center gap-3">
                  <span className="flex h-6 w-6 items-center justify-center rounded-full bg-white/15">✓</span>
                  {item}
                </li>
              ))}
            </ul>
          </div>
        </section>

        <section className="mx-auto w-full max-w-md rounded-2xl border border-gray-200 bg-white p-6 shadow-sm sm:p-8">
          <h1 className="text-2xl font-bold tracking-tight text-ink sm:text-3xl">{title}</h1>
          {subtitle ? <p className="mt-2 text-sm text-gray-600">{subtitle}</p> : null}
          <div className="mt-6">{children}</div>
        </section>
      </div>
    </div>
  );
}

/** The "or" divider and the two provider buttons, shared by both pages. */
export function ProviderButtons({ intent, redirectTo }: { intent: GoogleIntent; redirectTo: string }) {
  return (
    <>
      <div className="my-6 flex items-center gap-3 text-xs font-medium uppercase tracking-wider text-gray-500">
        <span className="h-px flex-1 bg-gray-200" />
        or
        <span className="h-px flex-1 bg-gray-200" />
      </div>
      <div className="flex flex-col gap-3">
        <GoogleButton intent={intent} redirectTo={redirectTo} />
        <FacebookButton />
      </div>
    </>
  );
}
