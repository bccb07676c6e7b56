/**
 * Workspace upgrades (spec 3, 4.16) as runs. An upgrade is a row of the run domain's
 * `runs` table (so `current-run`, `GET /runs/:id` and the run filters see it) plus a row
 * of `no_code_upgrades` with the target version, the variables to apply and the plan's
 * outcome, which is decided when the upgrade starts:
 *
 * - `changes`: the module provisions another version (or registry module) than the
 *   workspace runs, or a variable changes; a sensitive variable given in the upgrade
 *   always counts as changed, so the outcome never tells whether a guessed value
 *   matches the stored one. The run goes pending, fetching, planning, planned; after confirm,
 *   confirmed, applying, applied, and only then does the workspace take the new version
 *   and variables.
 * - `no-changes`: pending, fetching, planning, planned_and_finished.
 * - `error`: an engine variable's value is outside the module's allowed options. The
 *   run goes pending, fetching, planning, errored, and `error-message` (an attribute the
 *   spec does not name) says which variable. This is the deterministic way to make an
 *   upgrade fail.
 *
 * Statuses follow from the time spent in the current phase, divided by the server's
 * `runSpeed`: at 1 a plan takes 4 s and an apply 2.5 s, at 1000 a few milliseconds. The
 * stored status is brought up to date on every read and by timers at each step, so lists
 * filtered by run status see it move too, and a restarted server picks up where the
 * clock says the run is.
 */
import type { UpgradeStatus, WorkspaceUpgradeRequest } from "../../api/no-code";
import type { Caller } from "../auth/service/caller";
import type { ServerContext } from "../context";
import { Conflict, Invalid, NotFound, failIfAny, type Failure } from "../domain-errors";
import { FINAL_RUN_STATUSES, createRun, findRun, setRunStatus, type RunRecord } from "../run/service";
import { inTransaction } from "../store/db";
import { loadWorkspace, touchWorkspace } from "../workspace/service";
import type { WorkspaceRecord } from "../workspace/store";
import { loadNoCodeModule } from "./service";
import * as store from "./store";
import { findNoCodeModule, findNoCodeWorkspace, type UpgradeRow } from "./store";
import {
  normalizeVariables,
  openUpgradeVariables,
  optionViolations,
  sealUpgradeVariables,
  upsertVariables,
  variablesDiffer,
} from "./vars";
import { assertEnabled, moduleVersionId, upgradeAvailable } from "./workspaces";

/** `kind` of upgrade runs in the run domain's table (rendered as the run's `source`). */
const UPGRADE_RUN_KIND = "tfe-no-code-upgrade";

/** Milliseconds at run speed 1 at which each status of a phase ends. */
const PLAN_STEPS: ReadonlyArray<[UpgradeStatus, number]> = [
  ["pending", 1000],
  ["fetching", 2000],
  ["planning", 4000],
];
const APPLY_STEPS: ReadonlyArray<[UpgradeStatus, number]> = [
  ["confirmed", 500],
  ["applying", 2500],
];
const ORDER: readonly string[] = ["pending", "fetching", "planning", "planned", "confirmed", "applying", "applied"];
const CONFIRMABLE: readonly string[] = ["planned", "cost_estimated"];
const IN_APPLY: readonly string[] = ["confirmed", "applying"];

function speedOf(ctx: ServerContext): number {
  const s = ctx.options.runSpeed;
  return typeof s === "number" && s > 0 ? s : 1;
}

function dueStatus(u: UpgradeRow, speed: number, nowMs: number): UpgradeStatus {
  const elapsed = Number.isFinite(speed) ? (nowMs - u.phase_started_ms) * speed : Infinity;
  const steps = u.phase === "plan" ? PLAN_STEPS : APPLY_STEPS;
  for (const [status, end] of steps) if (elapsed < end) return status;
  if (u.phase === "apply") return "applied";
  return u.outcome === "changes" ? "planned" : u.outcome === "no-changes" ? "planned_and_finished" : "errored";
}

