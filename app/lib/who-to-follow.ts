/** The all-blogs sidebar's three static people (spec: Who to Follow, inert Follow buttons). */
export interface PersonToFollow {
  name: string;
  role: string;
  /** Initials drawn as the avatar: static people have no photos to load. */
  initials: string;
  /** Tailwind classes for the avatar's colours. */
  tone: string;
}

export const WHO_TO_FOLLOW: readonly PersonToFollow[] = [
  {
    name: "Amara Cole",
    role: "Writes about AI and product design",
    initials: "AC",
    tone: "bg-amber-100 text-amber-800",
  },
  {
    name: "Kenji Watanabe",
    role: "Travel writer and photographer",
    initials: "KW",
    tone: "bg-emerald-100 text-emerald-800",
  },
  {
    name: "Sofia Lindqvist",
    role: "Personal finance for freelancers",
    initials: "SL",
    tone: "bg-rose-100 text-rose-800",
  },
];
