/** Provider of `RemoteStateConsumers` (spec 4.9). */
import type * as pulumi from "@pulumi/pulumi";
import { isId } from "../../api/common";
import type { WorkspacesClient } from "../../client";
import { getClient, isNotFound, readWorkspaceShared } from "./client";
import { ProviderError } from "./user-errors";
import { diffFields, sameStringSet, type FieldRule } from "./compare";
import { isUnknown, withoutUnknowns } from "./unknowns";
import { consumerIdFailures } from "./inputs";
import { workspaceIdOf } from "./workspace-tags";
import { confirmGone, dependentRecord, unlessGone } from "./gone";
import { explainingMissingFeatures } from "./user-errors";
import type { CheckFailure, ProviderImpl, Props } from "./types";
import type { RemoteStateConsumersArgs } from "../remote-state-consumers";
import type { OwnershipMode } from "../workspace-tags";
import { CLAIMANT_KEY } from "../process/claims";
import { CONSUMERS_INPUT } from "../workspace-settings";
import { claimantLabel, settingClaimFailures } from "./workspace-settings-rules";

/** Inputs as the engine hands them over. */
type RemoteStateConsumersInputs = pulumi.Unwrap<RemoteStateConsumersArgs>;

/** Outputs as stored in state. */
type RemoteStateConsumersOutputs = {
  workspaceId: string;
  /** Absent from state written before the organization was recorded. */
  organization?: string | null;
  /** Absent when adopted through `get`. */
  mode?: OwnershipMode;
  consumerIds: string[];
  allConsumerIds: string[];
  /** Absent from state written before additive ownership was recorded. */
  addedConsumerIds?: string[];
};

/** The outputs read from the service, without the recorded organization. */
type ConsumerOutputs = Omit<RemoteStateConsumersOutputs, "organization">;

const FIELDS: FieldRule[] = [
  { name: "workspaceId", replaces: true },
  { name: "mode", same: (a, b) => (a ?? "authoritative") === (b ?? "authoritative") },
  { name: "consumerIds", same: (a, b) => sameStringSet(a, b) },
];

function modeOf(p: { mode?: unknown }): OwnershipMode {
  return p.mode === "additive" ? "additive" : "authoritative";
}

function ids(v: unknown): string[] {
  return Array.isArray(v) ? Array.from(new Set(v.map(String))).sort() : [];
}

function checkConsumers(news: Props): CheckFailure[] {
  const failures: CheckFailure[] = [];
  const known = withoutUnknowns(news);
  if (news.workspaceId === undefined) failures.push({ property: "workspaceId", reason: "workspaceId is required" });
  else if (!isUnknown(news.workspaceId) && !isId("workspace", news.workspaceId)) {
    failures.push({ property: "workspaceId", reason: "workspaceId must be a workspace id (ws-...)" });
  }
  if (known.mode !== undefined && known.mode !== "authoritative" && known.mode !== "additive") {
    failures.push({
      property: "mode",
      reason: `mode must be "authoritative" or "additive", not ${JSON.stringify(known.mode)}`,
    });
  }
  if (news.consumerIds === undefined) {
    failures.push({
      property: "consumerIds",
      reason: "consumerIds is required (an empty list removes every consumer in authoritative mode)",
    });
  } else failures.push(...consumerIdFailures(news.consumerIds, news.workspaceId, "consumerIds"));
  return failures;
}

/**
 * The consumer endpoints refuse workspaces whose state every workspace may read;
 * when a change fails, say so if that is why.
 */
async function explain(client: WorkspacesClient, workspaceId: string, err: unknown): Promise<never> {
  if (!isNotFound(err)) {
    try {
      const ws = await client.workspaces.read(workspaceId);
      if (ws.globalRemoteState) {
        throw new ProviderError(
          `workspace "${ws.name}" (${workspaceId}) has global-remote-state enabled: every workspace of the organization ` +
            `may already read its state, so its consumers cannot be managed. Set globalRemoteState: false on the workspace first.`,
        );
      }
    } catch (inner) {
      if (inner instanceof ProviderError) throw inner;
    }
  }
  throw err;
}

/**
 * The workspace's organization, recorded with the consumers because it decides what a
 * later 404 means (see confirmGone): learnt once, from the shared listing when it holds
 * the workspace (an adopting `up` has just listed the organization) or with one read,
 * then kept.
 */
async function organizationOf(workspaceId: string, known: unknown): Promise<string | null> {
  if (typeof known === "string" && known !== "") return known;
  try {
    return (await readWorkspaceShared(getClient(), workspaceId, undefined)).organization;
  } catch {
    return null;
  }
}

async function current(client: WorkspacesClient, workspaceId: string): Promise<string[]> {
  return (await client.remoteStateConsumers.listIds(workspaceId)).sort();
}

