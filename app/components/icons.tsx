import type { SVGProps } from "react";

type IconProps = SVGProps<SVGSVGElement> & { title?: string };

function Svg({ title, children, ...props }: IconProps & { children: React.ReactNode }) {
  return (
    <svg
      viewBox="0 0 24 24"
      width={20}
      height={20}
      fill="currentColor"
      aria-hidden={title ? undefined : true}
      role={title ? "img" : undefined}
      {...props}
    >
      {title ? <title>{title}</title> : null}
      {children}
    </svg>
  );
}

export const FacebookIcon = (p: IconProps) => (
  <Svg {...p}>
    <path d="M13.5 21v-7.5h2.5l.4-3h-2.9V8.6c0-.9.3-1.5 1.5-1.5h1.5V4.4c-.3 0-1.2-.1-2.2-.1-2.2 0-3.7 1.3-3.7 3.8v2.4H8.1v3h2.5V21h2.9z" />
  </Svg>
);
export const TwitterIcon = (p: IconProps) => (
  <Svg {...p}>
    <path d="M17.8 3h3.1l-6.8 7.7L22 21h-6.2l-4.9-6.3L5.3 21H2.2l7.3-8.3L1.8 3h6.4l4.4 5.8L17.8 3zm-1.1 16.2h1.7L7.4 4.7H5.5l11.2 14.5z" />
  </Svg>
);
export const LinkedInIcon = (p: IconProps) => (
  <Svg {...p}>
    <path d="M6.9 8.8H3.6V20h3.3V8.8zM5.2 3.5a1.9 1.9 0 1 0 0 3.8 1.9 1.9 0 0 0 0-3.8zM20.4 13.6c0-3-1.6-4.9-4.2-4.9-1.5 0-2.5.8-2.9 1.6V8.8h-3.2V20h3.3v-5.6c0-1.5.3-2.9 2.1-2.9 1.8 0 1.8 1.7 1.8 3V20h3.3l-.2-6.4z" />
  </Svg>
);
export const GitHubIcon = (p: IconProps) => (
  <Svg {...p}>
    <path d="M12 2a10 10 0 0 0-3.2 19.5c.5.1.7-.2.7-.5v-1.7c-2.8.6-3.4-1.3-3.4-1.3-.5-1.2-1.1-1.5-1.1-1.5-.9-.6.1-.6.1-.6 1 .1 1.5 1 1.5 1 .9 1.5 2.4 1.1 2.9.8.1-.7.4-1.1.7-1.3-2.2-.3-4.6-1.1-4.6-5 0-1.1.4-2 1-2.7-.1-.3-.4-1.3.1-2.7 0 0 .8-.3 2.8 1a9.6 9.6 0 0 1 5 0c1.9-1.3 2.8-1 2.8-1 .5 1.4.2 2.4.1 2.7.6.7 1 1.6 1 2.7 0 3.9-2.4 4.7-4.6 5 .4.3.7.9.7 1.9V21c0 .3.2.6.7.5A10 10 0 0 0 12 2z" />
  </Svg>
);
export const InstagramIcon = (p: IconProps) => (
  <Svg {...p}>
    <path d="M12 7.3a4.7 4.7 0 1 0 0 9.4 4.7 4.7 0 0 0 0-9.4zm0 7.7a3 3 0 1 1 0-6 3 3 0 0 1 0 6zm6-7.9a1.1 1.1 0 1 1-2.2 0 1.1 1.1 0 0 1 2.2 0zM21.9 8.2c-.1-1.6-.4-3-1.6-4.2-1.2-1.2-2.6-1.5-4.2-1.6-1.6-.1-6.6-.1-8.2 0-1.6.1-3 .4-4.2 1.6C2.5 5.2 2.2 6.6 2.1 8.2c-.1 1.6-.1 6.6 0 8.2.1 1.6.4 3 1.6 4.2 1.2 1.2 2.6 1.5 4.2 1.6 1.6.1 6.6.1 8.2 0 1.6-.1 3-.4 4.2-1.6 1.2-1.2 1.5-2.6 1.6-4.2.1-1.6.1-6.6 0-8.2zm-2.1 10a3 3 0 0 1-1.7 1.7c-1.2.5-4 .4-5.3.4s-4.1.1-5.3-.4a3 3 0 0 1-1.7-1.7c-.5-1.2-.4-4-.4-5.3s-.1-4.1.4-5.3A3 3 0 0 1 7.5 4c1.2-.5 4-.4 5.3-.4s4.1-.1 5.3.4a3 3 0 0 1 1.7 1.7c.5 1.2.4 4 .4 5.3s.1 4.1-.4 5.3z" />
  </Svg>
);
export const MenuIcon = (p: IconProps) => (
  <Svg {...p} fill="none" stroke="currentColor" strokeWidth={2} strokeLinecap="round">
    <path d="M4 6h16M4 12h16M4 18h16" />
  </Svg>
);
export const SearchIcon = (p: IconProps) => (
  <Svg {...p} fill="none" stroke="currentColor" strokeWidth={2} strokeLinecap="round">
    <circle cx="11" cy="11" r="7" />
    <path d="m20 20-3.5-3.5" />
  </Svg>
);
export const LogoMark = (p: IconProps) => (
  <Svg {...p} viewBox="0 0 32 32">
    <rect width="32" height="32" rx="8" fill="currentColor" />
    <path d="M9 22.5 10.4 17 20 7.4a2 2 0 0 1 2.8 0l1.8 1.8a2 2 0 0 1 0 2.8L15 21.6l-6 .9z" fill="#fff" />
  </Svg>
);

