/**
 * Lists as async iterables that follow `meta.pagination` (spec 2.10), fetching one page
 * of {@link PAGE_SIZE} at a time and only when the caller reads that far.
 */
import type { z } from "zod";
import type { Pagination } from "../api/common";
import type { RequestSpec } from "./transport";

/** Page size the client asks for: the service's maximum, so a list costs as few requests as possible. */
export const PAGE_SIZE = 100;

export interface Page<T> {
  items: T[];
  /** Absent when the service sent no pagination meta (the list is then one page). */
  pagination?: Pagination;
}

export type PageFetcher<T> = (pageNumber: number, pageSize: number) => Promise<Page<T>>;

export class PagedList<T> implements AsyncIterable<T> {
  constructor(
    private readonly fetchPage: PageFetcher<T>,
    private readonly pageSize: number = PAGE_SIZE,
  ) {}

  async *[Symbol.asyncIterator](): AsyncIterator<T> {
    for await (const page of this.pages()) yield* page.items;
  }

  /** Iterates page by page, for callers that want the counters too. */
  async *pages(): AsyncGenerator<Page<T>> {
    let number = 1;
    for (;;) {
      const page = await this.fetchPage(number, this.pageSize);
      yield page;
      const next = page.pagination?.["next-page"];
      // A next page that does not move forward would loop forever; treat it as the end.
      if (next === null || next === undefined || next <= number) return;
      number = next;
    }
  }

  /** Reads every page and returns all items. */
  async all(): Promise<T[]> {
    const out: T[] = [];
    for await (const item of this) out.push(item);
    return out;
  }
}

/** The narrow part of the transport a paged list needs. */
interface ListTransport {
  requestParsed<S extends z.ZodType>(spec: RequestSpec, schema: S): Promise<z.infer<S>>;
}

/**
 * A paged `GET` of `path` whose documents match `schema` (a list document with
 * `meta.pagination`), each resource mapped with `map`.
 */
export function pagedGet<R, T>(
  transport: ListTransport,
  path: string,
  query: Record<string, string | undefined>,
  schema: z.ZodType<{ data: R[]; meta?: { pagination?: Pagination } }>,
  map: (resource: R) => T,
): PagedList<T> {
  return new PagedList(async (number, size) => {
    const doc = await transport.requestParsed(
      { method: "GET", path, query: { ...query, "page[number]": number, "page[size]": size }, repeat: "idempotent" },
      schema,
    );
    return { items: doc.data.map(map), pagination: doc.meta?.pagination };
  });
}
