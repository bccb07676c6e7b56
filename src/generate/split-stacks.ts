/**
 * The stacks of a split program: which stack owns each workspace (the stack of its
 * project, or `organization`), their names, and the names the generated files share.
 */
import { declaresProject, declaresTeam } from "./access-declarations";
import { noCounts, type Counts, type SecretKey } from "./declarations";
import { byCodePoint } from "./names";
import { hasMembersAndTokens } from "./read-members";
import type { OrganizationSnapshot } from "./read";

/** The namespace and key of the stack config that names a stack's project: a project id, or {@link ORGANIZATION_STACK}. */
export const PROJECT_CONFIG = { namespace: "pulumi-workspaces", key: "project" };
/** The same, as `pulumi config` and `Pulumi.<stack>.yaml` write it. */
export const PROJECT_CONFIG_KEY = `${PROJECT_CONFIG.namespace}:${PROJECT_CONFIG.key}`;

/**
 * The stack (and the value of {@link PROJECT_CONFIG_KEY}) that owns what belongs to the
 * organization: its no-code modules, workspaces without a project, variable sets that
 * are global or reach more than one project (or none with workspaces of its own stack), its
 * teams, its agent pools (with their lists and tokens), its policies and policy sets (with
 * their parameters and lists), its memberships, its teams' people and its team and organization
 * tokens, and projects without workspaces (with the teams' access to them).
 */
export const ORGANIZATION_STACK = "organization";

/** The file the generator writes the driver to, beside the program. */
export const DRIVER_FILE = "run-stacks.js";

/** The CI workflow's path in the generated folder. */
export const WORKFLOW_FILE = ".github/workflows/workspaces-stacks.yml";

/**
 * Stacks of one program that run at once in CI. They share one token's rate limit; see the
 * workflow's comment for why three.
 */
export const MAX_PARALLEL = 3;

/** One stack of a split program. */
export interface SplitStack {
  /** Stack name: the project's name made a valid stack name (unique), or `organization`. */
  name: string;
  /** The project it owns (`prj-...`); none for the organization stack. */
  projectId?: string;
  /** The project's name, when the service has projects. */
  projectName?: string;
  /** The program file that declares its resources, relative to the folder (`stacks/<name>.ts`). */
  file: string;
  /** Ids of the workspaces it declares. */
  workspaceIds: string[];
  /** Ids of the variable sets it declares, each with its variables and its applications. */
  variableSetIds: string[];
  /** Ids of the projects whose record (the default project's excepted) and team access it declares. */
  projectIds: string[];
  /** How many of each it declares. */
  counts: Counts;
  /** The secret stack config keys it requires. */
  secrets: SecretKey[];
}

/** A valid stack (or Pulumi project) name from any text: lower case letters, digits, `-`, `_` and `.`. */
export function stackName(text: string): string {
  return text
    .toLowerCase()
    .replace(/[^a-z0-9_.-]+/g, "-")
    .replace(/^[-.]+|[-.]+$/g, "");
}

/**
 * The project whose stack owns a variable set: the one project it applies within (to the
 * project, or to workspaces of it), when that project has workspaces; undefined for a set
 * that goes to the organization stack (global, across projects, to workspaces without a
 * project, or applied nowhere).
 */
function projectOfSet(
  set: OrganizationSnapshot["variableSets"][number]["set"],
  projectOfWorkspace: Map<string, string | null>,
): string | undefined {
  if (set.global) return undefined;
  const targets = new Set([...set.projectIds, ...set.workspaceIds.map((w) => projectOfWorkspace.get(w) ?? "")]);
  if (targets.size !== 1) return undefined;
  const [only] = targets;
  return only === "" ? undefined : only;
}

/** Which stack owns each workspace, project and variable set, and the stacks in order. */
export function assignStacks(snapshot: OrganizationSnapshot): {
  stacks: SplitStack[];
  stackOf: Map<string, SplitStack>;
} {
  const projectName = new Map((snapshot.projects ?? []).map((p) => [p.id, p.name]));
  const byProject = new Map<string, string[]>();
  const organizationOwned: string[] = [];
  for (const r of snapshot.workspaces) {
    const p = r.workspace.projectId;
    if (!p) organizationOwned.push(r.workspace.id);
    else byProject.set(p, [...(byProject.get(p) ?? []), r.workspace.id]);
  }
  const projectOfWorkspace = new Map(snapshot.workspaces.map((r) => [r.workspace.id, r.workspace.projectId]));
  const setsByProject = new Map<string, string[]>();
  const organizationSets: string[] = [];
  for (const { set } of snapshot.variableSets) {
    const p = projectOfSet(set, projectOfWorkspace);
    if (p !== undefined && byProject.has(p)) setsByProject.set(p, [...(setsByProject.get(p) ?? []), set.id]);
    else organizationSets.push(set.id);
  }
  const taken = new Set<string>();
  const take = (wanted: string) => {
    let name = wanted;
    for (let n = 2; taken.has(name); n++) name = `${wanted}-${n}`;
    taken.add(name);
    return name;
  };
  const counts = noCounts();
  const stacks: SplitStack[] = [];
  // A project without workspaces has no stack of its own.
  const organizationProjects = snapshot.projects
    .filter((p) => !byProject.has(p.id) && (declaresProject(p) || p.teamAccess.length > 0))
    .map((p) => p.id);
  if (
    snapshot.modules.length ||
    organizationOwned.length ||
    organizationSets.length ||
    organizationProjects.length ||
    snapshot.teams.some(declaresTeam) ||
    snapshot.agentPools.length ||
    snapshot.policies.length ||
    snapshot.policySets.length ||
    hasMembersAndTokens(snapshot.membersAndTokens)
  ) {
    const name = take(ORGANIZATION_STACK);
    stacks.push({
      name,
      file: `stacks/${name}.ts`,
      workspaceIds: organizationOwned,
      variableSetIds: organizationSets,
      projectIds: organizationProjects,
      counts,
      secrets: [],
    });
  } else {
    taken.add(ORGANIZATION_STACK);
  }
  const projects = [...byProject.keys()].sort(
    (a, b) => byCodePoint(projectName.get(a) ?? a, projectName.get(b) ?? b) || byCodePoint(a, b),
  );
  for (const projectId of projects) {
    const name = take(stackName(projectName.get(projectId) ?? "") || stackName(projectId));
    stacks.push({
      name,
      projectId,
      ...(projectName.has(projectId) ? { projectName: projectName.get(projectId) } : {}),
      file: `stacks/${name}.ts`,
      workspaceIds: byProject.get(projectId)!,
      variableSetIds: setsByProject.get(projectId) ?? [],
      projectIds: [projectId],
      counts,
      secrets: [],
    });
  }
  const stackOf = new Map<string, SplitStack>();
  for (const s of stacks) for (const id of [...s.workspaceIds, ...s.projectIds]) stackOf.set(id, s);
  return { stacks, stackOf };
}

/** What a stack owns, in words. */
export const describeStack = (s: SplitStack) =>
  s.projectId
    ? `project ${s.projectName ?? s.projectId}${s.projectName ? ` (${s.projectId})` : ""}`
    : "the organization: its no-code modules, teams, agent pools, policies and policy sets, memberships, teams' members and tokens, workspaces without a project, projects without workspaces and variable sets that reach more than one project";
