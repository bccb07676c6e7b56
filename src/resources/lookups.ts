/**
 * Lookups: read workspaces without taking ownership of them, in the shape Pulumi users
 * know from `aws.ec2.getVpc` / `getVpcOutput`. Each function has a plain form (a Promise
 * of plain values) and an `Output` form that takes `pulumi.Input`s.
 *
 * A lookup is a read: it runs whenever the program runs, `pulumi preview` included, and
 * puts nothing in the stack's state (no resource is registered). It reaches the service
 * with the same settings as the resources (stack config `workspaces:address`,
 * `workspaces:token`, `workspaces:organization`, then `WORKSPACES_*`, `TFE_*` and the
 * credentials file); the token is used for the requests only and never appears in a result.
 */
import * as pulumi from "@pulumi/pulumi";
import { z } from "zod";
import { NotFoundError, type WorkspaceListOptions, type Workspace as ApiWorkspace } from "../client";
import { answered404, byName, fail, invalid, lookupClient, organizationOf } from "./lookup-client";
export { lookupSettingsFrom } from "./lookup-client";
import {
  sourceOf,
  type GetEffectiveVariablesArgs,
  type GetEffectiveVariablesOutputArgs,
  type GetEffectiveVariablesResult,
} from "./effective-variables";
import {
  effectiveAccess,
  type GetEffectiveAccessArgs,
  type GetEffectiveAccessOutputArgs,
  type GetEffectiveAccessResult,
} from "./effective-access";
import {
  readWorkspaceOutputs,
  workspaceOutputsArgsSchema,
  type GetWorkspaceOutputsArgs,
  type GetWorkspaceOutputsOutputArgs,
  type GetWorkspaceOutputsResult,
} from "./workspace-outputs";
import { readTeam, teamArgsSchema, type GetTeamArgs, type GetTeamOutputArgs, type GetTeamResult } from "./team-lookup";
import {
  agentPoolArgsSchema,
  readAgentPool,
  type GetAgentPoolArgs,
  type GetAgentPoolOutputArgs,
  type GetAgentPoolResult,
} from "./agent-pool-lookup";
import {
  policySetArgsSchema,
  readPolicySetByName,
  type GetPolicySetArgs,
  type GetPolicySetOutputArgs,
  type GetPolicySetResult,
} from "./policy-set-lookup";
import { MEMBERSHIP_LOOKUP_ARGUMENTS } from "./membership-lookups";
export * from "./membership-lookups";
import { readWorkspaceWithTags } from "./providers/client";
import { namesTagBindings } from "./process/snapshot";
import { foldTagName } from "./providers/compare";
import { workspaceOutputs, workspaceReport } from "./providers/workspace";
import type {
  GetWorkspaceArgs,
  GetWorkspaceOutputArgs,
  GetWorkspaceResult,
  GetWorkspacesArgs,
  GetWorkspacesOutputArgs,
  GetWorkspacesResult,
} from "./workspace-lookup-types";
import { byIdSchema, byNameSchema, listArgsSchema, namePattern } from "./workspace-lookup-types";
export type {
  GetWorkspaceArgs,
  GetWorkspaceOutputArgs,
  GetWorkspaceResult,
  GetWorkspacesArgs,
  GetWorkspacesOutputArgs,
  GetWorkspacesResult,
} from "./workspace-lookup-types";

const effectiveArgsSchema = z
  .object({ workspaceId: z.string().refine((v) => v.startsWith("ws-"), { error: "must be a workspace id (ws-...)" }) })
  .strict();

/** The arguments each lookup takes, from the schemas that validate them (the plugin's schema lists the same). */
export const LOOKUP_ARGUMENTS = {
  getWorkspaces: Object.keys(listArgsSchema.shape),
  getWorkspace: [...new Set([...Object.keys(byIdSchema.shape), ...Object.keys(byNameSchema.shape)])],
  getEffectiveVariables: Object.keys(effectiveArgsSchema.shape),
  getTeam: Object.keys(teamArgsSchema.shape),
  getEffectiveAccess: Object.keys(effectiveArgsSchema.shape),
  getWorkspaceOutputs: Object.keys(workspaceOutputsArgsSchema.shape),
  getAgentPool: Object.keys(agentPoolArgsSchema.shape),
  getPolicySet: Object.keys(policySetArgsSchema.shape),
  ...MEMBERSHIP_LOOKUP_ARGUMENTS,
};

/**
 * Whether a listed workspace meets the filters the document shows (name, flat tags,
 * project): the service applies them, and a server that ignores one must not widen the
 * selection. Key-value tags are not in the list document and are left to the service,
 * unless the document shows the server has none (no tag-bindings relationship): such a
 * server ignores the filter too, so the lookup fails rather than select every workspace.
 * The same for a project filter on a server without projects.
 */
