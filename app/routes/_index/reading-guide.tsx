import { containerClass } from "#app/components/ui.tsx";
import { BOOK_LISTS, READING_BENEFITS, READING_TIPS } from "#app/lib/content.ts";
import { SectionHeading } from "./section-heading.tsx";

/** "Everyday Reading Habit": tips, benefits and the recommended books (fixed content, app/lib/content.ts). */
export function ReadingGuide() {
  return (
    <section
      aria-labelledby="reading-heading"
      className="border-y border-gray-200 bg-gradient-to-b from-amber-50/60 to-white py-16 sm:py-20"
    >
      <div className={containerClass()}>
        <SectionHeading id="reading-heading" eyebrow="Reading guide" title="Everyday Reading Habit">
          Twenty minutes a day is enough to read more than a dozen books a year. Here is how to make it stick.
        </SectionHeading>

        <div className="mt-10 grid gap-10 lg:grid-cols-2">
          <div>
            <h3 className="text-xl font-semibold text-ink">Daily reading tips</h3>
            <ol className="mt-5 space-y-5">
              {READING_TIPS.map((tip, i) => (
                <li key={tip.title} className="flex gap-4">
                  <span
                    className="flex h-8 w-8 shrink-0 items-center justify-center rounded-full bg-brand-600 text-sm font-bold text-white"
                    aria-hidden="true"
                  >
                    {i + 1}
                  </span>
                  <div>
                    <p className="font-semibold text-ink">{tip.title}</p>
                    <p className="mt-1 text-sm leading-relaxed text-gray-600">{tip.text}</p>
                  </div>
                </li>
              ))}
            </ol>
          </div>
          <div>
            <h3 className="text-xl font-semibold text-ink">Benefits of reading</h3>
            <ul className="mt-5 grid gap-4 sm:grid-cols-2">
              {READING_BENEFITS.map((b) => (
                <li key={b.title} className="rounded-2xl border border-gray-200 bg-white p-5 shadow-sm">
                  <p className="font-semibold text-ink">{b.title}</p>
                  <p className="mt-1 text-sm leading-relaxed text-gray-600">{b.text}</p>
                </li>
              ))}
            </ul>
          </div>
        </div>

        <h3 className="mt-14 text-xl font-semibold text-ink">Recommended books</h3>
        <div className="mt-5 grid gap-6 md:grid-cols-3">
          {BOOK_LISTS.map((list) => (
            <div key={list.group} className="rounded-2xl border border-gray-200 bg-white p-6 shadow-sm">
              <h4 className="text-lg font-semibold text-ink">{list.group}</h4>
              <p className="mt-1 text-sm text-gray-600">{list.intro}</p>
              <ul className="mt-4 divide-y divide-gray-100">
                {list.books.map((book) => (
                  <li key={book.title} className="flex items-baseline justify-between gap-3 py-2.5">
                    <cite className="font-medium not-italic text-ink">{book.title}</cite>
                    <span className="shrink-0 text-right text-sm text-gray-600">{book.author}</span>
                  </li>
                ))}
              </ul>
            </div>
          ))}
        </div>
      </div>
    </section>
  );
}