function outputsOf(
  workspaceId: string,
  inputs: { mode?: unknown; consumerIds?: unknown },
  all: string[],
  added: string[],
): ConsumerOutputs {
  const mode = modeOf(inputs);
  const desired = ids(inputs.consumerIds);
  return {
    workspaceId,
    mode,
    consumerIds: mode === "authoritative" ? all : desired.filter((c) => all.includes(c)),
    allConsumerIds: all,
    addedConsumerIds: mode === "additive" ? added.filter((c) => all.includes(c)).sort() : [],
  };
}

async function apply(
  workspaceId: string,
  inputs: RemoteStateConsumersInputs,
  previouslyAdded: string[],
): Promise<ConsumerOutputs> {
  const client = getClient();
  const desired = ids(inputs.consumerIds);
  try {
    if (modeOf(inputs) === "authoritative") {
      await client.remoteStateConsumers.replace(workspaceId, desired);
      return outputsOf(workspaceId, inputs, await current(client, workspaceId), []);
    }
    const before = await current(client, workspaceId);
    const add = desired.filter((c) => !before.includes(c));
    const drop = previouslyAdded.filter((c) => !desired.includes(c));
    if (add.length) await client.remoteStateConsumers.add(workspaceId, add);
    if (drop.length) await client.remoteStateConsumers.remove(workspaceId, drop);
    const added = Array.from(new Set([...previouslyAdded.filter((c) => desired.includes(c)), ...add]));
    return outputsOf(workspaceId, inputs, await current(client, workspaceId), added);
  } catch (err) {
    return explain(client, workspaceId, err);
  }
}

export const remoteStateConsumersProvider: ProviderImpl<
  RemoteStateConsumersInputs & Props,
  RemoteStateConsumersOutputs
> = explainingMissingFeatures(
  {
    async check(_olds, news) {
      const { [CLAIMANT_KEY]: claimant, ...inputs } = news;
      if (inputs.mode === undefined) inputs.mode = "authoritative";
      const failures = checkConsumers(inputs);
      // One owner of a workspace's consumers in a stack: this resource or a WorkspaceSettings.
      const ws = inputs.workspaceId;
      if (failures.length === 0 && typeof claimant === "string" && typeof ws === "string" && !isUnknown(ws))
        failures.push(...settingClaimFailures(ws, [CONSUMERS_INPUT], claimantLabel("RemoteStateConsumers", claimant)));
      return { inputs, failures };
    },

    async diff(_id, olds, news) {
      const { changed, replaces } = diffFields(olds, news, FIELDS);
      return { changes: changed.length > 0, replaces };
    },

    async create(inputs) {
      const workspaceId = String(inputs.workspaceId);
      const id = `${workspaceId}/remote-state-consumers`;
      if (modeOf(inputs) === "authoritative") {
        // Consumers that already are exactly the declared ones (an adopted workspace) need no write.
        const before = await current(getClient(), workspaceId).catch(() => undefined);
        if (before && sameStringSet(before, ids(inputs.consumerIds))) {
          return {
            id,
            outs: {
              ...outputsOf(workspaceId, inputs, before, []),
              organization: await organizationOf(workspaceId, undefined),
            },
          };
        }
      }
      // Learnt before the write, which drops the workspace from the shared listing.
      const organization = await organizationOf(workspaceId, undefined);
      return { id, outs: { ...(await apply(workspaceId, inputs, [])), organization } };
    },

    async read(id, props) {
      const workspaceId = workspaceIdOf(id);
      const client = getClient();
      return unlessGone(
        client,
        () => dependentRecord(client, "remote state consumers", workspaceId, props),
        "refresh",
        async () => {
          const all = await current(client, workspaceId);
          const inputs = props.mode === undefined ? { mode: "authoritative", consumerIds: all } : props;
          const organization = await organizationOf(workspaceId, props.organization);
          return {
            id: `${workspaceId}/remote-state-consumers`,
            props: { ...outputsOf(workspaceId, inputs, all, props.addedConsumerIds ?? []), organization },
          };
        },
        () => ({}),
      );
    },

    async update(id, olds, news) {
      const workspaceId = workspaceIdOf(id);
      const organization = await organizationOf(workspaceId, olds.organization);
      return { outs: { ...(await apply(workspaceId, news, olds.addedConsumerIds ?? [])), organization } };
    },

    async delete(id, props) {
      const client = getClient();
      const workspaceId = workspaceIdOf(id);
      try {
        const added = props.addedConsumerIds ?? [];
        if (modeOf(props) === "authoritative") await client.remoteStateConsumers.replace(workspaceId, []);
        else if (added.length) await client.remoteStateConsumers.remove(workspaceId, added);
      } catch (err) {
        if (isNotFound(err)) {
          await confirmGone(
            client,
            await dependentRecord(client, "remote state consumers", workspaceId, props),
            "delete",
          );
          return;
        }
        await explain(client, workspaceId, err);
      }
    },
  },
  "remote state consumers",
);
