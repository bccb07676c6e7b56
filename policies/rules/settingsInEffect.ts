import type { PolicyResource } from "@pulumi/policy";
import {
  WorkspaceSettings,
  declaredProps,
  isAbsent,
  isOfType,
  knownProps,
  str,
  workspaceKinds,
  workspaceKey,
  workspaceRef,
  type Props,
} from "./common";

// A workspace's settings may be declared on the workspace itself and, for the fields it
// names, by a WorkspaceSettings of the same stack (one that the stack's own workspace feeds,
// or that names its id). A WorkspaceSettings manages only what it declares: an absent input
// leaves the workspace's value as it is, so only given (or not yet known) values override.

/** The inputs of a WorkspaceSettings that are not settings of the workspace. */
const NOT_SETTINGS = new Set(["workspaceId", "adopt"]);

/** A workspace of the stack with what it ends up declared with. */
export interface SettingsInEffect {
  /** The workspace resource (Workspace or NoCodeWorkspace). */
  resource: PolicyResource;
  /** Its declared inputs, each overridden by a WorkspaceSettings of the stack that declares it. */
  props: Props;
  /** The WorkspaceSettings that declares each overridden input. */
  setBy: Map<string, PolicyResource>;
}

/** A WorkspaceSettings of the stack whose workspace the stack does not declare. */
export interface SettingsElsewhere {
  resource: PolicyResource;
  props: Props;
  /** The key `workspaceRef` gives its workspace (`id:ws-...`), when known. */
  key?: string;
  /** How messages name its workspace: `workspace ws-...`. */
  label: string;
}

/**
 * For every workspace resource of the stack (by URN), its settings in effect; and the
 * WorkspaceSettings that target a workspace the stack does not declare.
 */
export function settingsInEffect(resources: readonly PolicyResource[]): {
  workspaces: Map<string, SettingsInEffect>;
  elsewhere: SettingsElsewhere[];
} {
  const workspaces = new Map<string, SettingsInEffect>();
  // The keys workspaceRef gives a workspace: its resource, and its id once the outputs have it.
  const byKey = new Map<string, SettingsInEffect>();
  for (const r of resources) {
    if (!isOfType(r, ...workspaceKinds)) continue;
    const entry: SettingsInEffect = { resource: r, props: { ...declaredProps(r) }, setBy: new Map() };
    workspaces.set(r.urn, entry);
    byKey.set(workspaceKey(r), entry);
    const id = str(knownProps(r.props).id);
    if (id !== undefined && id !== "") byKey.set(`id:${id}`, entry);
  }
  const elsewhere: SettingsElsewhere[] = [];
  for (const r of resources) {
    if (!isOfType(r, WorkspaceSettings)) continue;
    const props = declaredProps(r);
    const target = workspaceRef(r, "workspaceId", props);
    const entry = target === undefined ? undefined : byKey.get(target.key);
    if (entry === undefined) {
      elsewhere.push({ resource: r, props, key: target?.key, label: target?.label ?? "its workspace" });
      continue;
    }
    const merged = entry.props as Record<string, unknown>;
    for (const [key, value] of Object.entries(props)) {
      // Absent is not managed; a value not known yet will override whatever it turns out to be.
      if (NOT_SETTINGS.has(key) || isAbsent(value)) continue;
      merged[key] = value;
      entry.setBy.set(key, r);
    }
  }
  return { workspaces, elsewhere };
}

/** The resource that declares `property` of a workspace in effect: its WorkspaceSettings, else the workspace. */
export function declaredBy(entry: SettingsInEffect, property: string): PolicyResource {
  return entry.setBy.get(property) ?? entry.resource;
}
