/**
 * Provider of `DataRetentionPolicy` (spec 4.11, self-managed offering only).
 *
 * The hosted offering has no such endpoints and answers them 404, the same answer as for
 * a workspace the token may not see. So a 404 is followed by a read of the workspace: a
 * workspace the token reads means the service does not offer the policies (one message
 * that says so and how to go on); otherwise the 404 rule of the other providers applies.
 */
import type * as pulumi from "@pulumi/pulumi";
import { z } from "zod";
import { isId } from "../../api/common";
import type { DataRetentionPolicy as ApiPolicy, DataRetentionPolicyOptions, WorkspacesClient } from "../../client";
import { getClient, isNotFound } from "./client";
import { INPUT_NAMES_KEY } from "./inputs";
import { ProviderError } from "./user-errors";
import { confirmGone, dependentRecord } from "./gone";
import { diffFields, type FieldRule } from "./compare";
import { failuresFromIssues } from "./check-failures";
import { isUnknown, withoutUnknowns } from "./unknowns";
import { workspaceIdOf } from "./workspace-tags";
import type { CheckFailure, ProviderImpl, Props } from "./types";
import type { DataRetentionPolicyArgs } from "../data-retention-policy";

/** Inputs as the engine hands them over. */
type DataRetentionPolicyInputs = pulumi.Unwrap<DataRetentionPolicyArgs>;

/** Outputs as stored in state. */
type DataRetentionPolicyOutputs = {
  workspaceId: string;
  /** Organization of the workspace, for the 404 rule; absent for a policy adopted through `get` before its first refresh. */
  organization?: string | null;
  deleteOlderThanNDays: number | null;
  dontDelete: boolean;
  policyId: string | null;
};

const DONT_DELETE_TYPE = "data-retention-policy-dont-deletes";

/** The inputs a program may give, as zod judges them; the exactly-one rule is checked beside it. */
const inputsSchema = z.object({
  workspaceId: z
    .string({ error: "is required" })
    .refine((v) => isId("workspace", v), { error: "must be a workspace id (ws-...)" }),
  deleteOlderThanNDays: z
    .number({ error: "must be a number of days" })
    .int({ error: "must be a whole number of days" })
    .min(1, { error: "must be at least 1" })
    .optional(),
  dontDelete: z
    .literal(true, { error: "must be true when given (give deleteOlderThanNDays instead to delete old data)" })
    .optional(),
});

const sameNumber = (a: unknown, b: unknown) => (a ?? null) === (b ?? null);

const FIELDS: FieldRule[] = [
  { name: "workspaceId", replaces: true },
  // The two inputs are one setting: the one a program leaves out is "not this kind".
  { name: "deleteOlderThanNDays", absentIsValue: true, same: sameNumber },
  { name: "dontDelete", absentIsValue: true, same: (a, b) => Boolean(a) === Boolean(b) },
];

function optionsOf(inputs: DataRetentionPolicyInputs): DataRetentionPolicyOptions {
  return inputs.dontDelete === true
    ? { dontDelete: true }
    : { deleteOlderThanNDays: Number(inputs.deleteOlderThanNDays) };
}

function outputsOf(
  workspaceId: string,
  organization: string | null | undefined,
  p: ApiPolicy,
): DataRetentionPolicyOutputs {
  const dontDelete = p.type === DONT_DELETE_TYPE;
  return {
    workspaceId,
    organization: organization ?? null,
    deleteOlderThanNDays: dontDelete ? null : p.deleteOlderThanNDays,
    dontDelete,
    policyId: p.id,
  };
}

/** The message for a service without data retention policies: what it means and the way out. */
function notOffered(action: string, workspaceId: string): ProviderError {
  return new ProviderError(
    `cannot ${action} the data retention policy of workspace ${workspaceId}: the service does not offer data retention policies ` +
      `(they exist only in the self-managed offering, not in the hosted one, and this service answered 404 for a workspace the token can read). ` +
      `Remove the DataRetentionPolicy from the program, or point workspaces:address (WORKSPACES_ADDRESS) at a self-managed installation` +
      (action === "set"
        ? "."
        : `; a policy recorded in the stack from another service can be dropped with \`pulumi state delete <urn>\`.`),
  );
}

/**
 * What a 404 from a policy endpoint means: the workspace read with the same token tells a
 * service without the endpoints (the workspace is there) from a missing or hidden
 * workspace (its own 404, judged by the 404 rule). Resolves when the workspace is gone.
 */
