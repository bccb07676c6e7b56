import type { FastifyReply, FastifyRequest } from "fastify";
import type { z } from "zod";
import { DEFAULT_PAGE_SIZE, JSONAPI_MEDIA_TYPE, MAX_PAGE_SIZE, issuesToErrors } from "../../api/common";
import { ApiError, badRequest, unprocessable } from "./error-documents";

import type { Page } from "../store/db";

export const API_PREFIX = "/api/v2";

export interface Ref {
  id: string;
  type: string;
}

interface Relationship {
  data?: Ref | Ref[] | null;
  links?: { related: string };
}

export interface Resource {
  id?: string;
  type: string;
  attributes: Record<string, unknown>;
  relationships?: Record<string, Relationship>;
  links?: Record<string, string>;
}

export const ref = (type: string, id: string | null | undefined): { data: Ref | null } => ({
  data: id ? { id, type } : null,
});

/** Sends a JSON:API document with the service's media type. */
export function send(reply: FastifyReply, status: number, doc: unknown): FastifyReply {
  return reply.code(status).header("content-type", JSONAPI_MEDIA_TYPE).send(JSON.stringify(doc));
}

export function noContent(reply: FastifyReply): FastifyReply {
  return reply.code(204).send();
}

/**
 * Validates a request body against a zod schema: one 422 error per bad key, each with the
 * JSON pointer of that key. A missing body is reported at `/data`.
 */
export function parseBody<S extends z.ZodType>(schema: S, body: unknown, pointer = ""): z.infer<S> {
  if (body === undefined || body === null) throw unprocessable("data: a request body is required", `${pointer}/data`);
  const result = schema.safeParse(body);
  if (!result.success)
    throw new ApiError(422, issuesToErrors(result.error.issues, pointer ? pointer.split("/").slice(1) : []));
  return result.data;
}

/**
 * `data.relationships.<name>.data.id` of a body not validated yet, when it is a string:
 * routes whose target is named in the body check the caller's access to it before the
 * body is validated, so a 422 never tells a caller about a record it may not change.
 */
export function targetId(body: unknown, relationship: string): string | undefined {
  const data = (body as { data?: { relationships?: Record<string, { data?: { id?: unknown } }> } } | null | undefined)
    ?.data;
  const rel = data?.relationships;
  const id = rel && Object.prototype.hasOwnProperty.call(rel, relationship) ? rel[relationship]?.data?.id : undefined;
  return typeof id === "string" ? id : undefined;
}

/** The string ids of `data[]` of a body not validated yet: the targets of a relationship list, checked before the body is. */
export function targetIds(body: unknown): string[] {
  const data = (body as { data?: unknown } | null | undefined)?.data;
  if (!Array.isArray(data)) return [];
  return data.map((item) => (item as { id?: unknown } | null)?.id).filter((id): id is string => typeof id === "string");
}

export type { Page } from "../store/db";

/** A query parameter as text: a repeated parameter arrives as an array and reads as one comma-separated list. */
export function queryText(raw: unknown): string {
  if (Array.isArray(raw)) return raw.map(queryText).join(",");
  return typeof raw === "string" ? raw : (JSON.stringify(raw) ?? "");
}

function positiveInt(raw: unknown, name: string): number | undefined {
  if (raw === undefined || raw === "") return undefined;
  const s = queryText(raw);
  if (!/^\d+$/.test(s) || Number(s) < 1) throw badRequest(`${name} must be a positive integer`, name);
  if (Number(s) > 2_147_483_647) throw badRequest(`${name} is too large`, name);
  return Number(s);
}

/** `page[number]` and `page[size]`: default 20 per page, at most 100 (the hosted maximum). */
export function parsePage(query: Record<string, unknown>): Page {
  const number = positiveInt(query["page[number]"], "page[number]") ?? 1;
  const size = Math.min(positiveInt(query["page[size]"], "page[size]") ?? DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE);
  return { number, size };
}

/**
 * The pagination envelope of spec 2.10 for a page of a list of `total` items. Links are
 * built from the server's configured public address (relative paths when it has none),
 * never from the request's `Host` header: a client may send any `Host`, and the links
 * must neither break on a malformed one nor point to another host.
 */
export function paginationEnvelope(request: FastifyRequest, page: Page, total: number) {
  const totalPages = Math.max(1, Math.ceil(total / page.size));
  const q = request.url.indexOf("?");
  const path = q < 0 ? request.url : request.url.slice(0, q);
  const search = q < 0 ? "" : request.url.slice(q + 1);
  const url = (n: number) => {
    const params = new URLSearchParams(search);
    params.set("page[number]", String(n));
    params.set("page[size]", String(page.size));
    return `${request.publicUrl}${path}?${params.toString()}`;
  };
  const next = page.number < totalPages ? page.number + 1 : null;
  const prev = page.number > 1 ? Math.min(page.number - 1, totalPages) : null;
  return {
    links: {
      self: url(page.number),
      first: url(1),
      prev: prev === null ? null : url(prev),
      next: next === null ? null : url(next),
      last: url(totalPages),
    },
    meta: {
      pagination: {
        "current-page": page.number,
        "page-size": page.size,
        "prev-page": prev,
        "next-page": next,
        "total-pages": totalPages,
        "total-count": total,
      },
    },
  };
}

/**
 * Parses `include`; any value outside `allowed` is a 400, as the spec requires, and so
 * is a list of more than {@link MAX_LIST_VALUES} values, as for every list parameter.
 */
export function parseInclude(query: Record<string, unknown>, allowed: ReadonlyArray<string>): Set<string> {
  const raw = query["include"];
  if (raw === undefined || raw === "") return new Set();
  const values = commaList(raw, "include");
  for (const v of values) {
    if (!allowed.includes(v)) throw badRequest(`Invalid include parameter: ${v}`, "include");
  }
  return new Set(values);
}

/**
 * Query parameters whose value is a comma-separated list. Given more than once (as
 * some clients send a list), their values are joined; any other parameter given more
 * than once is a 400, since which of its values counts would be a guess.
 */
const LIST_PARAMETERS: ReadonlySet<string> = new Set([
  "include",
  "search[tags]",
  "search[exclude-tags]",
  "filter[current-run][status]",
  "filter[names]",
  "filter[email]",
]);

/** Most values a list parameter may hold; more is a 400 that says so, not an unbounded query. */
export const MAX_LIST_VALUES = 100;

/** Joins repeated list parameters in place; returns the name of a repeated single-valued one. */
export function foldRepeatedParameters(query: Record<string, unknown>): string | null {
  for (const [key, value] of Object.entries(query)) {
    if (!Array.isArray(value)) continue;
    if (!LIST_PARAMETERS.has(key)) return key;
    query[key] = value.map(String).join(",");
  }
  return null;
}

/** Lists of a query parameter given as `a,b,c`; empty entries are ignored; at most {@link MAX_LIST_VALUES} values. */
export function commaList(raw: unknown, name = "parameter"): string[] {
  if (raw === undefined || raw === null) return [];
  const values = queryText(raw)
    .split(",")
    .map((s) => s.trim())
    .filter(Boolean);
  if (values.length > MAX_LIST_VALUES)
    throw badRequest(`${name} accepts at most ${MAX_LIST_VALUES} values; ${values.length} were given`, name);
  return values;
}