function meets(
  ws: ApiWorkspace,
  args: GetWorkspacesArgs,
  pattern: RegExp | undefined,
  address: string,
  fn: string,
): boolean {
  if (Object.keys(args.tags ?? {}).length > 0 && !namesTagBindings(ws))
    throw fail(
      fn,
      `the server at ${address} does not offer key-value tags (its workspace list names no tag bindings), so it cannot select by \`tags\`: select by \`tagNames\`, \`names\` or \`search\` instead`,
    );
  if (args.project !== undefined && !ws.projectId)
    throw fail(
      fn,
      `the server at ${address} does not offer projects (its workspace list names no project), so it cannot select by \`project\`: leave \`project\` out and select by \`names\`, \`tagNames\` or \`search\``,
    );
  if (pattern && !pattern.test(ws.name)) return false;
  const carried = new Set(ws.tagNames.map(foldTagName));
  if ((args.tagNames ?? []).some((t) => !carried.has(foldTagName(t)))) return false;
  if ((args.excludeTags ?? []).some((t) => carried.has(foldTagName(t)))) return false;
  if (args.project !== undefined && ws.projectId !== args.project) return false;
  return true;
}

/**
 * Selects workspaces of an organization by name, name pattern, project and tags, like
 * `tfe_workspace_ids`: the filters of the service's workspace list (spec 4.4), 100 per
 * request, one list per entry of `names`. Puts nothing in state.
 *
 * ```ts
 * const search = await getWorkspaces({ tags: { team: "search" } });
 * new RemoteStateConsumers("readers", { workspaceId: platform.id, consumerIds: search.ids });
 * ```
 */
export async function getWorkspaces(args: GetWorkspacesArgs = {}): Promise<GetWorkspacesResult> {
  const fn = "getWorkspaces";
  const parsed = listArgsSchema.safeParse(args ?? {});
  if (!parsed.success) throw invalid(fn, parsed.error.issues);
  const a = parsed.data;
  const client = lookupClient(fn);
  const organization = organizationOf(fn, client, a.organization);
  const base: WorkspaceListOptions = {
    search: a.search || undefined,
    tags: a.tagNames,
    excludeTags: a.excludeTags,
    projectId: a.project,
    tagged: Object.entries(a.tags ?? {}).map(([key, value]) => ({ key, value })),
  };
  const patterns = !a.names || a.names.includes("*") ? [undefined] : Array.from(new Set(a.names));
  const found = new Map<string, string>();
  try {
    for (const pattern of patterns) {
      const match = pattern === undefined ? undefined : namePattern(pattern);
      for await (const ws of client.workspaces.list(
        organization,
        pattern === undefined ? base : { ...base, wildcardName: pattern },
      )) {
        if (meets(ws, a, match, client.baseUrl, fn)) found.set(ws.name, ws.id);
      }
    }
  } catch (err) {
    if (err instanceof pulumi.RunError) throw err;
    if (err instanceof NotFoundError) {
      throw fail(
        fn,
        `the service answered 404 for organization "${organization}": it does not exist, or the token in use may not see it (the service answers the same for both)`,
      );
    }
    throw fail(fn, (err as Error).message);
  }
  const names = [...found.keys()].sort();
  return {
    organization,
    ids: names.map((n) => found.get(n) as string),
    names,
    idsByName: Object.fromEntries(names.map((n) => [n, found.get(n) as string])),
  };
}

/** {@link getWorkspaces} taking `pulumi.Input`s: an `Output` of the result, unknown during a preview while an argument is. */
export function getWorkspacesOutput(args: GetWorkspacesOutputArgs = {}): pulumi.Output<GetWorkspacesResult> {
  return pulumi.output(args).apply((a) => getWorkspaces(a as GetWorkspacesArgs));
}

/**
 * Reads one workspace, like `tfe_workspace`: by `organization` and `name`, or by `id`.
 * The result holds what a `Workspace` resource outputs for it, and what the service
 * reports on its own (`metrics`, `status`, `permissions`), which a `Workspace` does not
 * store: read it here, when the program runs. Puts nothing in state.
 *
 * ```ts
 * const platform = await getWorkspace({ name: "platform" });
 * export const platformTags = platform.effectiveTags;
 * export const platformLocked = platform.status.locked;
 * ```
 */
