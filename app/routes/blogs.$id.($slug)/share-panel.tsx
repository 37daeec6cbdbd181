import { useEffect, useRef, useState, type ReactNode } from "react";
import { FacebookIcon, LinkIcon, LinkedInIcon, TwitterIcon, WhatsAppIcon } from "#app/components/icons.tsx";
import { MSG } from "#app/lib/messages.ts";
import { shareTargets, type ShareTargetName } from "#app/lib/share.ts";
import { actionButton } from "./reactions";
import { copyText } from "#app/lib/clipboard.ts";

const SHARE_ICONS: Record<ShareTargetName, (p: { width?: number; height?: number }) => ReactNode> = {
  Facebook: FacebookIcon,
  Twitter: TwitterIcon,
  LinkedIn: LinkedInIcon,
  WhatsApp: WhatsAppIcon,
};

/**
 * Whether the share panel is open: it opens by itself when the link says `#share` (the "Share it" way on
 * after posting), and Escape closes it, handing focus back to its toggle. Opened from its toggle, focus goes
 * to its first way to share: the panel sits after the whole row of actions, so Tab would otherwise reach
 * Save before it.
 */
export function useSharePanel(panelId: string) {
  const [open, setOpen] = useState(false);
  const focusOnOpen = useRef(false);
  useEffect(() => {
    if (!open || !focusOnOpen.current) return;
    focusOnOpen.current = false;
    document.getElementById(panelId)?.querySelector<HTMLElement>("a[href], button")?.focus();
  }, [open, panelId]);
  const toggle = () => {
    focusOnOpen.current = !open;
    setOpen(!open);
  };
  useEffect(() => {
    if (window.location.hash !== "#share") return;
    setOpen(true);
    document.getElementById(panelId)?.scrollIntoView({ block: "center" });
  }, [panelId]);
  useEffect(() => {
    if (!open) return;
    const onKey = (event: KeyboardEvent) => {
      if (event.key !== "Escape") return;
      setOpen(false);
      document.querySelector<HTMLElement>(`[aria-controls="${CSS.escape(panelId)}"]`)?.focus();
    };
    document.addEventListener("keydown", onKey);
    return () => document.removeEventListener("keydown", onKey);
  }, [open, panelId]);
  return [open, toggle] as const;
}

export function SharePanel({
  link,
  title,
  fediverse,
}: {
  link: string;
  title: string;
  /** Likes and boosts from Mastodon and other fediverse servers. */
  fediverse?: { likes: number; boosts: number };
}) {
  // "Copied" shows on the button itself for a few seconds (and is announced): no blocking alert.
  const [copied, setCopied] = useState(false);
  useEffect(() => {
    if (!copied) return;
    const timer = window.setTimeout(() => setCopied(false), 4000);
    return () => window.clearTimeout(timer);
  }, [copied]);
  const copy = async () => {
    await copyText(link);
    setCopied(true);
  };

  return (
    <section aria-labelledby="share-heading" className="mt-4 rounded-2xl border border-gray-200 bg-white p-4 shadow-sm">
      <h2 id="share-heading" className="text-sm font-semibold text-ink">
        Share this post
      </h2>
      <ul className="mt-3 flex flex-wrap gap-2">
        {shareTargets(link, title).map((t) => {
          const Icon = SHARE_ICONS[t.name];
          return (
            <li key={t.name}>
              <a href={t.href} target="_blank" rel="noopener noreferrer" className={actionButton}>
                <Icon width={18} height={18} />
                {t.name}
                <span className="sr-only"> (opens in a new tab)</span>
              </a>
            </li>
          );
        })}
        <li data-toggle="">
          <button type="button" onClick={() => void copy()} className={actionButton} data-copy-link={link}>
            <LinkIcon />
            <span data-label="">{copied ? "Copied" : "Copy Link"}</span>
          </button>
          <span role="status" className="sr-only" data-copied={MSG.copyLink}>
            {copied ? MSG.copyLink : ""}
          </span>
        </li>
      </ul>
      <p className="mt-3 break-all text-xs text-gray-600">
        Link: <span data-testid="shared-link">{link}</span>
      </p>
      {fediverse && fediverse.likes + fediverse.boosts > 0 ? (
        <p className="mt-2 text-xs text-gray-600" data-testid="fediverse-reactions">
          {`From the fediverse: ${fediverse.likes} ${fediverse.likes === 1 ? "like" : "likes"} · ${fediverse.boosts} ${fediverse.boosts === 1 ? "boost" : "boosts"}`}
        </p>
      ) : null}
    </section>
  );
}
