/**
 * Reads what the generator writes a program for: the organization's workspaces (or one
 * project's), the key-value tags, consumers, variables, team access, inbound run triggers
 * and notification configurations of each, the no-code modules of its private registry,
 * the organization's variable sets with their variables and where they apply, its projects
 * with the teams' access to each, its teams, its agent pools with their lists and tokens, its
 * policies (with their code) and policy sets (with where each applies and its parameters), and
 * its memberships, its teams' people and its team and organization tokens.
 *
 * Everything goes through the client, so pacing under the service's rate limit, retries
 * and pagination are the client's; reads run a few at a time to fill the allowance. The
 * list brings the key-value tags along (`include=effective_tag_bindings`, 100 workspaces
 * a request); consumers, variables, team access, run triggers and notification
 * configurations are read per workspace (the API lists them by workspace only), and team
 * access to a project per project. A kind the server does not serve is asked for once.
 */
import {
  type AgentPool,
  type AgentToken,
  BadRequestError,
  NotFoundError,
  type NoCodeModule,
  type NotificationConfiguration,
  type Project,
  type RegistryModule,
  type RunTrigger,
  type Team,
  type TeamProjectAccess,
  type TeamWorkspaceAccess,
  type Variable,
  type VariableSet,
  type Workspace,
  type WorkspacesClient,
} from "../client";
import { withTags } from "../resources/process/snapshot";
import { byCodePoint } from "./names";
import { noneIfUnavailable, perRecordList, pool, ticker } from "./read-lists";
import { readPolicies, type PolicyRecord, type PolicySetRecord } from "./read-policies";
import { noMembersAndTokens, readMembersAndTokens, type MembersAndTokens } from "./read-members";

export { pool } from "./read-lists";

interface WorkspaceRecord {
  workspace: Workspace;
  /** Key-value tags bound to the workspace itself (not inherited). */
  tags: Record<string, string>;
  /** Workspaces allowed to read its state; empty when `globalRemoteState` is true. */
  consumerIds: string[];
  /** The no-code module it was made from, if any. */
  noCodeModuleId?: string;
  /** Its own variables (a module-made workspace's are its NoCodeWorkspace's inputs; a plain one's a WorkspaceVariables). */
  variables?: Variable[];
  /** Teams' access to it, granted on the workspace itself (not through its project). */
  teamAccess?: TeamWorkspaceAccess[];
  /** Run triggers into it: each names a source workspace whose applied runs queue a run here. */
  runTriggers?: RunTrigger[];
  /** Its notification configurations. */
  notifications?: NotificationConfiguration[];
}

/** A project of the organization, with the teams' access to it. */
export interface ProjectRecord {
  /** Project id (`prj-...`). */
  id: string;
  /** Project name. */
  name: string;
  /** Description, or null. */
  description: string | null;
  /** The organization's default project: it cannot be deleted, so no program declares it. */
  isDefault: boolean;
  /** Teams' access to the project. */
  teamAccess: TeamProjectAccess[];
}

/** A variable set with its variables; where it applies is in `set` (`global`, `workspaceIds`, `projectIds`). */
export interface VariableSetRecord {
  set: VariableSet;
  variables: Variable[];
}

/** An agent pool with its lists (in `pool`) and its tokens, without their secrets (the service shows a secret once, on create). */
export interface AgentPoolRecord {
  pool: AgentPool;
  /** Its tokens, by description; none read for a program of one project, which does not declare the pool. */
  tokens: AgentToken[];
}

interface ModuleRecord {
  module: NoCodeModule;
  registryModule: RegistryModule;
}

