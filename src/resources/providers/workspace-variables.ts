/**
 * Provider of `WorkspaceVariables`: the variables of one workspace that one resource
 * owns, id `<ws-id>/variables`. Ownership is additive (docs of the class): the variables it
 * created or took over, by id, and never another.
 */
import type * as pulumi from "@pulumi/pulumi";
import type { Variable, WorkspacesClient } from "../../client";
import { reportInfo } from "../process/engine-status";
import { reportsAdoption, type AdoptionLookup } from "./adoption";
import { getClient, isNotFound } from "./client";
import { diffFields } from "./compare";
import { confirmGone } from "./gone";
import { ORIGIN_KEY, workspaceIdFailures } from "./inputs";
import { isUnknown } from "./unknowns";
import { sameOrigin, withOrigin } from "./origin";
import { ProviderError } from "./user-errors";
import { workspaceIdOf } from "./workspace-tags";
import { missingUnder, originDescription, originOfDescription, workspaceOrganization } from "./workspace-variable";
import {
  adoptFailures,
  checkList,
  declaredList,
  keptValues,
  listAsInput,
  listDiffers,
  reconcile,
  recordedList,
  stillThere,
  storedOf,
  type Collection,
  type RecordedList,
} from "./workspace-variable-lists";
import { recordedOf, sameSlot, sensitiveKey, variableLabel, type RecordedVariable } from "./workspace-variable-rules";
import type { ProviderImpl, Props } from "./types";
import type { WorkspaceVariablesArgs } from "../workspace-variables";

/** Inputs as the engine hands them over. */
type WorkspaceVariablesInputs = pulumi.Unwrap<WorkspaceVariablesArgs>;

/** Outputs as stored in state. */
type WorkspaceVariablesOutputs = {
  workspaceId: string;
  variables: RecordedList["variables"];
  sensitiveValues: RecordedList["sensitiveValues"];
  /** The workspace's organization, for the 404 rule once the workspace is gone; absent from earlier state. */
  organization?: string | null;
};

/** Inputs that are never sent to the service; echoed in the outputs so that a refresh can give them back. */
const ECHOED = ["adopt", ORIGIN_KEY];

function echoed(outs: WorkspaceVariablesOutputs, from: Props): WorkspaceVariablesOutputs {
  const extra = Object.fromEntries(ECHOED.filter((k) => from[k] !== undefined).map((k) => [k, from[k]]));
  return { ...outs, ...extra };
}

/** The writes of a workspace's variables; a variable gone already is deleted. */
function workspaceCollection(client: WorkspacesClient, workspaceId: string): Collection {
  return {
    create: (options) => client.variables.create(workspaceId, options),
    update: (variableId, options) => client.variables.update(workspaceId, variableId, options),
    delete: (variableId) =>
      client.variables.delete(workspaceId, variableId).catch((err: unknown) => {
        if (!isNotFound(err)) throw err;
      }),
  };
}

/** The workspace's variables, or undefined when a 404 means the workspace is gone (the 404 rule, ./gone.ts). */
async function listOrGone(
  client: WorkspacesClient,
  workspaceId: string,
  action: "refresh" | "delete",
  props: Props,
): Promise<Variable[] | undefined> {
  try {
    return await client.variables.list(workspaceId);
  } catch (err) {
    if (!isNotFound(err)) throw err;
    await confirmGone(client, await missingUnder(client, workspaceId, "the variables", props), action);
    return undefined;
  }
}

/**
 * The variables of the workspace in the declared slots that this resource does not own:
 * taken over when `adopt` says so or when one carries this resource's origin (an interrupted
 * create of its own), refused otherwise, before anything is written.
 */
function claim(
  inputs: Props,
  current: Variable[],
  owned: RecordedVariable[],
  adopt: boolean,
): { owned: RecordedVariable[]; stored: Record<string, string>; tookOver: string[] } {
  const desired = declaredList(inputs.variables);
  const stored: Record<string, string> = {};
  const problems: string[] = [];
  const tookOver: string[] = [];
  const mine = [...owned];
  desired.forEach((d, i) => {
    if (owned.some((o) => sameSlot(o, d))) return;
    const found = current.find((v) => sameSlot(v, d) && !owned.some((o) => o.id === v.id));
    if (!found) return;
    const source = originOfDescription(found.description);
    const ours = source !== undefined && sameOrigin(inputs, source);
    if (!adopt && !ours) {
      problems.push(
        `variables[${i}]: the workspace already has ${variableLabel(found)} (${found.id}), set outside this resource`,
      );
      return;
    }
    mine.push(recordedOf(found));
    // The service never shows a sensitive value: the declared one is taken as the record's.
    if (found.sensitive) stored[sensitiveKey(found)] = d.value;
    if (ours) tookOver.push(`${variableLabel(found)} (${found.id})`);
  });
  if (problems.length > 0) {
    const workspaceId = String(inputs.workspaceId);
    throw new ProviderError(
      `WorkspaceVariables on workspace ${workspaceId} does not change or remove a variable it did not set: ${problems.join("; ")}. ` +
        `Set adopt: true on this resource to take ${problems.length > 1 ? "them" : "it"} over, or drop ${problems.length > 1 ? "them" : "it"} from variables.`,
    );
  }
  return { owned: mine, stored, tookOver };
}

