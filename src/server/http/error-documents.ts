import { toPointer, type ErrorObject } from "../../api/common";
import {
  Conflict,
  type DomainError,
  Forbidden,
  Invalid,
  NotFound,
  RecordInvalid,
  Unavailable,
  type Field,
  type Failure,
} from "../domain-errors";

/**
 * A failure of the HTTP layer itself (no token, body too large, wrong media type, a
 * malformed query) with its JSON:API rendering. Services throw the domain's errors
 * (../domain-errors.ts) instead, which {@link renderDomainError} maps; the app's error handler
 * is the only place that turns either into a response, so every failure path looks the same.
 */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly errors: ErrorObject[],
    readonly headers: Record<string, string> = {},
  ) {
    super(errors.map((e) => e.detail ?? e.title ?? String(status)).join("; "));
  }
}

function one(status: number, title: string, detail?: string, pointer?: string): ApiError {
  const error: ErrorObject = { status: String(status), title };
  if (detail !== undefined) error.detail = detail;
  if (pointer !== undefined) error.source = { pointer };
  return new ApiError(status, [error]);
}

export const badRequest = (detail: string, parameter?: string) => {
  const e = one(400, "bad request", detail);
  if (parameter) e.errors[0].source = { parameter };
  return e;
};
export const unauthorized = () => one(401, "unauthorized", "A valid API token is required.");
export const notFound = (detail = "The requested resource was not found, or you are not authorized to access it.") =>
  one(404, "not found", detail);
const tooManyRequests = (detail: string, headers: Record<string, string>) =>
  new ApiError(429, one(429, "Too many requests", detail).errors, headers);
/** A request with an invalid token (or a failed sign-in) from an address past its bound on failed authentications. */
export const failedAuthRefusal = (reset: string) =>
  tooManyRequests("Too many requests with an invalid token from this address; retry after the reset.", {
    "Retry-After": String(Math.max(1, Math.ceil(Number(reset)))),
    "X-RateLimit-Reset": reset,
  });
export const payloadTooLarge = (detail: string) => one(413, "payload too large", detail);
export const unsupportedMediaType = (detail: string) => one(415, "unsupported media type", detail);
export const unprocessable = (detail: string, pointer?: string) => one(422, "invalid attribute", detail, pointer);
export const internalError = () => one(500, "internal server error", "The server failed to process the request.");

const NOT_FOUND_DETAIL = "The requested resource was not found, or you are not authorized to access it.";

/** The JSON:API `source` of a failure: a JSON pointer into the body, or the query parameter. */
function sourceOf(field: Field): { pointer: string } | { parameter: string } {
  if ("parameter" in field) return { parameter: field.parameter };
  if ("data" in field) return { pointer: "/data" };
  const path: (string | number)[] = ["data"];
  if ("relationship" in field) {
    path.push("relationships", field.relationship);
    if (field.item !== undefined || field.id || field.attribute !== undefined) path.push("data");
  }
  if ("item" in field && field.item !== undefined) path.push(field.item);
  if ("id" in field && field.id) path.push("id");
  if (field.attribute !== undefined) path.push("attributes", ...field.attribute.split("."));
  return { pointer: toPointer(path) };
}

const concernsParameter = (f: Failure) => f.field !== undefined && "parameter" in f.field;

/**
 * The one table from domain errors to responses: status, title, and each failure's
 * detail and source. An Invalid naming query parameters is a 400 (the address is wrong);
 * naming the body, a 422. A NameTaken is an Invalid and renders as one.
 */
const DOMAIN_ERRORS: ReadonlyArray<{
  type: abstract new (...args: never[]) => DomainError;
  status: (e: never) => number;
  title: (e: never) => string;
  failures: (e: never) => ReadonlyArray<Failure>;
  /** The error object's `code`, for the failures whose kind a client tells apart by it. */
  code?: (e: never) => string;
}> = [
  {
    type: NotFound,
    status: () => 404,
    title: () => "not found",
    failures: (e: NotFound) => [{ detail: e.detail ?? NOT_FOUND_DETAIL }],
  },
  {
    type: Forbidden,
    status: () => 403,
    title: () => "forbidden",
    failures: (e: Forbidden) => [{ detail: e.detail ?? "You are not authorized to perform this action." }],
  },
  {
    type: Conflict,
    status: () => 409,
    title: () => "conflict",
    failures: (e: Conflict) => [{ detail: e.reason }],
    code: (e: Conflict) => e.code,
  },
  {
    type: RecordInvalid,
    status: () => 422,
    title: () => "invalid attributes",
    failures: (e: RecordInvalid) => e.failures,
  },
  {
    type: Invalid,
    status: (e: Invalid) => (e.failures.some(concernsParameter) ? 400 : 422),
    title: (e: Invalid) => (e.failures.some(concernsParameter) ? "bad request" : "invalid attribute"),
    failures: (e: Invalid) => e.failures,
  },
  {
    type: Unavailable,
    status: () => 503,
    title: () => "service unavailable",
    failures: (e: Unavailable) => [{ detail: e.detail }],
  },
];

/** The response for a domain error, through {@link DOMAIN_ERRORS}. */
export function renderDomainError(error: DomainError): ApiError {
  const row = DOMAIN_ERRORS.find((r) => error instanceof r.type);
  if (!row) throw new Error(`no rendering for domain error ${error.constructor.name}`);
  const e = error as never;
  const status = row.status(e);
  const title = row.title(e);
  const code = row.code?.(e);
  return new ApiError(
    status,
    row.failures(e).map((f) => {
      const object: ErrorObject =
        code === undefined
          ? { status: String(status), title, detail: f.detail }
          : { status: String(status), code, title, detail: f.detail };
      if (f.field) object.source = sourceOf(f.field);
      return object;
    }),
  );
}
