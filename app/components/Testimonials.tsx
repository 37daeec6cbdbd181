import { Image } from "./Image";
// Swiper is imported here only, and this component is used only by the home page, so only the
// home route's chunk (and CSS) carries it.
import { A11y, Navigation, Pagination } from "swiper/modules";
import { ChevronLeftIcon, ChevronRightIcon } from "./icons";
import { Swiper, SwiperSlide } from "swiper/react";
import "swiper/css";
import "swiper/css/a11y";
import "swiper/css/pagination";
import "./testimonials.css";
import type { Review } from "#worker/services/reviews";
import { StarRating } from "./StarRating";

/** Spec section 9: spacing 30, 1 slide, 2 from 640 px, 3 from 1024 px, loop on. */
export const SLIDER_BREAKPOINTS = { 640: { slidesPerView: 2 }, 1024: { slidesPerView: 3 } } as const;

const arrowClass =
  "flex h-11 w-11 shrink-0 items-center justify-center rounded-full border border-gray-300 bg-white text-gray-700 shadow-sm transition hover:border-brand-500 hover:text-brand-700";

export function Testimonials({ reviews }: { reviews: Review[] }) {
  return (
    <div className="testimonials">
      <Swiper
        modules={[A11y, Navigation, Pagination]}
        spaceBetween={30}
        slidesPerView={1}
        breakpoints={SLIDER_BREAKPOINTS}
        // Looping needs more slides than are on screen at once.
        loop={reviews.length > 3}
        watchSlidesProgress
        // The controls live outside the slider, in one bar below it. Swiper finds them by these class
        // names when it initialises (refs would still be empty then: it mounts in its own layout effect).
        navigation={{ prevEl: ".testimonials-prev", nextEl: ".testimonials-next" }}
        pagination={{ el: ".testimonials-bullets", clickable: true }}
        a11y={{
          prevSlideMessage: "Previous review",
          nextSlideMessage: "Next review",
          paginationBulletMessage: "Go to review {{index}}",
        }}
      >
        {reviews.map((r) => (
          <SwiperSlide key={r._id} className="!h-auto">
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
          </SwiperSlide>
        ))}
      </Swiper>
      <div className="mt-8 flex items-center justify-center gap-4">
        <button type="button" aria-label="Previous review" className={`testimonials-prev ${arrowClass}`}>
          <ChevronLeftIcon />
        </button>
        <div className="testimonials-bullets flex flex-wrap items-center justify-center" />
        <button type="button" aria-label="Next review" className={`testimonials-next ${arrowClass}`}>
          <ChevronRightIcon />
        </button>
      </div>
    </div>
  );
}
