import type { ErrorObject } from "../../api/common";

/**
 * A failure that has a JSON:API rendering. Services throw it; the app's error handler
 * is the only place that turns it into a response, so every failure path looks the same.
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
/** A 400 about a place in the request body, named by its JSON pointer. */
export const badRequestAt = (detail: string, pointer: string) => one(400, "bad request", detail, pointer);
export const unauthorized = () => one(401, "unauthorized", "A valid API token is required.");
export const forbidden = (detail = "You are not authorized to perform this action.") => one(403, "forbidden", detail);
export const notFound = (detail = "The requested resource was not found, or you are not authorized to access it.") =>
  one(404, "not found", detail);
export const conflict = (detail: string) => one(409, "conflict", detail);
export const tooManyRequests = (detail: string, headers: Record<string, string>) => new ApiError(429, one(429, "Too many requests", detail).errors, headers);
export const payloadTooLarge = (detail: string) => one(413, "payload too large", detail);
export const unsupportedMediaType = (detail: string) => one(415, "unsupported media type", detail);
export const unprocessable = (detail: string, pointer?: string) => one(422, "invalid attribute", detail, pointer);
export const unprocessableMany = (errors: ErrorObject[]) => new ApiError(422, errors);
export const serviceUnavailable = (detail: string) => one(503, "service unavailable", detail);
export const internalError = () => one(500, "internal server error", "The server failed to process the request.");

/** "Name has already been taken", the hosted service's wording for a duplicate name. */
export const nameTaken = (pointer = "/data/attributes/name") => unprocessable("Name has already been taken", pointer);
