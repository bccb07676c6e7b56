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
import { problemsToErrors, type Problem } from "../../api/common";
import type { UpgradeStatus, WorkspaceUpgradeRequest } from "../../api/nocode";
import type { Caller } from "../auth/service";
import type { ServerContext } from "../context";
import { conflict, notFound, unprocessable, unprocessableMany } from "../http/errors";
import { API_PREFIX, ref, type Resource } from "../http/jsonapi";
import { FINAL_RUN_STATUSES, createRun, findRun, setRunStatus, type RunRecord } from "../run/service";
import { inTransaction, now, prepare } from "../store/db";
import { loadWorkspace } from "../workspace/service";
import type { WorkspaceRecord } from "../workspace/store";
import { loadNoCodeModule } from "./service";
import { findNoCodeModule, findNoCodeWorkspace } from "./store";
import { normalizeVariables, optionViolations, upsertVariables, variablesDiffer, type Variable } from "./vars";
import { assertEnabled, moduleVersionId, upgradeAvailable } from "./workspaces";

/** `kind` of upgrade runs in the run domain's table (rendered as the run's `source`). */
export const UPGRADE_RUN_KIND = "tfe-no-code-upgrade";

interface UpgradeRow {
  run_id: string;
  workspace_id: string;
  no_code_module_id: string;
  target_version: string;
  target_registry_module_id: string;
  vars: string;
  outcome: "changes" | "no-changes" | "error";
  error: string | null;
  phase: "plan" | "apply";
  phase_started_ms: number;
}

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
  return prepare(ctx.db, `SELECT * FROM no_code_upgrades WHERE run_id = ?`).get(runId) as UpgradeRow | undefined;
}

/** What an applied upgrade changes: the version the workspace runs, and its variables. */
function applyUpgrade(ctx: ServerContext, u: UpgradeRow): void {
  const { db } = ctx;
  const versionId = moduleVersionId(db, u.no_code_module_id, u.target_version);
  prepare(db, `UPDATE no_code_workspaces SET version = ?, module_version_id = ?, registry_module_id = ? WHERE workspace_id = ?`).run(
    u.target_version,
    versionId,
    u.target_registry_module_id,
    u.workspace_id,
  );
  upsertVariables(db, u.workspace_id, JSON.parse(u.vars) as Variable[]);
  prepare(db, `UPDATE workspaces SET updated_at = ? WHERE id = ?`).run(now(), u.workspace_id);
}

/**
 * Brings the stored status of an upgrade run up to the clock, in one transaction; the
 * transition to `applied` and its effects happen together, exactly once. A run that
 * something else ended (discarded or canceled through the run endpoints) stays ended.
 */