/** What {@link readOrganization} read: the input of `renderProgram`. */
export interface OrganizationSnapshot {
  /** Organization read. */
  organization: string;
  /** The project the read was limited to, if any. */
  projectId?: string;
  /** Each workspace with its own tags, consumers and, for a no-code workspace, its module and variables. */
  workspaces: WorkspaceRecord[];
  /** No-code modules of the organization, each with its registry module. */
  modules: ModuleRecord[];
  /**
   * The organization's variable sets, by name; limited to one project, the sets that apply
   * only within it (to it, or to its workspaces), never global ones.
   */
  variableSets: VariableSetRecord[];
  /**
   * The organization's projects with the teams' access to each; limited to one project, that
   * project only. Empty on a server without projects.
   */
  projects: ProjectRecord[];
  /** The organization's teams, the owners team too (it names the team of an access record), by name. */
  teams: Team[];
  /**
   * The organization's agent pools, by name, each with the workspaces and projects it allows
   * or excludes and its tokens; limited to one project, without tokens (such a program names
   * the pools by id). Empty on a server without agent pools.
   */
  agentPools: AgentPoolRecord[];
  /**
   * The organization's policies, by name, each with its code; none read for a program of one
   * project, which does not declare what belongs to the organization. Empty on a server without policies.
   */
  policies: PolicyRecord[];
  /** The organization's policy sets, by name, each with where it applies and its parameters; none read for a program of one project. */
  policySets: PolicySetRecord[];
  /**
   * The organization's memberships, its teams' people and its team and organization tokens
   * (without their secrets); none read for a program of one project.
   */
  membersAndTokens: MembersAndTokens;
}

/** What {@link readOrganization} reads and how. */
export interface ReadOptions {
  /** Organization to read. */
  organization: string;
  /** Only workspaces of this project (`prj-...`). */
  projectId?: string;
  /** Progress lines (for a terminal: stderr). */
  progress?: (line: string) => void;
  /** Reads in flight at once. Default 8. */
  concurrency?: number;
}

/**
 * The workspaces, with the key-value tags bound to each where the list could include them
 * (by workspace id); a service that refuses the include is listed without it, and the
 * tags of a workspace missing from `listedTags` are read one workspace at a time.
 */
async function listWorkspaces(
  client: WorkspacesClient,
  organization: string,
  projectId: string | undefined,
  progress: ((line: string) => void) | undefined,
  include = ["effective_tag_bindings"],
): Promise<{ workspaces: Workspace[]; listedTags: Map<string, { key: string; value: string }[]> }> {
  const workspaces: Workspace[] = [];
  const listedTags = new Map<string, { key: string; value: string }[]>();
  try {
    for await (const { workspace, included } of client.workspaces.listIncluding(
      organization,
      include,
      projectId ? { projectId } : {},
    )) {
      workspaces.push(workspace);
      const read = include.length ? withTags(workspace, included) : undefined;
      if (read)
        listedTags.set(
          workspace.id,
          Object.entries(read.tags).map(([key, value]) => ({ key, value })),
        );
      if (progress && workspaces.length % 100 === 0) progress(`listing workspaces: ${workspaces.length}`);
    }
  } catch (err) {
    if (err instanceof BadRequestError && include.length)
      return listWorkspaces(client, organization, projectId, progress, []);
    throw err;
  }
  return { workspaces, listedTags };
}

