/**
 * The organization stack of the languages suite (organization.json): its program's values at
 * each step, resolved against the records made over HTTP, and the YAML program derived from
 * them. The Go and Python programs read the same values (as a JSON file) and tell them from
 * the other stack's by `LANGUAGES_PROGRAM=organization`.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { omitUndefined, programAt, ref, yamlText, type Obj } from "./stack";

export type OrganizationStep = "first" | "edit" | "import";
const STEPS: OrganizationStep[] = ["first", "edit", "import"];

/** The program's values at one step, every resource by its name in the stack (the members and tokens: organization-members.ts). */
export interface OrganizationValues extends Omit<MembersValues, "lookups"> {
  projects: Record<string, { name: string; description?: string }>;
  teams: Record<string, { name: string; visibility?: string; organizationAccess?: Record<string, boolean> }>;
  /** `team`: a key of `teams`, else a team's id. */
  workspaceAccess: Record<string, { team: string; workspace: string; access: string; permissions?: Obj }>;
  /** `team` as in `workspaceAccess`; `project`: a key of `projects`, else a project's id. */
  projectAccess: Record<string, { team: string; project: string; access: string }>;
  runTriggers: Record<string, { workspace: string; source: string }>;
  notifications: Record<
    string,
    {
      workspace: string;
      name: string;
      destinationType: string;
      url?: string;
      token?: string;
      enabled?: boolean;
      triggers?: string[];
    }
  >;
  /** Workspaces of the program, with no execution settings of their own. */
  workspaces: Record<string, { name: string; description?: string }>;
  agentPools: Record<string, { name: string; organizationScoped?: boolean }>;
  /**
   * What may use a pool, each list by its resource type: `pool` a key of `agentPools`, else a
   * pool's id; each of `ids` a key of `workspaces`, else an id (of a workspace or a project).
   */
  poolLists: Record<string, { kind: PoolListKind; pool: string; ids: string[] }>;
  /** `pool` as in `poolLists`. */
  agentTokens: Record<string, { pool: string; description: string; rotation?: string }>;
  /**
   * `WorkspaceSettings`: `workspace` and `agentPool` as in `poolLists`, every other
   * key a setting by its name in the schema (`autoApply`, `remoteStateConsumerIds`).
   */
  settings: Record<string, { workspace: string; agentPool?: string } & Obj>;
  policies: Record<string, { name: string; code: string; description?: string; enforcementLevel?: string }>;
  /** `policyIds`: each a key of `policies`, else a policy's id. */
  policySets: Record<
    string,
    { name: string; description?: string; global?: boolean; policyIds?: string[]; policiesFolder?: string }
  >;
  /** `set`: a key of `policySets`, else a set's id. */
  parameters: Record<string, { set: string; key: string; value: string; sensitive?: boolean }>;
  /**
   * Where a set applies, each list by its resource type: `set` as in `parameters`; each of
   * `ids` a key of `workspaces`, else an id (of a workspace or a project).
   */
  setLists: Record<string, { kind: SetListKind; set: string; ids: string[] }>;
  /**
   * The team `getTeam` looks up by name, the workspace (id) whose effective access and
   * outputs are read, the pool `getAgentPool` and the set `getPolicySet` look up by name.
   */
  lookups: { team: string; workspace: string; agentPool: string; policySet: string } & MembersValues["lookups"];
  /** Each record the import step takes over: its documented id, and the id the state then holds where they differ. */
  imports: { type: string; resource: string; id: string; stateId?: string }[];
}

/** The program's values for the members and the tokens, at one step, every resource by its name in the stack. */
export interface MembersValues {
  memberships: Record<string, { email: string }>;
  /** `team`: a key of the program's teams, else a team's id; each of `memberships` a key of `memberships`, else an id. */
  teamMembers: Record<string, { team: string; memberships?: string[]; usernames?: string[]; mode?: string }>;
  /** `team` as in `teamMembers`. */
  teamTokens: Record<string, { team: string; description?: string; expiresInDays?: number; rotation?: string }>;
  organizationTokens: Record<string, { tokenType?: string; expiresInDays?: number; rotation?: string }>;
  /** The emails getOrganizationMembers looks up, and the team (id) getTeamMembers reads. */
  lookups: { members: string[]; teamMembers: string };
  imports: { type: string; resource: string; id: string; stateId?: string }[];
}

