import type { PolicyConfigSchema, PolicyResource } from "@pulumi/policy";
import {
  Team,
  TeamProjectAccess,
  TeamWorkspaceAccess,
  Workspace,
  WorkspaceTags,
  configOf,
  declaredProps,
  isOfType,
  recordInputsOf,
  show,
  str,
  stringMap,
  strings,
  subject,
  workspaceKinds,
  workspaceKey,
  workspaceRef,
  type StackRule,
} from "./common";

// Who is admin of a production workspace is decided by three resources of the stack: the
// workspace's tags (on the Workspace or a WorkspaceTags), a TeamWorkspaceAccess to it, or a
// TeamProjectAccess to the project it is in (a project's `admin` and `maintain` are admin on
// every workspace of the project).

const adminProductionSchema: PolicyConfigSchema = {
  properties: {
    tag: {
      type: "string",
      minLength: 1,
      default: "production",
      description:
        "A workspace is production when it carries this flat tag, or a key-value tag with this value (`env: production`); compared without regard to case.",
    },
    allowedTeams: {
      type: "array",
      items: { type: "string", minLength: 1 },
      uniqueItems: true,
      default: [],
      description:
        'Teams that may be admin of production workspaces, each by its name (the `name` of a Team resource of the stack) or its id (`team-...`), for example ["platform"].',
    },
  },
};

/** The levels that make a team admin of a workspace: its own access, or its access to the workspace's project. */
const ADMIN_ON_WORKSPACE = new Set(["admin"]);
const ADMIN_ON_PROJECT_WORKSPACES = new Set(["admin", "maintain"]);

/** Whether the flat tags or the key-value tags' values hold the tag. */
function carries(props: Record<string, unknown>, tag: string): boolean {
  const t = tag.toLowerCase();
  const flat = (strings(props.tagNames) ?? []).map((n) => n.toLowerCase());
  const values = Object.values(stringMap(props.tags) ?? {}).map((v) => v.toLowerCase());
  return flat.includes(t) || values.includes(t);
}

/** The keys of the project a property names: its id when known, and the resource of the stack it comes from. */
function projectKeys(resource: PolicyResource, property: string): string[] {
  const id = str(declaredProps(resource)[property]);
  const deps = (resource.propertyDependencies?.[property] ?? []).map((d) => `urn:${d.urn}`);
  return [...(id !== undefined && id !== "" ? [`id:${id}`] : []), ...deps];
}

/** The team an access names: its id (when known) and its name (when it comes from a Team of the stack). */
function teamOf(access: PolicyResource): { id?: string; name?: string; label: string } {
  const props = declaredProps(access);
  const id = str(props.teamId);
  const teams = (access.propertyDependencies?.teamId ?? []).filter((d) => isOfType(d, Team));
  const name = teams.length === 1 ? str(declaredProps(teams[0]).name) : undefined;
  const label = teams.length === 1 ? subject(teams[0]) : id !== undefined ? `team ${id}` : "its team";
  return { id, name, label };
}

export const teamAdminProduction: StackRule = {
  name: "team-admin-production",
  description:
    "No team is admin of a workspace tagged production (through its access to the workspace, or `admin`/`maintain` on the workspace's project), unless the team is allowed.",
  // An organisation's convention, not the service's rule: advised unless the pack's config makes it mandatory.
  enforcementLevel: "advisory",
  configSchema: adminProductionSchema,
  validateResource: recordInputsOf([...workspaceKinds, WorkspaceTags, TeamWorkspaceAccess, TeamProjectAccess, Team]),
  validateStack: (args, reportViolation) => {
    const config = configOf<{ tag: string; allowedTeams: string[] }>(adminProductionSchema, args);
    const allowed = new Set(strings(config.allowedTeams) ?? []);
    // Production workspaces of the stack, by the key workspaceRef gives them and by id when known.
    const production = new Map<string, string>();
    const projects = new Map<string, string[]>();
    for (const r of args.resources) {
      if (!isOfType(r, ...workspaceKinds)) continue;
      const props = declaredProps(r);
      if (carries(props, config.tag)) production.set(workspaceKey(r), subject(r));
    }
    for (const r of args.resources) {
      if (!isOfType(r, WorkspaceTags)) continue;
      const props = declaredProps(r);
      const target = workspaceRef(r, "workspaceId", props);
      if (target !== undefined && carries(props, config.tag)) production.set(target.key, target.label);
    }
    for (const r of args.resources) {
      if (!isOfType(r, Workspace) || !production.has(workspaceKey(r))) continue;
      for (const key of projectKeys(r, "project")) projects.set(key, [...(projects.get(key) ?? []), subject(r)]);
    }
    const isAllowed = (team: ReturnType<typeof teamOf>) =>
      (team.id !== undefined && allowed.has(team.id)) || (team.name !== undefined && allowed.has(team.name));
    const fix = (team: ReturnType<typeof teamOf>) =>
      `Fix: give ${team.label} a weaker level (write, or custom permissions), or list ${team.name !== undefined ? show(team.name) : "the team"} in allowedTeams.`;

    for (const r of args.resources) {
      const props = declaredProps(r);
      const access = str(props.access);
      if (access === undefined) continue;
      if (isOfType(r, TeamWorkspaceAccess) && ADMIN_ON_WORKSPACE.has(access)) {
        const target = workspaceRef(r, "workspaceId", props);
        const label = target && production.get(target.key);
        const team = teamOf(r);
        if (label === undefined || isAllowed(team)) continue;
        reportViolation(
          `${subject(r)}: gives ${team.label} admin access to ${label}, which is tagged ${show(config.tag)}. ${fix(team)}`,
          r.urn,
        );
      } else if (isOfType(r, TeamProjectAccess) && ADMIN_ON_PROJECT_WORKSPACES.has(access)) {
        const project = str(props.projectId) ?? "of its projectId";
        const inside = [...new Set(projectKeys(r, "projectId").flatMap((k) => projects.get(k) ?? []))];
        const team = teamOf(r);
        if (inside.length === 0 || isAllowed(team)) continue;
        reportViolation(
          `${subject(r)}: gives ${team.label} ${show(access)} on project ${project}, which makes it admin of ${inside.join(", ")}, tagged ${show(config.tag)}. ${fix(team)}`,
          r.urn,
        );
      }
    }
  },
};
