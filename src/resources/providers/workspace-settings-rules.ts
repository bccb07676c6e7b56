/**
 * The rules of `WorkspaceSettings` that need no request: its inputs' schemas and diff rules
 * (the workspace field table's, src/api/workspace-fields.ts), the execution-mode rule, the
 * one-owner-per-setting claims it shares with `Workspace` and `RemoteStateConsumers`, and
 * the message of a workspace refused by an agent pool.
 */
import { AgentPoolNotAllowedError } from "../../client/typed-errors";
import { CLAIMANT_KEY, claimParts, claimantsOf } from "../process/claims";
import { CONSUMERS_INPUT, WORKSPACE_SETTINGS_FIELDS } from "../workspace-settings";
import { sameJsonUnordered, sameStringSet, type FieldRule } from "./compare";
import { consumerIdFailures, workspaceIdFailures } from "./inputs";
import { isUnknown } from "./unknowns";
import { ProviderError } from "./user-errors";
import { fieldRules } from "./workspace-diff-rules";
import { inputLines, lineFailures, withClears } from "./workspace-inputs";
import type { CheckFailure, CheckResult, ProviderImpl, Props } from "./types";

/** Every managed name: the settings of the field table, then the consumers. */
export const MANAGED_NAMES: readonly string[] = [...WORKSPACE_SETTINGS_FIELDS, CONSUMERS_INPUT];

/** The settings' input lines (schemas and whether `""`/`null` clears them), from the field table. */
const SETTING_LINES = inputLines(WORKSPACE_SETTINGS_FIELDS);

/** How each managed value compares with what the service reported. */
const VALUE_RULES: FieldRule[] = [
  ...fieldRules(WORKSPACE_SETTINGS_FIELDS),
  { name: CONSUMERS_INPUT, same: (a, b) => sameStringSet(a, b) },
];

/** The diff of the resource: the workspace replaces it, each declared value is compared. */
export const SETTINGS_RULES: FieldRule[] = [{ name: "workspaceId", replaces: true }, ...VALUE_RULES];

/** Whether `desired` and `actual` are the same value of the managed name `name`. */
export function sameValue(name: string, desired: unknown, actual: unknown): boolean {
  const rule = VALUE_RULES.find((r) => r.name === name);
  return rule?.same ? rule.same(desired, actual, {}) : sameJsonUnordered(desired, actual);
}

/** The managed names `p` declares (a `null` declares a cleared value). */
export function declaredNames(p: Props): string[] {
  return MANAGED_NAMES.filter((k) => p[k] !== undefined);
}

const given = (v: unknown) => v !== undefined && v !== null && v !== "";

/**
 * An agent pool goes with `executionMode: "agent"` and with nothing else; `agent` without
 * a pool is left to the service (the workspace's project may supply one). Consumers
 * cannot be managed while every workspace may read the state.
 */
function modeFailures(inputs: Props): CheckFailure[] {
  const out: CheckFailure[] = [];
  const mode = inputs.executionMode;
  const pool = inputs.agentPoolId;
  if (!isUnknown(mode) && !isUnknown(pool)) {
    if (given(pool) && mode !== "agent") {
      out.push({
        property: "agentPoolId",
        reason:
          mode === undefined
            ? 'agentPoolId must be given together with executionMode: "agent"'
            : `agentPoolId must not be given when executionMode is ${JSON.stringify(mode)}; declare executionMode: "agent" to run on the pool`,
      });
    }
    if (pool === null && mode === "agent") {
      out.push({
        property: "agentPoolId",
        reason:
          'agentPoolId cannot be cleared while executionMode is "agent"; omit it to use the pool of the workspace\'s project',
      });
    }
  }
  const global = inputs.globalRemoteState;
  if (global === true && inputs[CONSUMERS_INPUT] !== undefined) {
    out.push({
      property: CONSUMERS_INPUT,
      reason:
        "remoteStateConsumerIds cannot be managed while globalRemoteState is true (every workspace may read the state, and the service changes consumers only while it is false); omit remoteStateConsumerIds or declare globalRemoteState: false",
    });
  }
  return out;
}

