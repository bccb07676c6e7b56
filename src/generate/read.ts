/**
 * Reads what the generator writes a program for: the organization's workspaces (or one
 * project's), the key-value tags, consumers, variables, team access, inbound run triggers
 * and notification configurations of each, the no-code modules of its private registry,
 * the organization's variable sets with their variables and where they apply, its projects
 * with the teams' access to each, and its teams.
 *
 * Everything goes through the client, so pacing under the service's rate limit, retries
 * and pagination are the client's; reads run a few at a time to fill the allowance. The
 * list brings the key-value tags along (`include=effective_tag_bindings`, 100 workspaces
 * a request); consumers, variables, team access, run triggers and notification
 * configurations are read per workspace (the API lists them by workspace only), and team
 * access to a project per project. A kind the server does not serve is asked for once.
 */
import {
  BadRequestError,
  FeatureUnavailableError,
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

/** Runs `fn` over `items` with at most `limit` in flight, keeping the order of results. */
export async function pool<T, R>(items: T[], limit: number, fn: (item: T, index: number) => Promise<R>): Promise<R[]> {
  const out = new Array<R>(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const i = next++;
      out[i] = await fn(items[i], i);
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(limit, items.length)) }, worker));
  return out;
}

/** Reports `done of total` at most every `everyMs` and at the end. */
function ticker(progress: ((line: string) => void) | undefined, what: string, total: number, everyMs = 1000) {
  let last = 0;
  let done = 0;
  return () => {
    done++;
    const now = Date.now();
    if (progress && (done === total || now - last >= everyMs)) {
      last = now;
      progress(`${what}: ${done} of ${total}`);
    }
  };
}

/**
 * A server without the feature (OTF has no key-value tags nor consumers) has none of its
 * records to carry over; with `orNotFound`, a 404 says the same (of a record just listed).
 */
async function noneIfUnavailable<T>(list: Promise<T[]>, orNotFound = false): Promise<T[]> {
  try {
    return await list;
  } catch (err) {
    if (err instanceof FeatureUnavailableError || (orNotFound && err instanceof NotFoundError)) return [];
    throw err;
  }
}

/**
 * One kind of record listed per workspace (or project) that a server may not serve: the
 * first answer that says so (unavailable, or a 404 for a record just listed) stops the
 * lists of that kind, so a server without it costs a request, not one per workspace.
 */
function perRecordList<T>(
  what: string,
  list: (id: string) => Promise<T[]>,
  progress: ((line: string) => void) | undefined,
): (id: string) => Promise<T[]> {
  let served = true;
  return async (id) => {
    if (!served) return [];
    try {
      return await list(id);
    } catch (err) {
      if (err instanceof FeatureUnavailableError || err instanceof NotFoundError || err instanceof BadRequestError) {
        if (served) progress?.(`${what}: not served to this token (${err.message}); the program declares none`);
        served = false;
        return [];
      }
      throw err;
    }
  };
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
  return {
    organization,
    ...(projectId ? { projectId } : {}),
    workspaces: records,
    modules,
    variableSets,
    projects,
    teams,
  };
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