/** The social networks the site links to, by the name the content uses. */
export const SOCIAL_ICONS = {
  Facebook: FacebookIcon,
  Twitter: TwitterIcon,
  LinkedIn: LinkedInIcon,
  Instagram: InstagramIcon,
};

// Line icons (post page, dashboard menu, feature lists): one drawing style, by path.
export function LineIcon({
  d,
  size = 18,
  strokeWidth = 2,
  filled = false,
  className,
}: {
  d: string;
  size?: number;
  strokeWidth?: number;
  filled?: boolean;
  className?: string;
}) {
  return (
    <svg
      viewBox="0 0 24 24"
      width={size}
      height={size}
      aria-hidden="true"
      fill={filled ? "currentColor" : "none"}
      stroke="currentColor"
      strokeWidth={strokeWidth}
      strokeLinecap="round"
      strokeLinejoin="round"
      className={className}
    >
      <path d={d} />
    </svg>
  );
}

export const HeartIcon = ({ filled }: { filled: boolean }) => (
  <LineIcon filled={filled} d="M20.8 8.6a5 5 0 0 0-8.8-3.2 5 5 0 0 0-8.8 3.2c0 5.4 8.8 11.4 8.8 11.4s8.8-6 8.8-11.4z" />
);
export const ChevronLeftIcon = () => <LineIcon d="M15 18l-6-6 6-6" size={20} />;
export const ChevronRightIcon = () => <LineIcon d="M9 6l6 6-6 6" size={20} />;
export const MenuLinesIcon = ({ className }: { className?: string }) => (
  <LineIcon d="M4 6h16M4 12h16M4 18h16" size={20} className={className} />
);
export const CommentIcon = () => <LineIcon d="M4 5h16v11H8l-4 4z" />;
export const ShareIcon = () => <LineIcon d="M16 6l-4-4-4 4M12 2v13M5 12v7a2 2 0 0 0 2 2h10a2 2 0 0 0 2-2v-7" />;
export const BookmarkIcon = ({ filled }: { filled: boolean }) => <LineIcon filled={filled} d="M6 3h12v18l-6-4-6 4z" />;
export const LinkIcon = () => (
  <LineIcon d="M10 14a4 4 0 0 0 5.7 0l3-3a4 4 0 0 0-5.7-5.7l-1 1M14 10a4 4 0 0 0-5.7 0l-3 3a4 4 0 0 0 5.7 5.7l1-1" />
);
export function WhatsAppIcon({ width = 18, height = 18 }: { width?: number; height?: number }) {
  return (
    <svg viewBox="0 0 24 24" width={width} height={height} aria-hidden="true" fill="currentColor">
      <path d="M12 2a10 10 0 0 0-8.6 15.1L2 22l5-1.3A10 10 0 1 0 12 2zm0 18.2a8.2 8.2 0 0 1-4.2-1.2l-.3-.2-3 .8.8-2.9-.2-.3A8.2 8.2 0 1 1 12 20.2zm4.5-6.1c-.2-.1-1.5-.7-1.7-.8-.2-.1-.4-.1-.6.1l-.8 1c-.1.2-.3.2-.5.1a6.7 6.7 0 0 1-3.3-2.9c-.2-.4.2-.4.7-1.3.1-.2 0-.3 0-.4l-.8-1.9c-.2-.5-.4-.4-.6-.4h-.5a1 1 0 0 0-.7.3 3 3 0 0 0-.9 2.2 5.2 5.2 0 0 0 1.1 2.7 11.8 11.8 0 0 0 4.5 4c1.7.7 2.4.8 3.2.6.5-.1 1.5-.6 1.7-1.2.2-.6.2-1.1.1-1.2l-.4-.2z" />
    </svg>
  );
}

