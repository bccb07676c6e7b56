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

/** The resources whose `check` claims what they manage, and so takes {@link CLAIMANT_KEY}. */
export const KINDS_WITH_CLAIMS: ReadonlySet<string> = new Set([
  "VariableSetApplication",
  "TeamWorkspaceAccess",
  "TeamProjectAccess",
  "RunTrigger",
  "NotificationConfiguration",
]);
