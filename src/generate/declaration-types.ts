/**
 * The shapes of a generated program's declarations: what one file declares, how many of
 * each, the secrets it needs and the import file's entries (./declarations.ts writes them).
 */
import type { Team } from "../client";
import type { AgentPoolRecord, ProjectRecord } from "./read";
import type { PolicyRecord, PolicySetRecord } from "./read-policies";
import type { MembersAndTokens } from "./read-members";
import type { SecretKey } from "./variable-declarations";

/** How many of each a program declares. */
export interface Counts {
  /** Plain workspaces (`Workspace`). */
  workspaces: number;
  /** No-code modules. */
  noCodeModules: number;
  /** Workspaces made from no-code modules (`NoCodeWorkspace`). */
  noCodeWorkspaces: number;
  /** Sets of remote state consumers. */
  consumers: number;
  /** Plain workspaces' variables, one `WorkspaceVariables` per workspace that has any. */
  workspaceVariables: number;
  /** Variable sets, with their variables. */
  variableSets: number;
  /** Applications of a variable set to a workspace or a project. */
  variableSetApplications: number;
  /** Projects (`Project`), the organization's default project left out. */
  projects: number;
  /** Teams (`Team`), the owners team left out. */
  teams: number;
  /** Grants of a team's access to a project (`TeamProjectAccess`). */
  teamProjectAccess: number;
  /** Grants of a team's access to a workspace (`TeamWorkspaceAccess`). */
  teamWorkspaceAccess: number;
  /** Run triggers (`RunTrigger`). */
  runTriggers: number;
  /** Notification configurations of workspaces (`NotificationConfiguration`). */
  notificationConfigurations: number;
  /** Agent pools (`AgentPool`). */
  agentPools: number;
  /** Lists of agent pools: allowed workspaces, allowed projects, excluded workspaces (one resource each). */
  agentPoolLists: number;
  /** Agent tokens (`AgentToken`), adopted without their secrets. */
  agentTokens: number;
  /** Settings of module-made workspaces that `NoCodeWorkspace` has no input for (`WorkspaceSettings`). */
  workspaceSettings: number;
  /** Policies of the service (`Policy`), each with its code in a file beside the program. */
  policies: number;
  /** Policy sets (`PolicySet`). */
  policySets: number;
  /** Parameters of policy sets (`PolicySetParameter`). */
  policySetParameters: number;
  /** Lists of where a policy set applies: workspaces, projects and the exclusions of each (one resource each). */
  policySetLists: number;
  /** People invited to or in the organization (`OrganizationMembership`), adopted by email. */
  organizationMemberships: number;
  /** Teams' lists of people (`TeamMembers`, additive), the service users behind tokens left out. */
  teamMembers: number;
  /** Team tokens (`TeamToken`), adopted without their secrets. */
  teamTokens: number;
  /** The organization token and the audit-trail token (`OrganizationToken`), adopted without their secrets. */
  organizationTokens: number;
}

/** A count of every kind at zero. */
export function noCounts(): Counts {
  return {
    workspaces: 0,
    noCodeModules: 0,
    noCodeWorkspaces: 0,
    consumers: 0,
    workspaceVariables: 0,
    variableSets: 0,
    variableSetApplications: 0,
    projects: 0,
    teams: 0,
    teamProjectAccess: 0,
    teamWorkspaceAccess: 0,
    runTriggers: 0,
    notificationConfigurations: 0,
    agentPools: 0,
    agentPoolLists: 0,
    agentTokens: 0,
    workspaceSettings: 0,
    policies: 0,
    policySets: 0,
    policySetParameters: 0,
    policySetLists: 0,
    organizationMemberships: 0,
    teamMembers: 0,
    teamTokens: 0,
    organizationTokens: 0,
  };
}

/** The projects and teams one program file declares, besides its workspaces. */
export interface Layout {
  /** Projects to declare (never the default one), each with the teams' access to it. */
  projects?: ProjectRecord[];
  /** Teams to declare (never the owners team). */
  teams?: Team[];
  /** Projects whose team access this file declares, though it does not declare the project (the default project). */
  accessOnly?: ProjectRecord[];
  /** Agent pools to declare, with their lists and tokens. */
  agentPools?: AgentPoolRecord[];
  /** Policies to declare, each with its code. */
  policies?: PolicyRecord[];
  /** Policy sets to declare, with their parameters and where each applies. */
  policySets?: PolicySetRecord[];
  /** Memberships, teams' people and tokens to declare. */
  membersAndTokens?: MembersAndTokens;
  /** Write the `// Workspaces` heading even when the file declares none (where a reader adds the first). */
  workspacesHeading?: boolean;
}

/**
 * A setting of a workspace made from a no-code module that `NoCodeWorkspace` cannot
 * declare (local execution mode, SSH key, trigger patterns, ...). It stays on the service
 * as it is, unmanaged; the generated README lists each one.
 */
export interface NotCarried {
  /** Workspace name. */
  workspace: string;
  /** The `Workspace` input that would state it, e.g. `sshKeyId`. */
  setting: string;
  /** Its value on the service. */
  value: unknown;
}

/** One resource of a bulk import file (`pulumi import -f`). */
export interface ImportEntry {
  /** The provider plugin's type token, `workspaces:index:<Resource>`. */
  type: string;
  /** The resource name, as the generated program names it. */
  name: string;
  /** The record's id, as the resource's read takes it. */
  id: string;
}

/** Agent tokens of one pool that share a description: adoption finds a token by its description, so none of them is declared. */
export interface TokensNotDeclared {
  /** Pool name. */
  pool: string;
  /** The description they share. */
  description: string;
  /** Their ids (`at-...`). */
  ids: string[];
}

/** Where a record declared in another stack of a split program lives, for the comment beside its literal id. */
export type Elsewhere = (id: string) => { name: string; stack: string } | undefined;

/** One program file's declarations, as {@link ProgramWriter.declarations} writes them. */
export interface Declarations {
  /** The statements, grouped under comments. */
  body: string[];
  /** The classes of this package the statements use, sorted. */
  used: string[];
  /** The secret stack config keys the statements require. */
  secrets: SecretKey[];
  /** Settings of module-made workspaces the statements do not state. */
  notCarried: NotCarried[];
  /** Agent tokens the statements do not declare. */
  tokensNotDeclared: TokensNotDeclared[];
  /** How many of each the statements declare. */
  counts: Counts;
  /** The same resources as a bulk import file lists them. */
  imports: ImportEntry[];
  /** Files the statements refer to, by path relative to the program's folder: each policy's code. */
  files: Record<string, string>;
}
