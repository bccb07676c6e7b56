/** The upgrade run of a no-code workspace: plan, confirm, apply. */
import { UPGRADE_FINAL, UPGRADE_PLAN_SETTLED } from "../../api/no-code";
import { WaitTimeoutError, type WorkspacesClient } from "../../client";
import { ProviderError } from "./user-errors";
import { workspaceLabel } from "./gone";
import { reportStatus } from "../process/engine-status";
import { apiVariables, normalizeVariables } from "./no-code-variables";
import { DEFAULT_UPGRADE_TIMEOUT_SECONDS, type LastUpgrade, type NoCodeWorkspaceInputs } from "./no-code-fields";

const POLL_INTERVAL_MS = 250;
const FAILED = ["errored", "canceled", "discarded"];

/**
 * Initiate, wait for the plan, confirm, wait for the apply, telling the engine at each
 * stage what is awaited. Any failure carries the service's reason when it gives one and
 * names the run and its plan URL; until the apply succeeds the workspace keeps its old
 * version.
 */
export async function upgrade(
  client: WorkspacesClient,
  moduleId: string,
  workspaceId: string,
  inputs: NoCodeWorkspaceInputs,
): Promise<LastUpgrade> {
  const timeoutMs = Number(inputs.upgradeTimeoutSeconds ?? DEFAULT_UPGRADE_TIMEOUT_SECONDS) * 1000;
  const started = Date.now();
  const remaining = () => Math.max(1, timeoutMs - (Date.now() - started));
  const label = workspaceLabel(workspaceId, inputs.name);
  reportStatus(`upgrading ${label}: starting the upgrade plan`);
  const started_ = await client.noCode.upgrade.initiate(moduleId, workspaceId, {
    variables: apiVariables(normalizeVariables(inputs.variables)),
  });
  const runId = started_.id;
  let planUrl = started_.planUrl;
  const fail = (what: string, status: string, reason?: string | null) =>
    new ProviderError(
      `upgrade of ${label} ${what}${reason ? `: ${reason}` : ""} (run ${runId}, status ${status}${planUrl ? `, plan ${planUrl}` : ""}); ` +
        `the workspace keeps its previous version`,
    );
  try {
    reportStatus(`upgrading ${label}: waiting for the plan of run ${runId}`);
    let s = await client.noCode.upgrade.waitFor(
      moduleId,
      workspaceId,
      runId,
      [...UPGRADE_PLAN_SETTLED, ...UPGRADE_FINAL],
      {
        timeoutMs: remaining(),
        intervalMs: POLL_INTERVAL_MS,
      },
    );
    planUrl = s.planUrl ?? planUrl;
    if (FAILED.includes(s.status)) throw fail("failed while planning", s.status, s.errorMessage);
    if (s.status !== "planned_and_finished" && s.status !== "applied") {
      if (inputs.autoConfirm === false) {
        throw fail(
          "is planned and waits for confirmation (autoConfirm is false): review and confirm it at the plan URL, then refresh",
          s.status,
        );
      }
      reportStatus(`upgrading ${label}: plan of run ${runId} ${s.status}, confirming`);
      await client.noCode.upgrade.confirm(moduleId, workspaceId, runId);
      reportStatus(`upgrading ${label}: waiting for run ${runId} to apply`);
      s = await client.noCode.upgrade.waitFor(
        moduleId,
        workspaceId,
        runId,
        ["applied", "planned_and_finished", ...FAILED],
        {
          timeoutMs: remaining(),
          intervalMs: POLL_INTERVAL_MS,
        },
      );
      planUrl = s.planUrl ?? planUrl;
      if (FAILED.includes(s.status)) throw fail("failed while applying", s.status, s.errorMessage);
    }
    return { runId, status: s.status, planUrl: planUrl ?? null };
  } catch (err) {
    if (err instanceof WaitTimeoutError) {
      throw fail(
        `did not finish within ${Math.round(timeoutMs / 1000)}s (upgradeTimeoutSeconds)`,
        err.lastStatus ?? "unknown",
      );
    }
    throw err;
  }
}
