import type { ReactNode } from "react";
import { BlogCard } from "./BlogCard";
import { Pagination } from "./Pagination";
import { EmptyState } from "./ui";
import type { BlogSummary } from "#worker/services/blogs/model.ts";

/** A page of a list as the services answer it (worker/services/shared/pagination.ts). */
export interface Paged<T> {
  items: T[];
  total: number;
  page: number;
  pages: number;
}

/** "1 page", "3 pages". */
export const pageCount = (pages: number) => `${pages} ${pages === 1 ? "page" : "pages"}`;

/**
 * One page of a server-paginated list: the items (or `empty` when this page has none), then the pager
 * while the list has anything at all. Following, notifications, the reading list, a writer's and a tag's
 * posts all draw their lists with it.
 */
export function PagedList<T extends { _id: string }>({
  list,
  as: Tag = "ul",
  className,
  label,
  itemClassName,
  renderItem,
  empty,
  pagerLabel,
  pagerParam,
  pagerOnlyWhenPaged = false,
}: {
  list: Paged<T>;
  as?: "ul" | "ol";
  className: string;
  /** The list's accessible name, when the heading above it does not give one. */
  label?: string;
  itemClassName?: string | ((item: T) => string);
  renderItem: (item: T, index: number) => ReactNode;
  empty: ReactNode;
  /** The pager's accessible name ("Pages of notifications"). */
  pagerLabel: string;
  /** The query parameter of this list's page, when another list on the page has `page`. */
  pagerParam?: string;
  /** No pager when everything fits on one page (a list that is not the spec's paged lists: notifications). */
  pagerOnlyWhenPaged?: boolean;
}) {
  return (
    <>
      {list.items.length ? (
        <Tag className={className} aria-label={label}>
          {list.items.map((item, i) => (
            <li key={item._id} className={typeof itemClassName === "function" ? itemClassName(item) : itemClassName}>
              {renderItem(item, i)}
            </li>
          ))}
        </Tag>
      ) : (
        empty
      )}
      {list.total > 0 && (!pagerOnlyWhenPaged || list.pages > 1) ? (
        <div className="mt-10">
          <Pagination page={list.page} pages={list.pages} label={pagerLabel} param={pagerParam} />
        </div>
      ) : null}
    </>
  );
}

/** A page of post cards in the 1/2/3-column grid; the first row's covers load eagerly. */
export function PagedCards({
  list,
  className = "mt-8",
  ...rest
}: {
  list: Paged<BlogSummary>;
  className?: string;
  label?: string;
  empty: ReactNode;
  pagerLabel: string;
  pagerParam?: string;
}) {
  return (
    <PagedList
      list={list}
      className={`${className} grid grid-cols-1 gap-6 sm:grid-cols-2 lg:grid-cols-3`}
      itemClassName="grid"
      renderItem={(blog, i) => <BlogCard blog={blog} eager={i < 3} />}
      {...rest}
    />
  );
}

/**
 * What a paged list says on a page with nothing: past its last page ("There is no such page", and how
 * many it has), or the list's own words when it is empty. `children`: the way on (a link).
 */
export function EmptyPage({
  list,
  title = "",
  text = "",
  beyondText,
  heading: Heading = "h2",
  className = "mt-8",
  children,
}: {
  list: Paged<unknown>;
  title?: string;
  text?: string;
  /** What to say past the last page; "This list has N pages." unless given. */
  beyondText?: string;
  heading?: "h2" | "h3";
  className?: string;
  children: ReactNode;
}) {
  const beyond = list.total > 0;
  return (
    <EmptyState className={className}>
      <Heading className="text-lg font-semibold text-ink">{beyond ? "There is no such page" : title}</Heading>
      <p className="mx-auto mt-2 max-w-md text-sm text-gray-600">
        {beyond ? (beyondText ?? `This list has ${pageCount(list.pages)}.`) : text}
      </p>
      {children}
    </EmptyState>
  );
}
