/**
 * The statements of a generated program: each record as a `new Kind("name", {...})` with
 * `adopt: true`, only the settings that differ from the service's defaults, references
 * between records of one file and literal ids for the others. Shared by the program of one
 * stack (render.ts) and the stacks of a split one (split.ts).
 */
import type { NoCodeModule } from "../client";
import {
  declareProjectAccess,
  declareProjects,
  declareTeams,
  declareWorkspaceLinks,
  type AccessContext,
} from "./access-declarations";
import { splitDescription } from "../resources/providers/minted-token";
import { declareAgentPoolMembers, declareAgentPools } from "./agent-pool-declarations";
import { declarePolicies } from "./policy-declarations";
import { declareMembersAndTokens } from "./member-declarations";
import { Code, NotedId, statement } from "./code";
import { Identifiers, byCodePoint, configKey } from "./names";
import type { OrganizationSnapshot, VariableSetRecord } from "./read";
import { byKey, declareVariableSets, variableArgs, type SecretKey } from "./variable-declarations";
import { newestEngineVersion, noCodeSettingsOf, settingsOf, sortedTags } from "./written-settings";

export type { SecretKey } from "./variable-declarations";
export { noCounts } from "./declaration-types";
export type {
  Counts,
  Declarations,
  Elsewhere,
  ImportEntry,
  Layout,
  NotCarried,
  TokensNotDeclared,
} from "./declaration-types";
import { type Declarations, type Elsewhere, type ImportEntry, type Layout, type NotCarried } from "./declaration-types";

function moduleArgs(m: NoCodeModule, registryModuleId: string): Record<string, unknown> {
  const options = [...(m.variableOptions ?? [])]
    .sort((a, b) => byCodePoint(a.variableName, b.variableName))
    .map((o) => ({ variableName: o.variableName, variableType: o.variableType, options: o.options }));
  return {
    organization: new Code("organization"),
    registryModuleId,
    versionPin: m.versionPin,
    ...(m.enabled ? {} : { enabled: false }),
    ...(options.length ? { variableOptions: options } : {}),
    adopt: true,
  };
}

/** The description a program declares for a token's: the origin a create of this package appends is not the program's. */
const declaredDescription = (description: string) => splitDescription(description).declared;

const sortKey = (v: unknown) =>
  v instanceof NotedId ? `1${v.id}` : v instanceof Code ? `0${v.text}` : `1${String(v)}`;

/**
 * Writes declarations for one program file or several (the stacks of a split program).
 * Identifiers, resource names and secret config keys are handed out across all of them, so
 * that a workspace gets the same names whichever file declares it.
 */
export class ProgramWriter {
  private readonly ids = new Identifiers();
  private readonly names = new Set<string>();
  private readonly secretKeys = new Set<string>();
  /** Code files handed out, in lower case: a file system that ignores case must not merge two. */
  private readonly codeFiles = new Set<string>();
  private readonly defaultEngine: string | undefined;
  private readonly projectNames: Map<string, string>;
  private readonly workspaceNames: Map<string, string>;
  private readonly teamNames: Map<string, string>;
  private readonly poolNames: Map<string, string>;

  /** @param snapshot everything read; the default engine version is the organization's, whatever each file declares */
  constructor(snapshot: OrganizationSnapshot) {
    this.defaultEngine = newestEngineVersion(snapshot.workspaces.map((r) => r.workspace));
    this.projectNames = new Map(snapshot.projects.map((p) => [p.id, p.name]));
    this.workspaceNames = new Map(snapshot.workspaces.map((r) => [r.workspace.id, r.workspace.name]));
    this.teamNames = new Map(snapshot.teams.map((t) => [t.id, t.name]));
    this.poolNames = new Map(snapshot.agentPools.map((p) => [p.pool.id, p.pool.name]));
  }

  /** The `config.requireSecret(...)` (or, optional, `getSecret`) of a secret value, with its key recorded in `secrets`. */
  private secret(secrets: SecretKey[], owner: Omit<SecretKey, "key">, ...parts: string[]): Code {
    const wanted = configKey(...parts);
    let key = wanted;
    for (let n = 2; this.secretKeys.has(key); n++) key = `${wanted}-${n}`;
    this.secretKeys.add(key);
    secrets.push({ key, ...owner });
    return new Code(`config.${owner.optional ? "getSecret" : "requireSecret"}(${JSON.stringify(key)})`);
  }

