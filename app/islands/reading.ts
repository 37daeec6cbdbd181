/**
 * The reading pages' islands (docs/decisions/059): what must run in an anonymous reader's browser on a
 * page served without the framework. Bundled and minified by esbuild at build time (vite.config.ts,
 * `virtual:reading-islands`) and written inline at the end of the page with the render's CSP nonce, so a
 * shared page's CSP lists its hash like the theme script's. Each part looks for its own markup and does
 * nothing on a page without it; the same markup is what the hydrated app's components render.
 * Imports only React-free modules: the whole bundle stays a few KB.
 */
import type { Slider } from "#app/components/testimonials-swiper.ts";
import { localizeTimes } from "#app/lib/local-times.ts";
import { newsletterFromPost } from "#app/lib/newsletter-from.ts";
import { currentTheme, setTheme } from "#app/lib/theme.ts";
import { HEADLINE_PHRASES, nextStep, whenIdleAfterLoad, type Step } from "#app/lib/typed-headline.ts";
import { copyText } from "#app/lib/clipboard.ts";

const script = document.currentScript;

// Dates in the reader's own time zone (the one rule: app/lib/local-times.ts).
localizeTimes(document);

// The theme toggle (app/components/ThemeToggle.tsx): the head script already applied the theme.
for (const toggle of document.querySelectorAll<HTMLButtonElement>("[data-theme-toggle]")) {
  const sync = () => toggle.setAttribute("aria-pressed", String(currentTheme() === "dark"));
  sync();
  toggle.addEventListener("click", () => {
    setTheme(currentTheme() === "dark" ? "light" : "dark");
    sync();
  });
}

// Escape closes an open menu (a <details>: app/components/Disclosure.tsx) and hands focus back to its button.
document.addEventListener("keydown", (event) => {
  if (event.key !== "Escape") return;
  const menu = (event.target as Element | null)?.closest?.("details[open]");
  if (!(menu instanceof HTMLDetailsElement)) return;
  menu.open = false;
  menu.querySelector("summary")?.focus();
});

// The hero's typed headline (app/components/TypedHeadline.tsx), still under prefers-reduced-motion.
const typed = document.querySelector<HTMLElement>("[data-typed-phrase]");
if (typed) {
  const text = typed.firstChild instanceof Text ? typed.firstChild : typed.insertBefore(new Text(""), typed.firstChild);
  const still = matchMedia("(prefers-reduced-motion: reduce)");
  let step: Step = { index: 0, length: HEADLINE_PHRASES[0].length, deleting: false };
  let timer = 0;
  const tick = () => {
    const [next, delay] = nextStep(step, HEADLINE_PHRASES);
    timer = window.setTimeout(() => {
      step = next;
      // Only a real change touches the text (a pause is a step too): observers see one change a character.
      const shown = HEADLINE_PHRASES[step.index]!.slice(0, step.length);
      if (text.data !== shown) text.data = shown;
      tick();
    }, delay);
  };
  const update = () => {
    window.clearTimeout(timer);
    if (!still.matches) tick();
  };
  whenIdleAfterLoad(update);
  still.addEventListener("change", update);
}

// A post's toggled panels (Comment, Share): the toggle shows or hides its panel.
const panels = new Map<HTMLButtonElement, HTMLElement>();
for (const button of document.querySelectorAll<HTMLButtonElement>("button[data-toggle][aria-controls]")) {
  const panel = document.getElementById(button.getAttribute("aria-controls") ?? "");
  if (panel) panels.set(button, panel);
}
const isOpen = (panel: HTMLElement) => !panel.classList.contains("hidden");
const setOpen = (button: HTMLButtonElement, open: boolean) => {
  // Classes, not the `hidden` attribute: without JavaScript a <noscript> style shows every panel.
  const panel = panels.get(button)!;
  panel.classList.toggle("hidden", !open);
  panel.classList.toggle("mt-4", open);
  button.setAttribute("aria-expanded", String(open));
  // An opened Share panel takes focus on its first way to share, so Tab goes through it before Save (as the
  // app's useSharePanel does).
  if (open && button.dataset.shareUrl) panel.querySelector<HTMLElement>("a[href], button")?.focus();
};
for (const [button, panel] of panels) {
  button.addEventListener("click", () => {
    const url = button.dataset.shareUrl;
    // Share: the device's own share sheet where there is one, else the panel with the link to copy.
    if (url && !isOpen(panel) && navigator.share) {
      navigator.share({ url, title: button.dataset.shareTitle }).catch((err: unknown) => {
        if ((err as Error | null)?.name !== "AbortError") setOpen(button, true);
      });
      return;
    }
    setOpen(button, !isOpen(panel));
  });
}
const share = [...panels.keys()].find((b) => b.dataset.shareUrl);
if (share) {
  // The "Share it" way after posting links to #share: the panel opens by itself.
  if (location.hash === "#share") {
    setOpen(share, true);
    panels.get(share)!.scrollIntoView({ block: "center" });
  }
  // Escape closes the share panel and hands focus back to its toggle.
  document.addEventListener("keydown", (event) => {
    if (event.key !== "Escape" || !isOpen(panels.get(share)!)) return;
    setOpen(share, false);
    share.focus();
  });
}

