/** Provider of `WorkspaceSettings`: the declared settings of a workspace owned elsewhere. */
import type { Workspace as ApiWorkspace, WorkspacesClient, WorkspaceUpdateOptions } from "../../client";
import { getClient, isNotFound, readWorkspaceShared } from "./client";
import { diffFields } from "./compare";
import { confirmGone, dependentRecord, unlessGone, workspaceLabel } from "./gone";
import { reportsAdoption, type Found } from "./adoption";
import { ProviderError, explainingMissingFeatures } from "./user-errors";
import { ValidationError } from "../../client/typed-errors";
import { workspaceIdOf } from "./workspace-tags";
import { waitForAllowance, declaredAllowances } from "../process/agent-pool-allowances";
import { reportStatus } from "../process/engine-status";
import { CONSUMERS_INPUT } from "../workspace-settings";
import {
  MANAGED_NAMES,
  SETTINGS_RULES,
  checkSettings,
  declaredNames,
  isPoolRefusal,
  sameValue,
  settingsLabel,
  settingsPoolRefusal,
} from "./workspace-settings-rules";
import type { ProviderImpl, Props } from "./types";

/** Values of managed names, by name. */
type Values = Record<string, unknown>;

/** Outputs as stored in state. */
type SettingsOutputs = Props & {
  workspaceId: string;
  organization?: string | null;
  /** The value of each managed name before this resource first set it (absent when adopted through `get`, or imported). */
  previous?: Values;
  /** The value this resource last set for each managed name. */
  applied?: Values;
};

/** The longest wait for an allowance of the pool declared in the same deployment. */
const ALLOWANCE_TIMEOUT_MS = 5 * 60_000;

/** Whether the mode and pool are the workspace's own or inherited (see the field table's `settingOverwrites`). */
const OVERWRITES = "settingOverwrites";

/**
 * The names a managed value stands for: the execution mode also moves the agent pool (a
 * mode other than `agent` removes it) and makes both the workspace's own rather than
 * inherited from its project or organization, so the pool and that flag are kept beside
 * the mode (in `previous` and `applied`, not as outputs of their own).
 */
function withCoupled(names: readonly string[]): string[] {
  const out = [...names];
  if (names.includes("executionMode") && !names.includes("agentPoolId")) out.push("agentPoolId");
  if (names.includes("executionMode") || names.includes("agentPoolId")) out.push(OVERWRITES);
  return out;
}

/** The workspace's values of `names`: its settings as read, its consumers from their endpoint when named. */
async function valuesOf(client: WorkspacesClient, ws: ApiWorkspace, names: readonly string[]): Promise<Values> {
  const out: Values = {};
  for (const name of names) {
    if (name === CONSUMERS_INPUT) out[name] = (await client.remoteStateConsumers.listIds(ws.id)).sort();
    else out[name] = (ws as unknown as Props)[name] ?? null;
  }
  return out;
}

/**
 * The update that brings `current` to `desired` for the names `desired` declares: the
 * settings that differ, the pool with its mode (the service judges the pair), and a mode
 * other than `agent` with the pool removed in the same write. Consumers apart.
 */
function settingsPatch(desired: Values, current: Values): WorkspaceUpdateOptions {
  const patch: Props = {};
  for (const name of MANAGED_NAMES) {
    if (name === CONSUMERS_INPUT || desired[name] === undefined) continue;
    if (!sameValue(name, desired[name], current[name])) patch[name] = desired[name];
  }
  if (patch.agentPoolId !== undefined && desired.executionMode !== undefined)
    patch.executionMode = desired.executionMode;
  if (typeof patch.executionMode === "string" && patch.executionMode !== "agent" && current.agentPoolId)
    patch.agentPoolId = null;
  return patch;
}

/** How messages name the workspace. */
function labelOf(ws: ApiWorkspace): string {
  return workspaceLabel(ws.id, ws.name);
}

/**
 * Sends `patch`; a workspace refused by its agent pool waits for an allowance of that pool
 * declared in this process (an `AgentPoolAllowedWorkspaces` or `AgentPoolAllowedProjects`
 * of the same deployment) to be written, then tries once more (terraform-provider-tfe #1111).
 */