async function policy404(
  client: WorkspacesClient,
  action: "set" | "refresh" | "delete",
  workspaceId: string,
  props: Props,
): Promise<void> {
  try {
    await client.workspaces.read(workspaceId);
  } catch (err) {
    if (!isNotFound(err)) throw err;
    if (action === "set") {
      throw new ProviderError(
        `cannot set the data retention policy of workspace ${workspaceId}: the service answered 404 for the workspace, so it does not exist or the token in use may not see it. ` +
          `Check workspaceId, or use a token with admin access to the workspace.`,
      );
    }
    await confirmGone(client, await dependentRecord(client, "data retention policy", workspaceId, props), action);
    return;
  }
  throw notOffered(action === "refresh" ? "read" : action, workspaceId);
}

async function setPolicy(
  workspaceId: string,
  inputs: DataRetentionPolicyInputs,
  organization?: unknown,
): Promise<DataRetentionPolicyOutputs> {
  const client = getClient();
  let org = typeof organization === "string" && organization !== "" ? organization : undefined;
  if (!org) {
    // The organization is recorded for the 404 rule of later refreshes and deletes.
    try {
      org = (await client.workspaces.read(workspaceId)).organization ?? undefined;
    } catch (err) {
      if (!isNotFound(err)) throw err;
      await policy404(client, "set", workspaceId, {});
    }
  }
  try {
    return outputsOf(workspaceId, org, await client.dataRetentionPolicy.set(workspaceId, optionsOf(inputs)));
  } catch (err) {
    if (!isNotFound(err)) throw err;
    await policy404(client, "set", workspaceId, {});
    throw err;
  }
}

export const dataRetentionPolicyProvider: ProviderImpl<DataRetentionPolicyInputs & Props, DataRetentionPolicyOutputs> =
  {
    async check(_olds, news) {
      const known = withoutUnknowns(news);
      const failures: CheckFailure[] = [];
      const parsed = inputsSchema.safeParse(known);
      if (!parsed.success) failures.push(...failuresFromIssues(parsed.error.issues));
      const days = news.deleteOlderThanNDays;
      const dont = news.dontDelete;
      if (!isUnknown(days) && !isUnknown(dont)) {
        if (days !== undefined && days !== null && dont !== undefined && dont !== null) {
          failures.push({
            property: "dontDelete",
            reason: "give either deleteOlderThanNDays or dontDelete: true, not both",
          });
        } else if ((days === undefined || days === null) && (dont === undefined || dont === null)) {
          failures.push({
            property: "deleteOlderThanNDays",
            reason: "give deleteOlderThanNDays (a number of days) or dontDelete: true",
          });
        }
      }
      // A value unknown until apply cannot be judged now; check runs again with it known.
      return { inputs: news, failures: failures.filter((f) => !isUnknown(news[f.property.split(/[.[]/)[0]])) };
    },

    async diff(_id, olds, news) {
      const { changed, replaces } = diffFields(olds, news, FIELDS);
      return { changes: changed.length > 0, replaces, deleteBeforeReplace: replaces.length > 0 };
    },

    async create(inputs) {
      const workspaceId = String(inputs.workspaceId);
      return { id: `${workspaceId}/data-retention-policy`, outs: await setPolicy(workspaceId, inputs) };
    },

    async read(id, props) {
      const workspaceId = workspaceIdOf(id);
      const client = getClient();
      let found: ApiPolicy | null;
      try {
        found = await client.dataRetentionPolicy.read(workspaceId);
      } catch (err) {
        if (!isNotFound(err)) throw err;
        await policy404(client, "refresh", workspaceId, props);
        return {};
      }
      // The service shows the organization's default when the workspace has no policy of its
      // own: a policy of another id than the one set here means the workspace's own was removed.
      if (!found || (props.policyId && found.id && found.id !== props.policyId)) return {};
      let organization = props.organization;
      if (!organization)
        organization = await client.workspaces.read(workspaceId).then(
          (ws) => ws.organization ?? null,
          () => null,
        );
      const outs = outputsOf(workspaceId, organization, found);
      // The inputs of the kind found, so that a policy switched out of band shows as such in the next diff
      // (only for a resource the stack declared: one adopted with `get` keeps no inputs).
      if (!Array.isArray((props as Props)[INPUT_NAMES_KEY]))
        return { id: `${workspaceId}/data-retention-policy`, props: outs };
      const inputs = outs.dontDelete
        ? { workspaceId, dontDelete: true }
        : { workspaceId, deleteOlderThanNDays: outs.deleteOlderThanNDays ?? undefined };
      return { id: `${workspaceId}/data-retention-policy`, props: outs, inputs };
    },

    async update(id, olds, news) {
      return { outs: await setPolicy(workspaceIdOf(id), news, olds.organization) };
    },

    async delete(id, props) {
      const workspaceId = workspaceIdOf(id);
      const client = getClient();
      try {
        await client.dataRetentionPolicy.delete(workspaceId);
      } catch (err) {
        if (!isNotFound(err)) throw err;
        await policy404(client, "delete", workspaceId, props);
      }
    },
  };