/** What the server holds for the program's members and tokens after a step. */
export interface MembersExpected {
  /** The status of each membership, by email. */
  memberships: Record<string, string>;
  /** The emails of the people in the program's team (by its organization memberships). */
  team: string[];
  /** The descriptions of the program's team tokens, as declared. */
  teamTokens: string[];
}

/** The team and organization tokens the program makes (not those it imports), whose secrets it exports as `apiTokens`. */
export function ownApiTokens(v: MembersValues): string[] {
  const imported = new Set(v.imports.map((i) => i.resource));
  return [...Object.keys(v.teamTokens), ...Object.keys(v.organizationTokens)].filter((k) => !imported.has(k));
}

/** The names of the resources of `v` (for the programs' `ids`). */
function memberResources(v: MembersValues): string[] {
  return [v.memberships, v.teamMembers, v.teamTokens, v.organizationTokens].flatMap((kind) => Object.keys(kind));
}

/**
 * The YAML declarations of the members and tokens (added to `resources`), their lookups and
 * outputs; `team` gives a team's reference (one of the program's) or its id.
 */
function membersYaml(
  v: MembersValues,
  resources: Record<string, { type: string; properties: Obj }>,
  team: (t: string) => string,
): { lookups: Record<string, { function: string; arguments: Obj }>; outputs: Obj } {
  const membership = (m: string) => (m in v.memberships ? ref(m) : m);
  const declare = (type: string, entries: Record<string, object>, props: (x: any) => Obj) => {
    for (const [name, x] of Object.entries(entries))
      resources[name] = { type: `workspaces:index:${type}`, properties: props(x) };
  };
  declare("OrganizationMembership", v.memberships, (m) => m);
  declare("TeamMembers", v.teamMembers, ({ team: t, memberships, ...rest }) =>
    omitUndefined({ teamId: team(t), organizationMembershipIds: memberships?.map(membership), ...rest }),
  );
  declare("TeamToken", v.teamTokens, ({ team: t, ...rest }) => ({ teamId: team(t), ...rest }));
  declare("OrganizationToken", v.organizationTokens, (t) => t);
  return {
    lookups: {
      members: { function: "getOrganizationMembers", arguments: { emails: v.lookups.members } },
      teamMembers: { function: "getTeamMembers", arguments: { teamId: v.lookups.teamMembers } },
    },
    outputs: {
      apiTokens: Object.fromEntries(ownApiTokens(v).map((k) => [k, ref(k, "token")])),
      members: ref("members", "members"),
      teamMembers: {
        teamName: ref("teamMembers", "teamName"),
        organizationMembershipIds: ref("teamMembers", "organizationMembershipIds"),
      },
    },
  };
}

/** The resources that list what may use a pool, and the input each list is. */
const POOL_LISTS = {
  AgentPoolAllowedWorkspaces: "workspaceIds",
  AgentPoolAllowedProjects: "projectIds",
  AgentPoolExcludedWorkspaces: "workspaceIds",
} as const;
type PoolListKind = keyof typeof POOL_LISTS;

/** The resources that list where a policy set applies, and the input each list is. */
const SET_LISTS = {
  PolicySetWorkspaces: "workspaceIds",
  PolicySetProjects: "projectIds",
  PolicySetWorkspaceExclusions: "workspaceIds",
  PolicySetProjectExclusions: "projectIds",
} as const;
type SetListKind = keyof typeof SET_LISTS;

