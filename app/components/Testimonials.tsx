import { useRef, useState } from "react";
import type { Review } from "#worker/services/reviews.ts";
import { useHydrated } from "#app/lib/use-hydrated.ts";
import { ChevronLeftIcon, ChevronRightIcon } from "./icons";
import { Image } from "./Image";
import { StarRating } from "./StarRating";

/**
 * The testimonials slider (spec section 9: 30 px apart, 1 slide, 2 from 640 px, 3 from 1024 px, loop
 * on; arrows and clickable bullets). A small component of our own instead of Swiper (decision 018):
 * the slides are drawn starting at the current one and wrapping round, so it loops for any number of
 * reviews, and CSS (not a measurement) decides how many show at each width. Without JavaScript (and
 * before hydration) the reviews are a row that scrolls sideways with snap points.
 */
export function Testimonials({ reviews }: { reviews: Review[] }) {
  const hydrated = useHydrated();
  const [start, setStart] = useState(0);
  const track = useRef<HTMLDivElement>(null);
  const count = reviews.length;
  const canMove = hydrated && count > 1;

  const go = (to: number, direction: 1 | -1) => {
    if (!canMove) return;
    setStart(((to % count) + count) % count);
    // The new first slide glides in from where it was; nothing moves for people who ask for less motion.
    const list = track.current;
    const first = list?.firstElementChild as HTMLElement | null;
    if (!list || !first || matchMedia("(prefers-reduced-motion: reduce)").matches) return;
    const step = first.offsetWidth + 30;
    list.animate([{ transform: `translateX(${direction * step}px)` }, { transform: "none" }], {
      duration: 350,
      easing: "cubic-bezier(0.25, 0.8, 0.25, 1)",
    });
  };

  const ordered = Array.from({ length: count }, (_, i) => (start + i) % count);

  return (
    <div
      className="testimonials"
      data-carousel={hydrated ? "ready" : undefined}
      role="group"
      aria-roledescription="carousel"
      aria-label="Reviews"
    >
      <div className="testimonials-viewport">
        {/* Without JavaScript the row scrolls, so it can be reached and scrolled from the keyboard. */}
        <div
          ref={track}
          className="testimonials-track"
          tabIndex={hydrated ? undefined : 0}
          role={hydrated ? undefined : "region"}
          aria-label={hydrated ? undefined : "Reviews, scroll sideways for more"}
        >
          {ordered.map((index) => {
            const r = reviews[index]!;
            return (
              <div
                key={r._id}
                className="testimonials-slide"
                data-index={index}
                role="group"
                aria-roledescription="slide"
                aria-label={`${index + 1} of ${count}`}
              >
                <figure className="flex h-full flex-col rounded-2xl border border-gray-200 bg-white p-6 shadow-sm">
                  <svg viewBox="0 0 32 32" width={32} height={32} aria-hidden="true" className="text-brand-100">
                    <path
                      fill="currentColor"
                      d="M13 8H7a4 4 0 0 0-4 4v6a2 2 0 0 0 2 2h5c0 2.2-1.3 4-4 4v3c5 0 8-3.6 8-9V10a2 2 0 0 0-2-2zm16 0h-6a4 4 0 0 0-4 4v6a2 2 0 0 0 2 2h5c0 2.2-1.3 4-4 4v3c5 0 8-3.6 8-9V10a2 2 0 0 0-2-2z"
                    />
                  </svg>
                  <StarRating value={r.rating} size={24} className="mt-3" />
                  <blockquote className="mt-4 flex-1 text-[15px] leading-relaxed text-gray-700">
                    <p>{r.review}</p>
                  </blockquote>
                  <figcaption className="mt-6 flex items-center gap-3 border-t border-gray-100 pt-5">
                    <Image
                      src={r.image}
                      alt={r.name}
                      width={48}
                      height={48}
                      sizes="48px"
                      maxWidth={320}
                      className="h-12 w-12 rounded-full object-cover ring-2 ring-white shadow"
                    />
                    <span>
                      <span className="block font-semibold text-ink">{r.name}</span>
                      <span className="block text-sm text-gray-600">{r.designation}</span>
                    </span>
                  </figcaption>
                </figure>
              </div>
            );
          })}
        </div>
      </div>
      <p className="sr-only" aria-live="polite">
        {hydrated ? `Review ${start + 1} of ${count}: ${reviews[start]?.name ?? ""}` : ""}
      </p>
      {/* The controls are drawn from the start (no shift when they come alive) and work once hydrated. */}
      <div className="mt-8 flex items-center justify-center gap-4">
        <button
          type="button"
          aria-label="Previous review"
          disabled={!canMove}
          onClick={() => go(start - 1, -1)}
          className={arrowClass}
        >
          <ChevronLeftIcon />
        </button>
        <div className="flex flex-wrap items-center justify-center">
          {reviews.map((r, index) => (
            <button
              key={r._id}
              type="button"
              aria-label={`Go to review ${index + 1}`}
              aria-current={hydrated && index === start ? "true" : undefined}
              disabled={!canMove}
              onClick={() => go(index, index >= start ? 1 : -1)}
              className="testimonials-bullet"
            />
          ))}
        </div>
        <button
          type="button"
          aria-label="Next review"
          disabled={!canMove}
          onClick={() => go(start + 1, 1)}
          className={arrowClass}
        >
          <ChevronRightIcon />
        </button>
      </div>
    </div>
  );
}

const arrowClass =
  "flex h-11 w-11 shrink-0 items-center justify-center rounded-full border border-gray-300 bg-white text-gray-700 shadow-sm transition hover:border-brand-500 hover:text-brand-700 disabled:cursor-default disabled:opacity-50";
