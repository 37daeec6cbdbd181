import { useEffect, useRef, useState } from "react";
import type { Review } from "#worker/services/reviews.ts";
import type { Slider } from "./testimonials-swiper.ts";
import { ChevronLeftIcon, ChevronRightIcon } from "./icons";
import { Image } from "./Image";
import { StarRating } from "./StarRating";

/**
 * The testimonials slider (spec section 9: 30 px apart, 1 slide, 2 from 640 px, 3 from 1024 px, loop
 * on; arrows and clickable bullets), driven by Swiper (decision 018). The server draws the reviews as a
 * row that scrolls sideways with snap points, which is what a reader without JavaScript gets; when the
 * section nears the viewport, Swiper and its stylesheet are loaded and take over the same row, so they
 * weigh nothing in the page's first load. Fewer reviews than the loop needs are repeated
 * (testimonials-swiper.ts), so it loops for any number of them.
 */
export function Testimonials({ reviews }: { reviews: Review[] }) {
  const [ready, setReady] = useState(false);
  const [active, setActive] = useState(0);
  const root = useRef<HTMLDivElement>(null);
  const slider = useRef<Slider | null>(null);
  const count = reviews.length;
  const canMove = ready && count > 1;

  useEffect(() => {
    const el = root.current;
    if (!el || count < 2) return;
    let cancelled = false;
    const start = () => {
      void import("./testimonials-swiper.ts")
        .then(({ startSlider }) => (cancelled ? null : startSlider(el, count, setActive)))
        .then((started) => {
          if (!started) return;
          slider.current = started;
          setReady(true);
        });
    };
    // Swiper loads when the section is within 400 px of the viewport, not with the page.
    const observer =
      "IntersectionObserver" in window
        ? new IntersectionObserver(
            (entries) => {
              if (!entries.some((e) => e.isIntersecting)) return;
              observer?.disconnect();
              start();
            },
            { rootMargin: "400px 0px" },
          )
        : null;
    if (observer) observer.observe(el);
    else start();
    return () => {
      cancelled = true;
      observer?.disconnect();
      slider.current?.destroy();
      slider.current = null;
    };
  }, [count]);

  return (
    <div
      className="testimonials"
      data-carousel={ready ? "ready" : undefined}
      role="group"
      aria-roledescription="carousel"
      aria-label="Reviews"
    >
      <div ref={root} className="swiper testimonials-viewport">
        {/* Until Swiper runs the row scrolls, so it can be reached and scrolled from the keyboard. */}
        <div
          className="swiper-wrapper testimonials-track"
          tabIndex={ready ? undefined : 0}
          role={ready ? undefined : "region"}
          aria-label={ready ? undefined : "Reviews, scroll sideways for more"}
        >
          {reviews.map((r, index) => {
            return (
              <div
                key={r._id}
                className="swiper-slide testimonials-slide"
                data-index={index}
                data-name={r.name}
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
        {ready ? `Review ${active + 1} of ${count}: ${reviews[active]?.name ?? ""}` : ""}
      </p>
      {/* The controls are drawn from the start (no shift when they come alive) and work once Swiper runs. */}
      <div className="mt-8 flex items-center justify-center gap-4">
        <button
          type="button"
          aria-label="Previous review"
          data-slider="prev"
          disabled={!canMove}
          onClick={() => slider.current?.prev()}
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
              aria-current={ready && index === active ? "true" : undefined}
              disabled={!canMove}
              onClick={() => slider.current?.goTo(index)}
              className="testimonials-bullet"
            />
          ))}
        </div>
        <button
          type="button"
          aria-label="Next review"
          data-slider="next"
          disabled={!canMove}
          onClick={() => slider.current?.next()}
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