const DASHBOARD_PATHS: Record<string, string> = {
  "Write Blogs": "M4 20h4L19 9l-4-4L4 16v4zM14 6l4 4",
  "Manage Blogs": "M4 6h16M4 12h16M4 18h10",
  "Send Feedback": "M4 5h16v11H8l-4 4V5zM8 9h8M8 12h5",
  "Add Author": "M15 19v-1a4 4 0 0 0-4-4H7a4 4 0 0 0-4 4v1M9 10a3 3 0 1 0 0-6 3 3 0 0 0 0 6zM19 8v6M16 11h6",
  "Manage Users":
    "M17 19v-1a4 4 0 0 0-4-4H7a4 4 0 0 0-4 4v1M10 10a3 3 0 1 0 0-6 3 3 0 0 0 0 6zM21 19v-1a4 4 0 0 0-3-3.9M16 4.1a3 3 0 0 1 0 5.8",
  "Manage Review": "M12 3l2.6 5.3 5.9.9-4.3 4.1 1 5.8L12 16.4l-5.2 2.7 1-5.8-4.3-4.1 5.9-.9L12 3z",
  "Manage Authors": "M4 19V5a2 2 0 0 1 2-2h12v16H6a2 2 0 0 0-2 2zM8 7h6M8 11h6",
  Stats: "M4 20V11M10 20V5M16 20v-6M21 20H3",
  Analytics: "M3 17l5-6 4 4 8-9M3 21h18",
  Inbox: "M3 13l3-8h12l3 8v6H3v-6zM3 13h5l1 2h6l1-2h5",
  Newsletter: "M3 6h18v12H3V6zM3 7l9 6 9-6",
  Comments: "M4 5h16v11H8l-4 4V5zM12 8v3M12 13.5v.01",
  Import: "M12 3v12M7 10l5 5 5-5M4 19h16",
  Export: "M12 15V3M7 8l5-5 5 5M4 19h16",
  Fediverse:
    "M12 3a9 9 0 1 0 0 18 9 9 0 0 0 0-18zM3 12h18M12 3c2.5 2.5 3.5 5.5 3.5 9s-1 6.5-3.5 9M12 3c-2.5 2.5-3.5 5.5-3.5 9s1 6.5 3.5 9",
  // A shield for the privacy page, a page with lines for the terms (issue 47: the two had no icon).
  "Privacy Policy": "M12 3l8 3v6c0 4.5-3.4 8.3-8 9-4.6-.7-8-4.5-8-9V6l8-3zM9 12l2 2 4-4",
  "Terms of Use": "M6 3h9l4 4v14H6V3zM14 3v5h5M9 12h7M9 16h7",
  Settings:
    "M12 15a3 3 0 1 0 0-6 3 3 0 0 0 0 6zM19 12l2-1-1-3-2 .2-1.4-1.4L17 5l-3-1-1 2h-2L10 4 7 5l.4 1.8L6 8.2 4 8l-1 3 2 1v0l-2 1 1 3 2-.2 1.4 1.4L7 19l3 1 1-2h2l1 2 3-1-.4-1.8 1.4-1.4 2 .2 1-3-2-1z",
  Home: "M3 11l9-7 9 7M5 10v10h5v-6h4v6h5V10",
};

/** The icon beside each entry of the dashboard menu, by its label. */
export function DashboardIcon({ label }: { label: string }) {
  const d = DASHBOARD_PATHS[label];
  return d ? <LineIcon d={d} strokeWidth={1.8} /> : null;
}
