/**
 * Shapes shared by every document of the service (spec section 2.1, 2.10 and 7):
 * JSON:API resource objects, relationships, errors and the pagination envelope.
 *
 * Response schemas are loose (unknown keys are kept) so that a newer service adding
 * attributes never breaks an older client; request schemas validate exactly the keys
 * the spec defines and ignore the rest, as the hosted service does.
 */
import { z } from "zod";

/** Media type of every request and response body. */
export const JSONAPI_MEDIA_TYPE = "application/vnd.api+json";

/** Identifier prefixes of spec 2.1, plus the few records the spec leaves open. */
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
} as const;

export type IdKind = keyof typeof ID_PREFIXES;

/** True when `value` has the prefix of `kind` followed by a non-empty opaque part. */
export function isId(kind: IdKind, value: unknown): value is string {
  const prefix = ID_PREFIXES[kind];
  return typeof value === "string" && value.length > prefix.length && value.startsWith(prefix);
}

/** `{id, type}` as found in relationship data. */
export const resourceIdentifierSchema = z.object({ id: z.string(), type: z.string() }).loose();
export type ResourceIdentifier = z.infer<typeof resourceIdentifierSchema>;

/** A relationship entry: `{data: {id, type}}`, `{data: null}`, `{data: [...]}`, optionally `links.related`. */
export const relationshipSchema = z
  .object({
    data: z.union([resourceIdentifierSchema, z.null(), z.array(resourceIdentifierSchema)]).optional(),
    links: z.object({ related: z.string().optional() }).loose().optional(),
  })
  .loose();
export type Relationship = z.infer<typeof relationshipSchema>;

export const relationshipsSchema = z.record(z.string(), relationshipSchema);
export const linksSchema = z.record(z.string(), z.unknown());

/** A resource object of a given `type` with the given attribute schema. */
export function resourceSchema<T extends string, A extends z.ZodType>(type: T, attributes: A) {
  return z
    .object({
      id: z.string(),
      type: z.literal(type),
      attributes,
      relationships: relationshipsSchema.optional(),
      links: linksSchema.optional(),
    })
    .loose();
}

/** Any resource object, used for `included`. */
export const anyResourceSchema = z
  .object({
    id: z.string().optional(),
    type: z.string(),
    attributes: z.record(z.string(), z.unknown()).optional(),
    relationships: relationshipsSchema.optional(),
    links: linksSchema.optional(),
  })
  .loose();
export type AnyResource = z.infer<typeof anyResourceSchema>;

/** Single-resource document: `{data, included?}`. */
export function documentSchema<R extends z.ZodType>(resource: R) {
  return z.object({ data: resource, included: z.array(anyResourceSchema).optional() }).loose();
}

/** Pagination counters of spec 2.10. */
export const paginationSchema = z
  .object({
    "current-page": z.number().int(),
    "next-page": z.number().int().nullable(),
    "page-size": z.number().int(),
    "prev-page": z.number().int().nullable(),
    "total-count": z.number().int(),
    "total-pages": z.number().int(),
  })
  .loose();
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
      data: z.array(resource),
      included: z.array(anyResourceSchema).optional(),
      links: listLinksSchema.optional(),
      meta: z.object({ pagination: paginationSchema.optional() }).loose().optional(),
    })
    .loose();
}

/** Default and maximum page sizes (spec section 8 gives the default; the maximum follows the hosted service). */
export const DEFAULT_PAGE_SIZE = 20;
export const MAX_PAGE_SIZE = 100;

/** A JSON:API error object (spec section 7). `status` is a string, as JSON:API requires. */
export const errorObjectSchema = z
  .object({
    status: z.string(),
    title: z.string().optional(),
    detail: z.string().optional(),
    code: z.string().optional(),
    source: z.object({ pointer: z.string().optional(), parameter: z.string().optional() }).loose().optional(),
    meta: z.record(z.string(), z.unknown()).optional(),
  })
  .loose();
export type ErrorObject = z.infer<typeof errorObjectSchema>;

export const errorDocumentSchema = z.object({ errors: z.array(errorObjectSchema) }).loose();
export type ErrorDocument = z.infer<typeof errorDocumentSchema>;

/** Turns a path such as `["data", "attributes", "name"]` into the JSON pointer `/data/attributes/name`. */
export function toPointer(path: ReadonlyArray<PropertyKey>): string {
  return path.map((p) => "/" + String(p).replace(/~/g, "~0").replace(/\//g, "~1")).join("");
}

/** One 422 error object per zod issue, each with the JSON pointer of the offending key. */
export function issuesToErrors(issues: ReadonlyArray<z.core.$ZodIssue>, prefix: ReadonlyArray<PropertyKey> = []): ErrorObject[] {
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
  pointer: string;
  detail: string;
}

export function problemsToErrors(problems: ReadonlyArray<Problem>): ErrorObject[] {
  return problems.map((p) => ({ status: "422", title: "invalid attribute", detail: p.detail, source: { pointer: p.pointer } }));
}

/** Relationship body whose items only need `type` and `id` (go-tfe sends whole resource objects: only these two are read). */
export function identifiersBodySchema<T extends string>(type: T) {
  return z
    .object({
      data: z.array(z.object({ type: z.literal(type), id: z.string().min(1) }).loose()),
    })
    .loose();
}

/** Timestamp as the service writes it (ISO 8601). */
export const timestampSchema = z.string();