async function patchWorkspace(client: WorkspacesClient, ws: ApiWorkspace, patch: WorkspaceUpdateOptions) {
  try {
    return await client.workspaces.update(ws.id, patch);
  } catch (err) {
    if (!isPoolRefusal(err)) throw err;
    const poolId = typeof patch.agentPoolId === "string" ? patch.agentPoolId : undefined;
    const label = settingsLabel(ws.id);
    const allowed =
      poolId !== undefined &&
      (await waitForAllowance(poolId, {
        timeoutMs: ALLOWANCE_TIMEOUT_MS,
        onProgress: (pending, ms) =>
          reportStatus(
            `${label} waits for ${pending.join(", ")} to allow ${labelOf(ws)} on agent pool ${poolId} (${Math.round(ms / 1000)} s)`,
          ),
      }));
    if (!allowed) throw settingsPoolRefusal(labelOf(ws), ws.id, poolId, poolId ? declaredAllowances(poolId) : []);
    return client.workspaces.update(ws.id, patch).catch((again: unknown) => {
      throw isPoolRefusal(again) ? settingsPoolRefusal(labelOf(ws), ws.id, poolId, declaredAllowances(poolId)) : again;
    });
  }
}

/**
 * Brings the workspace to the declared values: the settings in one update, the consumers
 * with their own endpoint, the latter first when the update lets every workspace read the
 * state (the service changes consumers only while that is off). Returns what the
 * workspace then has of each declared name.
 */
async function write(
  client: WorkspacesClient,
  ws: ApiWorkspace,
  desired: Values,
  current: Values,
  extra: WorkspaceUpdateOptions = {},
): Promise<Values> {
  const patch = { ...settingsPatch(desired, current), ...extra };
  const consumers = desired[CONSUMERS_INPUT];
  const writeConsumers =
    consumers !== undefined && !sameValue(CONSUMERS_INPUT, consumers, current[CONSUMERS_INPUT])
      ? () => client.remoteStateConsumers.replace(ws.id, (consumers as string[]).map(String))
      : async () => undefined;
  let after = ws;
  if (patch.globalRemoteState === true) await writeConsumers();
  if (Object.keys(patch).length > 0) after = await patchWorkspace(client, ws, patch);
  if (patch.globalRemoteState !== true) await writeConsumers();
  const names = withCoupled(declaredNames(desired));
  const out = await valuesOf(
    client,
    after,
    names.filter((n) => n !== CONSUMERS_INPUT),
  );
  if (consumers !== undefined) out[CONSUMERS_INPUT] = [...(consumers as string[])].map(String).sort();
  return out;
}

/** The declared values of the inputs, by managed name. */
function desiredOf(inputs: Props): Values {
  return Object.fromEntries(declaredNames(inputs).map((k) => [k, inputs[k]]));
}

/** Outputs: each managed value, then what destroy puts back and what it compares with. */
function outputsOf(ws: ApiWorkspace, values: Values, previous: Values | undefined, applied: Values | undefined) {
  const { [OVERWRITES]: _kept, ...own } = values;
  const outs: SettingsOutputs = { workspaceId: ws.id, organization: ws.organization ?? null, ...own };
  if (previous) outs.previous = previous;
  if (applied) outs.applied = applied;
  return outs;
}

/** Creates or updates: reads the workspace, records the prior value of each newly managed name, writes what differs. */
/**
 * The one message of a refused create or update: a workspace the token cannot see, or
 * settings the service refuses (its detail, and the way out).
 */
function refusal(err: unknown, workspaceId: string, ws: ApiWorkspace | undefined, desired: Values): unknown {
  const who = settingsLabel(workspaceId);
  if (isNotFound(err) && !ws) {
    return new ProviderError(
      `${who} cannot manage the settings of workspace ${workspaceId}: the service answered 404, so it does not exist or ` +
        `the token may not see it. Check workspaceId, and use a token with admin access to the workspace.`,
    );
  }
  if (!(err instanceof ValidationError) || isPoolRefusal(err)) return err;
  const wayOut =
    desired.executionMode === "agent" && desired.agentPoolId === undefined
      ? `declare agentPoolId, or give the workspace's project a default agent pool`
      : `change the declared settings and run pulumi up again`;
  return new ProviderError(
    `${who} cannot set the settings of ${ws ? labelOf(ws) : `workspace ${workspaceId}`}: the service refused them ` +
      `(${err.problems.map((p) => p.detail).join("; ")}); ${wayOut}.`,
  );
}

async function apply(workspaceId: string, inputs: Props, olds: SettingsOutputs | undefined): Promise<SettingsOutputs> {
  const desired = desiredOf(inputs);
  let ws: ApiWorkspace | undefined;
  try {
    ws = await readWorkspaceShared(getClient(), workspaceId, olds?.organization);
    return await applyTo(ws, desired, olds);
  } catch (err) {
    throw refusal(err, workspaceId, ws, desired);
  }
}

