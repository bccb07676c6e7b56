/**
 * Shapes shared by every document of the service (spec section 2.1, 2.10 and 7):
 * JSON:API resource objects, relationships, errors and the pagination envelope.
 *
 * Response schemas are loose (unknown keys are kept) so that a newer service adding
 * attributes never breaks an older client, and liberal: `null` where an object, a list
 * or a string is expected reads as absent, as do missing `attributes`, `relationships`
 * and `links` (servers written by others answer `null` for an empty list and leave out
 * what they do not implement). Request schemas validate exactly the keys the spec
 * defines and ignore the rest, as the hosted service does.
 */
import { z } from "zod";

declare const integerMark: unique symbol;

/**
 * A whole number. In TypeScript it is a `number` (any number is accepted where one is
 * expected); the provider plugin's schema types it `integer`, so the Go and Python SDKs
 * offer `int`.
 */
export type Integer = number & { readonly [integerMark]?: "integer" };

/** Media type of every request and response body. */
export const JSONAPI_MEDIA_TYPE = "application/vnd.api+json";

/** Identifier prefixes of the service's records (`ws-`, `prj-`, ...), plus those of the few records the service does not document. */
export const ID_PREFIXES = {
  workspace: "ws-",
  project: "prj-",
  agentPool: "apool-",
  run: "run-",
  stateVersion: "sv-",
  configurationVersion: "cv-",
  sshKey: "sshkey-",
  user: "user-",
  variable: "var-",
  workspaceOutput: "wsout-",
  tag: "tag-",
  tagBinding: "tb-",
  noCodeModule: "nocode-",
  registryModule: "mod-",
  variableOptions: "ncvaropt-",
  noCodeModuleVersion: "nocodever-",
  oauthToken: "ot-",
  // Not named by the spec; chosen after the hosted service's own prefixes.
  team: "team-",
  authenticationToken: "at-",
  registryModuleVersion: "modver-",
  dataRetentionPolicy: "drp-",
  variableSet: "varset-",
  runTrigger: "rt-",
  notificationConfiguration: "nc-",
  organizationMembership: "ou-",
  policy: "pol-",
  policySet: "polset-",
  policySetVersion: "polsetver-",
} as const;

/** A kind of record with an identifier prefix (`workspace`, `project`, ...), as named in {@link ID_PREFIXES}. */
export type IdKind = keyof typeof ID_PREFIXES;

/** True when `value` has the prefix of `kind` followed by a non-empty opaque part. */
export function isId(kind: IdKind, value: unknown): value is string {
  const prefix = ID_PREFIXES[kind];
  return typeof value === "string" && value.length > prefix.length && value.startsWith(prefix);
}

/** `value` with `null` read as absent, for response schemas. */
function nullAsAbsent(value: unknown): unknown {
  return value === null ? undefined : value;
}

/** A response schema that reads `null` as absent (the key's schema must accept `undefined`). */
export function absentIfNull<S extends z.ZodType>(schema: S) {
  return z.preprocess(nullAsAbsent, schema);
}

/** A response attribute that reads `null` or a missing key as `absent`, its value when the service says nothing. */
export function orAbsent<S extends z.ZodType>(schema: S, absent: z.util.NoUndefined<z.output<S>>) {
  return absentIfNull(schema.default(absent));
}

/** A response attribute that reads `null` or a missing key as `undefined` (the caller picks its absent value). */
export function maybe<S extends z.ZodType>(schema: S) {
  return absentIfNull(schema.optional());
}

/** The `attributes` of a resource object, missing or `null` read as none (each key then reads as its absent value). */
export function attributesSchema<A extends z.ZodType>(attributes: A) {
  return z.preprocess((v) => v ?? {}, attributes);
}

/** A record with its `null` entries left out, so that `{"project": null}` reads as no `project` relationship. */
function withoutNullEntries(value: unknown): unknown {
  if (value === null) return undefined;
  if (typeof value !== "object" || Array.isArray(value)) return value;
  return Object.fromEntries(Object.entries(value as Record<string, unknown>).filter(([, v]) => v !== null));
}

/** `{id, type}` as found in relationship data. */
export const resourceIdentifierSchema = z
  .object({
    /** Identifier of the record (`ws-...`, `prj-...`). */
    id: z.string(),
    /** JSON:API type of the record (`workspaces`, `projects`). */
    type: z.string(),
  })
  .loose();
/** `{id, type}` of a record a relationship points to. */
export type ResourceIdentifier = z.infer<typeof resourceIdentifierSchema>;

