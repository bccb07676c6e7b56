import { API_PREFIX, ref, type Resource } from "../http/jsonapi";
import type { RunRecord } from "./store";

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