/** What the server holds for the stack's own resources after a step, in the wire's words. */
interface OrganizationExpected {
  project: Obj;
  team: Obj;
  /** The access (and its permissions, flat) of the program's team to the app workspace. */
  workspaceAccess: Obj;
  projectAccess: Obj;
  /** The name of the workspace whose runs trigger the app's. */
  runTriggerSource: string;
  notification: Obj;
  /** The program's pool: its attributes and the names of the workspaces it allows. */
  agentPool: { attributes: Obj; allowed: string[] };
  /** The program's own workspace: its attributes, and whether it is on the program's pool. */
  agentWorkspace: SettingsExpected;
  /** The workspace of `server.settings`. */
  settings: SettingsExpected;
  /** The descriptions of the pool's agent tokens, as declared. */
  tokens: string[];
  policies: PoliciesExpected;
  members: MembersExpected;
}

/** The program's policy, its set of policies and its uploaded set, as the server holds them. */
export interface PoliciesExpected {
  /** The policy's attributes and its code as the service downloads it. */
  policy: { attributes: Obj; code: string };
  /** The set's attributes, and the names of its policies and of the workspaces it applies to. */
  set: { attributes: Obj; policies: string[]; workspaces: string[] };
  /**
   * The uploaded set's attributes, its current version's status, the names of the workspaces
   * it leaves out, and its parameters by key (a sensitive one's value is never answered: null).
   */
  folderSet: {
    attributes: Obj;
    version: string;
    exclusions: string[];
    parameters: Record<string, { value: string | null; sensitive: boolean }>;
  };
}

/** A workspace's attributes, whether it is on the program's pool, and its consumers by name. */
export interface SettingsExpected {
  attributes: Obj;
  onPool: boolean;
  consumers?: string[];
}

interface OrganizationDescription {
  project: string;
  stack: string;
  server: {
    /** The workspaces made over HTTP: the name of each by the name of its id in `${...}`. */
    workspaces: Record<"appId" | "upstreamId" | "downstreamId" | "settingsId", string>;
    /** The values of the workspace whose settings the program declares, set over HTTP before the stack, and its consumers by name. */
    settings: { attributes: Obj; consumers: string[] };
    /** The upstream workspace's outputs in its current state. */
    outputs: Record<string, { value: string; sensitive: boolean }>;
    /** A record of each kind that the import step takes over. */
    theirs: {
      project: { name: string; description: string };
      team: { name: string; visibility: string };
      workspaceAccess: string;
      projectAccess: string;
      notification: Obj & { name: string };
      /** A pool, with the names of the workspaces it allows and excludes and of the projects it allows. */
      agentPool: {
        name: string;
        "organization-scoped": boolean;
        allowed: string[];
        projects: string[];
        excluded: string[];
      };
      agentToken: { description: string };
      /** A policy and its code. */
      policy: Obj & { name: string; code: string };
      /**
       * A set with no policies of its own, its lists by name (on the wire's relationships),
       * and a parameter.
       */
      policySet: {
        name: string;
        description: string;
        workspaces: string[];
        projects: string[];
        "workspace-exclusions": string[];
        "project-exclusions": string[];
        parameter: { key: string; value: string; sensitive: boolean };
      };
      /** The project their set leaves out. */
      excludedProject: { name: string };
      /** A person invited (in their team), and a described token of their team. */
      member: { email: string };
      teamToken: { description: string };
    };
    /** A notification configuration of the app workspace that no program declares. */
    kept: Obj & { name: string };
  };
  programs: Record<OrganizationStep, Obj>;
  imports: OrganizationValues["imports"];
  edits: Record<string, string>;
  expect: Record<"first" | "edit", OrganizationExpected>;
  /** What is changed over HTTP after the edit (in the wire's words), the resources refresh then updates, and those it finds deleted. */
  drift: {
    project: Obj;
    team: Obj;
    workspaceAccess: Obj;
    projectAccess: Obj;
    notification: Obj;
    agentPool: Obj;
    settings: Obj;
    /**
     * The policy's code uploaded over HTTP and its attributes changed, the set's attributes
     * and the plain parameter's value changed, and a workspace (by its name in `${...}`)
     * detached from the set.
     */
    policies: { code: string; policy: Obj; set: Obj; parameter: Obj; detached: string };
    /** The member (a key of the program's memberships) removed from the program's team. */
    members: { removed: string };
    updated: string[];
    deleted: string[];
  };
  /** What the workspace of `server.settings` holds after destroy. */
  destroyed: SettingsExpected;
}