/** A relationship entry: `{data: {id, type}}`, `{data: null}`, `{data: [...]}`, optionally `links.related`. */
export const relationshipSchema = z
  .object({
    /** The record pointed to, null for none, or a list for a to-many relationship. */
    data: z.union([resourceIdentifierSchema, z.null(), z.array(resourceIdentifierSchema)]).optional(),
    /** `related`: API path of the related records. */
    links: absentIfNull(z.object({ related: z.string().optional() }).loose().optional()),
  })
  .loose();
/** A relationship entry of a resource object. */
export type Relationship = z.infer<typeof relationshipSchema>;

/** The `relationships` object of a resource: relationship entries by name (a `null` entry reads as absent). */
export const relationshipsSchema = z.preprocess(
  withoutNullEntries,
  z.record(z.string(), relationshipSchema).optional(),
);
/** The `links` object of a resource (`self`, `self-html`, ...); `null` reads as absent. */
export const linksSchema = absentIfNull(z.record(z.string(), z.unknown()).optional());

/** A resource object of a given `type` with the given attribute schema. */
export function resourceSchema<T extends string, A extends z.ZodType>(type: T, attributes: A) {
  return z
    .object({
      /** Identifier of the record, with its kind's prefix (`ws-...`). */
      id: z.string(),
      /** JSON:API type of the record. */
      type: z.literal(type),
      /** The record's attributes, in the service's kebab-case spelling; missing or `null` reads as none. */
      attributes: attributesSchema(attributes),
      /** Related records by relationship name. */
      relationships: relationshipsSchema,
      /** API and UI paths of the record (`self`, `self-html`). */
      links: linksSchema,
    })
    .loose();
}

/** Any resource object, used for `included`. */
export const anyResourceSchema = z
  .object({
    /** Identifier of the record; some records (effective tag bindings) have none. */
    id: z.string().optional(),
    /** JSON:API type of the record. */
    type: z.string(),
    /** The record's attributes, unchecked. */
    attributes: absentIfNull(z.record(z.string(), z.unknown()).optional()),
    /** Related records by relationship name. */
    relationships: relationshipsSchema,
    /** API and UI paths of the record. */
    links: linksSchema,
  })
  .loose();
/** A resource object of any type, as found in a document's `included`. */
export type AnyResource = z.infer<typeof anyResourceSchema>;

/** Single-resource document: `{data, included?}`. */
export function documentSchema<R extends z.ZodType>(resource: R) {
  return z
    .object({
      /** The resource the document is about. */
      data: resource,
      /** Related records asked for with `include`. */
      included: absentIfNull(z.array(anyResourceSchema).optional()),
    })
    .loose();
}

/**
 * The pagination counters of a list document (`meta.pagination`). Each may be `null` or missing (servers written by
 * others leave some out); the paged list reads a missing `current-page` as the page it
 * asked for and a missing `next-page` from `total-pages` (src/client/pagination.ts).
 * `null` for `next-page` and `prev-page` says there is no such page.
 */
export const paginationSchema = z
  .object({
    /** Number of this page, from 1. */
    "current-page": maybe(z.number().int()),
    /** Number of the next page, or null on the last page. */
    "next-page": z.number().int().nullable().optional(),
    /** Records per page (OTF leaves it out; the client never needs it). */
    "page-size": maybe(z.number().int()),
    /** Number of the previous page, or null on the first page. */
    "prev-page": z.number().int().nullable().optional(),
    /** Records in the whole list. */
    "total-count": maybe(z.number().int()),
    /** Pages in the whole list. */
    "total-pages": maybe(z.number().int()),
  })
  .loose();
/** Pagination counters of a list document (`meta.pagination`), as the service sent them. */
export type Pagination = z.infer<typeof paginationSchema>;

/** Links of a paginated list (spec 2.10). */
export const listLinksSchema = z
  .object({
    self: z.string().optional(),
    first: z.string().optional(),
    last: z.string().optional(),
    next: z.string().nullable().optional(),
    prev: z.string().nullable().optional(),
  })
  .loose();

/** List document: `{data: [...], links?, meta.pagination?, included?}`. */
export function listDocumentSchema<R extends z.ZodType>(resource: R) {
  return z
    .object({
      /** The records of this page; `null` reads as none. */
      data: z.preprocess((v) => v ?? [], z.array(resource)),
      /** Related records asked for with `include`. */
      included: absentIfNull(z.array(anyResourceSchema).optional()),
      /** Paths of this, the first, last, next and previous pages. */
      links: absentIfNull(listLinksSchema.optional()),
      /** `pagination`: the page counters. */
      meta: absentIfNull(
        z
          .object({ pagination: absentIfNull(paginationSchema.optional()) })
          .loose()
          .optional(),
      ),
    })
    .loose();
}

