/**
 * The stacks of a split program: which stack owns each workspace (the stack of its
 * project, or `organization`), their names, and the names the generated files share.
 */
import type { Counts, SecretKey } from "./declarations";
import { byCodePoint } from "./names";
import type { OrganizationSnapshot } from "./read";

/** The namespace and key of the stack config that names a stack's project: a project id, or {@link ORGANIZATION_STACK}. */
export const PROJECT_CONFIG = { namespace: "pulumi-workspaces", key: "project" };
/** The same, as `pulumi config` and `Pulumi.<stack>.yaml` write it. */
export const PROJECT_CONFIG_KEY = `${PROJECT_CONFIG.namespace}:${PROJECT_CONFIG.key}`;

/** The stack (and the value of {@link PROJECT_CONFIG_KEY}) that owns what belongs to the organization: its no-code modules, and workspaces without a project. */
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

/** Which stack owns each workspace, and the stacks in order. */
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
  const taken = new Set<string>();
  const take = (wanted: string) => {
    let name = wanted;
    for (let n = 2; taken.has(name); n++) name = `${wanted}-${n}`;
    taken.add(name);
    return name;
  };
  const counts = { workspaces: 0, noCodeModules: 0, noCodeWorkspaces: 0, consumers: 0 };
  const stacks: SplitStack[] = [];
  if (snapshot.modules.length || organizationOwned.length) {
    const name = take(ORGANIZATION_STACK);
    stacks.push({ name, file: `stacks/${name}.ts`, workspaceIds: organizationOwned, counts, secrets: [] });
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
      counts,
      secrets: [],
    });
  }
  const stackOf = new Map<string, SplitStack>();
  for (const s of stacks) for (const id of s.workspaceIds) stackOf.set(id, s);
  return { stacks, stackOf };
}

/** What a stack owns, in words. */
export const describeStack = (s: SplitStack) =>
  s.projectId
    ? `project ${s.projectName ?? s.projectId}${s.projectName ? ` (${s.projectId})` : ""}`
    : "the organization: its no-code modules and workspaces without a project";
