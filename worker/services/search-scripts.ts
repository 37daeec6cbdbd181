import { sql, type SQL } from "drizzle-orm";
import { MIN_SEARCH_TERM_CHARS, searchTerms } from "#worker/services/search.ts";

/**
 * Search in every script (issue 43, decision 051). The word index (blog_search, unicode61) ranks and
 * highlights words of scripts written with spaces and folds Latin accents. A query with a letter of any
 * other script goes to the character index of migrations/0032_search_every_script.sql instead (trigram:
 * any run of three characters, so a word inside Chinese or Japanese text is found; a two-character word by
 * LIKE on the same table), where Greek and Cyrillic accents are folded on both sides.
 */

/** A letter that is not Latin: the query needs the character index. */
const OTHER_SCRIPT = /(?![\p{Script=Latin}])\p{L}/u;

/** Whether a reader's words need the character index (a letter of a script other than Latin). */
export function needsCharacterSearch(q: unknown): boolean {
  return typeof q === "string" && OTHER_SCRIPT.test(q);
}

/**
 * A text as the character index holds it: Greek and Cyrillic letters without their marks (the letters the
 * migration's replace() chain folds), everything else as typed. Case is folded by the index itself.
 */
export function foldForSearch(text: string): string {
  return text
    .normalize("NFD")
    .replace(/([\p{Script=Greek}\p{Script=Cyrillic}])\p{M}+/gu, "$1")
    .normalize("NFC");
}

const likeEscape = (term: string) => term.replace(/[\\%_]/g, (c) => `\\${c}`);

/**
 * The rowids of posts holding every term (folded) as a run of characters, as a SQL condition on blogs,
 * or null when there is nothing to search for. Terms of three or more characters use the trigram index;
 * shorter ones (咖啡) LIKE on the same table, which reads it whole, so they only narrow what a longer
 * term found when there is one.
 */
export function characterMatch(q: unknown): SQL | null {
  const terms = searchTerms(q).map(foldForSearch);
  if (!terms.length) return null;
  const long = terms.filter((t) => [...t].length >= 3);
  const short = terms.filter((t) => [...t].length >= MIN_SEARCH_TERM_CHARS && [...t].length < 3);
  const conditions: SQL[] = [];
  if (long.length)
    conditions.push(sql`blog_search_chars match ${long.map((t) => `"${t.replaceAll('"', '""')}"`).join(" ")}`);
  for (const t of short) conditions.push(sql`text like ${`%${likeEscape(t)}%`} escape '\\'`);
  return sql`blogs.rowid in (select rowid from blog_search_chars where ${sql.join(conditions, sql` and `)})`;
}