async function apply(
  workspaceId: string,
  inputs: Props,
  previous: { owned: RecordedVariable[]; stored: Record<string, string>; recorded?: Props },
  adopt: boolean,
): Promise<WorkspaceVariablesOutputs> {
  const client = getClient();
  let current: Variable[];
  try {
    current = await client.variables.list(workspaceId);
  } catch (err) {
    if (!isNotFound(err)) throw err;
    throw new ProviderError(
      `cannot manage the variables of workspace ${workspaceId}: the service answered 404 for the workspace, so it does not exist or the token in use may not see it. Check workspaceId, or use a token that may manage the workspace's variables.`,
    );
  }
  const claimed = claim(inputs, current, stillThere(previous.owned, current), adopt);
  for (const label of claimed.tookOver)
    reportInfo(`took over ${label} of workspace ${workspaceId}, created by an interrupted update of this stack`);
  const origin = originDescription(withOrigin(inputs));
  const outs = await reconcile(
    workspaceCollection(client, workspaceId),
    declaredList(inputs.variables),
    claimed.owned,
    { ...previous.stored, ...claimed.stored },
    origin,
  );
  const organization = (await workspaceOrganization(client, workspaceId, previous.recorded)) ?? null;
  return echoed({ workspaceId, ...outs, organization }, inputs);
}

const provider: ProviderImpl<WorkspaceVariablesInputs & Props, WorkspaceVariablesOutputs> = {
  async check(_olds, news) {
    const failures = workspaceIdFailures(news.workspaceId);
    const { failures: listFailures, list } = checkList(news.variables, "variables", true);
    failures.push(...listFailures, ...adoptFailures(news.adopt));
    return { inputs: { ...news, ...(list !== undefined ? { variables: list } : {}) } as typeof news, failures };
  },

  async diff(_id, olds, news) {
    const { replaces } = diffFields(olds, news, [{ name: "workspaceId", replaces: true }]);
    if (replaces.length > 0) return { changes: true, replaces };
    const where = `of workspace ${String(olds.workspaceId)}`;
    const changes = listDiffers(news.variables, olds.variables, olds.sensitiveValues, where);
    return { changes, replaces: [] };
  },

  async create(inputs) {
    const workspaceId = String(inputs.workspaceId);
    const outs = await apply(workspaceId, inputs, { owned: [], stored: {} }, inputs.adopt === true);
    return { id: `${workspaceId}/variables`, outs };
  },

  async read(id, props) {
    const workspaceId = workspaceIdOf(id);
    const client = getClient();
    const current = await listOrGone(client, workspaceId, "refresh", props);
    if (!current) return {};
    const organization = (await workspaceOrganization(client, workspaceId, props)) ?? null;
    // Adopted through `get` or `pulumi import`: every variable of the workspace.
    const owned =
      props.variables === undefined ? current.map(recordedOf) : stillThere(recordedList(props.variables), current);
    const sensitiveValues = keptValues(owned, storedOf(props.sensitiveValues));
    return {
      id: `${workspaceId}/variables`,
      props: echoed({ workspaceId, variables: owned, sensitiveValues, organization }, props),
    };
  },

  inputShape(name, value, outputs) {
    if (name !== "variables") return value;
    return listAsInput(value, outputs.sensitiveValues, (d) => originOfDescription(d) !== undefined);
  },

  async update(id, olds, news) {
    const workspaceId = workspaceIdOf(id);
    const outs = await apply(
      workspaceId,
      news,
      { owned: recordedList(olds.variables), stored: storedOf(olds.sensitiveValues), recorded: olds },
      false,
    );
    return { outs };
  },

  async delete(id, props) {
    const workspaceId = workspaceIdOf(id);
    const client = getClient();
    const current = await listOrGone(client, workspaceId, "delete", props);
    if (!current) return;
    const collection = workspaceCollection(client, workspaceId);
    await Promise.all(stillThere(recordedList(props.variables), current).map((r) => collection.delete(r.id)));
  },
};

/** The workspace's variables in the declared slots, for the preview of `adopt: true` (see reportsAdoption). */
const variablesLookup: AdoptionLookup = {
  noun: "variable",
  key(inputs) {
    const { workspaceId, variables } = inputs;
    if (typeof workspaceId !== "string" || isUnknown(workspaceId) || !Array.isArray(variables)) return undefined;
    if (variables.some((v) => isUnknown(v) || isUnknown((v as Props | null)?.key))) return undefined;
    return `in the declared slots of workspace ${workspaceId}`;
  },
  async find(client, inputs) {
    const workspaceId = String(inputs.workspaceId);
    const desired = declaredList(inputs.variables);
    let current: Variable[];
    try {
      current = await client.variables.list(workspaceId);
    } catch (err) {
      if (isNotFound(err)) return undefined;
      throw err;
    }
    const found = current.filter((v) => desired.some((d) => sameSlot(v, d)));
    if (found.length === 0) return undefined;
    // The service never shows a sensitive value: the declared one is taken as the record's.
    const sensitiveValues: Record<string, string> = {};
    for (const v of found.filter((f) => f.sensitive)) {
      const declared = desired.find((d) => sameSlot(v, d));
      if (declared) sensitiveValues[sensitiveKey(v)] = declared.value;
    }
    const labels = found.map((v) => `${variableLabel(v).replace(/^variable /, "")} ${v.id}`).join(", ");
    return {
      id: `${workspaceId}/variables`,
      label: `${found.length > 1 ? "variables" : "variable"} ${labels} of workspace ${workspaceId}`,
      seed: { variables: found.map(recordedOf), sensitiveValues },
    };
  },
};

export const workspaceVariablesProvider = reportsAdoption(provider, variablesLookup);
