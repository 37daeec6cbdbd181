import type { Summary } from "#worker/services/analytics/model.ts";

/** A cell as CSV: quoted when it holds a comma, a quote or a line break; a leading =+-@ is defused for spreadsheets. */
function cell(value: string | number): string {
  let s = String(value);
  if (/^[=+\-@\t\r]/.test(s)) s = `'${s}`;
  return /[",\r\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

/**
 * The summary as one CSV table: `section,key,label,pageviews,visitors`, the days first, then the previous
 * period, top posts, sources, countries, devices and browsers.
 */
export function summaryCsv(s: Summary): string {
  const rows: (string | number)[][] = [["section", "key", "label", "pageviews", "visitors"]];
  for (const d of s.series) rows.push(["day", d.date, d.date, d.pageviews, d.visitors]);
  rows.push(["total", `${s.from}..${s.to}`, "This period", s.pageviews, s.visitors]);
  rows.push([
    "previous",
    `${s.previous.from}..${s.previous.to}`,
    "Previous period",
    s.previous.pageviews,
    s.previous.visitors,
  ]);
  for (const p of s.topPosts) rows.push(["post", p.id, p.title, p.pageviews, p.visitors]);
  const lists = [
    ["source", s.sources],
    ["country", s.countries],
    ["device", s.devices],
    ["browser", s.browsers],
  ] as const;
  for (const [section, list] of lists)
    for (const r of list) rows.push([section, r.key, r.key, r.pageviews, r.visitors]);
  return `${rows.map((r) => r.map(cell).join(",")).join("\r\n")}\r\n`;
}
