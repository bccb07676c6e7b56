/**
 * The policy set lookup (./lookups.ts), for both doors: a set by organization and name,
 * with its kind, its policies and where it applies.
 */
import type * as pulumi from "@pulumi/pulumi";
import { z } from "zod";
import type { WorkspacesClient } from "../client";
import { fail } from "./lookup-client";
import { policySetByName } from "./providers/policy-set";

/** Arguments of {@link getPolicySet}. */
export interface GetPolicySetArgs {
  /** Name of the policy set. */
  name: string;
  /** Organization of the set. Default: stack config `workspaces:organization`, then `WORKSPACES_ORGANIZATION` / `TFE_ORGANIZATION`. */
  organization?: string;
}

/** Arguments of {@link getPolicySetOutput}: those of {@link GetPolicySetArgs}, each a `pulumi.Input`. */
export interface GetPolicySetOutputArgs {
  /** Name of the policy set. */
  name: pulumi.Input<string>;
  /** Organization of the set. Default: stack config `workspaces:organization`, then `WORKSPACES_ORGANIZATION` / `TFE_ORGANIZATION`. */
  organization?: pulumi.Input<string>;
}

/** Result of {@link getPolicySet}. */
export interface GetPolicySetResult {
  /** Policy set id (`polset-...`), for `PolicySetParameter`, `PolicySetWorkspaces`, `PolicySetProjects` and their exclusions. */
  id: string;
  /** Name of the set. */
  name: string;
  /** Organization of the set. */
  organization: string;
  /** `sentinel`, `opa`, or a kind the service named that this release does not know. */
  kind: string;
  /** Whether the set applies to every workspace of the organization (less its exclusions). */
  global: boolean;
  /** OPA sets: whether a member of the organization may override a failed mandatory policy; false for a Sentinel set. */
  overridable: boolean;
  /** The policies attached to the set one by one (`pol-...`); empty for a set whose policies come from a version. */
  policyIds: string[];
  /** Workspaces the set applies to (`ws-...`). */
  workspaceIds: string[];
  /** Projects whose workspaces the set applies to (`prj-...`). */
  projectIds: string[];
  /** Workspaces the set never applies to (`ws-...`). */
  workspaceExclusionIds: string[];
  /** Projects whose workspaces the set never applies to (`prj-...`). */
  projectExclusionIds: string[];
}

/** The arguments of {@link getPolicySet} as validated. */
export const policySetArgsSchema = z
  .object({ name: z.string().min(1), organization: z.string().min(1).optional() })
  .strict();

/** The set `name` of `organization`, as the lookup `fn` reports it; fails when the token sees none. */
export async function readPolicySetByName(
  fn: string,
  client: WorkspacesClient,
  organization: string,
  name: string,
): Promise<GetPolicySetResult> {
  const found = await policySetByName(client, organization, name);
  if (!found)
    throw fail(
      fn,
      `no policy set "${name}" in organization "${organization}" that the token in use may see: it does not exist, or the token is not one of the organization's (reading its policy sets takes a member's, a team's or the organization's token)`,
    );
  // The list's entries may leave the lists out: the set's own read names every one.
  const set = await client.policySets.read(found.id);
  return {
    id: set.id,
    name: set.name,
    organization: set.organization ?? organization,
    kind: set.kind,
    global: set.global,
    overridable: set.overridable ?? false,
    policyIds: set.policyIds,
    workspaceIds: set.workspaceIds,
    projectIds: set.projectIds,
    workspaceExclusionIds: set.workspaceExclusionIds,
    projectExclusionIds: set.projectExclusionIds,
  };
}
