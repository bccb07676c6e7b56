/**
 * Whether each policy set of this process's program is declared global, by set id, as the
 * set's `PolicySet` last declared it in its `diff`. The engine diffs a set before it checks
 * the resources that depend on its id (where the set applies), in the same provider
 * process, so their `check` judges a global set by what the program declares rather than by
 * what the service still shows: a set made not global in the same `up` as its first
 * workspaces is not refused, and one made global is refused at preview already. Nothing
 * here is sent anywhere or kept after the process ends.
 */

const declared = new Map<string, boolean>();

/** The `PolicySet` of `setId` declares `global` (called from its `diff`). */
export function declareGlobal(setId: string, global: boolean): void {
  declared.set(setId, global);
}

/** Whether the program declares the set `setId` global; undefined when no `PolicySet` of this process says. */
export function declaredGlobal(setId: string): boolean | undefined {
  return declared.get(setId);
}
