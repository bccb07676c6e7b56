/**
 * The stack's origin key (the `StackOrigin` resource) and the origin fields a create
 * sends (see src/api/origin.ts and docs/interrupted-updates.md).
 */
import { createHash, randomBytes } from "node:crypto";
import { ORIGIN_SOURCE_NAME, originQuery, originUrl } from "../../api/origin";
import { checkpointsSkipped } from "../state-backend";
import { ORIGIN_KEY } from "./inputs";
import type { ProviderImpl, Props } from "./types";

/** A new origin key: 16 random bytes in hex. */
export function newOriginKey(): string {
  return randomBytes(16).toString("hex");
}

/** A key as {@link newOriginKey} makes it. */
export function isOriginKey(key: unknown): key is string {
  return typeof key === "string" && /^[0-9a-f]{32}$/.test(key);
}

/** The resources whose creates carry an origin (the records whose create can be recognised again). */
export const KINDS_WITH_ORIGIN: ReadonlySet<string> = new Set([
  "Workspace",
  "NoCodeWorkspace",
  // A variable or set declared without a description carries it there (see ./workspace-variable.ts).
  "WorkspaceVariable",
  "WorkspaceVariables",
  "VariableSet",
  // A configuration with a URL carries it in the URL's fragment (see ./notification-configuration.ts).
  "NotificationConfiguration",
  // A project declared without a description carries it there (see ./project.ts).
  "Project",
  // An application writes nothing of its own: its origin says which stack's sets it may take over.
  "VariableSetApplication",
  // A token carries it after its description (see ./minted-token.ts).
  "AgentToken",
  // A described team token too; a team's legacy token has no description, and no origin.
  "TeamToken",
  // A policy declared without a description carries it there (see ./policy.ts).
  "Policy",
  // A policy set declared without a description carries it there (see ./policy-set.ts).
  "PolicySet",
]);

/**
 * The kinds whose origin also carries the stack's `owner` digest (one per stack, see
 * OriginParts): a set made by this stack, and the applications that recognise it.
 */
const KINDS_WITH_OWNER: ReadonlySet<string> = new Set(["VariableSet", "VariableSetApplication"]);

function digestOf(parts: unknown[]): string {
  return createHash("sha256").update(JSON.stringify(parts)).digest("hex").slice(0, 32);
}

/**
 * The `source-url` the resource `kind` named `name` of the stack `project`/`stack` writes,
 * with the digest of the stack's origin `key`; undefined when there is no valid key (the
 * resource then writes no origin). With `backend` (the stack's state backend and
 * organization, ../state-backend.ts) it also holds the digest of that: the proof a create
 * made while checkpoints are skipped carries (see {@link withOrigin}).
 */
export function originFor(
  key: unknown,
  project: string,
  stack: string,
  kind: string,
  name: string,
  backend?: string,
): string | undefined {
  if (!isOriginKey(key)) return undefined;
  const digest = digestOf([key, project, stack, kind, name]);
  const backendDigest = backend ? digestOf(["backend", backend, project, stack, kind, name]) : undefined;
  const owner = KINDS_WITH_OWNER.has(kind) ? digestOf(["owner", key, project, stack]) : undefined;
  return originUrl({ project, stack, resource: name, digest, backend: backendDigest, owner });
}

/**
 * Whether the origin `record` (a `source-url` or a description that holds one) was written
 * by a resource of the stack whose origin is `mine`: the same project and stack, and the
 * digest of the same origin key. False when either carries no owner digest.
 */
export function sameOwner(mine: unknown, record: unknown): boolean {
  const a = originQuery(mine);
  const b = originQuery(record);
  const owner = a?.get("owner");
  return Boolean(owner) && owner === b?.get("owner") && a?.get("stack") === b?.get("stack");
}

/**
 * Provider of the one `StackOrigin` resource of a stack: its create makes a random key
 * and nothing else (no request to any service); the key then lives in the stack's state,
 * travels with it on export and import, and never changes.
 */
export const stackOriginProvider: ProviderImpl = {
  async check(_olds, news) {
    return { inputs: news, failures: [] };
  },
  async diff() {
    return { changes: false, replaces: [] };
  },
  async create() {
    return { id: "origin", outs: { key: newOriginKey() } };
  },
  async read(id, props) {
    return { id, props };
  },
  async update(_id, olds) {
    return { outs: olds };
  },
  async delete() {},
};

/**
 * The `source-url` this resource's creates carry, or undefined when it has none: state
 * written before origins existed, or a program that sets `sourceName` or `sourceUrl`
 * itself (its values are kept, and the resource gets no recovery of interrupted creates).
 */
function ownOrigin(inputs: Props): string | undefined {
  const origin = inputs[ORIGIN_KEY];
  if (typeof origin !== "string" || origin === "") return undefined;
  const given = (v: unknown) => v !== undefined && v !== null;
  if (given(inputs.sourceName) || given(inputs.sourceUrl)) return undefined;
  return origin;
}

/**
 * The `source-url` a create writes for `origin`: with the backend's digest only while the
 * engine skips its checkpoints. Such an engine records the stack's origin key only when
 * the update ends, so a create of its first update can outlive the key (a runner killed
 * meanwhile); the backend's digest lets the next `up` of the same stack in the same
 * backend know the record without it. With checkpoints the key is recorded before any
 * create, and the record carries the key's digest alone, as before.
 */
function written(origin: string): string {
  const query = originQuery(origin);
  if (!query?.has("backend") || checkpointsSkipped()) return origin;
  query.delete("backend");
  return origin.slice(0, origin.indexOf("?") + 1) + query.toString();
}

/** The inputs a create sends: with the origin fields when the resource has an origin of its own. */
export function withOrigin(inputs: Props): Props {
  const origin = ownOrigin(inputs);
  return origin ? { ...inputs, sourceName: ORIGIN_SOURCE_NAME, sourceUrl: written(origin) } : inputs;
}

/**
 * Whether a record's `source-name` and `source-url` are an origin these inputs wrote: the
 * same stack and resource, and the digest of the same origin key, or of the same state
 * backend where both have one (a record of a first update whose key was lost with it).
 */
export function sameOrigin(inputs: Props, record: { sourceName?: unknown; sourceUrl?: unknown }): boolean {
  const mine = originQuery(ownOrigin(inputs));
  const theirs = record.sourceName === ORIGIN_SOURCE_NAME ? originQuery(record.sourceUrl) : undefined;
  if (!mine || !theirs) return false;
  if (mine.get("stack") !== theirs.get("stack") || mine.get("resource") !== theirs.get("resource")) return false;
  if (mine.get("origin") === theirs.get("origin")) return true;
  const backend = mine.get("backend");
  return Boolean(backend) && backend === theirs.get("backend");
}
