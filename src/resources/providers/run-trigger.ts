/**
 * Provider of `RunTrigger` (`/workspaces/:id/run-triggers`, `/run-triggers/:id`): a run
 * applied in the source workspace queues a run in the workspace; id `rt-...`.
 */
import type * as pulumi from "@pulumi/pulumi";
import { isId } from "../../api/common";
import { MAX_RUN_TRIGGER_SOURCES } from "../../api/run-triggers";
import type { RunTrigger as ApiRunTrigger, WorkspacesClient } from "../../client";
import { CLAIMANT_KEY, claim, joinGroup } from "../process/claims";
import { adoptable, type Adopter } from "./adoption";
import { getClient, isNotFound } from "./client";
import { diffFields, type FieldRule } from "./compare";
import { childRecord, confirmGone, organizationUnder, type MissingRecord, type Parent } from "./gone";
import { workspaceIdFailures } from "./inputs";
import { ProviderError, explainingMissingFeatures } from "./user-errors";
import { isUnknown } from "./unknowns";
import { keyTaken } from "./workspace-variable-rules";
import type { CheckFailure, ProviderImpl, Props } from "./types";
import type { RunTriggerArgs } from "../run-trigger";

/** Inputs as the engine hands them over. */
type RunTriggerInputs = pulumi.Unwrap<RunTriggerArgs>;

/** Outputs as stored in state. */
type RunTriggerOutputs = {
  workspaceId: string;
  sourceWorkspaceId: string;
  workspaceName: string | null;
  sourceWorkspaceName: string | null;
  /** The workspaces' organization, for the 404 rule once they are gone; absent from earlier state. */
  organization?: string | null;
};

const FIELDS: FieldRule[] = [
  { name: "workspaceId", replaces: true },
  { name: "sourceWorkspaceId", replaces: true },
];

function runTriggerId(id: string): string {
  if (!isId("runTrigger", id) || id.includes("/"))
    throw new ProviderError(
      `${JSON.stringify(id)} is not the id of a RunTrigger: give the trigger's id (rt-3kqPzV6sYw8RnTdM), which the workspace's run triggers list shows`,
    );
  return id;
}

function label(workspaceId: unknown, sourceWorkspaceId: unknown, id?: string): string {
  const what = `run trigger${id ? ` ${id}` : ""}`;
  return typeof workspaceId === "string" && typeof sourceWorkspaceId === "string"
    ? `${what} from workspace ${sourceWorkspaceId} to workspace ${workspaceId}`
    : what;
}

function outputsOf(t: ApiRunTrigger, props: Props, organization: string | undefined): RunTriggerOutputs {
  return {
    organization: organization ?? null,
    workspaceId: t.workspaceId ?? String(props.workspaceId),
    sourceWorkspaceId: t.sourceableId ?? String(props.sourceWorkspaceId),
    workspaceName: t.workspaceName,
    sourceWorkspaceName: t.sourceableName,
  };
}

/** The workspace's trigger from `sourceWorkspaceId`, if it has one (undefined on a 404 of the workspace). */
/** A create refused before any write because the pair has a trigger already. */
class PairTaken extends Error {}

async function existing(
  client: WorkspacesClient,
  workspaceId: string,
  sourceWorkspaceId: string,
): Promise<ApiRunTrigger | undefined> {
  try {
    for await (const t of client.runTriggers.list(workspaceId, "inbound"))
      if (t.sourceableId === sourceWorkspaceId) return t;
  } catch (err) {
    if (!isNotFound(err)) throw err;
  }
  return undefined;
}

function checkIds(news: Props): CheckFailure[] {
  const failures = workspaceIdFailures(news.workspaceId);
  const source = news.sourceWorkspaceId;
  if (source === undefined || source === null)
    failures.push({ property: "sourceWorkspaceId", reason: "sourceWorkspaceId is required" });
  else if (!isUnknown(source) && !isId("workspace", source))
    failures.push({ property: "sourceWorkspaceId", reason: "sourceWorkspaceId must be a workspace id (ws-...)" });
  else if (!isUnknown(source) && source === news.workspaceId)
    failures.push({
      property: "sourceWorkspaceId",
      reason: `sourceWorkspaceId must be another workspace: ${source as string} cannot trigger its own runs`,
    });
  return failures;
}

/**
 * The stack's own claims: one resource per pair, and at most the service's number of
 * sources per workspace among the triggers this stack declares (those made elsewhere
 * cannot be counted without a request, which preview does not make).
 */