async function applyTo(ws: ApiWorkspace, desired: Values, olds: SettingsOutputs | undefined): Promise<SettingsOutputs> {
  const client = getClient();
  const names = withCoupled(declaredNames(desired));
  const current = await valuesOf(client, ws, names);
  // The value before this resource first set it: kept from earlier, read now for a name managed from now on.
  const previous: Values = {};
  for (const name of names)
    previous[name] = olds?.previous && name in olds.previous ? olds.previous[name] : current[name];
  const values = await write(client, ws, desired, current);
  return outputsOf(ws, values, previous, values);
}

/** The workspace's read for the 404 rule, by id or label. */
function recordOf(client: WorkspacesClient, workspaceId: string, props: Props) {
  return dependentRecord(client, "settings", workspaceId, props);
}

const provider: ProviderImpl<Props, SettingsOutputs> = {
  async check(_olds, news) {
    return checkSettings(news);
  },

  async diff(_id, olds, news) {
    const { changed, replaces } = diffFields(olds, news, SETTINGS_RULES);
    // A setting managed from now on was never read: its value (and what to put back) is learnt by the update.
    const newlyManaged = declaredNames(news).filter((k) => olds[k] === undefined);
    return { changes: changed.length + newlyManaged.length > 0, replaces };
  },

  async create(inputs) {
    const workspaceId = String(inputs.workspaceId);
    return { id: workspaceId, outs: await apply(workspaceId, inputs, undefined) };
  },

  async read(id, props) {
    const workspaceId = workspaceIdOf(id);
    const client = getClient();
    return unlessGone(
      client,
      () => recordOf(client, workspaceId, props),
      "refresh",
      async () => {
        const ws = await readWorkspaceShared(client, workspaceId, props.organization);
        // Adopted through `get` or imported: nothing is declared yet, so every setting is reported.
        const names = props.applied ? Object.keys(props.applied) : withCoupled(MANAGED_NAMES);
        const values = await valuesOf(client, ws, names);
        return { id: ws.id, props: outputsOf(ws, values, props.previous, props.applied) };
      },
      () => ({}),
    );
  },

  async update(id, olds, news) {
    return { outs: await apply(workspaceIdOf(id), news, olds) };
  },

  async delete(id, props) {
    const client = getClient();
    const workspaceId = workspaceIdOf(id);
    const previous = props.previous ?? {};
    const applied = props.applied ?? {};
    try {
      const ws = await client.workspaces.read(workspaceId);
      const current = await valuesOf(client, ws, Object.keys(applied));
      // Put back what this resource changed, where the workspace still has the value it set.
      const restore: Values = {};
      for (const name of Object.keys(applied)) {
        if (!(name in previous) || sameValue(name, previous[name], applied[name])) continue;
        if (sameValue(name, applied[name], current[name])) restore[name] = previous[name];
      }
      // A mode put back to `agent` takes its pool back with it.
      if (restore.executionMode === "agent" && previous.agentPoolId) restore.agentPoolId = previous.agentPoolId;
      // A mode that was inherited is inherited again, rather than set to the value it had.
      let extra: WorkspaceUpdateOptions = {};
      const before = restore[OVERWRITES] as { executionMode?: unknown; agentPool?: unknown } | undefined;
      delete restore[OVERWRITES];
      if (before?.executionMode === false) {
        delete restore.executionMode;
        delete restore.agentPoolId;
        extra = { settingOverwrites: { executionMode: false, agentPool: before.agentPool === true } };
      }
      if (Object.keys(restore).length + Object.keys(extra).length > 0) await write(client, ws, restore, current, extra);
    } catch (err) {
      if (!isNotFound(err)) throw err;
      await confirmGone(client, await recordOf(client, workspaceId, props), "delete");
    }
  },
};

/** What a preview says for a new resource marked `adopt`: the workspace and the declared settings that differ. */
const lookup = {
  noun: "workspace settings",
  key: (inputs: Props) =>
    typeof inputs.workspaceId === "string" ? `of workspace ${String(inputs.workspaceId)}` : undefined,
  async find(client: WorkspacesClient, inputs: Props): Promise<Found | undefined> {
    const id = String(inputs.workspaceId);
    try {
      const ws = await client.workspaces.read(id);
      return { id, label: `settings of ${labelOf(ws)}`, seed: { organization: ws.organization } };
    } catch (err) {
      if (isNotFound(err)) return undefined;
      throw err;
    }
  },
};

export const workspaceSettingsProvider: ProviderImpl<Props, SettingsOutputs> = explainingMissingFeatures(
  reportsAdoption(provider, lookup),
  "workspace settings",
);