export async function getWorkspace(args: GetWorkspaceArgs): Promise<GetWorkspaceResult> {
  const fn = "getWorkspace";
  const given = (args ?? {}) as Record<string, unknown>;
  if ("id" in given && ("name" in given || "organization" in given))
    throw fail(fn, "give either `id` or `name` (with `organization`), not both");
  const parsed = "id" in given ? byIdSchema.safeParse(given) : byNameSchema.safeParse(given);
  if (!parsed.success) throw invalid(fn, parsed.error.issues);
  const a = parsed.data;
  const client = lookupClient(fn);
  const ref = "id" in a ? a.id : `${organizationOf(fn, client, a.organization)}/${a.name}`;
  try {
    const { workspace, tags, effectiveTags } = await readWorkspaceWithTags(client, ref);
    const { forceDelete: _unused, ...outputs } = workspaceOutputs(workspace, {
      tags,
      effectiveTags,
      forceDelete: false,
    });
    return { id: workspace.id, ...outputs, ...workspaceReport(workspace) };
  } catch (err) {
    if (err instanceof NotFoundError) throw answered404(fn, `workspace ${ref}`, "workspace");
    throw fail(fn, (err as Error).message);
  }
}

/** {@link getWorkspace} taking `pulumi.Input`s: an `Output` of the result, unknown during a preview while an argument is. */
export function getWorkspaceOutput(args: GetWorkspaceOutputArgs): pulumi.Output<GetWorkspaceResult> {
  return pulumi
    .output(args as pulumi.Input<Record<string, pulumi.Input<string>>>)
    .apply((a) => getWorkspace(a as unknown as GetWorkspaceArgs));
}

/**
 * The variables a workspace's runs get, so that nobody has to guess which value wins: its
 * own variables and those of every variable set that reaches it (applied to it, to its
 * project, or global), one per key and category, resolved by the service's precedence
 * (priority sets first, then the workspace's own, then the other sets), each with where
 * it comes from and where the values it overrides come from. A sensitive value is never
 * in the result (the service never shows it). Puts nothing in state.
 *
 * ```ts
 * const vars = await getEffectiveVariables({ workspaceId: "ws-2xWmbZ4hFYd5KuUE" });
 * export const region = vars.variables.find((v) => v.key === "AWS_REGION")?.value;
 * ```
 */
export async function getEffectiveVariables(args: GetEffectiveVariablesArgs): Promise<GetEffectiveVariablesResult> {
  const fn = "getEffectiveVariables";
  const parsed = effectiveArgsSchema.safeParse(args ?? {});
  if (!parsed.success) throw invalid(fn, parsed.error.issues);
  const { workspaceId } = parsed.data;
  const client = lookupClient(fn);
  try {
    const effective = await client.variableSets.effectiveVariables(workspaceId);
    return {
      workspaceId,
      variables: effective.variables.map(({ variable: v, source, overridden }) => ({
        key: v.key,
        category: v.category === "env" ? "env" : "engine",
        ...(v.sensitive || v.value === null ? {} : { value: v.value }),
        hcl: v.hcl,
        sensitive: v.sensitive,
        ...(v.description ? { description: v.description } : {}),
        variableId: v.id,
        source: sourceOf(source),
        overrides: overridden.map((o) => sourceOf(o.source)),
      })),
    };
  } catch (err) {
    if (err instanceof NotFoundError) throw answered404(fn, `the variables of workspace ${workspaceId}`, "workspace");
    throw fail(fn, (err as Error).message);
  }
}

/** {@link getEffectiveVariables} taking `pulumi.Input`s: an `Output` of the result, unknown during a preview while an argument is. */
export function getEffectiveVariablesOutput(
  args: GetEffectiveVariablesOutputArgs,
): pulumi.Output<GetEffectiveVariablesResult> {
  return pulumi.output(args).apply((a) => getEffectiveVariables(a as GetEffectiveVariablesArgs));
}

/**
 * Another workspace's outputs, like `tfe_outputs`: read from its current state through
 * `/workspaces/:id/current-state-version-outputs`, so a token with access to the outputs
 * alone is enough. Each output the service marks sensitive is a secret (`pulumi.secret`,
 * with its value when the token may read the state), and only those; the others
 * are plain values. Puts nothing in state.
 *
 * ```ts
 * const network = await getWorkspaceOutputs({ workspaceId: "ws-2xWmbZ4hFYd5KuUE" });
 * export const vpcId = network.outputs.vpc_id;
 * ```
 */
export async function getWorkspaceOutputs(args: GetWorkspaceOutputsArgs): Promise<GetWorkspaceOutputsResult> {
  const read = await readWorkspaceOutputs("getWorkspaceOutputs", args);
  const outputs: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(read.outputs))
    outputs[name] = read.sensitiveNames.includes(name) ? pulumi.secret(value) : value;
  return { ...read, outputs };
}

/** {@link getWorkspaceOutputs} taking `pulumi.Input`s: an `Output` of the result, unknown during a preview while an argument is. */
export function getWorkspaceOutputsOutput(
  args: GetWorkspaceOutputsOutputArgs,
): pulumi.Output<GetWorkspaceOutputsResult> {
  return pulumi.output(args).apply((a) => getWorkspaceOutputs(a as GetWorkspaceOutputsArgs));
}