// Copy Link (the share panel) and Copy handle (the fediverse handle): the clipboard, or a selection copy where it is refused; "Copied" for 4 s.
for (const button of document.querySelectorAll<HTMLButtonElement>("button[data-copy-link]")) {
  const label = button.querySelector("[data-label]");
  const status = button.parentElement?.querySelector<HTMLElement>("[data-copied]");
  let timer = 0;
  button.addEventListener("click", () => {
    const link = button.dataset.copyLink ?? location.href;
    const copied = () => {
      if (label) label.textContent = "Copied";
      if (status) status.textContent = status.dataset.copied ?? "";
      window.clearTimeout(timer);
      timer = window.setTimeout(() => {
        if (label) label.textContent = "Copy Link";
        if (status) status.textContent = "";
      }, 4000);
    };
    void copyText(link).then(copied);
  });
}

// The newsletter form credits the post the reader came from (app/components/NewsletterForm.tsx).
for (const input of document.querySelectorAll<HTMLInputElement>("input[data-newsletter-from]")) {
  input.value = newsletterFromPost();
}

// A post's view: its own request, so a view counts when the page came from the edge cache.
const view = document.querySelector<HTMLElement>("[data-view-beacon]")?.dataset.viewBeacon;
if (view) navigator.sendBeacon?.(view);

// The testimonials slider: Swiper's own module (app/components/testimonials-swiper.ts, its URL from
// the build's manifest) loads when the slider comes within 400 px of the viewport.
const box = document.querySelector<HTMLElement>(".testimonials");
const viewport = box?.querySelector<HTMLElement>(".testimonials-viewport");
const sliderModule = script?.dataset.slider;
if (box && viewport && sliderModule) {
  const slides = [...viewport.querySelectorAll<HTMLElement>(".testimonials-slide")];
  const count = slides.length;
  const bullets = [...box.querySelectorAll<HTMLButtonElement>(".testimonials-bullet")];
  const live = box.querySelector("[aria-live]");
  const onChange = (index: number) => {
    bullets.forEach((b, i) =>
      i === index ? b.setAttribute("aria-current", "true") : b.removeAttribute("aria-current"),
    );
    if (live) live.textContent = `Review ${index + 1} of ${count}: ${slides[index]?.dataset.name ?? ""}`;
  };
  const start = async () => {
    const { startSlider } = (await import(/* @vite-ignore */ sliderModule)) as {
      startSlider: (root: HTMLElement, count: number, onChange: (index: number) => void) => Promise<Slider>;
    };
    const slider = await startSlider(viewport, count, onChange);
    const track = viewport.querySelector(".testimonials-track");
    for (const name of ["tabindex", "role", "aria-label"]) track?.removeAttribute(name);
    box.querySelector("[data-slider=prev]")?.addEventListener("click", () => slider.prev());
    box.querySelector("[data-slider=next]")?.addEventListener("click", () => slider.next());
    bullets.forEach((b, i) => b.addEventListener("click", () => slider.goTo(i)));
    for (const button of box.querySelectorAll("button")) button.disabled = false;
    box.dataset.carousel = "ready";
    onChange(0);
  };
  if (count > 1) {
    const observer = new IntersectionObserver(
      (entries) => {
        if (!entries.some((e) => e.isIntersecting)) return;
        observer.disconnect();
        void start();
      },
      { rootMargin: "400px 0px" },
    );
    observer.observe(viewport);
  }
}
