import { Link } from "@remix-run/react";
import { FOOTER_LABELS, FOOTER_LINKS, SOCIAL_LINKS } from "#app/lib/site.ts";
import { LogoMark, SOCIAL_ICONS } from "./icons";
import { containerClass } from "./ui";

export function Footer({ siteName, ownerName, year }: { siteName: string; ownerName: string; year: number }) {
  return (
    <footer className="border-t border-gray-200 bg-gray-50">
      <div
        className={containerClass({
          className: "flex flex-col gap-8 py-10 md:flex-row md:items-center md:justify-between",
        })}
      >
        <div className="flex items-center gap-2 text-base font-bold text-ink">
          <LogoMark width={24} height={24} className="text-brand-600" />
          {siteName}
        </div>
        <ul className="flex flex-wrap gap-x-6 gap-y-2 text-sm text-gray-600" aria-label="Footer">
          {FOOTER_LABELS.map((label) => (
            <li key={label}>
              <Link to={FOOTER_LINKS[label]} className="hover:text-brand-700 hover:underline">
                {label}
              </Link>
            </li>
          ))}
        </ul>
        <ul className="flex gap-3" aria-label="Social media">
          {SOCIAL_LINKS.map((s) => {
            const Icon = SOCIAL_ICONS[s.name];
            return (
              <li key={s.name}>
                <a
                  href={s.href}
                  rel="noopener noreferrer"
                  target="_blank"
                  className="flex h-9 w-9 items-center justify-center rounded-full bg-white text-gray-600 shadow-sm ring-1 ring-gray-200 hover:text-brand-700"
                >
                  <Icon title={s.name} />
                </a>
              </li>
            );
          })}
        </ul>
      </div>
      <p className="border-t border-gray-200 py-4 text-center text-sm text-gray-600">
        © {year} {ownerName}. All rights reserved.
      </p>
    </footer>
  );
}