function findUpgrade(ctx: ServerContext, runId: string): UpgradeRow | undefined {
  return store.findUpgrade(ctx.db, runId);
}

/** What an applied upgrade changes: the version the workspace runs, and its variables. */
function applyUpgrade(ctx: ServerContext, u: UpgradeRow): void {
  const { db } = ctx;
  const versionId = moduleVersionId(db, u.no_code_module_id, u.target_version);
  store.setNoCodeWorkspaceVersion(db, u.workspace_id, u.target_version, versionId, u.target_registry_module_id);
  upsertVariables(ctx, u.workspace_id, openUpgradeVariables(ctx, u.vars));
  touchWorkspace(ctx, u.workspace_id);
}

/**
 * Brings the stored status of an upgrade run up to the clock, in one transaction; the
 * transition to `applied` and its effects happen together, exactly once. A run that
 * something else ended (discarded or canceled through the run endpoints) stays ended.
 */
function advanceUpgrade(ctx: ServerContext, runId: string): RunRecord | undefined {
  return inTransaction(ctx.db, () => {
    const run = findRun(ctx.db, runId);
    const u = findUpgrade(ctx, runId);
    if (!run || !u) return run;
    if (FINAL_RUN_STATUSES.includes(run.status)) return run;
    const due = dueStatus(u, speedOf(ctx), Date.now());
    if (due === run.status) return run;
    const from = ORDER.indexOf(run.status);
    const to = ORDER.indexOf(due);
    if (from >= 0 && to >= 0 && to < from) return run;
    const updated = setRunStatus(ctx.db, runId, due);
    if (due === "applied") applyUpgrade(ctx, u);
    return updated;
  });
}

/** Timers at each step so the stored status moves without being read; they never keep the process alive. */
function schedule(ctx: ServerContext, runId: string, steps: ReadonlyArray<[UpgradeStatus, number]>): void {
  const speed = speedOf(ctx);
  for (const [, end] of steps) {
    const delay = Number.isFinite(speed) ? Math.ceil(end / speed) + 1 : 1;
    const timer = setTimeout(() => {
      if (!ctx.db.open) return;
      try {
        advanceUpgrade(ctx, runId);
      } catch (err) {
        if (ctx.db.open) process.stderr.write(`workspaces-server: upgrade ${runId}: ${(err as Error).message}\n`);
      }
    }, delay);
    timer.unref();
  }
}

export interface LoadedUpgrade {
  ws: WorkspaceRecord;
  run: RunRecord;
  upgrade: UpgradeRow;
}

/** The workspace of an upgrade path: visible to the caller, created from this module, else not found. */
function loadModuleWorkspace(
  ctx: ServerContext,
  caller: Caller,
  noCodeModuleId: string,
  workspaceId: string,
  permission: "can-read-run" | "can-queue-apply",
) {
  const m = loadNoCodeModule(ctx, caller, noCodeModuleId);
  const { ws, permissions } = loadWorkspace(ctx, caller, { id: workspaceId });
  if (!permissions[permission]) throw new NotFound("workspace not found");
  const record = findNoCodeWorkspace(ctx.db, ws.id);
  if (!record || record.no_code_module_id !== m.id)
    throw new NotFound(`workspace ${ws.id} was not created from no-code module ${m.id}`);
  return { m, ws, record };
}

export function loadUpgrade(
  ctx: ServerContext,
  caller: Caller,
  noCodeModuleId: string,
  workspaceId: string,
  runId: string,
  permission: "can-read-run" | "can-queue-apply",
): LoadedUpgrade {
  const { ws } = loadModuleWorkspace(ctx, caller, noCodeModuleId, workspaceId, permission);
  const upgrade = findUpgrade(ctx, runId);
  if (!upgrade || upgrade.workspace_id !== ws.id || upgrade.no_code_module_id !== noCodeModuleId)
    throw new NotFound("workspace upgrade not found");
  const run = advanceUpgrade(ctx, runId)!;
  return { ws, run, upgrade: findUpgrade(ctx, runId)! };
}