/**
 * Who may do what on a workspace, so that nobody has to add up the three places access is
 * granted: each team's organization-wide flags (`manageWorkspaces` gives `admin` on every
 * workspace, `readWorkspaces` gives `read`), its access to the workspace's project (a
 * project's `maintain` and `admin` give `admin` on its workspaces) and its access to the
 * workspace itself, together: each team's strongest access, its permissions, and the
 * grants they come from. Puts nothing in state.
 *
 * ```ts
 * const access = await getEffectiveAccess({ workspaceId: "ws-2xWmbZ4hFYd5KuUE" });
 * export const admins = access.teams.filter((t) => t.access === "admin").map((t) => t.teamName);
 * ```
 */
export async function getEffectiveAccess(args: GetEffectiveAccessArgs): Promise<GetEffectiveAccessResult> {
  const fn = "getEffectiveAccess";
  const parsed = effectiveArgsSchema.safeParse(args ?? {});
  if (!parsed.success) throw invalid(fn, parsed.error.issues);
  const { workspaceId } = parsed.data;
  const client = lookupClient(fn);
  try {
    return await effectiveAccess(client, workspaceId);
  } catch (err) {
    if (err instanceof NotFoundError) {
      throw fail(
        fn,
        `cannot read the team access of workspace ${workspaceId}: the service answered 404: there is no such workspace, or the token in use may not see it or its team access (reading team access takes a token that manages workspaces)`,
      );
    }
    throw fail(fn, (err as Error).message);
  }
}

/** {@link getEffectiveAccess} taking `pulumi.Input`s: an `Output` of the result, unknown during a preview while an argument is. */
export function getEffectiveAccessOutput(args: GetEffectiveAccessOutputArgs): pulumi.Output<GetEffectiveAccessResult> {
  return pulumi.output(args).apply((a) => getEffectiveAccess(a as GetEffectiveAccessArgs));
}

/**
 * Reads one team by name, like `tfe_team`: its id (for `TeamWorkspaceAccess` and
 * `TeamProjectAccess`), visibility, organization-wide flags, SSO id and members. A secret
 * team is found only by a token that may see it. Puts nothing in state.
 *
 * ```ts
 * const platform = await getTeam({ name: "platform" });
 * export const platformTeamId = platform.id;
 * ```
 */
export async function getTeam(args: GetTeamArgs): Promise<GetTeamResult> {
  return byName("getTeam", teamArgsSchema, args, readTeam);
}

/** {@link getTeam} taking `pulumi.Input`s: an `Output` of the result, unknown during a preview while an argument is. */
export function getTeamOutput(args: GetTeamOutputArgs): pulumi.Output<GetTeamResult> {
  return pulumi.output(args).apply((a) => getTeam(a as GetTeamArgs));
}

/**
 * Reads one agent pool by name, like `tfe_agent_pool` as a data source: its id (for
 * `WorkspaceSettings.agentPoolId`, `AgentToken` and the pool's lists), whether it is
 * organization-scoped, and the workspaces and projects it allows or excludes (since
 * 0.7.0). Puts nothing in state.
 *
 * ```ts
 * const pool = await getAgentPool({ name: "private-network" });
 * export const poolId = pool.id;
 * ```
 */
export async function getAgentPool(args: GetAgentPoolArgs): Promise<GetAgentPoolResult> {
  return byName("getAgentPool", agentPoolArgsSchema, args, readAgentPool);
}

/** {@link getAgentPool} taking `pulumi.Input`s: an `Output` of the result, unknown during a preview while an argument is. */
export function getAgentPoolOutput(args: GetAgentPoolOutputArgs): pulumi.Output<GetAgentPoolResult> {
  return pulumi.output(args).apply((a) => getAgentPool(a as GetAgentPoolArgs));
}

/**
 * Reads one policy set by name, like `tfe_policy_set` as a data source (since 0.7.0): its
 * id (for `PolicySetParameter`, `PolicySetWorkspaces`, `PolicySetProjects` and their
 * exclusions), its kind, whether it is global or overridable, its policies, and the
 * workspaces and projects it applies to or leaves out, from one read of the set. Puts
 * nothing in state.
 *
 * ```ts
 * const guardrails = await getPolicySet({ name: "guardrails" });
 * export const guardrailsId = guardrails.id;
 * ```
 */
export async function getPolicySet(args: GetPolicySetArgs): Promise<GetPolicySetResult> {
  return byName("getPolicySet", policySetArgsSchema, args, readPolicySetByName);
}

/** {@link getPolicySet} taking `pulumi.Input`s: an `Output` of the result, unknown during a preview while an argument is. */
export function getPolicySetOutput(args: GetPolicySetOutputArgs): pulumi.Output<GetPolicySetResult> {
  return pulumi.output(args).apply((a) => getPolicySet(a as GetPolicySetArgs));
}
