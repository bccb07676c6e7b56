/**
 * Telling "the server does not offer this" from "the record is not there". Servers of
 * this API written by others (OTF, older self-managed releases) leave out whole
 * features: safe delete, key-value tags, projects, remote state consumers, no-code
 * provisioning. They answer 404 on those routes, which is also how every server answers
 * a missing record or one the token may not see. So a 404 on a feature's route counts as
 * "not offered" only when the record the route belongs to (the workspace, the
 * organization) reads fine right after; otherwise it stays a {@link NotFoundError}, and
 * callers apply their own 404 rule to it. A 405 or 501 says "not offered" by itself.
 */
import { ApiError, type ErrorContext, FeatureUnavailableError, type Feature, NetworkError } from "./typed-errors";
import { type Transport, urlPath } from "./transport";

export type { Feature };

/** Statuses with which a server refuses a route it does not implement. */
const NOT_OFFERED = new Set([404, 405, 501]);

function contextOf(err: ApiError): ErrorContext {
  return {
    method: err.method,
    path: err.path,
    status: err.status,
    errors: err.errors,
    attempts: err.attempts,
    elapsedMs: err.elapsedMs,
  };
}

/**
 * `call`'s result. A 404 from it becomes a {@link FeatureUnavailableError} for `feature`
 * when `owner` (the path of the record the route belongs to; or every record a create
 * names, such as a team and a workspace) still reads; a 405 or 501 becomes one at once.
 * Any other failure, and a 404 where an owner does not read either, is thrown as it came.
 */
export async function orUnavailable<T>(
  transport: Transport,
  feature: Feature,
  owner: string | readonly string[],
  call: () => Promise<T>,
): Promise<T> {
  try {
    return await call();
  } catch (err) {
    if (!(err instanceof ApiError) || err instanceof NetworkError || !NOT_OFFERED.has(err.status)) throw err;
    if (err.status === 404) {
      try {
        for (const path of typeof owner === "string" ? [owner] : owner)
          await transport.request({ method: "GET", path, repeat: "idempotent" });
      } catch {
        throw err;
      }
    }
    throw new FeatureUnavailableError(contextOf(err), feature, transport.baseUrl);
  }
}

/** Path of a workspace, the owner of its sub-routes. */
export function workspaceOwner(workspaceId: string): string {
  return urlPath("workspaces", workspaceId);
}

/** Path of an organization, the owner of its collections. */
export function organizationOwner(organization: string): string {
  return urlPath("organizations", organization);
}

/**
 * The error for an answer that left out what a feature puts there (a workspace created
 * with a project but answered without a `project` relationship): `answer` says what was
 * missing, as a phrase (`answered 201 without a project relationship`).
 */
export function unavailableFromAnswer(
  address: string,
  feature: Feature,
  ctx: Pick<ErrorContext, "method" | "path" | "status">,
  answer: string,
): FeatureUnavailableError {
  return new FeatureUnavailableError({ ...ctx, attempts: 1, elapsedMs: 0 }, feature, address, answer);
}
