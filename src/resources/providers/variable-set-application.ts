/**
 * Provider of `VariableSetApplication`: one variable set applied to one workspace or one
 * project, id `<varset-id>/<ws-id>` or `<varset-id>/<prj-id>`.
 */
import type * as pulumi from "@pulumi/pulumi";
import { isId } from "../../api/common";
import type { VariableSet as ApiVariableSet, WorkspacesClient } from "../../client";
import { CLAIMANT_KEY, claim } from "../process/claims";
import { ORIGIN_KEY } from "./inputs";
import { sameOwner } from "./origin";
import { reportInfo } from "../process/engine-status";
import { reportsAdoption, type AdoptionLookup } from "./adoption";
import { getClient, isNotFound } from "./client";
import { diffFields, type FieldRule } from "./compare";
import { childRecord, confirmGone, type MissingRecord } from "./gone";
import { ProviderError, explainingMissingFeatures } from "./user-errors";
import { isUnknown } from "./unknowns";
import { adoptFailures } from "./workspace-variable-lists";
import type { CheckFailure, ProviderImpl, Props } from "./types";
import type { VariableSetApplicationArgs } from "../variable-set-application";

/** Inputs as the engine hands them over. */
type VariableSetApplicationInputs = pulumi.Unwrap<VariableSetApplicationArgs>;

/** Outputs as stored in state. */
type VariableSetApplicationOutputs = {
  variableSetId: string;
  workspaceId: string | null;
  projectId: string | null;
  /** Organization of the set, for the 404 rule; absent until known. */
  organization?: string | null;
  /** The input, echoed so that a refresh can give it back. */
  adopt?: unknown;
};

type Target = { kind: "workspace"; id: string } | { kind: "project"; id: string };

const FIELDS: FieldRule[] = [
  { name: "variableSetId", replaces: true },
  { name: "workspaceId", replaces: true, absentIsValue: true, same: (a, b) => (a ?? null) === (b ?? null) },
  { name: "projectId", replaces: true, absentIsValue: true, same: (a, b) => (a ?? null) === (b ?? null) },
];

/** `<varset-id>/<ws-id>` or `<varset-id>/<prj-id>` -> the set and its target. */
function idParts(id: string): { variableSetId: string; target: Target } {
  const [variableSetId = "", targetId = "", ...rest] = id.split("/");
  const target: Target | undefined = isId("workspace", targetId)
    ? { kind: "workspace", id: targetId }
    : isId("project", targetId)
      ? { kind: "project", id: targetId }
      : undefined;
  if (rest.length > 0 || !isId("variableSet", variableSetId) || !target)
    throw new ProviderError(
      `${JSON.stringify(id)} is not the id of a VariableSetApplication: give <varset-id>/<ws-id> or <varset-id>/<prj-id> (varset-3kqPzV6sYw8RnTdM/ws-2xWmbZ4hFYd5KuUE)`,
    );
  return { variableSetId, target };
}

function targetOf(p: Props): Target {
  return typeof p.workspaceId === "string" && p.workspaceId !== ""
    ? { kind: "workspace", id: p.workspaceId }
    : { kind: "project", id: String(p.projectId) };
}

function label(variableSetId: string, target: Target): string {
  return `the application of variable set ${variableSetId} to ${target.kind} ${target.id}`;
}

function applied(set: ApiVariableSet, target: Target): boolean {
  return (target.kind === "workspace" ? set.workspaceIds : set.projectIds).includes(target.id);
}

function outputsOf(variableSetId: string, target: Target, organization: unknown): VariableSetApplicationOutputs {
  return {
    variableSetId,
    workspaceId: target.kind === "workspace" ? target.id : null,
    projectId: target.kind === "project" ? target.id : null,
    organization: typeof organization === "string" && organization !== "" ? organization : null,
  };
}

function missing(
  client: WorkspacesClient,
  variableSetId: string,
  target: Target,
  props: Props,
): Promise<MissingRecord> {
  return childRecord(client, { label: label(variableSetId, target), kind: "workspace" }, props, [
    { kind: "variable set", id: variableSetId },
    { kind: target.kind, id: target.id },
  ]);
}

async function readSet(client: WorkspacesClient, variableSetId: string, doing: string): Promise<ApiVariableSet> {
  try {
    return await client.variableSets.read(variableSetId);
  } catch (err) {
    if (!isNotFound(err)) throw err;
    throw new ProviderError(
      `cannot ${doing}: the service answered 404 for variable set ${variableSetId}, so it does not exist or the token in use may not see it. Check variableSetId, or use a token that may manage variable sets.`,
    );
  }
}

async function write(client: WorkspacesClient, method: "apply" | "remove", variableSetId: string, target: Target) {
  const sets = client.variableSets;
  const ids = [target.id];
  if (target.kind === "workspace")
    await (method === "apply"
      ? sets.applyToWorkspaces(variableSetId, ids)
      : sets.removeFromWorkspaces(variableSetId, ids));
  else
    await (method === "apply" ? sets.applyToProjects(variableSetId, ids) : sets.removeFromProjects(variableSetId, ids));
}

