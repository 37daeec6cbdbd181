import Papa from "papaparse";

/**
 * CSV in and out, through papaparse: it parses with a plain state machine. d3-dsv, used before,
 * builds its row reader with `new Function`, which the Workers runtime refuses ("Code generation
 * from strings disallowed"), though the vitest pool allows it (docs/decisions/042-csv-without-eval.md).
 */
export interface CsvTable {
  /** The header row, as written (a leading byte-order mark removed). */
  columns: string[];
  /** One record per data row, keyed by header; a missing cell is "". */
  rows: Record<string, string>[];
}

export function parseCsv(text: string): CsvTable {
  const result = Papa.parse<Record<string, string>>(text.replace(/^\uFEFF/, ""), {
    header: true,
    skipEmptyLines: "greedy",
    transformHeader: (h) => h,
  });
  const columns = result.meta.fields ?? [];
  const rows = result.data.map((r) => {
    const row: Record<string, string> = {};
    for (const c of columns) row[c] = typeof r[c] === "string" ? r[c] : "";
    return row;
  });
  return { columns, rows };
}

/** Rows as CSV with the given columns in order, "\n" line ends, quoting where a cell needs it. */
export function formatCsv(rows: Record<string, string>[], columns: string[]): string {
  return Papa.unparse({ fields: columns, data: rows.map((r) => columns.map((c) => r[c] ?? "")) }, { newline: "\n" });
}
