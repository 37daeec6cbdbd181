/** The top bar's four links, in the spec's order (the mobile dropdown shows the same). */
export const NAV_LINKS = [
  { to: "/", label: "Home" },
  { to: "/about", label: "About Us" },
  { to: "/allBlogs", label: "All Blogs" },
  { to: "/contact", label: "Contact" },
] as const;

/** Footer labels (the spec gives them no targets) and the social icons' placeholder links. */
export const FOOTER_LABELS = ["About us", "Contact", "Privacy", "Terms"] as const;
/** Where the footer's labels lead (Privacy and Terms are pages admins edit). */
export const FOOTER_LINKS: Record<(typeof FOOTER_LABELS)[number], string> = {
  "About us": "/about",
  Contact: "/contact",
  Privacy: "/privacy",
  Terms: "/terms",
};
export const SOCIAL_LINKS = [
  { name: "Facebook", href: "https://facebook.com/" },
  { name: "Twitter", href: "https://twitter.com/" },
  { name: "LinkedIn", href: "https://www.linkedin.com/" },
  { name: "Instagram", href: "https://www.instagram.com/" },
] as const;
