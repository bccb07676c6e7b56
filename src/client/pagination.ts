/**
 * Lists as async iterables that follow `meta.pagination` (spec 2.10), fetching one page
 * of {@link PAGE_SIZE} at a time and only when the caller reads that far.
 *
 * A list is one call: its deadline (`deadlineMs`) counts from the first page asked for
 * and covers every later page, and its signal ends the listing at any page. Each page's
 * request keeps its own retry budget within that deadline.
 */
import { createHash } from "node:crypto";
import type { z } from "zod";
import type { Pagination } from "../api/common";
import { currentCall, runInScope, type CallOptions, type CallScope } from "./call-scope";
import { InconsistentPaginationError } from "./typed-errors";
import type { RequestSpec } from "./transport";

/** Page size the client asks for: the service's maximum, so a list costs as few requests as possible. */
export const PAGE_SIZE = 100;

/**
 * The counters of a page as the client reads them: those the service sent, with the
 * page's number, the next and the previous page filled in where it left them out (the
 * page asked for; the next from `total-pages` or `total-count`, or none; the one before,
 * or none).
 * `total-count`, `total-pages` and `page-size` stay absent when the service did not say.
 */
export type PageCounters = Pagination & {
  /** Number of this page, from 1. */
  "current-page": number;
  /** Number of the next page, or null on the last page. */
  "next-page": number | null;
  /** Number of the previous page, or null on the first page. */
  "prev-page": number | null;
};

/** One page of a list as the service sent it. */
export interface Page<T> {
  /** The page's items, in the service's order. */
  items: T[];
  /** Absent when the service sent no pagination meta (the list is then one page). */
  pagination?: PageCounters;
}

/**
 * The counters of page `number` (of `size` records asked for) with what the service left
 * out read as {@link PageCounters} says; without `total-pages`, `total-count` tells
 * whether records are left for a next page.
 */
function countersOf(p: Pagination, number: number, size: number): PageCounters {
  const count = p["total-count"];
  const perPage = p["page-size"] ?? size;
  const total = p["total-pages"] ?? (count !== undefined && perPage > 0 ? Math.ceil(count / perPage) : undefined);
  const derivedNext = total !== undefined && number < total ? number + 1 : null;
  return {
    ...p,
    "current-page": p["current-page"] ?? number,
    "next-page": p["next-page"] === undefined ? derivedNext : p["next-page"],
    "prev-page": p["prev-page"] === undefined ? (number > 1 ? number - 1 : null) : p["prev-page"],
  };
}

/** Fetches one page of a list: page number (from 1) and page size; its counters as the service sent them. */
export type PageFetcher<T> = (pageNumber: number, pageSize: number) => Promise<{ items: T[]; pagination?: Pagination }>;

/**
 * A list the client pages through on demand: `for await` visits every item, fetching page
 * after page; `all()` collects them. One iteration is one call: the deadline runs from
 * the first page to the last, the time the caller spends between pages included.
 */
export class PagedList<T> implements AsyncIterable<T> {
  /** The options of the call that made the list (`client.with(...)`): the iteration is one call with them. */
  private readonly callOptions: CallOptions = currentCall()?.options ?? {};

  constructor(
    private readonly fetchPage: PageFetcher<T>,
    private readonly pageSize: number = PAGE_SIZE,
    /** Path of the list, for the error that reports inconsistent pages. */
    private readonly path: string = "(list)",
    /** The items to hand out, for a filter the server may ignore (checked after the pages' consistency, on what was sent). */
    private readonly keep?: (item: T) => boolean,
  ) {}

  async *[Symbol.asyncIterator](): AsyncIterator<T> {
    for await (const page of this.pages()) yield* page.items;
  }

  /**
   * Iterates page by page, for callers that want the counters too. Pages that
   * contradict each other end the iteration with {@link InconsistentPaginationError}:
   * an empty page that names a next page, a next page past `total-pages` or not after
   * the current one, a page that answers for another page number, or a page with the
   * same items as any earlier page (a digest of each page seen is kept, so a cycle of
   * any length is caught).
   *
   * The iteration is one call: it starts when the first page is asked for (or belongs to
   * the call it runs in, when a client method lists as part of its work), and every page
   * is fetched within that call's deadline and signal.
   */
  async *pages(): AsyncGenerator<Page<T>> {
    const scope: CallScope = currentCall() ?? { startedAt: Date.now(), options: this.callOptions };
    const seen = new Map<string, number>();
    let number = 1;
    for (;;) {
      const fetched = await runInScope(scope, () => this.fetchPage(number, this.pageSize));
      const p = fetched.pagination && countersOf(fetched.pagination, number, this.pageSize);
      const page: Page<T> = p ? { items: fetched.items, pagination: p } : { items: fetched.items };
      const next = p?.["next-page"] ?? null;
      const total = p?.["total-pages"];
      const inconsistent = (problem: string) => new InconsistentPaginationError(this.path, number, problem);
      if (p && p["current-page"] !== number)
        throw inconsistent(`page ${number} was asked for and page ${p["current-page"]} answered`);
      if (next !== null && next <= number) throw inconsistent(`next-page ${next} does not come after page ${number}`);
      if (next !== null && total !== undefined && next > total)
        throw inconsistent(`next-page ${next} is past total-pages ${total}`);
      if (next !== null && page.items.length === 0)
        throw inconsistent(`the page is empty but names page ${next} as the next one`);
      if (page.items.length > 0) {
        const fingerprint = createHash("sha256").update(JSON.stringify(page.items)).digest("base64");
        const earlier = seen.get(fingerprint);
        if (earlier !== undefined) throw inconsistent(`the page repeats page ${earlier}`);
        seen.set(fingerprint, number);
      }
      yield this.keep ? { ...page, items: page.items.filter(this.keep) } : page;
      if (next === null) return;
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
  /** Wraps each page's request, e.g. to tell a server without the list from a missing owner. */
  guard: <D>(request: () => Promise<D>) => Promise<D> = (request) => request(),
  /** The items to hand out, where the server may ignore a filter of `query`. */
  keep?: (item: T) => boolean,
): PagedList<T> {
  return new PagedList(
    async (number, size) => {
      const doc = await guard(() =>
        transport.requestParsed(
          {
            method: "GET",
            path,
            query: { ...query, "page[number]": number, "page[size]": size },
            repeat: "idempotent",
          },
          schema,
        ),
      );
      return { items: doc.data.map(map), pagination: doc.meta?.pagination };
    },
    PAGE_SIZE,
    path,
    keep,
  );
}
