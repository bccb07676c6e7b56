/**
 * Names in a generated program: TypeScript identifiers for the variables that hold
 * resources, derived from workspace (or module) names so that they stay the same from
 * one generation to the next, valid, and unique within the program.
 */

const RESERVED = new Set(
  (
    "break case catch class const continue debugger default delete do else enum export extends false finally for function if " +
    "import in instanceof new null return super switch this throw true try typeof var void while with as implements interface " +
    "let package private protected public static yield any boolean constructor declare get module require number set string " +
    "symbol type from of async await undefined arguments eval"
  ).split(" "),
);

/** Names the program itself uses. */
const TAKEN = [
  "pulumi",
  "config",
  "organization",
  "Workspace",
  "WorkspaceTags",
  "RemoteStateConsumers",
  "NoCodeModule",
  "NoCodeWorkspace",
  "WorkspaceVariables",
  "VariableSet",
  "VariableSetApplication",
  "Project",
  "Team",
  "TeamProjectAccess",
  "TeamWorkspaceAccess",
  "RunTrigger",
  "NotificationConfiguration",
  "AgentPool",
  "AgentPoolAllowedWorkspaces",
  "AgentPoolAllowedProjects",
  "AgentPoolExcludedWorkspaces",
  "AgentToken",
  "WorkspaceSettings",
  "Policy",
  "PolicySet",
  "PolicySetParameter",
  "PolicySetWorkspaces",
  "PolicySetProjects",
  "PolicySetWorkspaceExclusions",
  "PolicySetProjectExclusions",
  "OrganizationMembership",
  "TeamMembers",
  "TeamToken",
  "OrganizationToken",
];

/** Orders strings the same way on every machine (no locale). */
export function byCodePoint(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** `app-dev_v2` -> `appDevV2`; a leading digit gets a prefix. */
function camelIdentifier(name: string, prefix: string): string {
  const words = name.split(/[^A-Za-z0-9]+/).filter((w) => w !== "");
  let id = words
    .map((w, i) => (i === 0 ? w.charAt(0).toLowerCase() + w.slice(1) : w.charAt(0).toUpperCase() + w.slice(1)))
    .join("");
  if (id === "") id = prefix;
  if (/^[0-9]/.test(id)) id = prefix + id.charAt(0).toUpperCase() + id.slice(1);
  return id;
}

/** Hands out identifiers: the same name always gets the same one, and no two names share one. */
export class Identifiers {
  private readonly used = new Set<string>(TAKEN);

  /** A fresh identifier for `name`; `prefix` starts it when the name does not start with a letter. */
  take(name: string, prefix: string): string {
    let base = camelIdentifier(name, prefix);
    if (RESERVED.has(base) || this.used.has(base)) base = `${base}${prefix.charAt(0).toUpperCase()}${prefix.slice(1)}`;
    let id = base;
    for (let n = 2; this.used.has(id) || RESERVED.has(id); n++) id = `${base}${n}`;
    this.used.add(id);
    return id;
  }
}

/** A stack config key (`<project>:<key>` once set) for one secret value: letters, digits and `-`. */
export function configKey(...parts: string[]): string {
  return parts
    .map((p) => p.replace(/[^A-Za-z0-9]+/g, "-").replace(/^-+|-+$/g, ""))
    .filter((p) => p !== "")
    .join("-");
}
