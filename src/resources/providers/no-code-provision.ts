/** What the service would refuse of a new no-code workspace, and the version a workspace runs. */
import type { VariableOptions, Workspace as ApiWorkspace, WorkspacesClient } from "../../client";
import { isNotFound } from "./client";
import { isUnknown } from "./unknowns";
import { normalizeVariables } from "./no-code-variables";
import type { NoCodeWorkspaceInputs, NoCodeWorkspaceOutputs } from "./no-code-fields";

/**
 * The version the workspace runs. The service states it (`source-module-version`);
 * otherwise it is the module's pin when no upgrade is pending, else the one recorded.
 */
export function stated(ws: ApiWorkspace): string | undefined {
  const v = ws.attributes["source-module-version"];
  return typeof v === "string" && v !== "" ? v : undefined;
}

export function versionOf(ws: ApiWorkspace, pin: string | undefined, recorded: unknown): string | null {
  const fromService = stated(ws);
  if (fromService !== undefined) return fromService;
  if (pin === undefined) return typeof recorded === "string" ? recorded : null;
  if (ws.noCodeUpgradeAvailable) return typeof recorded === "string" && recorded !== pin ? recorded : null;
  return pin;
}

/** Allowed values match by their text: a string option as it is, anything else as JSON (as the service compares). */
function optionText(option: unknown): string {
  return typeof option === "string" ? option : JSON.stringify(option);
}

/**
 * Why the service would refuse to create a workspace from `moduleId` with these inputs,
 * as far as the module tells: a `moduleVersion` other than its pin, another organization,
 * an engine variable whose value is outside the module's options (spec 2.8).
 */
export function provisionRefusals(
  moduleId: string,
  module: { pin?: string; organization?: string; variableOptions?: VariableOptions[] },
  inputs: Pick<NoCodeWorkspaceInputs, "moduleVersion" | "organization" | "variables">,
): string[] {
  const out: string[] = [];
  const { pin, organization } = module;
  if (inputs.moduleVersion !== undefined && pin !== undefined && pin !== inputs.moduleVersion) {
    out.push(
      `no-code module ${moduleId} provisions version ${pin}, but moduleVersion is ${inputs.moduleVersion}: ` +
        `set the module's versionPin to ${inputs.moduleVersion} first, or drop moduleVersion`,
    );
  }
  if (inputs.organization !== undefined && organization !== undefined && inputs.organization !== organization) {
    out.push(`no-code module ${moduleId} belongs to organization ${organization}, not ${inputs.organization}`);
  }
  const sets = new Map((module.variableOptions ?? []).map((o) => [o.variableName, o.options]));
  for (const v of normalizeVariables(inputs.variables)) {
    const allowed = v.category === "engine" ? sets.get(v.key) : undefined;
    if (!allowed || allowed.length === 0 || allowed.some((o) => optionText(o) === v.value)) continue;
    const shown = v.sensitive ? "(sensitive)" : JSON.stringify(v.value);
    out.push(
      `variable "${v.key}" is ${shown}, which is not one of the options of no-code module ${moduleId}: ${allowed.map(optionText).join(", ")}`,
    );
  }
  return out;
}

/**
 * Whether a replacement may delete the old workspace before it creates the new one (names
 * are unique, so a replacement that keeps its name must): only when the service is known
 * to accept the new workspace, as far as the module and the new name tell (module pin,
 * organization, variable options, a name taken by another workspace). Judged in `diff`,
 * the one method the engine hands both the recorded outputs and the checked new inputs:
 * a replacement it cannot vouch for (a refusal, a value unknown until apply, a read that
 * fails) creates first, so the refused create fails while the old workspace still exists
 * and nothing is deleted. During `pulumi up` the engine diffs after the resources this one
 * depends on are updated, so a module pin raised in the same deployment is seen.
 */
export async function mayDeleteFirst(
  clientOf: () => WorkspacesClient,
  olds: NoCodeWorkspaceOutputs,
  news: NoCodeWorkspaceInputs,
): Promise<boolean> {
  if (isUnknown(news)) return false;
  const moduleId = String(news.noCodeModuleId);
  try {
    const client = clientOf();
    const module = await client.noCode.read(moduleId, { includeVariableOptions: true });
    const refusals = provisionRefusals(
      moduleId,
      {
        pin: module.versionPin,
        organization: module.organization ?? undefined,
        variableOptions: module.variableOptions,
      },
      news,
    );
    if (refusals.length > 0) return false;
    const organization = news.organization ?? module.organization;
    if (typeof news.name !== "string" || news.name === olds.name || !organization) return true;
    return await client.workspaces.readByName(String(organization), news.name).then(
      () => false,
      (err: unknown) => isNotFound(err),
    );
  } catch {
    return false;
  }
}

export async function modulePin(
  client: WorkspacesClient,
  moduleId: string,
): Promise<{ pin?: string; organization?: string }> {
  try {
    const m = await client.noCode.read(moduleId);
    return { pin: m.versionPin, organization: m.organization ?? undefined };
  } catch (err) {
    if (isNotFound(err)) return {};
    throw err;
  }
}
