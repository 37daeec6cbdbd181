// Loaded only when the testimonials section nears the viewport (app/components/Testimonials.tsx), so
// Swiper and its stylesheet weigh nothing in the home page's first load (decision 018).
import Swiper from "swiper";
// Its stylesheet is linked by hand when the slider starts: imported as CSS, Vite would wrap this
// chunk's dynamic import in its preload helper, which then rides in every page's first load.
import swiperCss from "swiper/css?url";

/** Spec section 9: 30 px apart, 1 slide, 2 from 640 px, 3 from 1024 px, loop on. */
export const SLIDER_BREAKPOINTS = { 640: { slidesPerView: 2 }, 1024: { slidesPerView: 3 } } as const;

/**
 * Swiper's loop needs more slides than it shows plus the ones it moves round (4 at 3 per view); with
 * twice the most on screen it always has enough, so fewer reviews are repeated until there are.
 */
export const LOOP_MIN_SLIDES = 6;

export interface Slider {
  next(): void;
  prev(): void;
  goTo(index: number): void;
  destroy(): void;
}

/**
 * Starts Swiper on the server-rendered row. Repeats the slides (copies carry the original's index and
 * label) until the loop has enough, and keeps the slides out of view inert, so screen readers and the
 * keyboard meet only the reviews on screen.
 */
export async function startSlider(
  root: HTMLElement,
  count: number,
  onChange: (index: number) => void,
): Promise<Slider> {
  await stylesheet(swiperCss);
  const wrapper = root.querySelector<HTMLElement>(".swiper-wrapper")!;
  const originals = [...wrapper.children] as HTMLElement[];
  for (let copy = 1; copy * count < LOOP_MIN_SLIDES; copy++) {
    for (const slide of originals) {
      const clone = slide.cloneNode(true) as HTMLElement;
      clone.dataset.copy = String(copy);
      wrapper.appendChild(clone);
    }
  }
  const reduced = matchMedia("(prefers-reduced-motion: reduce)").matches;
  const hideOffscreen = (swiper: Swiper) => {
    for (const slide of swiper.slides) {
      const shown = slide.classList.contains("swiper-slide-fully-visible");
      slide.inert = !shown;
      if (shown) slide.removeAttribute("aria-hidden");
      else slide.setAttribute("aria-hidden", "true");
    }
  };
  const swiper = new Swiper(root, {
    spaceBetween: 30,
    slidesPerView: 1,
    breakpoints: SLIDER_BREAKPOINTS,
    loop: true,
    speed: reduced ? 0 : 400,
    watchSlidesProgress: true,
    on: {
      afterInit: hideOffscreen,
      slideChangeTransitionStart: (s) => {
        for (const slide of s.slides) slide.removeAttribute("aria-hidden");
      },
      slideChangeTransitionEnd: hideOffscreen,
      transitionEnd: hideOffscreen,
      resize: hideOffscreen,
      realIndexChange: (s) => onChange(s.realIndex % count),
    },
  });
  hideOffscreen(swiper);
  return {
    next: () => swiper.slideNext(),
    prev: () => swiper.slidePrev(),
    // A copy of the review may be nearer, but the original is always in the loop.
    goTo: (index) => swiper.slideToLoop(index),
    destroy: () => swiper.destroy(true, true),
  };
}

function stylesheet(href: string): Promise<void> {
  if (document.querySelector(`link[href="${href}"]`)) return Promise.resolve();
  const link = document.createElement("link");
  link.rel = "stylesheet";
  link.href = href;
  const loaded = new Promise<void>((resolve) => {
    link.onload = link.onerror = () => resolve();
  });
  document.head.appendChild(link);
  return loaded;
}