const provider: ProviderImpl<VariableSetApplicationInputs & Props, VariableSetApplicationOutputs> = {
  async check(_olds, news) {
    const { [CLAIMANT_KEY]: claimant, ...inputs } = news;
    const failures: CheckFailure[] = [];
    const set = news.variableSetId;
    if (set === undefined || set === null)
      failures.push({ property: "variableSetId", reason: "variableSetId is required" });
    else if (!isUnknown(set) && !isId("variableSet", set))
      failures.push({ property: "variableSetId", reason: "variableSetId must be a variable set id (varset-...)" });
    const ws = news.workspaceId;
    const prj = news.projectId;
    const given = (v: unknown) => v !== undefined && v !== null && v !== "";
    if (given(ws) && given(prj))
      failures.push({
        property: "projectId",
        reason: "give either workspaceId or projectId, not both: one application has one target",
      });
    else if (!given(ws) && !given(prj))
      failures.push({ property: "workspaceId", reason: "give workspaceId (ws-...) or projectId (prj-...)" });
    if (given(ws) && !isUnknown(ws) && !isId("workspace", ws))
      failures.push({ property: "workspaceId", reason: "workspaceId must be a workspace id (ws-...)" });
    if (given(prj) && !isUnknown(prj) && !isId("project", prj))
      failures.push({ property: "projectId", reason: "projectId must be a project id (prj-...)" });
    failures.push(...adoptFailures(news.adopt));
    if (failures.length === 0 && typeof claimant === "string" && ![set, ws, prj].some(isUnknown)) {
      const target = targetOf(news);
      const other = claim(`${String(set)}/${target.id}`, claimant);
      if (other !== undefined)
        failures.push({
          property: "variableSetId",
          reason: `variable set ${String(set)} is applied to ${target.kind} ${target.id} by two resources of this stack, this one and "${other}": an application has one owner, so keep one of the two`,
        });
    }
    return { inputs: inputs, failures };
  },

  async diff(_id, olds, news) {
    const { changed, replaces } = diffFields(olds, news, FIELDS);
    return { changes: changed.length > 0, replaces };
  },

  async create(inputs) {
    const variableSetId = String(inputs.variableSetId);
    const target = targetOf(inputs);
    const client = getClient();
    const set = await readSet(
      client,
      variableSetId,
      `apply variable set ${variableSetId} to ${target.kind} ${target.id}`,
    );
    if (applied(set, target)) {
      // The stack's own set (its description holds this stack's owner digest): an application
      // of it that the state lacks was made by an interrupted update of this stack.
      const ours = inputs.adopt !== true && sameOwner(inputs[ORIGIN_KEY], set.description);
      if (ours)
        reportInfo(
          `took over ${label(variableSetId, target)}, made by an interrupted update of this stack (the set is this stack's)`,
        );
      else if (inputs.adopt !== true)
        throw new ProviderError(
          `variable set "${set.name}" (${variableSetId}) is already applied to ${target.kind} ${target.id}, by another stack, by hand, or by an update of this stack that was interrupted. ` +
            `To manage the application from this stack, set adopt: true on this resource: pulumi up then takes it over without a write. Otherwise remove this resource.`,
        );
    } else {
      try {
        await write(client, "apply", variableSetId, target);
      } catch (err) {
        if (!isNotFound(err)) throw err;
        throw new ProviderError(
          `cannot apply variable set ${variableSetId} to ${target.kind} ${target.id}: the service answered 404, so the ${target.kind} does not exist or the token in use may not see it.`,
        );
      }
    }
    const outs = outputsOf(variableSetId, target, set.organization);
    return {
      id: `${variableSetId}/${target.id}`,
      outs: inputs.adopt !== undefined ? { ...outs, adopt: inputs.adopt } : outs,
    };
  },

  async read(id, props) {
    const { variableSetId, target } = idParts(id);
    const client = getClient();
    let set: ApiVariableSet;
    try {
      set = await client.variableSets.read(variableSetId);
    } catch (err) {
      if (!isNotFound(err)) throw err;
      await confirmGone(client, await missing(client, variableSetId, target, props), "refresh");
      return {};
    }
    if (!applied(set, target)) return {};
    const outs = outputsOf(variableSetId, target, set.organization ?? props.organization);
    return { id, props: props.adopt !== undefined ? { ...outs, adopt: props.adopt } : outs };
  },

  async update(_id, olds, news) {
    // Only `adopt` can change without a replacement, and it sends nothing.
    return { outs: { ...olds, ...(news.adopt !== undefined ? { adopt: news.adopt } : {}) } };
  },

  async delete(id, props) {
    const { variableSetId, target } = idParts(id);
    const client = getClient();
    try {
      await write(client, "remove", variableSetId, target);
    } catch (err) {
      if (!isNotFound(err)) throw err;
      // A set the token reads lists every target it is applied to: one that no longer lists
      // this target (deleted with its workspace or project) proves the application gone.
      const set = await client.variableSets.read(variableSetId).catch(() => undefined);
      if (set && !applied(set, target)) return;
      await confirmGone(client, await missing(client, variableSetId, target, props), "delete");
    }
  },
};

/** The application of the set to the target, for the preview of `adopt: true` (see reportsAdoption). */
const applicationLookup: AdoptionLookup = {
  noun: "application",
  key(inputs) {
    const { variableSetId, workspaceId, projectId } = inputs;
    if ([variableSetId, workspaceId, projectId].some(isUnknown) || typeof variableSetId !== "string") return undefined;
    const target = targetOf(inputs);
    return `of variable set ${variableSetId} to ${target.kind} ${target.id}`;
  },
  async find(client, inputs) {
    const variableSetId = String(inputs.variableSetId);
    const target = targetOf(inputs);
    const set = await client.variableSets.read(variableSetId).catch((err: unknown) => {
      if (isNotFound(err)) return undefined;
      throw err;
    });
    if (!set || !applied(set, target)) return undefined;
    return {
      id: `${variableSetId}/${target.id}`,
      label: `application of variable set "${set.name}" (${variableSetId}) to ${target.kind} ${target.id}`,
      seed: {},
    };
  },
};

/** The provider, with one message (and the way out) for a server without variable sets or projects. */
export const variableSetApplicationProvider = explainingMissingFeatures(
  reportsAdoption(provider, applicationLookup),
  "variable set application",
);
