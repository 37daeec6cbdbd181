import type { Category } from "#worker/services/categories.ts";

/**
 * The site's fixed editorial content: the home page's Featured Blogs and reading guide, and the
 * About page. It ships with the code (spec: "not fetched"), so it lives here rather than in D1.
 */

export interface FeaturedBlog {
  id: string;
  title: string;
  description: string;
  /** A static file under public/featured/. */
  image: string;
  author: string;
  category: Category;
}

/** The spec's 6 featured cards. */
export const FEATURED_BLOGS: readonly FeaturedBlog[] = [
  {
    id: "featured-remote-teams",
    title: "How Small Remote Teams Ship Without Endless Meetings",
    description:
      "Written decisions, short async check-ins and one weekly call: the habits that let a team of six across four time zones ship every week.",
    image: "/featured/remote-teams.jpg",
    author: "Daniel Brooks",
    category: "Technology",
  },
  {
    id: "featured-slow-travel",
    title: "The Case for Slow Travel: One City, Two Weeks",
    description:
      "Staying put instead of racing between sights costs less, tires you less and shows you the neighbourhood life that itineraries skip.",
    image: "/featured/slow-travel.jpg",
    author: "Lena Fischer",
    category: "Travel",
  },
  {
    id: "featured-desk-health",
    title: "Five Desk Habits Your Back Will Thank You For",
    description:
      "Screen height, a two-minute movement break every half hour and a chair you actually adjust: small changes that add up over a working year.",
    image: "/featured/desk-health.jpg",
    author: "Grace Kim",
    category: "Health",
  },
  {
    id: "featured-first-budget",
    title: "Your First Budget in One Evening",
    description:
      "Skip the spreadsheet with forty categories. Three numbers, one automatic transfer and a monthly ten-minute review are enough to start.",
    image: "/featured/first-budget.jpg",
    author: "Mateo Alvarez",
    category: "Finance",
  },
  {
    id: "featured-ai-writing",
    title: "Using AI as an Editor, Not a Ghostwriter",
    description:
      "Let a model question your structure, flag vague sentences and suggest cuts, while the ideas and the voice stay yours.",
    image: "/featured/ai-writing.jpg",
    author: "Priya Shah",
    category: "AI",
  },
  {
    id: "featured-learning",
    title: "Learn Anything Faster With Active Recall",
    description:
      "Rereading feels productive but fades fast. Testing yourself, spacing the reviews and explaining ideas aloud make knowledge stick.",
    image: "/featured/learning.jpg",
    author: "Tom Okoro",
    category: "Education",
  },
];

/** Everyday Reading Habit guide: tips, benefits and three recommended book lists. */
export const READING_TIPS: readonly { title: string; text: string }[] = [
  {
    title: "Start with ten pages",
    text: "A goal small enough to meet on a tired evening beats an ambitious one you skip. Ten pages a day is about fifteen books a year.",
  },
  {
    title: "Anchor it to a routine",
    text: "Read with your morning coffee, on the commute or right before sleep, so the habit rides on something you already do every day.",
  },
  {
    title: "Keep a book within reach",
    text: "Leave one on your nightstand, one in your bag and an e-book on your phone, so every spare five minutes can become reading time.",
  },
  {
    title: "Put the phone in another room",
    text: "Notifications break concentration in seconds. Twenty minutes without them gets you further into a chapter than an hour with them.",
  },
  {
    title: "Give yourself permission to quit",
    text: "If a book has not caught you after fifty pages, move on. Finishing what bores you is the fastest way to stop reading altogether.",
  },
  {
    title: "Write one line after each session",
    text: "A sentence in a notebook about what struck you turns passive reading into memory and makes great material for your next blog post.",
  },
];

export const READING_BENEFITS: readonly { title: string; text: string }[] = [
  {
    title: "Sharper focus",
    text: "Following a long argument or story trains the attention that endless scrolling wears down.",
  },
  {
    title: "Less stress",
    text: "Even a few minutes with a good book slows your breathing and pulls your mind away from the day's worries.",
  },
  {
    title: "Richer vocabulary",
    text: "Readers meet thousands of words in context, which makes their own writing and speaking clearer.",
  },
  {
    title: "More empathy",
    text: "Living inside other people's stories helps you understand points of view far from your own.",
  },
  { title: "Better sleep", text: "A paper book before bed is a calmer wind-down than a bright screen." },
  {
    title: "Ideas to share",
    text: "Everything you read becomes raw material for conversations, projects and your next post.",
  },
];

export const BOOK_LISTS: readonly {
  group: string;
  intro: string;
  books: readonly { title: string; author: string }[];
}[] = [
  {
    group: "Build better habits",
    intro: "Practical books that change how you spend your days.",
    books: [
      { title: "Atomic Habits", author: "James Clear" },
      { title: "Deep Work", author: "Cal Newport" },
      { title: "The Power of Habit", author: "Charles Duhigg" },
      { title: "Essentialism", author: "Greg McKeown" },
    ],
  },
  {
    group: "Understand the world",
    intro: "Big-picture non-fiction that makes complex ideas clear.",
    books: [
      { title: "Sapiens", author: "Yuval Noah Harari" },
      { title: "Thinking, Fast and Slow", author: "Daniel Kahneman" },
      { title: "Factfulness", author: "Hans Rosling" },
      { title: "A Short History of Nearly Everything", author: "Bill Bryson" },
    ],
  },
  {
    group: "Stories that stay with you",
    intro: "Novels worth losing an evening to.",
    books: [
      { title: "To Kill a Mockingbird", author: "Harper Lee" },
      { title: "The Alchemist", author: "Paulo Coelho" },
      { title: "Klara and the Sun", author: "Kazuo Ishiguro" },
      { title: "Pride and Prejudice", author: "Jane Austen" },
    ],
  },
];

/** The About page's "Meet the Author": the spec keeps a placeholder name until the owner fills it in. */
export const ABOUT_AUTHOR = {
  name: "Jane Doe",
  role: "Founder & Editor",
  bio: "Jane started this blog to give curious people a calm, fast place to publish what they learn. She reads every new post, edits the featured picks and still answers the contact form herself.",
} as const;
