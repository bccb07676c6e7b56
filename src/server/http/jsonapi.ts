import type { FastifyReply, FastifyRequest } from "fastify";
import type { z } from "zod";
import { DEFAULT_PAGE_SIZE, JSONAPI_MEDIA_TYPE, MAX_PAGE_SIZE, issuesToErrors } from "../../api/common";
import { ApiError, badRequest, unprocessable } from "./errors";

export const API_PREFIX = "/api/v2";

export interface Ref {
  id: string;
  type: string;
}

export interface Relationship {
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

export const ref = (type: string, id: string | null | undefined): { data: Ref | null } => ({ data: id ? { id, type } : null });

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
  if (!result.success) throw new ApiError(422, issuesToErrors(result.error.issues, pointer ? pointer.split("/").slice(1) : []));
  return result.data;
}

export interface Page {
  number: number;
  size: number;
}

function positiveInt(raw: unknown, name: string): number | undefined {
  if (raw === undefined || raw === "") return undefined;
  const s = String(raw);
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

/** The pagination envelope of spec 2.10 for a page of a list of `total` items. */
export function paginationEnvelope(request: FastifyRequest, page: Page, total: number) {
  const totalPages = Math.max(1, Math.ceil(total / page.size));
  const url = (n: number) => {
    const u = new URL(request.url, absoluteBase(request));
    u.searchParams.set("page[number]", String(n));
    u.searchParams.set("page[size]", String(page.size));
    return u.toString();
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

/** `http://host:port` of the request, for links that must be absolute URLs. */
export function absoluteBase(request: FastifyRequest): string {
  const host = request.headers.host ?? "localhost";
  return `${request.protocol}://${host}`;
}

/** Parses `include`; any value outside `allowed` is a 400, as the spec requires. */
export function parseInclude(query: Record<string, unknown>, allowed: ReadonlyArray<string>): Set<string> {
  const raw = query["include"];
  if (raw === undefined || raw === "") return new Set();
  const values = String(raw).split(",").map((v) => v.trim()).filter(Boolean);
  for (const v of values) {
    if (!allowed.includes(v)) throw badRequest(`Invalid include parameter: ${v}`, "include");
  }
  return new Set(values);
}

/** Lists of a query parameter given as `a,b,c`; empty entries are ignored. */
export function commaList(raw: unknown): string[] {
  if (raw === undefined || raw === null) return [];
  return String(raw).split(",").map((s) => s.trim()).filter(Boolean);
}