function claimFailures(news: Props, claimant: unknown): CheckFailure[] {
  const { workspaceId: ws, sourceWorkspaceId: source } = news;
  if (typeof claimant !== "string" || isUnknown(ws) || isUnknown(source)) return [];
  const other = claim(`run-trigger:${String(ws)}/${String(source)}`, claimant);
  if (other !== undefined)
    return [
      {
        property: "sourceWorkspaceId",
        reason: `the run trigger from workspace ${String(source)} to workspace ${String(ws)} is declared by two resources of this stack, this one and "${other}": keep one of the two`,
      },
    ];
  const count = joinGroup("run-trigger-sources", String(ws), claimant);
  if (count > MAX_RUN_TRIGGER_SOURCES)
    return [
      {
        property: "workspaceId",
        reason: `workspace ${String(ws)} has ${count} run triggers in this stack, and the service allows at most ${MAX_RUN_TRIGGER_SOURCES} source workspaces per workspace: trigger a workspace from at most ${MAX_RUN_TRIGGER_SOURCES} others`,
      },
    ];
  return [];
}

const provider: ProviderImpl<RunTriggerInputs & Props, RunTriggerOutputs> = {
  async check(_olds, news) {
    const { [CLAIMANT_KEY]: claimant, ...inputs } = news;
    const failures = checkIds(news);
    if (failures.length === 0) failures.push(...claimFailures(news, claimant));
    return { inputs: inputs, failures };
  },

  async diff(_id, olds, news) {
    const { changed, replaces } = diffFields(olds, news, FIELDS);
    return { changes: changed.length > 0, replaces };
  },

  async create(inputs) {
    const workspaceId = String(inputs.workspaceId);
    const sourceWorkspaceId = String(inputs.sourceWorkspaceId);
    const client = getClient();
    // The hosted service refuses a second trigger of a pair; OTF makes one. Ask first, so
    // that every server gets the adoption's message, never a duplicate.
    if (await existing(client, workspaceId, sourceWorkspaceId)) throw new PairTaken();
    try {
      const t = await client.runTriggers.create(workspaceId, sourceWorkspaceId);
      return { id: t.id, outs: outputsOf(t, inputs, await organizationUnder(client, {}, parents(inputs))) };
    } catch (err) {
      if (!isNotFound(err)) throw err;
      throw new ProviderError(
        `cannot create the ${label(workspaceId, sourceWorkspaceId)}: the service answered 404 for workspace ${workspaceId}, so it does not exist or the token in use may not see it (managing its run triggers takes admin access to it).`,
      );
    }
  },

  async read(id, props) {
    const client = getClient();
    let t: ApiRunTrigger;
    try {
      t = await client.runTriggers.read(runTriggerId(id));
    } catch (err) {
      if (!isNotFound(err)) throw err;
      // Deleting either workspace deletes its triggers: the 404 rule decides, never a crash.
      await confirmGone(client, await missing(client, id, props), "refresh");
      return {};
    }
    return { id, props: outputsOf(t, props, await organizationUnder(client, props, parents(props))) };
  },

  async update(_id, olds) {
    // Every input but `adopt` replaces the trigger, and `adopt` sends nothing.
    return { outs: olds };
  },

  async delete(id, props) {
    const client = getClient();
    try {
      await client.runTriggers.delete(runTriggerId(id));
    } catch (err) {
      if (!isNotFound(err)) throw err;
      await confirmGone(client, await missing(client, id, props), "delete");
    }
  },
};

/** A trigger is seen through the workspace it queues runs in, else through its source: both of one organization. */
function parents(props: Props): Parent[] {
  return [
    { kind: "workspace", id: props.workspaceId },
    { kind: "workspace", id: props.sourceWorkspaceId },
  ];
}

/** The 404 rule's record (./gone.ts), with the organization the outputs record. */
function missing(client: WorkspacesClient, id: string, props: Props): Promise<MissingRecord> {
  const record = { label: label(props.workspaceId, props.sourceWorkspaceId, id), kind: "workspace" as const };
  return childRecord(client, record, props, parents(props));
}

const runTriggerAdopter: Adopter = {
  noun: "run trigger",
  key(inputs) {
    const { workspaceId, sourceWorkspaceId } = inputs;
    if ([workspaceId, sourceWorkspaceId].some((v) => typeof v !== "string" || isUnknown(v))) return undefined;
    return `from workspace ${String(sourceWorkspaceId)} to workspace ${String(workspaceId)}`;
  },
  async find(client, inputs) {
    const t = await existing(client, String(inputs.workspaceId), String(inputs.sourceWorkspaceId));
    if (!t) return undefined;
    return { id: t.id, label: label(inputs.workspaceId, inputs.sourceWorkspaceId, t.id), seed: { ...inputs } };
  },
  isTaken: (err) => err instanceof PairTaken || keyTaken(err),
  async describeExisting(client, inputs) {
    return (await this.find(client, inputs))?.label;
  },
  otherwise:
    "Or import it by the rt- id named here (`pulumi import`, on the provider plugin), or remove this resource.",
};

/** The provider, with adoption and one message (and the way out) for a server without run triggers. */
export const runTriggerProvider = explainingMissingFeatures(adoptable(provider, runTriggerAdopter), "run trigger");