  /** `wanted` (`policies/<name>.sentinel`), or `<name>-2.sentinel` and so on when another policy has it. */
  private codeFile(wanted: string): string {
    const dot = wanted.lastIndexOf(".");
    const [stem, extension] = dot > wanted.lastIndexOf("/") ? [wanted.slice(0, dot), wanted.slice(dot)] : [wanted, ""];
    let file = wanted;
    for (let n = 2; this.codeFiles.has(file.toLowerCase()); n++) file = `${stem}-${n}${extension}`;
    this.codeFiles.add(file.toLowerCase());
    return file;
  }

  private resourceName(wanted: string): string {
    let name = wanted;
    for (let n = 2; this.names.has(name); n++) name = `${wanted}-${n}`;
    this.names.add(name);
    return name;
  }

  /**
   * The statements declaring `workspaces` and `modules`. A record among them is referred to
   * by reference (`web.id`); one that `elsewhere` places in another stack by its literal id,
   * with a comment naming it and that stack; any other by its literal id. `variableSets` are
   * declared with their variables and every application of each; `layout` names the projects
   * and teams declared here. The workspaces' team access, run triggers into them and
   * notification configurations come with them.
   */
  declarations(
    workspaces: OrganizationSnapshot["workspaces"],
    modules: OrganizationSnapshot["modules"],
    elsewhere: Elsewhere = () => undefined,
    variableSets: VariableSetRecord[] = [],
    layout: Layout = {},
  ): Declarations {
    const plain = workspaces.filter((r) => !r.noCodeModuleId);
    const fromModules = workspaces.filter((r) => r.noCodeModuleId);
    const defaultEngine = this.defaultEngine;
    const projects = layout.projects ?? [];
    const teams = layout.teams ?? [];
    const pools = layout.agentPools ?? [];

    // Identifiers first, so that any record can refer to any other.
    const identOf = new Map<string, string>();
    for (const p of projects) identOf.set(p.id, this.ids.take(`${p.name}-project`, "project"));
    for (const t of teams) identOf.set(t.id, this.ids.take(`${t.name}-team`, "team"));
    for (const p of pools) identOf.set(p.pool.id, this.ids.take(`${p.pool.name}-pool`, "pool"));
    for (const r of workspaces) identOf.set(r.workspace.id, this.ids.take(r.workspace.name, "ws"));
    const moduleIdent = new Map<string, string>();
    for (const m of modules) moduleIdent.set(m.module.id, this.ids.take(`${m.registryModule.name}-module`, "module"));
    const literalId = (id: string): unknown => {
      const other = elsewhere(id);
      if (!other) return id;
      return new NotedId(id, `${other.name}, stack ${other.stack}`);
    };
    const ref = (id: string) => (identOf.has(id) ? new Code(`${identOf.get(id)}.id`) : literalId(id));
    // A team or pool not declared in any file of the program is named beside its literal id.
    const namedRef = (names: Map<string, string>, what: string) => (id: string) => {
      const found = ref(id);
      const name = names.get(id);
      return typeof found === "string" && name !== undefined ? new NotedId(id, `${what} ${name}`) : found;
    };
    const teamRef = namedRef(this.teamNames, "team");
    const poolRef = namedRef(this.poolNames, "agent pool");
    /** Settings with their agent pool as the file refers to it. */
    const onPool = (settings: Record<string, unknown>) =>
      typeof settings.agentPoolId === "string" ? { ...settings, agentPoolId: poolRef(settings.agentPoolId) } : settings;

    const secrets: SecretKey[] = [];
    const notCarried: NotCarried[] = [];
    let settingsCount = 0;
    const body: string[] = [];
    const imports: ImportEntry[] = [];
    const declare = (kind: string, name: string, id: string, args: Record<string, unknown>, ident?: string) => {
      body.push(statement(kind, name, args, ident));
      imports.push({ type: `workspaces:index:${kind}`, name, id });
    };

    const at: AccessContext = {
      section: (title) => body.push(...(body.length ? [""] : []), title),
      declare,
      resourceName: (wanted) => this.resourceName(wanted),
      identifier: (name, prefix) => this.ids.take(name, prefix),
      secret: (owner, ...parts) => this.secret(secrets, owner, ...parts),
      ref,
      teamRef,
      teamName: (id) => this.teamNames.get(id) ?? id,
      workspaceName: (id) => this.workspaceNames.get(id),
      projectName: (id) => this.projectNames.get(id),
    };
    const identFor = (id: string) => identOf.get(id)!;
    declareProjects(at, projects, identFor);
    declareTeams(at, teams, identFor);
    declareAgentPools(at, pools, identFor);

    if (plain.length || layout.workspacesHeading) at.section("// Workspaces");
    for (const r of plain) {
      const ws = r.workspace;
      const args: Record<string, unknown> = {
        name: ws.name,
        organization: new Code("organization"),
        ...(ws.projectId ? { project: ref(ws.projectId) } : {}),
        ...onPool(settingsOf(ws, defaultEngine)),
        ...(Object.keys(r.tags).length ? { tags: sortedTags(r.tags) } : {}),
        ...(ws.tagNames.length ? { tagNames: [...ws.tagNames].sort() } : {}),
        ...(ws.sshKeyId ? { sshKeyId: ws.sshKeyId } : {}),
        adopt: true,
      };
      declare("Workspace", this.resourceName(ws.name), ws.id, args, identOf.get(ws.id));
    }

    if (modules.length) {
      if (body.length) body.push("");
      body.push("// No-code modules");
      for (const m of modules) {
        const name = this.resourceName(`${m.registryModule.name}-${m.registryModule.provider}`);
        declare(
          "NoCodeModule",
          name,
          m.module.id,
          moduleArgs(m.module, m.registryModule.id),
          moduleIdent.get(m.module.id),
        );
      }
    }

    if (fromModules.length) {
      if (body.length) body.push("");
      body.push("// Workspaces made from no-code modules");
      for (const r of fromModules) {
        const ws = r.workspace;
        const moduleId = r.noCodeModuleId!;
        const variables = [...(r.variables ?? [])].sort((a, b) => byCodePoint(a.key, b.key));
        const { carried, settings, left } = noCodeSettingsOf(ws, defaultEngine);
        for (const [setting, value] of left) notCarried.push({ workspace: ws.name, setting, value });
        const args: Record<string, unknown> = {
          noCodeModuleId: moduleIdent.has(moduleId) ? new Code(`${moduleIdent.get(moduleId)}.id`) : literalId(moduleId),
          organization: new Code("organization"),
          name: ws.name,
          ...(ws.projectId ? { project: ref(ws.projectId) } : {}),
          ...onPool(carried),
          ...(variables.length
            ? {
                variables: variables.map((v) =>
                  variableArgs(v, () => this.secret(secrets, { workspace: ws.name, variable: v.key }, ws.name, v.key)),
                ),
              }
            : {}),
          ...(typeof ws.attributes["source-module-version"] === "string"
            ? { moduleVersion: ws.attributes["source-module-version"] }
            : {}),
          adopt: true,
        };
        declare("NoCodeWorkspace", this.resourceName(ws.name), ws.id, args, identOf.get(ws.id));
        // Settings NoCodeWorkspace has no input for.
        if (Object.keys(settings).length) {
          declare("WorkspaceSettings", this.resourceName(`${ws.name}-settings`), ws.id, {
            workspaceId: new Code(`${identOf.get(ws.id)}.id`),
            ...settings,
            adopt: true,
          });
          settingsCount++;
        }
        // Tags of a module-made workspace are not inputs of NoCodeWorkspace.
        const tags = Object.keys(r.tags).length ? { tags: sortedTags(r.tags) } : {};
        const tagNames = ws.tagNames.length ? { tagNames: [...ws.tagNames].sort() } : {};
        if (Object.keys(tags).length || Object.keys(tagNames).length) {
          declare("WorkspaceTags", this.resourceName(`${ws.name}-tags`), `${ws.id}/tags`, {
            workspaceId: new Code(`${identOf.get(ws.id)}.id`),
            ...tags,
            ...tagNames,
          });
        }
      }
    }

    // A module-made workspace's variables are its NoCodeWorkspace's inputs already.
    const withVariables = plain.filter((r) => r.variables?.length);
    if (withVariables.length) {
      if (body.length) body.push("");
      body.push("// Workspace variables: additive, each resource owns the variables it lists");
      for (const r of withVariables) {
        const ws = r.workspace;
        declare("WorkspaceVariables", this.resourceName(`${ws.name}-variables`), `${ws.id}/variables`, {
          workspaceId: new Code(`${identOf.get(ws.id)}.id`),
          variables: [...r.variables!]
            .sort(byKey)
            .map((v) =>
              variableArgs(v, () => this.secret(secrets, { workspace: ws.name, variable: v.key }, ws.name, v.key)),
            ),
          adopt: true,
        });
      }
    }

    const applications = declareVariableSets(at, variableSets);

    const withConsumers = workspaces.filter((r) => !r.workspace.globalRemoteState && r.consumerIds.length > 0);
    if (withConsumers.length) {
      if (body.length) body.push("");
      body.push("// Remote state consumers: who may read each workspace's state");
      for (const r of withConsumers) {
        declare(
          "RemoteStateConsumers",
          this.resourceName(`${r.workspace.name}-consumers`),
          `${r.workspace.id}/remote-state-consumers`,
          {
            workspaceId: new Code(`${identOf.get(r.workspace.id)}.id`),
            // In the order they read: references by name, then literal ids.
            consumerIds: r.consumerIds.map(ref).sort((a, b) => byCodePoint(sortKey(a), sortKey(b))),
          },
        );
      }
    }

    const members = declareAgentPoolMembers(at, pools, declaredDescription);
    const people = declareMembersAndTokens(at, layout.membersAndTokens, declaredDescription);

    // After the workspaces and projects, which the sets' lists refer to.
    const policies = declarePolicies(at, layout.policies ?? [], layout.policySets ?? [], (wanted) =>
      this.codeFile(wanted),
    );

    const teamProjectAccess = declareProjectAccess(at, [...projects, ...(layout.accessOnly ?? [])]);
    const links = declareWorkspaceLinks(
      at,
      workspaces.map((r) => ({
        id: r.workspace.id,
        name: r.workspace.name,
        teamAccess: r.teamAccess ?? [],
        runTriggers: (r.runTriggers ?? []).flatMap((t) =>
          t.sourceableId ? [{ id: t.id, sourceId: t.sourceableId }] : [],
        ),
        notifications: r.notifications ?? [],
      })),
    );

    const used = [
      ...(plain.length || layout.workspacesHeading ? ["Workspace"] : []),
      ...(projects.length ? ["Project"] : []),
      ...(teams.length ? ["Team"] : []),
      ...(teamProjectAccess ? ["TeamProjectAccess"] : []),
      ...(links.teamWorkspaceAccess ? ["TeamWorkspaceAccess"] : []),
      ...(links.runTriggers ? ["RunTrigger"] : []),
      ...(links.notificationConfigurations ? ["NotificationConfiguration"] : []),
      ...(modules.length ? ["NoCodeModule"] : []),
      ...(fromModules.length ? ["NoCodeWorkspace"] : []),
      ...(withConsumers.length ? ["RemoteStateConsumers"] : []),
      ...(body.some((l) => l.startsWith("new WorkspaceTags(")) ? ["WorkspaceTags"] : []),
      ...(withVariables.length ? ["WorkspaceVariables"] : []),
      ...(variableSets.length ? ["VariableSet"] : []),
      ...(applications ? ["VariableSetApplication"] : []),
      ...(pools.length ? ["AgentPool"] : []),
      ...members.kinds,
      ...people.kinds,
      ...policies.kinds,
      ...(settingsCount ? ["WorkspaceSettings"] : []),
    ].sort();
    const counts = {
      workspaces: plain.length,
      noCodeModules: modules.length,
      noCodeWorkspaces: fromModules.length,
      consumers: withConsumers.length,
      workspaceVariables: withVariables.length,
      variableSets: variableSets.length,
      variableSetApplications: applications,
      projects: projects.length,
      teams: teams.length,
      teamProjectAccess,
      ...links,
      agentPools: pools.length,
      agentPoolLists: members.agentPoolLists,
      agentTokens: members.agentTokens,
      workspaceSettings: settingsCount,
      policies: policies.policies,
      policySets: policies.policySets,
      policySetParameters: policies.policySetParameters,
      policySetLists: policies.policySetLists,
      ...people.counts,
    };
    const { files } = policies;
    return { body, used, secrets, notCarried, tokensNotDeclared: members.tokensNotDeclared, counts, imports, files };
  }
}

/**
 * The lines that open a program file: what it declares, the imports its statements use, the
 * stack config it reads secrets from, and the organization.
 */
export function fileHeader(organization: string, scope: string, d: Declarations): string[] {
  return [
    "/**",
    ` * The workspaces of organization ${JSON.stringify(organization)}${scope}, as read from the service by`,
    " * `pulumi-workspaces generate`. Every resource has `adopt: true`: the first `pulumi up` takes",
    " * the existing records over and changes nothing that this program states as it is.",
    " * Settings at the service's default are left out, and an input left out is not managed.",
    " */",
    ...(d.secrets.length ? ['import * as pulumi from "@pulumi/pulumi";'] : []),
    ...(d.used.length ? [`import { ${d.used.join(", ")} } from "pulumi-workspaces";`] : []),
    "",
    ...(d.secrets.length
      ? [
          "// Secret values (sensitive variables and parameters, notification tokens), which the service never shows: see README.md.",
          "const config = new pulumi.Config();",
        ]
      : []),
    `const organization = ${JSON.stringify(organization)};`,
    "",
  ];
}
