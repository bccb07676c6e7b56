/**
 * The stack's origin key (the `StackOrigin` resource) and the origin fields a create
 * sends (see src/api/origin.ts and docs/interrupted-updates.md).
 */
import { createHash, randomBytes } from "node:crypto";
import { ORIGIN_SOURCE_NAME, originUrl } from "../../api/origin";
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
export const KINDS_WITH_ORIGIN: ReadonlySet<string> = new Set(["Workspace", "NoCodeWorkspace"]);

/**
 * The `source-url` the resource `kind` named `name` of the stack `project`/`stack` writes,
 * with the digest of the stack's origin `key`; undefined when there is no valid key (the
 * resource then writes no origin).
 */
export function originFor(
  key: unknown,
  project: string,
  stack: string,
  kind: string,
  name: string,
): string | undefined {
  if (!isOriginKey(key)) return undefined;
  const digest = createHash("sha256")
    .update(JSON.stringify([key, project, stack, kind, name]))
    .digest("hex")
    .slice(0, 32);
  return originUrl({ project, stack, resource: name, digest });
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

/** The inputs a create sends: with the origin fields when the resource has an origin of its own. */
export function withOrigin(inputs: Props): Props {
  const origin = ownOrigin(inputs);
  return origin ? { ...inputs, sourceName: ORIGIN_SOURCE_NAME, sourceUrl: origin } : inputs;
}

/** Whether a record's `source-name` and `source-url` are exactly the origin these inputs would write. */
export function sameOrigin(inputs: Props, record: { sourceName?: unknown; sourceUrl?: unknown }): boolean {
  const origin = ownOrigin(inputs);
  return origin !== undefined && record.sourceName === ORIGIN_SOURCE_NAME && record.sourceUrl === origin;
}