export const organization = JSON.parse(
  fs.readFileSync(path.join(__dirname, "organization.json"), "utf8"),
) as OrganizationDescription;

/** Records made over HTTP that the programs name. */
export type OrganizationRefs = Record<
  | keyof OrganizationDescription["server"]["workspaces"]
  | "theirProjectId"
  | "theirTeamId"
  | "theirWorkspaceAccessId"
  | "theirProjectAccessId"
  | "theirRunTriggerId"
  | "theirNotificationId"
  | "theirPoolId"
  | "theirTokenId"
  | "theirPolicyId"
  | "theirPolicySetId"
  | "theirParameterId"
  | "theirExcludedProjectId"
  | "policiesFolder"
  | "theirMembershipId"
  | "theirTeamTokenId"
  | "theirOrganizationTokenId"
  | "organization",
  string
>;

/** The program's values at `step`. */
export function organizationAt(step: OrganizationStep, refs: OrganizationRefs): OrganizationValues {
  return programAt("organization.json", organization, STEPS, step, refs) as unknown as OrganizationValues;
}

/**
 * The notification tokens, the sensitive output's value and the sensitive parameters'
 * values: what the checkpoint must never hold in plain text.
 */
export function organizationSecrets(v: OrganizationValues): string[] {
  const outputs = Object.values(organization.server.outputs).filter((o) => o.sensitive);
  return [
    ...Object.values(v.notifications).flatMap((n) => (n.token ? [n.token] : [])),
    ...outputs.map((o) => o.value),
    ...Object.values(v.parameters).flatMap((p) => (p.sensitive ? [p.value] : [])),
  ];
}

/**
 * The agent tokens the program makes (those it does not import), whose secret each program
 * exports as `agentTokens`: the service answers an imported token's value to no one.
 */
export function ownTokens(v: OrganizationValues): string[] {
  const imported = new Set(v.imports.map((i) => i.resource));
  return Object.keys(v.agentTokens).filter((k) => !imported.has(k));
}