/** Default and maximum page sizes (the service's documented default; the maximum follows the hosted service). */
export const DEFAULT_PAGE_SIZE = 20;
/** Largest `page[size]` the service accepts; larger values are lowered to it. */
export const MAX_PAGE_SIZE = 100;

/**
 * Which state refused a request, as a 409's error object may say in `code` (the local
 * server does; the hosted service says it only in words):
 * - `already-locked`: lock of a locked workspace;
 * - `not-locked`: unlock of an unlocked workspace, or a write that needs the caller's lock;
 * - `locked-by-another-user`: the lock is someone else's;
 * - `locked`: a lock is held, or the record is held in place (a pin, a default, a final state);
 * - `managing-resources`: the thing still holds what must go first (resources, workspaces);
 * - `still-processing`: work on it is under way; retrying later may succeed;
 * - `already-exists`: what the request would make is there already.
 */
export const CONFLICT_CODES = [
  "already-locked",
  "not-locked",
  "locked-by-another-user",
  "managing-resources",
  "locked",
  "still-processing",
  "already-exists",
] as const;

/** One of {@link CONFLICT_CODES}. */
export type ConflictCode = (typeof CONFLICT_CODES)[number];

/** A JSON:API error object (spec section 7). `status` is a string, as JSON:API requires. */
export const errorObjectSchema = z
  .object({
    /** HTTP status of the error, as a string (`"422"`). */
    status: z.string(),
    /** Short summary, the same for every error of its kind. */
    title: z.string().optional(),
    /** What went wrong in this case. */
    detail: z.string().optional(),
    /** Machine-readable error code, when the service gives one. */
    code: z.string().optional(),
    /** Where the error is: `pointer` (JSON pointer into the request body) or `parameter` (query parameter). */
    source: z.object({ pointer: z.string().optional(), parameter: z.string().optional() }).loose().optional(),
    /** Further details the service adds. */
    meta: z.record(z.string(), z.unknown()).optional(),
  })
  .loose();
/** A JSON:API error object of an error response. */
export type ErrorObject = z.infer<typeof errorObjectSchema>;

/** Body of an error response: `{errors: [...]}` (spec section 7). */
export const errorDocumentSchema = z
  .object({
    /** One error object per problem found. */
    errors: z.array(errorObjectSchema),
  })
  .loose();
/** Body of an error response. */
export type ErrorDocument = z.infer<typeof errorDocumentSchema>;

/** Turns a path such as `["data", "attributes", "name"]` into the JSON pointer `/data/attributes/name`. */
export function toPointer(path: ReadonlyArray<PropertyKey>): string {
  return path.map((p) => "/" + String(p).replace(/~/g, "~0").replace(/\//g, "~1")).join("");
}

/** One 422 error object per zod issue, each with the JSON pointer of the offending key. */
export function issuesToErrors(
  issues: ReadonlyArray<z.core.$ZodIssue>,
  prefix: ReadonlyArray<PropertyKey> = [],
): ErrorObject[] {
  return issues.map((issue) => {
    const path = [...prefix, ...issue.path];
    const pointer = toPointer(path);
    const key = path.length ? String(path[path.length - 1]) : "body";
    return {
      status: "422",
      title: "invalid attribute",
      detail: `${key}: ${issue.message}`,
      source: { pointer: pointer || "/" },
    };
  });
}

/** A problem found by a cross-field rule, with the JSON pointer it concerns. */
export interface Problem {
  /** JSON pointer of the attribute concerned (`/data/attributes/agent-pool-id`). */
  pointer: string;
  /** What is wrong, as the error object's `detail`. */
  detail: string;
}

/** One 422 error object per problem, as the service answers a request that breaks a cross-field rule. */
export function problemsToErrors(problems: ReadonlyArray<Problem>): ErrorObject[] {
  return problems.map((p) => ({
    status: "422",
    title: "invalid attribute",
    detail: p.detail,
    source: { pointer: p.pointer },
  }));
}

/** Relationship body whose items only need `type` and `id` (go-tfe sends whole resource objects: only these two are read). */
export function identifiersBodySchema<T extends string>(type: T) {
  return z
    .object({
      /** The records, each named by `type` and `id`. */
      data: z.array(z.object({ type: z.literal(type), id: z.string().min(1) }).loose()),
    })
    .loose();
}

/** Timestamp as the service writes it (ISO 8601). */
export const timestampSchema = z.string();
/** A timestamp attribute of a response; `null` or missing reads as `undefined`. */
export const optionalTimestampSchema = maybe(timestampSchema);

/**
 * A value where text is expected (an engine input, a tag key or value on the wire): text
 * as is, nothing as "", anything else as JSON.
 */
export function text(value: unknown): string {
  if (typeof value === "string") return value;
  return value === undefined || value === null ? "" : (JSON.stringify(value) ?? "");
}
