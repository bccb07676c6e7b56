import type { Db } from "../store/db";
import { inTransaction, now, prepare } from "../store/db";
import { newId } from "../ids";
import { API_PREFIX, ref, type Resource } from "../http/jsonapi";

export interface RunRecord {
  id: string;
  workspace_id: string;
  status: string;
  message: string;
  is_destroy: number;
  auto_apply: number;
  plan_only: number;
  kind: string;
  created_by: string | null;
  created_at: string;
  updated_at: string;
}

/** Statuses after which a run no longer moves. */
export const FINAL_RUN_STATUSES = ["applied", "planned_and_finished", "discarded", "canceled", "errored", "force_canceled", "policy_soft_failed"];

export function findRun(db: Db, id: string): RunRecord | undefined {
  return prepare(db, `SELECT * FROM runs WHERE id = ?`).get(id) as RunRecord | undefined;
}

/**
 * Records a run and makes it the workspace's current run. `kind` distinguishes runs that
 * other domains drive (a no-code upgrade) from plain API runs.
 */
export function createRun(
  db: Db,
  workspaceId: string,
  spec: { status?: string; message?: string; isDestroy?: boolean; autoApply?: boolean; planOnly?: boolean; kind?: string; createdBy?: string | null },
): RunRecord {
  return inTransaction(db, () => {
    const t = now();
    const id = newId("run");
    prepare(db, 
      `INSERT INTO runs (id, workspace_id, status, message, is_destroy, auto_apply, plan_only, kind, created_by, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    ).run(id, workspaceId, spec.status ?? "pending", spec.message ?? "", spec.isDestroy ? 1 : 0, spec.autoApply ? 1 : 0, spec.planOnly ? 1 : 0, spec.kind ?? "run", spec.createdBy ?? null, t, t);
    prepare(db, `UPDATE workspaces SET current_run_id = ? WHERE id = ?`).run(id, workspaceId);
    return findRun(db, id)!;
  });
}

export function setRunStatus(db: Db, id: string, status: string): RunRecord {
  return inTransaction(db, () => {
    prepare(db, `UPDATE runs SET status = ?, updated_at = ? WHERE id = ?`).run(status, now(), id);
    return findRun(db, id)!;
  });
}

export function renderRun(run: RunRecord): Resource {
  return {
    id: run.id,
    type: "runs",
    attributes: {
      status: run.status,
      message: run.message,
      "is-destroy": run.is_destroy === 1,
      "auto-apply": run.auto_apply === 1,
      "plan-only": run.plan_only === 1,
      source: run.kind === "run" ? "tfe-api" : run.kind,
      "created-at": run.created_at,
      "status-timestamps": {},
    },
    relationships: {
      workspace: ref("workspaces", run.workspace_id),
      "created-by": ref("users", run.created_by),
    },
    links: { self: `${API_PREFIX}/runs/${run.id}` },
  };
}
