import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import { createServices } from "#worker/services/index.ts";
import { foldForSearch, needsCharacterSearch } from "#worker/services/search-scripts.ts";
import { makeBlog, makeUser } from "../support/factories";

// Issue 43: search finds words in every script. A marker no other file writes keeps the totals exact.
const services = () => createServices(env);
const marker = `zq${Date.now().toString(36)}${Math.random().toString(36).slice(2, 8)}`;

const POSTS: [script: string, title: string, body: string, query: string][] = [
  ["Chinese", "茶与咖啡", "一杯咖啡和一壶茶。", "咖啡"],
  ["Japanese", "日本語のブログを始めました", "毎日書きます。", "日本語"],
  ["Korean", "서울의 커피 이야기", "아침마다 커피를 마셔요.", "커피"],
  ["Greek", "Καλημέρα κόσμε", "Ένα πρωινό στην Αθήνα.", "καλημερα"],
  ["Cyrillic", "Москва утром", "Ёлка на площади.", "Москва"],
  ["Cyrillic, ё folded", "Зимний праздник", "Ёлка на площади.", "елка"],
  ["Arabic", "مرحبا بالعالم", "قهوة الصباح.", "العالم"],
  ["Hebrew", "שלום עולם", "קפה של בוקר.", "עולם"],
  ["Hindi", "नमस्ते दुनिया", "सुबह की चाय।", "दुनिया"],
  ["Thai", "สวัสดีชาวโลก", "กาแฟตอนเช้า", "ชาวโลก"],
];

describe("search in every script", () => {
  beforeAll(async () => {
    const writer = await makeUser({ name: "Mei Writer" });
    for (const [, title, body] of POSTS) {
      await makeBlog(writer, { title, shortDescription: `${body} ${marker}`, blogDetails: `${body}\n\n${marker}` });
    }
  });

  it.each(POSTS)("%s: %s is found by %s", async (_script, title, _body, query) => {
    const hits = await services().blogs.search({ q: `${query} ${marker}` });
    expect(hits.items.map((b) => b.title)).toContain(title);
  });

  it("finds nothing for a word that is not there, and a Latin search still ranks on the word index", async () => {
    expect((await services().blogs.search({ q: `紅茶 ${marker}` })).items).toEqual([]);
    expect(needsCharacterSearch("cafe")).toBe(false);
    expect(needsCharacterSearch("café au lait")).toBe(false);
    expect(needsCharacterSearch("咖啡")).toBe(true);
  });

  it("folds Greek and Cyrillic marks as the index does", () => {
    expect(foldForSearch("Καλημέρα")).toBe("Καλημερα");
    expect(foldForSearch("ΐΰϊϋ")).toBe("ιυιυ");
    expect(foldForSearch("Ёлка й ї ў")).toBe("Елка и і у");
    // Other scripts keep their marks: they are part of the letters.
    expect(foldForSearch("नमस्ते")).toBe("नमस्ते");
    expect(foldForSearch("café")).toBe("café");
  });

  it("keeps the character index in step with every write", async () => {
    const drift = await env.DB.prepare(
      "select (select count(*) from blog_search_chars where rowid not in (select rowid from blogs)) + (select count(*) from blogs where rowid not in (select rowid from blog_search_chars)) as n",
    ).first<{ n: number }>();
    expect(drift?.n).toBe(0);
  });
});
