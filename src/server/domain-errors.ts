/**
 * The failures of the server's domains, in the domains' own words: no status codes, no
 * JSON pointers. Services throw them; one table in ./http/error-documents.ts turns each class into
 * a status, a title and the `source` of a JSON:API error object.
 */
import type { ConflictCode } from "../api/common";

/**
 * What part of the request a failure concerns, named the way the domain names it:
 * - `{ attribute: "name" }`, `{ attribute: "vcs-repo.oauth-token-id" }`: an attribute of
 *   the resource in the body, nested keys joined by dots;
 * - `{ relationship: "default-agent-pool" }`: a relationship of that resource; with
 *   `item` one resource of its list, with `id` the `id` of its (or that item's) identifier,
 *   with `attribute` an attribute of that item;
 * - `{ item: 2, id: true }`, `{ item: 0, attribute: "key" }`: one resource of a body whose
 *   data is a list;
 * - `{ data: true }`: the body's data as a whole;
 * - `{ parameter: "filter[tagged]" }`: a query parameter.
 */
export type Field =
  | { attribute: string }
  | { relationship: string; item?: number; id?: boolean; attribute?: string }
  | { item: number; id?: boolean; attribute?: string }
  | { data: true }
  | { parameter: string };

/** One failed rule of an invalid request: what is wrong, and where when known. */
export interface Failure {
  detail: string;
  field?: Field;
}

/** Base of every domain failure; the detail is the message a caller reads. */
export abstract class DomainError extends Error {}

/** No such thing, or the caller may not know it exists (the two look the same on purpose). */
export class NotFound extends DomainError {
  constructor(readonly detail?: string) {
    super(detail ?? "not found");
  }
}

/** The answer for a record of `kind` (`"team"`, `"SSH key"`) that does not exist or that the caller may not see. */
function notFound(kind: string): NotFound {
  return new NotFound(`${kind} not found`);
}

/**
 * The one rule against an existence oracle, for every record looked up by id: `record`
 * (what the store found, or undefined) is answered only once `check` passes, the caller's
 * right to see it or act on it, which may load its parents and its organization. An
 * unknown id, a check that answers false and any NotFound the check throws (a parent the
 * caller may not see, or its organization, named in the detail) all answer
 * `notFound(kind)`: what an unknown id gets, so nothing tells the two apart.
 */
export function visible<R>(kind: string, record: R | undefined, check: (r: R) => boolean | void): R {
  if (record === undefined) throw notFound(kind);
  let allowed: boolean | void;
  try {
    allowed = check(record);
  } catch (e) {
    if (e instanceof NotFound) throw notFound(kind);
    throw e;
  }
  if (allowed === false) throw notFound(kind);
  return record;
}

/** The caller can see the thing but may not do this to it. */
export class Forbidden extends DomainError {
  constructor(readonly detail?: string) {
    super(detail ?? "forbidden");
  }
}

/** The request is valid, but the thing's current state refuses it: `code` says which state, `reason` says it in words. */
export class Conflict extends DomainError {
  constructor(
    readonly code: ConflictCode,
    readonly reason: string,
  ) {
    super(reason);
  }
}

/** The request breaks one or more rules; each failure names the attribute or parameter it concerns. */
export class Invalid extends DomainError {
  readonly failures: ReadonlyArray<Failure>;
  constructor(detail: string, field?: Field);
  constructor(failures: ReadonlyArray<Failure>);
  constructor(first: string | ReadonlyArray<Failure>, field?: Field) {
    const failures: ReadonlyArray<Failure> =
      typeof first === "string" ? [field ? { detail: first, field } : { detail: first }] : first;
    super(failures.map((f) => f.detail).join("; "));
    this.failures = failures;
  }
}

/**
 * A record the service's own validation refuses as a whole ("Validation failed: ..."),
 * titled `invalid attributes` as the service titles these (go-tfe compares the message).
 */
export class RecordInvalid extends Invalid {}

/** A name (or another unique key) that another record of the organization already holds. */
export class NameTaken extends Invalid {
  constructor(field: Field = { attribute: "name" }) {
    super("Name has already been taken", field);
  }
}

/** The thing exists but cannot answer yet (a pending write); the caller retries shortly. */
export class Unavailable extends DomainError {
  constructor(readonly detail: string) {
    super(detail);
  }
}

/** Throws the collected failures as one Invalid, when there are any. */
export function failIfAny(failures: ReadonlyArray<Failure>): void {
  if (failures.length) throw new Invalid(failures);
}
