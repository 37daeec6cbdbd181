/** NodeInfo 2.1 (https://nodeinfo.diaspora.software/schema.html): what this server is, for crawlers and peers. */
export function nodeinfoDocument(
  usage: { users: number; posts: number },
  site: { version: string; origin: string; siteName: string },
): Record<string, unknown> {
  return {
    version: "2.1",
    software: {
      name: "edge-blog",
      version: site.version,
      repository: "https://github.com/edge-blog/edge-blog",
      homepage: site.origin,
    },
    protocols: ["activitypub"],
    services: { inbound: [], outbound: ["rss2.0"] },
    openRegistrations: true,
    usage: {
      users: { total: usage.users, activeMonth: usage.users, activeHalfyear: usage.users },
      localPosts: usage.posts,
    },
    metadata: { nodeName: site.siteName },
  };
}