/** How claims name a resource: `WorkspaceSettings "web"`. */
export function claimantLabel(kind: string, name: unknown): string {
  return `${kind} "${String(name)}"`;
}

/** The record under which the settings of a workspace are claimed. */
const settingsRecord = (workspaceId: string) => `workspace-settings:${workspaceId}`;

/**
 * Claims the settings `names` of workspace `workspaceId` for `claimant` (see claims.ts);
 * one failure per setting another resource of the stack declares already.
 */
export function settingClaimFailures(workspaceId: string, names: readonly string[], claimant: string): CheckFailure[] {
  const conflicts = claimParts(settingsRecord(workspaceId), names, claimant);
  return [...conflicts].map(([name, other]) => ({
    property: name,
    reason:
      `${name} of workspace ${workspaceId} is declared by both ${claimant} and ${other}: a setting of a workspace has ` +
      `one owner in a stack; remove ${name} from one of them`,
  }));
}

/** The settings a `Workspace` declares, by `WorkspaceSettings`' names (`operations` is the execution mode). */
function workspaceDeclaredSettings(inputs: Props): string[] {
  const names: string[] = WORKSPACE_SETTINGS_FIELDS.filter((k) => inputs[k] !== undefined);
  if (inputs.operations !== undefined && !names.includes("executionMode")) names.push("executionMode");
  return names;
}

/** How messages name the `WorkspaceSettings` of `workspaceId`: by its resource name when this process checked it. */
export function settingsLabel(workspaceId: string): string {
  const own = claimantsOf(settingsRecord(workspaceId)).find((c) => c.startsWith("WorkspaceSettings "));
  return own ?? `WorkspaceSettings of workspace ${workspaceId}`;
}

/**
 * `check`: the inputs against the field table's lines, the execution-mode rule, and the
 * claims of a known workspace. `""` (or `null`) clears `description`; `""` for
 * `agentPoolId` means no pool.
 */
export function checkSettings(news: Props): CheckResult {
  const { [CLAIMANT_KEY]: claimant, ...given } = news;
  const inputs = withClears(given, WORKSPACE_SETTINGS_FIELDS);
  const failures: CheckFailure[] = [...workspaceIdFailures(inputs.workspaceId)];
  failures.push(...lineFailures(inputs, SETTING_LINES), ...modeFailures(inputs));
  if (inputs[CONSUMERS_INPUT] !== undefined)
    failures.push(...consumerIdFailures(inputs[CONSUMERS_INPUT], inputs.workspaceId, CONSUMERS_INPUT));
  const names = declaredNames(inputs);
  if (names.length === 0) {
    failures.push({
      property: "workspaceId",
      reason: `declare at least one setting (${MANAGED_NAMES.join(", ")}): otherwise there is nothing to manage`,
    });
  }
  const ws = inputs.workspaceId;
  if (failures.length === 0 && typeof claimant === "string" && typeof ws === "string" && !isUnknown(ws)) {
    failures.push(...settingClaimFailures(ws, names, claimantLabel("WorkspaceSettings", claimant)));
  }
  return { inputs, failures };
}

/** The refusal of a workspace put on an agent pool that does not allow it. */
export function isPoolRefusal(err: unknown): boolean {
  return err instanceof AgentPoolNotAllowedError;
}

/** The way out of a pool refusal, for both resources that meet it. */
function allowItBy(workspaceId: string, poolId: string): string {
  return (
    `Allow it in the same stack with an AgentPoolAllowedWorkspaces (agentPoolId: ${poolId}, workspaceIds: [${workspaceId}]) ` +
    `or an AgentPoolAllowedProjects naming the workspace's project, or make the pool organization-scoped ` +
    `(organizationScoped: true on its AgentPool)`
  );
}

