/* eslint-disable jsx-a11y/no-redundant-roles, jsx-a11y/no-interactive-element-to-noninteractive-role --
   On phones the table is displayed as blocks, which drops its implicit table roles in browsers;
   the explicit roles keep it a table for screen readers. */
import type { ReactNode } from "react";
import { Avatar } from "./Avatar";
import { EmptyState } from "./ui";

export interface Column<T> {
  header: string;
  cell: (row: T, index: number) => ReactNode;
  /** Row actions (Edit, Delete): on phones they sit side by side at the foot of the row's card, without a label. */
  action?: boolean;
  /** On phones: "title" heads the row's card without a label; "hide" leaves the cell out (a row number). */
  mobile?: "title" | "hide";
  /** Extra classes for the cells of this column (widths, wrapping). */
  className?: string;
}

/** The row-number column every dashboard table starts with (hidden on phones). */
/** The row's number in the whole list: `offset` is the rows on the pages before this one. */
export function numberColumn<T>(offset = 0): Column<T> {
  return {
    header: "#",
    cell: (_, i) => <span className="text-gray-500 tabular-nums">{offset + i + 1}</span>,
    className: "sm:w-12",
    mobile: "hide",
  };
}

/** A person in a table cell: their photo and name, with an optional line under the name. */
export function PersonCell({ photo, name, children }: { photo: string | null; name: ReactNode; children?: ReactNode }) {
  return (
    <span className="flex min-w-0 items-center gap-3">
      <Avatar photoURL={photo} size={40} />
      <span className="min-w-0">
        <span className="block font-medium text-ink">{name}</span>
        {children}
      </span>
    </span>
  );
}

function cellClass<T>(column: Column<T>): string {
  const wide = "sm:table-cell sm:w-auto sm:px-4 sm:py-3 sm:align-middle";
  if (column.action) return `pt-1 sm:px-4 sm:py-3 ${column.className ?? ""}`;
  if (column.mobile === "hide") return `hidden ${wide} ${column.className ?? ""}`;
  if (column.mobile === "title")
    return `order-first w-full text-base text-ink sm:order-none ${wide} sm:text-sm ${column.className ?? ""}`;
  return `flex w-full flex-col items-start gap-0.5 text-gray-800 before:text-xs before:font-semibold before:tracking-wide before:text-gray-500 before:uppercase before:content-[attr(data-label)] ${wide} sm:before:content-none ${column.className ?? ""}`;
}

/**
 * A table on wide screens and a stack of cards on phones, from one set of markup: every cell carries
 * its column name, shown beside the value when the rows are cards. The explicit roles keep the table
 * semantics that browsers drop once table elements are restyled as blocks.
 */
export function DataTable<T>({
  caption,
  columns,
  rows,
  rowKey,
  empty,
}: {
  caption: string;
  columns: Column<T>[];
  rows: T[];
  rowKey: (row: T) => string;
  empty: ReactNode;
}) {
  if (rows.length === 0) {
    return <EmptyState>{empty}</EmptyState>;
  }
  return (
    <div className="sm:overflow-x-auto sm:rounded-2xl sm:border sm:border-gray-200 sm:bg-white sm:shadow-sm">
      <table role="table" className="block w-full text-left text-sm sm:table">
        <caption className="sr-only">{caption}</caption>
        <thead role="rowgroup" className="sr-only sm:not-sr-only sm:table-header-group sm:bg-gray-50">
          <tr role="row">
            {columns.map((column) => (
              <th
                key={column.header}
                role="columnheader"
                scope="col"
                className="px-4 py-3 text-xs font-semibold tracking-wide text-gray-600 uppercase"
              >
                {column.header}
              </th>
            ))}
          </tr>
        </thead>
        <tbody role="rowgroup" className="flex flex-col gap-3 sm:table-row-group sm:divide-y sm:divide-gray-100">
          {rows.map((row, index) => (
            <tr
              key={rowKey(row)}
              role="row"
              className="flex flex-wrap items-center gap-x-2 gap-y-3 rounded-2xl border border-gray-200 bg-white p-4 shadow-sm sm:table-row sm:rounded-none sm:border-0 sm:p-0 sm:shadow-none sm:hover:bg-gray-50/60"
            >
              {columns.map((column) => (
                <td key={column.header} role="cell" data-label={column.header} className={cellClass(column)}>
                  {column.cell(row, index)}
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
