/**
 * Small helpers between the wire's kebab-case JSON:API documents and the client's
 * camelCase objects.
 */
import type { z } from "zod";
import { issuesToErrors, type Relationship } from "../api/common";
import { ValidationError, type HttpMethod } from "./typed-errors";

type WithRelationships = { relationships?: Record<string, Relationship> | undefined };

/** The id of a to-one relationship, or null when absent or empty. */
export function relId(resource: WithRelationships, name: string): string | null {
  const data = resource.relationships?.[name]?.data;
  return data && !Array.isArray(data) ? data.id : null;
}

/** The ids of a to-many relationship, or an empty list. */
export function relIds(resource: WithRelationships, name: string): string[] {
  const data = resource.relationships?.[name]?.data;
  return Array.isArray(data) ? data.map((d) => d.id) : [];
}

// Wire keys are a small fixed set, converted once per key per response: remembering
// them saves a regular expression per key of every record (a profile of the provider
// host showed the conversion as the client's largest self time).
const kebabs = new Map<string, string>();
const camels = new Map<string, string>();
const REMEMBERED = 4096;

/** `fooBarBaz` -> `foo-bar-baz`. */
function kebab(key: string): string {
  let out = kebabs.get(key);
  if (out === undefined) {
    out = key.replace(/[A-Z]/g, (c) => "-" + c.toLowerCase());
    if (kebabs.size < REMEMBERED) kebabs.set(key, out);
  }
  return out;
}

/** `foo-bar-baz` -> `fooBarBaz`. */
function camel(key: string): string {
  let out = camels.get(key);
  if (out === undefined) {
    out = key.replace(/-([a-z0-9])/g, (_, c: string) => c.toUpperCase());
    if (camels.size < REMEMBERED) camels.set(key, out);
  }
  return out;
}

/**
 * Copies the defined keys of `options` listed in `keys` to wire spelling. `null` is kept
 * (it means "clear" on update); `undefined` is dropped (it means "leave as is").
 */
export function toWire<T extends object>(
  options: T,
  keys: readonly (keyof T & string)[],
  rename: Partial<Record<keyof T & string, string>> = {},
): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const key of keys) {
    const value = (options as Record<string, unknown>)[key];
    if (value === undefined) continue;
    out[rename[key] ?? kebab(key)] = value;
  }
  return out;
}

/** Camel-cases the keys of a flat wire object (permissions, actions, setting-overwrites); a `null` value reads as absent. */
export function camelKeys<V>(obj: Record<string, V | null> | null | undefined): Record<string, V> {
  const out: Record<string, V> = {};
  if (!obj) return out;
  for (const [k, v] of Object.entries(obj)) if (v !== null) out[camel(k)] = v;
  return out;
}

/**
 * `body` once `schema` accepts it; otherwise a {@link ValidationError} of the request that
 * was not sent, with a pointer per problem, as the service would answer it.
 */
export function checkedBody<T>(schema: z.ZodType<T>, method: HttpMethod, path: string, body: unknown): T {
  const parsed = schema.safeParse(body);
  if (parsed.success) return body as T;
  throw new ValidationError({
    method,
    path,
    status: 0,
    errors: issuesToErrors(parsed.error.issues),
    attempts: 0,
    elapsedMs: 0,
  });
}