export function advanceUpgrade(ctx: ServerContext, runId: string): RunRecord | undefined {
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

/** The workspace of an upgrade path: visible to the caller, created from this module, else 404. */
export function loadModuleWorkspace(ctx: ServerContext, caller: Caller, noCodeModuleId: string, workspaceId: string, permission: "can-read-run" | "can-queue-apply") {
  const m = loadNoCodeModule(ctx, caller, noCodeModuleId);
  const { ws, permissions } = loadWorkspace(ctx, caller, { id: workspaceId });
  if (!permissions[permission]) throw notFound("workspace not found");
  const record = findNoCodeWorkspace(ctx.db, ws.id);
  if (!record || record.no_code_module_id !== m.id) throw notFound(`workspace ${ws.id} was not created from no-code module ${m.id}`);
  return { m, ws, record };
}

export function loadUpgrade(ctx: ServerContext, caller: Caller, noCodeModuleId: string, workspaceId: string, runId: string, permission: "can-read-run" | "can-queue-apply"): LoadedUpgrade {
  const { ws } = loadModuleWorkspace(ctx, caller, noCodeModuleId, workspaceId, permission);
  const upgrade = findUpgrade(ctx, runId);
  if (!upgrade || upgrade.workspace_id !== ws.id || upgrade.no_code_module_id !== noCodeModuleId) throw notFound("workspace upgrade not found");
  const run = advanceUpgrade(ctx, runId)!;
  return { ws, run, upgrade: findUpgrade(ctx, runId)! };
}

/**
 * Spec 4.16, initiate. An upgrade still planning or waiting for confirmation is
 * superseded (discarded); one being applied makes this a 409.
 */
export function initiateUpgrade(ctx: ServerContext, caller: Caller, noCodeModuleId: string, workspaceId: string, body: WorkspaceUpgradeRequest): LoadedUpgrade {
  const { db } = ctx;
  const { m: visible, ws } = loadModuleWorkspace(ctx, caller, noCodeModuleId, workspaceId, "can-queue-apply");
  assertEnabled(visible);
  const problems: Problem[] = [];
  const vars = normalizeVariables(body.data.relationships?.vars?.data ?? [], "/data/relationships/vars/data", problems);
  if (problems.length) throw unprocessableMany(problemsToErrors(problems));

  const created = inTransaction(db, () => {
    // Read again under the write lock: the module's pin and options are what this upgrade plans for.
    const m = findNoCodeModule(db, noCodeModuleId);
    if (!m) throw notFound("no-code module not found");
    if (m.version_pin === "") throw unprocessable(`the registry module of no-code module ${m.id} has no versions yet; publish a version before upgrading`);
    const violations = optionViolations(db, m.id, vars);
    const record = findNoCodeWorkspace(db, ws.id)!;
    const active = db
      .prepare(`SELECT u.run_id FROM no_code_upgrades u JOIN runs r ON r.id = u.run_id WHERE u.workspace_id = ? AND r.status NOT IN (${FINAL_RUN_STATUSES.map(() => "?").join(",")})`)
      .all(ws.id, ...FINAL_RUN_STATUSES) as { run_id: string }[];
    for (const a of active) {
      const run = advanceUpgrade(ctx, a.run_id)!;
      if (IN_APPLY.includes(run.status)) throw conflict(`upgrade ${run.id} of this workspace is being applied; wait for it to finish`);
      if (!FINAL_RUN_STATUSES.includes(run.status)) setRunStatus(db, run.id, "discarded");
    }
    const outcome = violations.length ? "error" : upgradeAvailable(m, record) || variablesDiffer(db, ws.id, vars) ? "changes" : "no-changes";
    const run = createRun(db, ws.id, {
      message: `Upgrade to no-code module version ${m.version_pin}`,
      kind: UPGRADE_RUN_KIND,
      createdBy: caller.principalId,
    });
    prepare(
      db,
      `INSERT INTO no_code_upgrades (run_id, workspace_id, no_code_module_id, target_version, target_registry_module_id, vars, outcome, error, phase, phase_started_ms)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, 'plan', ?)`,
    ).run(run.id, ws.id, m.id, m.version_pin, m.registry_module_id, JSON.stringify(vars), outcome, violations.length ? violations.map((v) => v.detail).join("; ") : null, Date.now());
    return run;
  });
  schedule(ctx, created.id, PLAN_STEPS);
  return { ws, run: advanceUpgrade(ctx, created.id)!, upgrade: findUpgrade(ctx, created.id)! };
}

/** Spec 4.16, confirm: only a plan with changes waiting for confirmation may be confirmed; anything else is a 409. */
export function confirmUpgrade(ctx: ServerContext, caller: Caller, noCodeModuleId: string, workspaceId: string, runId: string): LoadedUpgrade {
  const loaded = loadUpgrade(ctx, caller, noCodeModuleId, workspaceId, runId, "can-queue-apply");
  const run = inTransaction(ctx.db, () => {
    const current = advanceUpgrade(ctx, runId)!;
    if (!CONFIRMABLE.includes(current.status)) {
      throw conflict(`upgrade ${runId} is ${current.status} and cannot be confirmed; only a planned upgrade can`);
    }
    prepare(ctx.db, `UPDATE no_code_upgrades SET phase = 'apply', phase_started_ms = ? WHERE run_id = ?`).run(Date.now(), runId);
    return setRunStatus(ctx.db, runId, "confirmed");
  });
  schedule(ctx, runId, APPLY_STEPS);
  return { ...loaded, run: advanceUpgrade(ctx, run.id)! };
}

/** The `workspace-upgrade` document of spec 2.9; its id is the run's. */
export function renderUpgrade(ctx: ServerContext, noCodeModuleId: string, { ws, run, upgrade }: LoadedUpgrade): Resource {
  return {
    id: run.id,
    type: "workspace-upgrade",
    attributes: {
      status: run.status,
      "plan-url": `${ctx.publicUrl}/app/${encodeURIComponent(ws.organization)}/workspaces/${encodeURIComponent(ws.name)}/runs/${run.id}`,
      "target-version": upgrade.target_version,
      "error-message": run.status === "errored" ? upgrade.error : null,
    },
    relationships: {
      workspace: { ...ref("workspaces", ws.id), links: { related: `${API_PREFIX}/workspaces/${ws.id}` } },
      run: { ...ref("runs", run.id), links: { related: `${API_PREFIX}/runs/${run.id}` } },
    },
    links: { self: `${API_PREFIX}/no-code-modules/${noCodeModuleId}/workspaces/${ws.id}/upgrade/${run.id}` },
  };
}