/** The YAML program (Pulumi.yaml after its `name` and `runtime` lines) that declares `v`. */
export function organizationYaml(v: OrganizationValues): string {
  const resources: Record<string, { type: string; properties: Obj }> = {};
  const declare = (type: string, entries: Record<string, object>, props: (x: any) => Obj) => {
    for (const [name, x] of Object.entries(entries))
      resources[name] = { type: `workspaces:index:${type}`, properties: props(x) };
  };
  // A record of the program by reference, any other by its id.
  const team = (t: string) => (t in v.teams ? ref(t) : t);
  const project = (p: string) => (p in v.projects ? ref(p) : p);
  declare("Project", v.projects, (p) => p);
  declare("Team", v.teams, (t) => t);
  declare("TeamWorkspaceAccess", v.workspaceAccess, (a) =>
    omitUndefined({ teamId: team(a.team), workspaceId: a.workspace, access: a.access, permissions: a.permissions }),
  );
  declare("TeamProjectAccess", v.projectAccess, (a) => ({
    teamId: team(a.team),
    projectId: project(a.project),
    access: a.access,
  }));
  declare("RunTrigger", v.runTriggers, (t) => ({ workspaceId: t.workspace, sourceWorkspaceId: t.source }));
  declare("NotificationConfiguration", v.notifications, ({ workspace, ...n }) => ({ workspaceId: workspace, ...n }));
  const workspace = (w: string) => (w in v.workspaces ? ref(w) : w);
  const pool = (p: string) => (p in v.agentPools ? ref(p) : p);
  declare("Workspace", v.workspaces, (w) => w);
  declare("AgentPool", v.agentPools, (p) => p);
  declare("WorkspaceSettings", v.settings, ({ workspace: w, agentPool, ...s }) =>
    omitUndefined({ workspaceId: workspace(w), agentPoolId: agentPool && pool(agentPool), ...s }),
  );
  for (const [name, l] of Object.entries(v.poolLists))
    resources[name] = {
      type: `workspaces:index:${l.kind}`,
      properties: { agentPoolId: pool(l.pool), [POOL_LISTS[l.kind]]: l.ids.map(workspace) },
    };
  declare("AgentToken", v.agentTokens, ({ pool: p, ...t }) => ({ agentPoolId: pool(p), ...t }));
  const policy = (p: string) => (p in v.policies ? ref(p) : p);
  const set = (s: string) => (s in v.policySets ? ref(s) : s);
  declare("Policy", v.policies, (p) => p);
  declare("PolicySet", v.policySets, ({ policyIds, ...s }) =>
    omitUndefined({ ...s, policyIds: policyIds?.map(policy) }),
  );
  declare("PolicySetParameter", v.parameters, ({ set: s, ...p }) => ({ policySetId: set(s), ...p }));
  for (const [name, l] of Object.entries(v.setLists))
    resources[name] = {
      type: `workspaces:index:${l.kind}`,
      properties: { policySetId: set(l.set), [SET_LISTS[l.kind]]: l.ids.map(workspace) },
    };
  const all = [
    v.projects,
    v.teams,
    v.workspaceAccess,
    v.projectAccess,
    v.runTriggers,
    v.notifications,
    v.workspaces,
    v.agentPools,
    v.poolLists,
    v.agentTokens,
    v.settings,
    v.policies,
    v.policySets,
    v.parameters,
    v.setLists,
  ];
  const members = membersYaml(v, resources, team);
  return yamlText(
    resources,
    {
      ...members.lookups,
      team: { function: "getTeam", arguments: { name: v.lookups.team } },
      access: { function: "getEffectiveAccess", arguments: { workspaceId: v.lookups.workspace } },
      upstream: { function: "getWorkspaceOutputs", arguments: { workspaceId: v.lookups.workspace } },
      pool: { function: "getAgentPool", arguments: { name: v.lookups.agentPool } },
      policySet: { function: "getPolicySet", arguments: { name: v.lookups.policySet } },
    },
    {
      ids: Object.fromEntries(
        [...all.flatMap((kind) => Object.keys(kind)), ...memberResources(v)].map((k) => [k, ref(k)]),
      ),
      teamId: ref("team"),
      teamVisibility: ref("team", "visibility"),
      accessTeams: ref("access", "teams"),
      upstreamOutputs: ref("upstream", "outputs"),
      upstreamSensitive: ref("upstream", "sensitiveNames"),
      agentTokens: Object.fromEntries(ownTokens(v).map((k) => [k, ref(k, "token")])),
      poolId: ref("pool"),
      poolScoped: ref("pool", "organizationScoped"),
      poolAllowed: ref("pool", "allowedWorkspaceIds"),
      policyDigests: Object.fromEntries(Object.keys(v.policies).map((k) => [k, ref(k, "codeSha256")])),
      folderDigests: Object.fromEntries(
        Object.entries(v.policySets)
          .filter(([, s]) => s.policiesFolder)
          .map(([k]) => [k, ref(k, "policiesSha256")]),
      ),
      policySet: {
        id: ref("policySet"),
        kind: ref("policySet", "kind"),
        global: ref("policySet", "global"),
        policyIds: ref("policySet", "policyIds"),
        workspaceIds: ref("policySet", "workspaceIds"),
        projectIds: ref("policySet", "projectIds"),
        workspaceExclusionIds: ref("policySet", "workspaceExclusionIds"),
        projectExclusionIds: ref("policySet", "projectExclusionIds"),
      },
      ...members.outputs,
    },
  );
}
