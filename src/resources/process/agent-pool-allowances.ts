/**
 * Allowances of agent pools declared in this provider process, so that a workspace put on a
 * pool in the same `pulumi up` as the list that allows it waits for that list instead of
 * failing (terraform-provider-tfe #1111: the allowance needs the workspace's id, the
 * workspace's pool needs the allowance).
 *
 * The engine checks and creates every resource of a deployment in one provider process
 * (the dynamic-provider host, or the plugin), so the lists that allow a pool
 * (`AgentPoolAllowedWorkspaces`, `AgentPoolAllowedProjects`) say here when their `check`
 * knows the pool (`allowanceDeclared`) and when their write landed (`allowanceWritten`), or
 * failed (`allowanceFailed`); `WorkspaceSettings`, refused by the service because the pool
 * does not allow the workspace yet, waits for them (`waitForAllowance`) and tries once more.
 * Nothing here is ever sent anywhere or kept after the process ends.
 */

/** Where each declared allowance of one pool stands. */
type Standing = "declared" | "written" | "failed";

/** By pool id, the standing of each resource that declared an allowance of it (by claimant). */
const pools = new Map<string, Map<string, Standing>>();

/** Called whenever a standing changes, so that waiters look again. */
const listeners = new Set<() => void>();

function set(poolId: string, claimant: string, standing: Standing): void {
  let pool = pools.get(poolId);
  if (!pool) pools.set(poolId, (pool = new Map()));
  pool.set(claimant, standing);
  for (const listener of [...listeners]) listener();
}

/**
 * `claimant` (a list resource's name) declares an allowance of `poolId`: called from the
 * list's `check` once the pool id is known. A resource already written stays written (the
 * engine may check it again).
 */
export function allowanceDeclared(poolId: string, claimant: string): void {
  if (pools.get(poolId)?.get(claimant) === "written") return;
  set(poolId, claimant, "declared");
}

/** The allowance `claimant` declared for `poolId` is on the service: its create or update landed, or found nothing to write. */
export function allowanceWritten(poolId: string, claimant: string): void {
  set(poolId, claimant, "written");
}

/** The write of the allowance `claimant` declared for `poolId` failed: nothing waits for it any longer. */
export function allowanceFailed(poolId: string, claimant: string): void {
  set(poolId, claimant, "failed");
}

/** Whether a resource of this process declared an allowance of `poolId`. */
export function isAllowanceDeclared(poolId: string): boolean {
  return (pools.get(poolId)?.size ?? 0) > 0;
}

/** The claimants of every allowance of `poolId` declared in this process. */
export function declaredAllowances(poolId: string): string[] {
  return [...(pools.get(poolId)?.keys() ?? [])];
}

/** The claimants of the allowances of `poolId` whose write has not landed yet. */
export function pendingAllowances(poolId: string): string[] {
  return [...(pools.get(poolId) ?? [])].filter(([, s]) => s === "declared").map(([c]) => c);
}

/** How a wait for an allowance is bounded and reported. */
export interface AllowanceWait {
  /** The longest wait for the declared allowances to be written, from the call. */
  timeoutMs: number;
  /**
   * How long to wait for a first declaration when none is known yet: the engine may start
   * a workspace's write before it registers the list that allows it. Default 5 s.
   */
  graceMs?: number;
  /** Called about every `progressEveryMs` while waiting, with the claimants waited for. */
  onProgress?: (pending: string[], elapsedMs: number) => void;
  /** Default 10 s. */
  progressEveryMs?: number;
}

/**
 * Waits until every allowance of `poolId` declared in this process is written (or failed).
 * True when at least one was written by then: the refused write may succeed now; false when
 * none was declared within the grace, or the wait ran out (nothing to wait for: say why the
 * service refused).
 */
export function waitForAllowance(poolId: string, wait: AllowanceWait): Promise<boolean> {
  const started = Date.now();
  const graceMs = wait.graceMs ?? 5_000;
  const every = wait.progressEveryMs ?? 10_000;
  return new Promise<boolean>((resolve) => {
    const timers: NodeJS.Timeout[] = [];
    const finish = (result: boolean) => {
      listeners.delete(look);
      for (const t of timers) clearTimeout(t);
      resolve(result);
    };
    function look(): void {
      const pool = pools.get(poolId);
      if (!pool || pool.size === 0) {
        if (Date.now() - started >= graceMs) finish(false);
        return;
      }
      const standings = [...pool.values()];
      if (standings.includes("declared")) return;
      finish(standings.includes("written"));
    }
    listeners.add(look);
    timers.push(setTimeout(look, graceMs));
    timers.push(setTimeout(() => finish(false), wait.timeoutMs));
    if (wait.onProgress) {
      const progress = () => {
        const pending = pendingAllowances(poolId);
        if (pending.length > 0) wait.onProgress!(pending, Date.now() - started);
        timers.push(setTimeout(progress, every));
      };
      timers.push(setTimeout(progress, every));
    }
    look();
  });
}

/** Forgets every allowance (tests). */
export function resetAllowances(): void {
  pools.clear();
}