/** Reads everything the generator writes a program for, through `client` (paced, retried and paged by it). */
export async function readOrganization(client: WorkspacesClient, options: ReadOptions): Promise<OrganizationSnapshot> {
  const { organization, projectId, progress } = options;
  const concurrency = options.concurrency ?? 8;

  const { workspaces, listedTags } = await listWorkspaces(client, organization, projectId, progress);
  workspaces.sort((a, b) => byCodePoint(a.name, b.name));
  progress?.(`listed ${workspaces.length} workspaces of ${organization}${projectId ? ` in project ${projectId}` : ""}`);

  // No-code modules live on registry modules; their workspaces name one or the other.
  // The organization's workspaces just listed, so a 404 here is a server without a private registry (no modules to carry over).
  const registryModules = await client.registryModules
    .list(organization)
    .all()
    .catch((err: unknown) => {
      if (err instanceof NotFoundError) return [] as RegistryModule[];
      throw err;
    });
  const withNoCode = registryModules.filter((m) => m.noCodeModuleIds.length > 0);
  const modules: ModuleRecord[] = await pool(withNoCode, concurrency, async (registryModule) => ({
    module: await client.noCode.read(registryModule.noCodeModuleIds[0], { includeVariableOptions: true }),
    registryModule,
  }));
  modules.sort(
    (a, b) => byCodePoint(a.registryModule.name, b.registryModule.name) || byCodePoint(a.module.id, b.module.id),
  );
  if (modules.length) progress?.(`read ${modules.length} no-code module${modules.length === 1 ? "" : "s"}`);
  const moduleOfRegistryModule = new Map(modules.map((m) => [m.registryModule.id, m.module.id]));

  const teamAccessOf = perRecordList("team access to workspaces", (id) => client.teamAccess.list(id).all(), progress);
  const runTriggersOf = perRecordList("run triggers", (id) => client.runTriggers.list(id, "inbound").all(), progress);
  const notificationsOf = perRecordList(
    "notification configurations",
    (id) => client.notificationConfigurations.list(id).all(),
    progress,
  );
  const tick = ticker(
    progress,
    "reading tags, consumers, variables, access, triggers and notifications",
    workspaces.length,
  );
  const records = await pool(workspaces, concurrency, async (workspace): Promise<WorkspaceRecord> => {
    const stamped = workspace.attributes["no-code-module-id"];
    const noCodeModuleId =
      typeof stamped === "string" && stamped !== ""
        ? stamped
        : workspace.sourceModuleId
          ? moduleOfRegistryModule.get(workspace.sourceModuleId)
          : undefined;
    const listed = listedTags.get(workspace.id);
    const [bindings, consumerIds, variables, teamAccess, runTriggers, notifications] = await Promise.all([
      listed ?? noneIfUnavailable(client.tagBindings.list(workspace.id)),
      workspace.globalRemoteState
        ? Promise.resolve([] as string[])
        : noneIfUnavailable(client.remoteStateConsumers.listIds(workspace.id)),
      // The workspace was just listed, so a 404 here is a server that serves no variables.
      noneIfUnavailable(client.variables.list(workspace.id), true),
      teamAccessOf(workspace.id),
      runTriggersOf(workspace.id),
      notificationsOf(workspace.id),
    ]);
    tick();
    return {
      workspace,
      tags: Object.fromEntries(bindings.map((b) => [b.key, b.value])),
      consumerIds: [...consumerIds].sort(),
      ...(noCodeModuleId ? { noCodeModuleId } : {}),
      ...(variables.length ? { variables } : {}),
      ...(teamAccess.length ? { teamAccess } : {}),
      ...(runTriggers.length ? { runTriggers } : {}),
      ...(notifications.length ? { notifications } : {}),
    };
  });
  const variableSets = await readVariableSets(client, organization, projectId, records, concurrency);
  if (variableSets.length)
    progress?.(`read ${variableSets.length} variable set${variableSets.length === 1 ? "" : "s"} with their variables`);
  const projects = await readProjects(client, organization, projectId, concurrency, progress);
  // The owners team too: an access record may name it. Sorted by name, as the program lists them.
  const teams = (await noneIfUnavailable(client.teams.list(organization).all(), true)).sort(
    (a, b) => byCodePoint(a.name, b.name) || byCodePoint(a.id, b.id),
  );
  if (projects.length || teams.length)
    progress?.(`read ${projects.length} project${projects.length === 1 ? "" : "s"} and ${teams.length} teams`);
  const agentPools = await readAgentPools(client, organization, projectId, concurrency, progress);
  if (agentPools.length)
    progress?.(`read ${agentPools.length} agent pool${agentPools.length === 1 ? "" : "s"} with their lists and tokens`);
  // Policies and sets belong to the organization: a program of one project declares none.
  const { policies, policySets } = projectId
    ? { policies: [], policySets: [] }
    : await readPolicies(client, organization, concurrency, progress);
  const membersAndTokens = projectId
    ? noMembersAndTokens()
    : await readMembersAndTokens(client, organization, teams, concurrency, progress);
  return {
    organization,
    ...(projectId ? { projectId } : {}),
    workspaces: records,
    modules,
    variableSets,
    projects,
    teams,
    agentPools,
    policies,
    policySets,
    membersAndTokens,
  };
}