/**
 * The one message of a `WorkspaceSettings` whose pool does not allow its workspace: with no
 * allowance of the pool declared in this stack, or with those declared (`declared`, by
 * resource name) written without allowing it, failed, or not written in time.
 */
export function settingsPoolRefusal(
  workspace: string,
  workspaceId: string,
  poolId: string | undefined,
  declared: readonly string[],
): ProviderError {
  const pool = poolId ? `agent pool ${poolId}` : "the agent pool of the workspace's project";
  const why =
    declared.length === 0
      ? "and no allowance of it is declared in this stack"
      : `and the allowances of it declared in this stack (${declared.join(", ")}) do not allow it: they failed, were not written within 5 minutes, or do not name the workspace or its project`;
  return new ProviderError(
    `${settingsLabel(workspaceId)} cannot put ${workspace} on ${pool}: the pool is not organization-scoped and does not ` +
      `allow the workspace, ${why}. ${allowItBy(workspaceId, poolId ?? "apool-...")}; the settings are then written as ` +
      `soon as the allowance is, in the same pulumi up.`,
  );
}

/**
 * The one message of a `Workspace` declared on an agent pool that does not allow it: the
 * allowance needs the workspace's id, so the two cannot be ordered in one resource.
 */
export function workspacePoolRefusal(workspace: string, poolId: unknown): ProviderError {
  const pool = typeof poolId === "string" && poolId !== "" ? `agent pool ${poolId}` : "its agent pool";
  return new ProviderError(
    `${workspace} cannot run on ${pool}: the pool is not organization-scoped and does not allow the workspace, and an ` +
      `allowance needs the workspace's id, so a Workspace that declares the pool itself cannot be ordered after it. ` +
      `Declare the Workspace without executionMode and agentPoolId, and put it on the pool with a WorkspaceSettings ` +
      `(workspaceId: ws.id, executionMode: "agent", agentPoolId: pool.id) beside an AgentPoolAllowedWorkspaces ` +
      `(agentPoolId: pool.id, workspaceIds: [ws.id]): one pulumi up writes them in order (docs/agent-pools.md#one-up).`,
  );
}

/**
 * `impl` (the `Workspace` provider, with adoption) whose calls from the engine claim the
 * settings the workspace declares (see claims.ts): its id is known in `diff` for a workspace
 * in the stack (during preview already), and after `create` for a new one, before any
 * `WorkspaceSettings` of it is checked with that id. A setting declared by another resource
 * already is refused in `diff`. Only inputs checked with the resource's name claim (see
 * CLAIMANT_KEY): adoption's own comparisons and other callers claim nothing.
 */
export function claimingSettings(impl: ProviderImpl): ProviderImpl {
  const names = new Map<string, string>();
  const keyOf = (inputs: Props) => `${String(inputs.organization)}/${String(inputs.name)}`;
  // Only for the inputs the engine checked with the resource's name: other callers (adoption's comparisons, tests) claim nothing.
  const claimFor = (workspaceId: string, inputs: Props) => {
    const name = names.get(keyOf(inputs));
    if (name === undefined) return [];
    return settingClaimFailures(workspaceId, workspaceDeclaredSettings(inputs), claimantLabel("Workspace", name));
  };
  return {
    ...impl,
    async check(olds, news) {
      const { [CLAIMANT_KEY]: claimant, ...inputs } = news;
      const result = await impl.check(olds, inputs);
      if (typeof claimant === "string") names.set(keyOf(result.inputs), claimant);
      return result;
    },
    async diff(id, olds, news) {
      const refused = claimFor(id, news);
      if (refused.length) throw new ProviderError(refused.map((f) => f.reason).join("; "));
      return impl.diff(id, olds, news);
    },
    async create(inputs) {
      const created = await impl.create(inputs);
      claimFor(created.id, inputs);
      return created;
    },
  };
}
