/**
 * Claims of one record by the resources of one stack, per process: the engine checks
 * every resource of a deployment in the same provider process (the dynamic-provider host
 * for the TypeScript door, the plugin for the others), so a claim of a record that another
 * resource of this process holds is a second declaration of it in the same stack. Refused
 * in `check`, before anything is written and during `pulumi preview` already.
 */

/**
 * Input under which a resource names itself for its claims: the TypeScript class gives its
 * resource name, the plugin the name in the resource's URN. Never recorded: `check` takes
 * it out of the inputs it returns.
 */
export const CLAIMANT_KEY = "__claimant";

const claimed = new Map<string, string>();

/**
 * Claims `record` (e.g. `varset-1/ws-2`) for `claimant` (the declaring resource's name);
 * returns the other claimant when another resource of this process holds it. The same
 * claimant may claim again (the engine checks a resource again in a later step).
 */
export function claim(record: string, claimant: string): string | undefined {
  const earlier = claimed.get(record);
  if (earlier !== undefined && earlier !== claimant) return earlier;
  claimed.set(record, claimant);
  return undefined;
}

/** The group each claimant last joined, by kind of group (see {@link joinGroup}). */
const memberships = new Map<string, Map<string, string>>();

/**
 * Records that `claimant` declares one member of `group` (e.g. the sources of one
 * workspace's run triggers, kind `run-trigger-sources`), leaving the group of that kind it
 * joined before (a resource whose target changed), and returns how many resources of this
 * process are in the group: the stack's own count, for a limit checked at preview.
 */
export function joinGroup(kind: string, group: string, claimant: string): number {
  let members = memberships.get(kind);
  if (!members) memberships.set(kind, (members = new Map()));
  members.set(claimant, group);
  let count = 0;
  for (const g of members.values()) if (g === group) count += 1;
  return count;
}

/** What a resource holds of a list: all of it (`authoritative`), or the items it adds (`additive`). */
export type ListHolding = { list: string; items: "all" | readonly string[] };

/** By kind of list, what each claimant holds (see {@link claimList}). */
const lists = new Map<string, Map<string, ListHolding>>();

/**
 * Claims `holding` of one list (e.g. `apool-1`, of kind `allowed-workspaces`) for
 * `claimant`, and returns the claimants it conflicts with: anyone else holding the list when
 * this one holds all of it, anyone holding all of it, and anyone else adding one of the same
 * items (`item` says which). A claim without conflicts replaces what the claimant held of
 * that kind before (a resource whose list changed).
 */
export function claimList(
  kind: string,
  claimant: string,
  holding: ListHolding,
): { other: string; otherHolds: "all" | "items"; item?: string }[] {
  let holders = lists.get(kind);
  if (!holders) lists.set(kind, (holders = new Map()));
  const conflicts: { other: string; otherHolds: "all" | "items"; item?: string }[] = [];
  for (const [other, held] of holders) {
    if (other === claimant || held.list !== holding.list) continue;
    const otherHolds = held.items === "all" ? "all" : "items";
    if (held.items === "all" || holding.items === "all") conflicts.push({ other, otherHolds });
    else for (const item of holding.items) if (held.items.includes(item)) conflicts.push({ other, otherHolds, item });
  }
  if (conflicts.length === 0) holders.set(claimant, holding);
  return conflicts;
}

/** The claimant that holds exactly `holding` of a list of `kind` (see {@link claimList}), if one does. */
export function holderOf(kind: string, holding: ListHolding): string | undefined {
  const same = (a: ListHolding["items"], b: ListHolding["items"]) =>
    a === "all" || b === "all" ? a === b : a.length === b.length && a.every((i) => b.includes(i));
  for (const [claimant, held] of lists.get(kind) ?? [])
    if (held.list === holding.list && same(held.items, holding.items)) return claimant;
  return undefined;
}

/**
 * What the resources checked in this process hold of a list of `kind`: `all` when one
 * holds the whole list, else every item they add. A resource being deleted is not checked,
 * so for its delete this is what the stack's other resources declare of the list.
 */
export function claimedItems(kind: string, list: string): "all" | string[] {
  const items = new Set<string>();
  for (const held of lists.get(kind)?.values() ?? []) {
    if (held.list !== list) continue;
    if (held.items === "all") return "all";
    for (const item of held.items) items.add(item);
  }
  return [...items];
}

/** Whether a claimant other than `claimant` holds some of a list of `kind` (see {@link claimList}). */
export function heldByOthers(kind: string, list: string, claimant: string): boolean {
  for (const [other, held] of lists.get(kind) ?? []) if (other !== claimant && held.list === list) return true;
  return false;
}

/** By record, the claimant of each of its parts (see {@link claimParts}). */
const parts = new Map<string, Map<string, string>>();

/**
 * Claims the parts `names` of `record` (e.g. the settings of one workspace) for
 * `claimant`, and returns, by part, the other claimant holding it. A claim without
 * conflicts also lets go of the parts of `record` the claimant held before and no longer names.
 */
export function claimParts(record: string, names: readonly string[], claimant: string): Map<string, string> {
  let held = parts.get(record);
  if (!held) parts.set(record, (held = new Map()));
  const conflicts = new Map<string, string>();
  for (const name of names) {
    const other = held.get(name);
    if (other !== undefined && other !== claimant) conflicts.set(name, other);
  }
  if (conflicts.size > 0) return conflicts;
  for (const [name, c] of held) if (c === claimant && !names.includes(name)) held.delete(name);
  for (const name of names) held.set(name, claimant);
  return conflicts;
}

/** The claimants holding a part of `record` (see {@link claimParts}). */
export function claimantsOf(record: string): string[] {
  return [...new Set(parts.get(record)?.values() ?? [])];
}

/** The resources whose `check` claims what they manage, and so takes {@link CLAIMANT_KEY}. */
export const KINDS_WITH_CLAIMS: ReadonlySet<string> = new Set([
  "VariableSetApplication",
  "TeamWorkspaceAccess",
  "TeamProjectAccess",
  "RunTrigger",
  "NotificationConfiguration",
  "AgentPoolAllowedWorkspaces",
  "AgentPoolAllowedProjects",
  "AgentPoolExcludedWorkspaces",
  "PolicySetWorkspaces",
  "PolicySetProjects",
  "PolicySetWorkspaceExclusions",
  "PolicySetProjectExclusions",
  "TeamMembers",
  "WorkspaceSettings",
  "Workspace",
  "RemoteStateConsumers",
]);