/**
 * The organization's agent pools (one list: it carries each pool's lists), each with its
 * tokens (one list per pool); a program of one project names pools by id and reads no tokens.
 */
async function readAgentPools(
  client: WorkspacesClient,
  organization: string,
  projectId: string | undefined,
  concurrency: number,
  progress: ((line: string) => void) | undefined,
): Promise<AgentPoolRecord[]> {
  // The organization's workspaces were just listed, so a 404 is a server without agent pools.
  const pools = (await noneIfUnavailable(client.agentPools.list(organization).all(), true)).sort(
    (a, b) => byCodePoint(a.name, b.name) || byCodePoint(a.id, b.id),
  );
  const tokensOf = perRecordList("agent tokens", (id) => client.agentTokens.list(id).all(), progress);
  return pool(pools, concurrency, async (p) => ({
    pool: p,
    tokens: projectId
      ? []
      : (await tokensOf(p.id)).sort((a, b) => byCodePoint(a.description, b.description) || byCodePoint(a.id, b.id)),
  }));
}

/**
 * A server that does not say which project is the default (`is-default`) names it as the
 * hosted service does.
 */
function isDefaultProject(p: Project): boolean {
  const flag = p.attributes["is-default"];
  return typeof flag === "boolean" ? flag : p.name === "Default Project";
}

/** The organization's projects (or the one asked for), each with the teams' access to it (one list per project). */
async function readProjects(
  client: WorkspacesClient,
  organization: string,
  projectId: string | undefined,
  concurrency: number,
  progress: ((line: string) => void) | undefined,
): Promise<ProjectRecord[]> {
  const listed = (await noneIfUnavailable(client.projects.list(organization).all())).filter(
    (p) => !projectId || p.id === projectId,
  );
  listed.sort((a, b) => byCodePoint(a.name, b.name) || byCodePoint(a.id, b.id));
  const accessOf = perRecordList("team access to projects", (id) => client.teamProjectAccess.list(id).all(), progress);
  return pool(listed, concurrency, async (p) => ({
    id: p.id,
    name: p.name,
    description: p.description,
    isDefault: isDefaultProject(p),
    teamAccess: await accessOf(p.id),
  }));
}

/**
 * The organization's variable sets with their variables (one request per set: the list does
 * not carry them). With `projectId`, only the sets that apply nowhere but within that project:
 * a program of one project does not own what reaches other projects.
 */
async function readVariableSets(
  client: WorkspacesClient,
  organization: string,
  projectId: string | undefined,
  records: WorkspaceRecord[],
  concurrency: number,
): Promise<VariableSetRecord[]> {
  const inProject = new Set(records.map((r) => r.workspace.id));
  // The organization's workspaces were just listed, so a 404 is a server without variable sets.
  const sets = (await noneIfUnavailable(client.variableSets.list(organization).all(), true)).filter(
    (set) =>
      !projectId ||
      (!set.global &&
        set.workspaceIds.length + set.projectIds.length > 0 &&
        set.projectIds.every((p) => p === projectId) &&
        set.workspaceIds.every((w) => inProject.has(w))),
  );
  sets.sort((a, b) => byCodePoint(a.name, b.name) || byCodePoint(a.id, b.id));
  return pool(sets, concurrency, async (set) => ({ set, variables: await client.variableSets.listVariables(set.id) }));
}