/**
 * Spec 4.16, initiate. An upgrade still planning or waiting for confirmation is
 * superseded (discarded); one being applied makes this a conflict.
 */
export function initiateUpgrade(
  ctx: ServerContext,
  caller: Caller,
  noCodeModuleId: string,
  workspaceId: string,
  read: () => WorkspaceUpgradeRequest,
): LoadedUpgrade {
  const { db } = ctx;
  const { m: visible, ws } = loadModuleWorkspace(ctx, caller, noCodeModuleId, workspaceId, "can-queue-apply");
  const body = read();
  assertEnabled(visible);
  const failures: Failure[] = [];
  const vars = normalizeVariables(body.data.relationships?.vars?.data ?? [], failures);
  failIfAny(failures);

  const created = inTransaction(db, () => {
    // Read again under the write lock: the module's pin and options are what this upgrade plans for.
    const m = findNoCodeModule(db, noCodeModuleId);
    if (!m) throw new NotFound("no-code module not found");
    if (m.version_pin === "")
      throw new Invalid(
        `the registry module of no-code module ${m.id} has no versions yet; publish a version before upgrading`,
      );
    const violations = optionViolations(db, m.id, vars);
    const record = findNoCodeWorkspace(db, ws.id)!;
    const active = store.upgradeRunIds(db, ws.id).filter((id) => {
      const run = findRun(db, id);
      return run !== undefined && !FINAL_RUN_STATUSES.includes(run.status);
    });
    for (const runId of active) {
      const run = advanceUpgrade(ctx, runId)!;
      if (IN_APPLY.includes(run.status))
        throw new Conflict(
          "still-processing",
          `upgrade ${run.id} of this workspace is being applied; wait for it to finish`,
        );
      if (!FINAL_RUN_STATUSES.includes(run.status)) setRunStatus(db, run.id, "discarded");
    }
    const outcome = violations.length
      ? "error"
      : upgradeAvailable(m, record) || variablesDiffer(db, ws.id, vars)
        ? "changes"
        : "no-changes";
    const run = createRun(ctx, ws.id, {
      message: `Upgrade to no-code module version ${m.version_pin}`,
      kind: UPGRADE_RUN_KIND,
      createdBy: caller.principalId,
    });
    store.insertUpgrade(db, {
      run_id: run.id,
      workspace_id: ws.id,
      no_code_module_id: m.id,
      target_version: m.version_pin,
      target_registry_module_id: m.registry_module_id,
      vars: sealUpgradeVariables(ctx, ws.id, vars),
      outcome,
      error: violations.length ? violations.map((v) => v.detail).join("; ") : null,
      phase: "plan",
      phase_started_ms: Date.now(),
    });
    return run;
  });
  schedule(ctx, created.id, PLAN_STEPS);
  return { ws, run: advanceUpgrade(ctx, created.id)!, upgrade: findUpgrade(ctx, created.id)! };
}

/** Spec 4.16, confirm: only a plan with changes waiting for confirmation may be confirmed; anything else is a conflict. */
export function confirmUpgrade(
  ctx: ServerContext,
  caller: Caller,
  noCodeModuleId: string,
  workspaceId: string,
  runId: string,
): LoadedUpgrade {
  const loaded = loadUpgrade(ctx, caller, noCodeModuleId, workspaceId, runId, "can-queue-apply");
  const run = inTransaction(ctx.db, () => {
    const current = advanceUpgrade(ctx, runId)!;
    if (!CONFIRMABLE.includes(current.status)) {
      // A finished upgrade stays as it ended; one still planning (or already applying) is under way.
      throw new Conflict(
        FINAL_RUN_STATUSES.includes(current.status) ? "locked" : "still-processing",
        `upgrade ${runId} is ${current.status} and cannot be confirmed; only a planned upgrade can`,
      );
    }
    store.startApplyPhase(ctx.db, runId, Date.now());
    return setRunStatus(ctx.db, runId, "confirmed");
  });
  schedule(ctx, runId, APPLY_STEPS);
  return { ...loaded, run: advanceUpgrade(ctx, run.id)! };
}
