import { readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ApiError, WorkspacesClient } from "../../src/client";
import { ORGANIZATION_ACCESS_FLAGS } from "../../src/api/teams";
import { typeTokens } from "../../src/resources/tokens";
import {
  LOOKUP_ARGUMENTS,
  getAgentPool,
  getEffectiveAccess,
  getPolicySet,
  getEffectiveVariables,
  getOrganizationMembers,
  getTeam,
  getTeamMembers,
  getWorkspace,
  getWorkspaceOutputs,
  getWorkspaces,
  lookupSettingsFrom,
} from "../../src/resources/lookups";
import { expectStatus, grant, makeTeam, makeUser, start, type TestServer, uploadState } from "../server/helpers";
import { publishModule } from "../server/no-code-support";

/**
 * docs/configuration.md "Permissions the token needs", tried against the local server: for
 * every cell, a token holding exactly what the cell names succeeds, and a token holding one
 * permission less (the level below, or no organization permission) is refused. Each row
 * names a resource or lookup the code has, and each resource and lookup has a row.
 */

const ROOT = join(__dirname, "../..");
const OPS = ["create", "read", "update", "delete"] as const;
type Op = (typeof OPS)[number];

/**
 * One grant of the table's vocabulary: `owners`, `organization token`, a flag, `member`,
 * `workspace <level>`, `project <level>`.
 */
type Grant = string;
/** A cell: alternatives, each a set of grants that must all be held. */
type Cell = Grant[][];

interface Row {
  label: string;
  name: string;
  cells: Partial<Record<Op, Cell>>;
}

function permissionRows(markdown: string): Row[] {
  const section = markdown.split("## Permissions the token needs")[1]?.split(/\n## /)[0] ?? "";
  const rows: Row[] = [];
  for (const line of section.split("\n")) {
    if (!line.startsWith("| `")) continue;
    const [label, ...rest] = line
      .slice(1, -1)
      .split(" | ")
      .map((c) => c.trim());
    const cells: Row["cells"] = {};
    OPS.forEach((op, i) => {
      const text = rest[i];
      if (text === undefined) throw new Error(`row "${label}" has no ${op} column`);
      if (text === "—") return;
      cells[op] = text.split(" or ").map((alt) => alt.split(" and ").map((g) => g.replace(/`/g, "").trim()));
    });
    const bare = label.replace(/ \(since [\d.]+\)$/, "");
    rows.push({ label: bare, name: /^`([^`]+)`/.exec(bare)?.[1] ?? bare, cells });
  }
  return rows;
}

const LEVELS = {
  workspace: ["read", "plan", "write", "admin"],
  project: ["read", "write", "maintain", "admin"],
} as const;

/** The grant one permission below `g`, or null for none at all (`member`), or "outsider" below member. */
function below(g: Grant): Grant | null {
  if (g === "owners") return "every flag";
  if (g === "member") return "outsider";
  if (g === "organization token") return null;
  const [scope, level] = g.split(" ") as [keyof typeof LEVELS, string];
  if (scope in LEVELS) {
    const levels: readonly string[] = LEVELS[scope];
    const i = levels.indexOf(level);
    return i > 0 ? `${scope} ${levels[i - 1]}` : null;
  }
  if ((ORGANIZATION_ACCESS_FLAGS as readonly string[]).includes(g)) return null;
  throw new Error(`unknown grant "${g}" in docs/configuration.md`);
}

/** What a probe works on: made by the site administrator before the token under test exists. */
interface Ctx {
  projectId: string;
  workspaceId: string;
  sourceId: string;
  id?: string;
  teamId?: string;
  /** A policy set parameter's id (`id` is then its set's). */
  parameterId?: string;
}

interface Probe {
  setup?: (admin: WorkspacesClient, ctx: Ctx) => Promise<Partial<Ctx> | void>;
  /** Grants every token of this probe holds besides the cell's (a run trigger's source, a consumer). */
  also?: Grant[];
  run: (c: WorkspacesClient, ctx: Ctx) => Promise<unknown>;
}

let t: TestServer;
let n = 0;
const uniq = (p: string) => `${p}-${++n}`;
/** A setup that makes something and hands the probe nothing of it. */
const done = (p: Promise<unknown>): Promise<void> => p.then(() => undefined);
const HOOK = "http://127.0.0.1:9/hook";
const notification = (name: string) => ({ name, destinationType: "generic" as const, enabled: false, url: HOOK });

const variableSet = (owned: boolean): Partial<Record<Op, Probe>> => {
  const make = (a: WorkspacesClient, ctx: Ctx) =>
    a.variableSets.create(t.org, { name: uniq("set"), ...(owned ? { parentProjectId: ctx.projectId } : {}) });
  return {
    create: { run: (c, ctx) => make(c, ctx) },
    read: { setup: async (a, ctx) => ({ id: (await make(a, ctx)).id }), run: (c, ctx) => c.variableSets.read(ctx.id!) },
    update: {
      setup: async (a, ctx) => ({ id: (await make(a, ctx)).id }),
      run: (c, ctx) => c.variableSets.update(ctx.id!, { description: "changed" }),
    },
    delete: {
      setup: async (a, ctx) => ({ id: (await make(a, ctx)).id }),
      run: (c, ctx) => c.variableSets.delete(ctx.id!),
    },
  };
};

const application = (owned: boolean): Partial<Record<Op, Probe>> => {
  const make = (a: WorkspacesClient, ctx: Ctx) =>
    a.variableSets.create(t.org, { name: uniq("set"), ...(owned ? { parentProjectId: ctx.projectId } : {}) });
  return {
    create: {
      setup: async (a, ctx) => ({ id: (await make(a, ctx)).id }),
      run: (c, ctx) => c.variableSets.applyToWorkspaces(ctx.id!, [ctx.workspaceId]),
    },
    read: { setup: async (a, ctx) => ({ id: (await make(a, ctx)).id }), run: (c, ctx) => c.variableSets.read(ctx.id!) },
    delete: {
      setup: async (a, ctx) => {
        const s = await make(a, ctx);
        await a.variableSets.applyToWorkspaces(s.id, [ctx.workspaceId]);
        return { id: s.id };
      },
      run: (c, ctx) => c.variableSets.removeFromWorkspaces(ctx.id!, [ctx.workspaceId]),
    },
  };
};

const variable = (key: string) => ({ key, value: "v", category: "env" as const });
const withVariable = async (a: WorkspacesClient, ctx: Ctx) => ({
  id: (await a.variables.create(ctx.workspaceId, variable(uniq("k")))).id,
});
const variables = (readAll: boolean): Partial<Record<Op, Probe>> => ({
  create: { run: (c, ctx) => c.variables.create(ctx.workspaceId, variable(uniq("k"))) },
  read: {
    setup: withVariable,
    run: (c, ctx) => (readAll ? c.variables.listAll(ctx.workspaceId) : c.variables.read(ctx.workspaceId, ctx.id!)),
  },
  update: { setup: withVariable, run: (c, ctx) => c.variables.update(ctx.workspaceId, ctx.id!, { value: "w" }) },
  delete: { setup: withVariable, run: (c, ctx) => c.variables.delete(ctx.workspaceId, ctx.id!) },
});

const consumer = async (a: WorkspacesClient) => ({
  id: (await a.workspaces.create(t.org, { name: uniq("consumer") })).id,
});

const notifications = (owner: "workspaces" | "projects"): Partial<Record<Op, Probe>> => {
  const subject = (ctx: Ctx) => (owner === "workspaces" ? ctx.workspaceId : ctx.projectId);
  const make = async (a: WorkspacesClient, ctx: Ctx) => ({
    id: (await a.notificationConfigurations.create(subject(ctx), notification(uniq("n")), owner)).id,
  });
  return {
    create: { run: (c, ctx) => c.notificationConfigurations.create(subject(ctx), notification(uniq("n")), owner) },
    read: { setup: make, run: (c, ctx) => c.notificationConfigurations.read(ctx.id!) },
    update: { setup: make, run: (c, ctx) => c.notificationConfigurations.update(ctx.id!, { name: uniq("renamed") }) },
    delete: { setup: make, run: (c, ctx) => c.notificationConfigurations.delete(ctx.id!) },
  };
};

/** A team of the organization that the token under test is not in, visible to every member. */
const otherTeam = async (a: WorkspacesClient) => ({
  teamId: (await a.teams.create(t.org, { name: uniq("other"), visibility: "organization" })).id,
});

/** A team's access to the probe's workspace or project, by the client's area for it. */
interface AccessArea {
  add(teamId: string, targetId: string, options: { access: "read" }): Promise<{ id: string }>;
  read(id: string): Promise<unknown>;
  update(id: string, options: { access: "write" }): Promise<unknown>;
  remove(id: string): Promise<void>;
}
const access = (area: (c: WorkspacesClient) => AccessArea, target: "workspaceId" | "projectId") => {
  const granted = async (a: WorkspacesClient, ctx: Ctx) => {
    const { teamId } = await otherTeam(a);
    return { id: (await area(a).add(teamId, ctx[target], { access: "read" })).id };
  };
  return {
    create: { setup: otherTeam, run: (c, ctx) => area(c).add(ctx.teamId!, ctx[target], { access: "read" }) },
    read: { setup: granted, run: (c, ctx) => area(c).read(ctx.id!) },
    update: { setup: granted, run: (c, ctx) => area(c).update(ctx.id!, { access: "write" }) },
    delete: { setup: granted, run: (c, ctx) => area(c).remove(ctx.id!) },
  } satisfies Partial<Record<Op, Probe>>;
};

const module = async (a: WorkspacesClient) => {
  const registryModuleId = await publishModule(t.api, t.org, uniq("mod"), ["1.0.0"]);
  return { registryModuleId, id: (await a.noCode.enable(t.org, { registryModuleId, enabled: true })).id };
};
const noCodeWorkspace = async (a: WorkspacesClient, ctx: Ctx) => {
  const m = await module(a);
  const ws = await a.noCode.createWorkspace(m.id, { name: uniq("nc"), projectId: ctx.projectId });
  return { id: m.id, workspaceId: ws.id };
};

/** An agent pool of the organization, made by the site administrator; not organization-scoped. */
const pool = async (a: WorkspacesClient) => ({
  id: (await a.agentPools.create(t.org, { name: uniq("pool"), organizationScoped: false })).id,
});

/** One of a pool's three lists, each replaced whole by its own client call. */
const poolList = (write: (c: WorkspacesClient, ctx: Ctx) => Promise<unknown>): Partial<Record<Op, Probe>> => ({
  create: { setup: pool, run: write },
  read: { setup: pool, run: (c, ctx) => c.agentPools.read(ctx.id!) },
  update: { setup: pool, run: write },
  delete: { setup: pool, run: write },
});

const agentToken = async (a: WorkspacesClient) => {
  const { id } = await pool(a);
  return { id: (await a.agentTokens.create(id, uniq("agents"))).id };
};

/** A policy of the organization with its code, made by the site administrator. */
const SENTINEL = "main = rule { true }";
const policy = async (a: WorkspacesClient) => {
  const { id } = await a.policies.create(t.org, { name: uniq("pol"), enforcementLevel: "advisory" });
  await a.policies.upload(id, SENTINEL);
  return { id };
};
/** A Sentinel policy set with no policies and no version: it takes parameters. */
const policySet = async (a: WorkspacesClient) => ({ id: (await a.policySets.create(t.org, { name: uniq("set") })).id });
/** A person invited to the organization: their membership's id. */
const invited = async (a: WorkspacesClient) => ({
  id: (await a.organizationMemberships.create(t.org, { email: `${uniq("person")}@example.com` })).id,
});
/** A team every member sees, and a person invited to the organization (not in it). */
const teamAndPerson = async (a: WorkspacesClient) => ({ ...(await otherTeam(a)), ...(await invited(a)) });
/** The same, the person in the team. */
const personInTeam = async (a: WorkspacesClient) => {
  const ctx = await teamAndPerson(a);
  await a.teamMembers.addOrganizationMemberships(ctx.teamId, [ctx.id]);
  return ctx;
};
/** A described token of a team every member sees. */
const teamToken = async (a: WorkspacesClient) => {
  const { teamId } = await otherTeam(a);
  return { teamId, id: (await a.teamTokens.create(teamId, { description: uniq("ci") })).id };
};
/** The organization's audit-trail token (its organization token is the one the table's `organization token` uses). */
const AUDIT = { tokenType: "audit-trails" as const };
const auditToken = (a: WorkspacesClient) => done(a.organizationTokens.create(t.org, AUDIT));
const parameter = async (a: WorkspacesClient) => {
  const { id } = await policySet(a);
  return { id, parameterId: (await a.policySetParameters.create(id, { key: uniq("p"), value: "v" })).id };
};

/** One of a set's four lists, added to and removed from by id: its write, with the probe's workspace or project. */
const setList = (
  add: (c: WorkspacesClient, ctx: Ctx) => Promise<unknown>,
  remove: (c: WorkspacesClient, ctx: Ctx) => Promise<unknown>,
): Partial<Record<Op, Probe>> => {
  const added = async (a: WorkspacesClient, ctx: Ctx) => {
    const { id } = await policySet(a);
    await add(a, { ...ctx, id });
    return { id };
  };
  return {
    create: { setup: policySet, run: add },
    read: { setup: policySet, run: (c, ctx) => c.policySets.read(ctx.id!) },
    update: { setup: added, run: remove },
    delete: { setup: added, run: remove },
  };
};

/** A workspace's whole list of consumers, replaced: `RemoteStateConsumers` (authoritative) and `WorkspaceSettings`' consumers. */
const consumersReplaced: Partial<Record<Op, Probe>> = {
  create: { setup: consumer, run: (c, ctx) => c.remoteStateConsumers.replace(ctx.workspaceId, [ctx.id!]) },
  read: { run: (c, ctx) => c.remoteStateConsumers.listIds(ctx.workspaceId) },
  update: { setup: consumer, run: (c, ctx) => c.remoteStateConsumers.replace(ctx.workspaceId, [ctx.id!]) },
  delete: {
    setup: async (a, ctx) => {
      const { id } = await consumer(a);
      await a.remoteStateConsumers.replace(ctx.workspaceId, [id]);
    },
    run: (c, ctx) => c.remoteStateConsumers.replace(ctx.workspaceId, []),
  },
};

/** Lookups run as a program runs them: the settings the provider would hand them. */
let lookupToken = "";
const lookupAs = <T>(c: WorkspacesClient, f: () => Promise<T>) => {
  lookupToken = tokens.get(c)!;
  return f();
};

const PROBES: Record<string, Partial<Record<Op, Probe>>> = {
  "`Workspace`": {
    create: { run: (c, ctx) => c.workspaces.create(t.org, { name: uniq("ws"), projectId: ctx.projectId }) },
    read: { run: (c, ctx) => c.workspaces.read(ctx.workspaceId) },
    update: { run: (c, ctx) => c.workspaces.update(ctx.workspaceId, { description: "changed" }) },
    delete: { run: (c, ctx) => c.workspaces.safeDelete(ctx.workspaceId) },
  },
  "`Workspace` with `forceDelete: true`": {
    delete: { run: (c, ctx) => c.workspaces.forceDelete(ctx.workspaceId) },
  },
  "`WorkspaceTags`": {
    create: { run: (c, ctx) => c.tags.add(ctx.workspaceId, [{ name: "team-a" }]) },
    read: { run: (c, ctx) => c.tagBindings.list(ctx.workspaceId) },
    update: { run: (c, ctx) => c.tagBindings.set(ctx.workspaceId, [{ key: "team", value: "a" }]) },
    delete: {
      setup: (a, ctx) => done(a.tags.add(ctx.workspaceId, [{ name: "team-a" }])),
      run: (c, ctx) => c.tags.remove(ctx.workspaceId, [{ name: "team-a" }]),
    },
  },
  "`RemoteStateConsumers` (additive)": {
    create: {
      setup: consumer,
      also: ["consumer read"],
      run: (c, ctx) => c.remoteStateConsumers.add(ctx.workspaceId, [ctx.id!]),
    },
    read: { run: (c, ctx) => c.remoteStateConsumers.listIds(ctx.workspaceId) },
    update: {
      also: ["consumer read"],
      setup: async (a, ctx) => {
        const { id } = await consumer(a);
        await a.remoteStateConsumers.add(ctx.workspaceId, [id]);
        return { id };
      },
      run: (c, ctx) => c.remoteStateConsumers.remove(ctx.workspaceId, [ctx.id!]),
    },
    delete: {
      also: ["consumer read"],
      setup: async (a, ctx) => {
        const { id } = await consumer(a);
        await a.remoteStateConsumers.add(ctx.workspaceId, [id]);
        return { id };
      },
      run: (c, ctx) => c.remoteStateConsumers.remove(ctx.workspaceId, [ctx.id!]),
    },
  },
  "`RemoteStateConsumers` (authoritative)": consumersReplaced,
  "`WorkspaceLock`": {
    create: { run: (c, ctx) => c.locks.lock(ctx.workspaceId) },
    read: { run: (c, ctx) => c.workspaces.read(ctx.workspaceId) },
    // The lock a resource releases is its own: the same token took it.
    delete: { run: async (c, ctx) => c.locks.unlock((await c.locks.lock(ctx.workspaceId)).id) },
  },
  "`WorkspaceLock` with `force: true`": {
    delete: {
      setup: (a, ctx) => done(a.locks.lock(ctx.workspaceId)),
      run: (c, ctx) => c.locks.forceUnlock(ctx.workspaceId),
    },
  },
  "`DataRetentionPolicy`": {
    create: { run: (c, ctx) => c.dataRetentionPolicy.set(ctx.workspaceId, { deleteOlderThanNDays: 30 }) },
    read: {
      setup: (a, ctx) => done(a.dataRetentionPolicy.set(ctx.workspaceId, { deleteOlderThanNDays: 30 })),
      run: (c, ctx) => c.dataRetentionPolicy.read(ctx.workspaceId),
    },
    update: {
      setup: (a, ctx) => done(a.dataRetentionPolicy.set(ctx.workspaceId, { deleteOlderThanNDays: 30 })),
      run: (c, ctx) => c.dataRetentionPolicy.set(ctx.workspaceId, { deleteOlderThanNDays: 40 }),
    },
    delete: {
      setup: (a, ctx) => done(a.dataRetentionPolicy.set(ctx.workspaceId, { deleteOlderThanNDays: 30 })),
      run: (c, ctx) => c.dataRetentionPolicy.delete(ctx.workspaceId),
    },
  },
  "`WorkspaceVariable`": variables(false),
  "`WorkspaceVariables`": variables(true),
  "`VariableSet`": variableSet(false),
  "`VariableSet` owned by a project": variableSet(true),
  "`VariableSetApplication`": application(false),
  "`VariableSetApplication` of a set owned by a project": application(true),
  "`Project`": {
    create: { run: (c) => c.projects.create(t.org, { name: uniq("p") }) },
    read: { run: (c, ctx) => c.projects.read(ctx.projectId) },
    update: { run: (c, ctx) => c.projects.update(ctx.projectId, { description: "changed" }) },
    // A project with workspaces cannot be deleted: this one has none.
    delete: {
      setup: async (a) => ({ projectId: (await a.projects.create(t.org, { name: uniq("empty") })).id }),
      run: (c, ctx) => c.projects.delete(ctx.projectId),
    },
  },
  "`Team`": {
    create: { run: (c) => c.teams.create(t.org, { name: uniq("team") }) },
    read: { setup: otherTeam, run: (c, ctx) => c.teams.read(ctx.teamId!) },
    update: { setup: otherTeam, run: (c, ctx) => c.teams.update(ctx.teamId!, { name: uniq("renamed") }) },
    delete: { setup: otherTeam, run: (c, ctx) => c.teams.delete(ctx.teamId!) },
  },
  "`TeamWorkspaceAccess`": access((c) => c.teamAccess, "workspaceId"),
  "`TeamProjectAccess`": access((c) => c.teamProjectAccess, "projectId"),
  "`RunTrigger`": {
    create: { also: ["source read"], run: (c, ctx) => c.runTriggers.create(ctx.workspaceId, ctx.sourceId) },
    read: {
      setup: async (a, ctx) => ({ id: (await a.runTriggers.create(ctx.workspaceId, ctx.sourceId)).id }),
      run: (c, ctx) => c.runTriggers.read(ctx.id!),
    },
    delete: {
      setup: async (a, ctx) => ({ id: (await a.runTriggers.create(ctx.workspaceId, ctx.sourceId)).id }),
      run: (c, ctx) => c.runTriggers.delete(ctx.id!),
    },
  },
  "`NotificationConfiguration` on a workspace": notifications("workspaces"),
  "`NotificationConfiguration` on a project": notifications("projects"),
  "`NoCodeModule`": {
    create: {
      setup: async () => ({ id: await publishModule(t.api, t.org, uniq("mod"), ["1.0.0"]) }),
      run: (c, ctx) => c.noCode.enable(t.org, { registryModuleId: ctx.id!, enabled: true }),
    },
    read: { setup: module, run: (c, ctx) => c.noCode.read(ctx.id!) },
    update: { setup: module, run: (c, ctx) => c.noCode.update(ctx.id!, { enabled: false }) },
    delete: { setup: module, run: (c, ctx) => c.noCode.delete(ctx.id!) },
  },
  "`NoCodeWorkspace`": {
    create: {
      setup: async (a) => ({ id: (await module(a)).id }),
      run: (c, ctx) => c.noCode.createWorkspace(ctx.id!, { name: uniq("nc"), projectId: ctx.projectId }),
    },
    read: { setup: noCodeWorkspace, run: (c, ctx) => c.workspaces.read(ctx.workspaceId) },
    update: { setup: noCodeWorkspace, run: (c, ctx) => c.noCode.upgrade.initiate(ctx.id!, ctx.workspaceId) },
    delete: { setup: noCodeWorkspace, run: (c, ctx) => c.workspaces.safeDelete(ctx.workspaceId) },
  },
  "`AgentPool`": {
    create: { run: (c) => c.agentPools.create(t.org, { name: uniq("pool") }) },
    read: { setup: pool, run: (c, ctx) => c.agentPools.read(ctx.id!) },
    update: { setup: pool, run: (c, ctx) => c.agentPools.update(ctx.id!, { organizationScoped: true }) },
    delete: { setup: pool, run: (c, ctx) => c.agentPools.delete(ctx.id!) },
  },
  "`AgentPoolAllowedWorkspaces`": poolList((c, ctx) =>
    c.agentPools.updateAllowedWorkspaces(ctx.id!, [ctx.workspaceId]),
  ),
  "`AgentPoolAllowedProjects`": poolList((c, ctx) => c.agentPools.updateAllowedProjects(ctx.id!, [ctx.projectId])),
  "`AgentPoolExcludedWorkspaces`": poolList((c, ctx) =>
    c.agentPools.updateExcludedWorkspaces(ctx.id!, [ctx.workspaceId]),
  ),
  "`AgentToken`": {
    create: { setup: pool, run: (c, ctx) => c.agentTokens.create(ctx.id!, uniq("agents")) },
    read: { setup: agentToken, run: (c, ctx) => c.agentTokens.read(ctx.id!) },
    delete: { setup: agentToken, run: (c, ctx) => c.agentTokens.delete(ctx.id!) },
  },
  "`WorkspaceSettings`": {
    create: { run: (c, ctx) => c.workspaces.update(ctx.workspaceId, { description: "settings" }) },
    read: { run: (c, ctx) => c.workspaces.read(ctx.workspaceId) },
    update: { run: (c, ctx) => c.workspaces.update(ctx.workspaceId, { description: "changed" }) },
    delete: { run: (c, ctx) => c.workspaces.update(ctx.workspaceId, { description: "put back" }) },
  },
  "`WorkspaceSettings` with `remoteStateConsumerIds`": consumersReplaced,
  "`Policy`": {
    create: {
      run: async (c) =>
        c.policies.upload(
          (await c.policies.create(t.org, { name: uniq("pol"), enforcementLevel: "advisory" })).id,
          SENTINEL,
        ),
    },
    read: {
      setup: policy,
      run: async (c, ctx) => [await c.policies.read(ctx.id!), await c.policies.download(ctx.id!)],
    },
    update: {
      setup: policy,
      run: async (c, ctx) => {
        await c.policies.upload(ctx.id!, "main = rule { false }");
        return c.policies.update(ctx.id!, { enforcementLevel: "hard-mandatory" });
      },
    },
    delete: { setup: policy, run: (c, ctx) => c.policies.delete(ctx.id!) },
  },
  "`PolicySet`": {
    create: { run: (c) => c.policySets.create(t.org, { name: uniq("set") }) },
    read: { setup: policySet, run: (c, ctx) => c.policySets.read(ctx.id!) },
    update: { setup: policySet, run: (c, ctx) => c.policySets.update(ctx.id!, { description: "changed" }) },
    delete: { setup: policySet, run: (c, ctx) => c.policySets.delete(ctx.id!) },
  },
  "`PolicySetParameter`": {
    create: {
      setup: policySet,
      run: (c, ctx) => c.policySetParameters.create(ctx.id!, { key: uniq("p"), value: "v" }),
    },
    read: { setup: parameter, run: (c, ctx) => c.policySetParameters.list(ctx.id!).all() },
    update: {
      setup: parameter,
      run: (c, ctx) => c.policySetParameters.update(ctx.id!, ctx.parameterId!, { value: "w" }),
    },
    delete: { setup: parameter, run: (c, ctx) => c.policySetParameters.delete(ctx.id!, ctx.parameterId!) },
  },
  "`PolicySetWorkspaces`": setList(
    (c, ctx) => c.policySets.addWorkspaces(ctx.id!, [ctx.workspaceId]),
    (c, ctx) => c.policySets.removeWorkspaces(ctx.id!, [ctx.workspaceId]),
  ),
  "`PolicySetProjects`": setList(
    (c, ctx) => c.policySets.addProjects(ctx.id!, [ctx.projectId]),
    (c, ctx) => c.policySets.removeProjects(ctx.id!, [ctx.projectId]),
  ),
  "`PolicySetWorkspaceExclusions`": setList(
    (c, ctx) => c.policySets.addWorkspaceExclusions(ctx.id!, [ctx.workspaceId]),
    (c, ctx) => c.policySets.removeWorkspaceExclusions(ctx.id!, [ctx.workspaceId]),
  ),
  "`PolicySetProjectExclusions`": setList(
    (c, ctx) => c.policySets.addProjectExclusions(ctx.id!, [ctx.projectId]),
    (c, ctx) => c.policySets.removeProjectExclusions(ctx.id!, [ctx.projectId]),
  ),
  "`OrganizationMembership`": {
    create: { run: (c) => c.organizationMemberships.create(t.org, { email: `${uniq("person")}@example.com` }) },
    read: { setup: invited, run: (c, ctx) => c.organizationMemberships.read(ctx.id!) },
    delete: { setup: invited, run: (c, ctx) => c.organizationMemberships.delete(ctx.id!) },
  },
  "`TeamMembers`": {
    create: { setup: teamAndPerson, run: (c, ctx) => c.teamMembers.addOrganizationMemberships(ctx.teamId!, [ctx.id!]) },
    read: { setup: personInTeam, run: (c, ctx) => c.teamMembers.list(ctx.teamId!) },
    update: {
      setup: personInTeam,
      run: (c, ctx) => c.teamMembers.removeOrganizationMemberships(ctx.teamId!, [ctx.id!]),
    },
    delete: {
      setup: personInTeam,
      run: (c, ctx) => c.teamMembers.removeOrganizationMemberships(ctx.teamId!, [ctx.id!]),
    },
  },
  "`TeamToken`": {
    create: { setup: otherTeam, run: (c, ctx) => c.teamTokens.create(ctx.teamId!, { description: uniq("ci") }) },
    read: { setup: teamToken, run: (c, ctx) => c.teamTokens.read(ctx.id!) },
    delete: { setup: teamToken, run: (c, ctx) => c.teamTokens.delete(ctx.id!) },
  },
  "`OrganizationToken`": {
    create: { run: (c) => c.organizationTokens.create(t.org, AUDIT) },
    read: { setup: auditToken, run: (c) => c.organizationTokens.read(t.org, AUDIT) },
    delete: { setup: auditToken, run: (c) => c.organizationTokens.delete(t.org, AUDIT) },
  },
  "`getOrganizationMembers`": {
    read: { setup: invited, run: (c) => lookupAs(c, () => getOrganizationMembers({ organization: t.org })) },
  },
  "`getTeamMembers`": {
    read: { setup: personInTeam, run: (c, ctx) => lookupAs(c, () => getTeamMembers({ teamId: ctx.teamId! })) },
  },
  "`getWorkspace`": { read: { run: (c, ctx) => lookupAs(c, () => getWorkspace({ id: ctx.workspaceId })) } },
  "`getWorkspaces`": { read: { run: (c) => lookupAs(c, () => getWorkspaces({ organization: t.org })) } },
  "`getEffectiveVariables`": {
    read: { run: (c, ctx) => lookupAs(c, () => getEffectiveVariables({ workspaceId: ctx.workspaceId })) },
  },
  "`getWorkspaceOutputs`": {
    read: {
      setup: async (_a, ctx) => {
        await uploadState(t.api, ctx.workspaceId, { version: 4, serial: 1, outputs: { url: { value: "x" } } });
      },
      run: (c, ctx) => lookupAs(c, () => getWorkspaceOutputs({ workspaceId: ctx.workspaceId })),
    },
  },
  "`getTeam`": {
    read: {
      setup: async (a) => {
        const team = await a.teams.create(t.org, { name: uniq("seen"), visibility: "organization" });
        return { id: team.name };
      },
      run: (c, ctx) => lookupAs(c, () => getTeam({ name: ctx.id!, organization: t.org })),
    },
  },
  "`getEffectiveAccess`": {
    read: { run: (c, ctx) => lookupAs(c, () => getEffectiveAccess({ workspaceId: ctx.workspaceId })) },
  },
  "`getPolicySet`": {
    read: {
      setup: async (a) => ({ id: (await a.policySets.create(t.org, { name: uniq("seen") })).name }),
      run: (c, ctx) => lookupAs(c, () => getPolicySet({ name: ctx.id!, organization: t.org })),
    },
  },
  "`getAgentPool`": {
    read: {
      setup: async (a) => ({ id: (await a.agentPools.create(t.org, { name: uniq("seen") })).name }),
      run: (c, ctx) => lookupAs(c, () => getAgentPool({ name: ctx.id!, organization: t.org })),
    },
  },
};

const tokens = new Map<WorkspacesClient, string>();
let admin: WorkspacesClient;
let ownersToken: string;
let outsiderToken: string;
let organizationToken: string;

function clientFor(token: string): WorkspacesClient {
  const c = new WorkspacesClient({
    address: t.server.url,
    token,
    organization: t.org,
    rateLimit: false,
    retry: { maxAttempts: 1 },
  });
  tokens.set(c, token);
  return c;
}

/** A token that holds exactly `grants` on the probe's records. */
async function tokenHolding(grants: Grant[], ctx: Ctx): Promise<string> {
  if (grants.includes("owners")) return ownersToken;
  if (grants.includes("outsider")) return outsiderToken;
  if (grants.includes("organization token")) return organizationToken;
  const flags: Record<string, boolean> = {};
  for (const g of grants) {
    if (g === "every flag") for (const f of ORGANIZATION_ACCESS_FLAGS) flags[f] = true;
    else if ((ORGANIZATION_ACCESS_FLAGS as readonly string[]).includes(g)) flags[g] = true;
  }
  const team = await makeTeam(t.api, t.org, uniq("under-test"), {
    manageWorkspaces: flags["manage-workspaces"],
    manageProjects: flags["manage-projects"],
    flags,
  });
  for (const g of grants) {
    const [scope, level] = g.split(" ");
    if (scope === "workspace") await grant(t.api, team.id, ctx.workspaceId, level);
    if (scope === "source") await grant(t.api, team.id, ctx.sourceId, level);
    if (scope === "consumer") await grant(t.api, team.id, ctx.id!, level);
    if (scope === "project")
      await expectStatus(
        t.api.post(`/team-projects`, {
          data: {
            type: "team-projects",
            attributes: { access: level },
            relationships: {
              project: { data: { type: "projects", id: ctx.projectId } },
              team: { data: { type: "teams", id: team.id } },
            },
          },
        }),
        201,
      );
  }
  return team.token;
}

async function attempt(row: string, op: Op, grants: Grant[]): Promise<{ ok: boolean; why: string }> {
  const probe = PROBES[row][op]!;
  const project = await admin.projects.create(t.org, { name: uniq("fixture") });
  const ctx: Ctx = {
    projectId: project.id,
    workspaceId: (await admin.workspaces.create(t.org, { name: uniq("target"), projectId: project.id })).id,
    sourceId: (await admin.workspaces.create(t.org, { name: uniq("source") })).id,
  };
  Object.assign(ctx, (await probe.setup?.(admin, ctx)) ?? {});
  const c = clientFor(await tokenHolding([...grants, ...(probe.also ?? [])], ctx));
  try {
    await probe.run(c, ctx);
    return { ok: true, why: "succeeded" };
  } catch (err) {
    if (err instanceof ApiError && ![403, 404].includes(err.status)) throw err;
    return { ok: false, why: err instanceof Error ? err.message : String(err) };
  }
}

const doc = readFileSync(join(ROOT, "docs/configuration.md"), "utf8");
const rows = permissionRows(doc);

beforeAll(async () => {
  t = await start({ selfManaged: true });
  admin = clientFor(t.server.token);
  lookupSettingsFrom(() => ({ address: t.server.url, token: lookupToken, organization: t.org }));
  const owners = (await t.api.get(`/organizations/${t.org}/teams`)).body.data.find(
    (x: { attributes: { name: string } }) => x.attributes.name === "owners",
  );
  ownersToken = (await expectStatus(t.api.post(`/teams/${owners.id}/authentication-token`), 201)).body.data.attributes
    .token;
  outsiderToken = (await makeUser(t.api, uniq("outsider"))).token;
  organizationToken = (await expectStatus(t.api.post(`/organizations/${t.org}/authentication-token`), 201)).body.data
    .attributes.token;
});
afterAll(() => t.server.close());

describe("docs/configuration.md: the permissions table", () => {
  it("has a row for every resource and every lookup, and a probe for every row", () => {
    const named = new Set(rows.map((r) => r.name));
    const resources = Object.keys(typeTokens).filter((k) => k !== "StackOrigin");
    expect(resources.filter((r) => !named.has(r))).toEqual([]);
    expect(Object.keys(LOOKUP_ARGUMENTS).filter((l) => !named.has(l))).toEqual([]);
    expect(rows.map((r) => r.label).filter((l) => !(l in PROBES))).toEqual([]);
    for (const r of rows)
      expect({ row: r.label, ops: Object.keys(r.cells) }).toEqual({ row: r.label, ops: Object.keys(PROBES[r.label]) });
  });

  for (const row of rows)
    for (const op of OPS) {
      const cell = row.cells[op];
      if (!cell) continue;
      it(`${row.label} ${op}: ${cell.map((a) => a.join(" and ")).join(" or ")}`, async () => {
        for (const alternative of cell) {
          const held = await attempt(row.label, op, alternative);
          expect({ holding: alternative, ...held }).toMatchObject({ ok: true });
          for (const g of alternative) {
            const lower = below(g);
            const less = [...alternative.filter((x) => x !== g), ...(lower ? [lower] : [])];
            // One less may still be another alternative of the cell: that one is allowed.
            if (cell.some((alt) => alt.every((x) => less.includes(x)))) continue;
            const refused = await attempt(row.label, op, less);
            expect({ holding: less.length ? less : ["member"], ...refused }).toMatchObject({ ok: false });
          }
        }
      });
    }

  it("an organization token: manage-workspaces and manage-projects, not owners, no no-code", async () => {
    const FLAGS = ["manage-workspaces", "manage-projects"];
    const tried: Array<{ row: string; op: Op; ok: boolean; expected: boolean }> = [];
    for (const row of rows)
      for (const op of OPS) {
        const cell = row.cells[op];
        if (!cell) continue;
        const byFlag = cell.some((alt) => alt.every((g) => FLAGS.includes(g)));
        const ownersOnly = cell.length === 1 && cell[0].length === 1 && cell[0][0] === "owners";
        if (!byFlag && !ownersOnly) continue;
        const expected = byFlag && !row.name.startsWith("NoCode");
        const { ok } = await attempt(row.label, op, ["organization token"]);
        tried.push({ row: row.label, op, ok, expected });
      }
    expect(tried.length).toBeGreaterThan(20);
    expect(tried.filter((x) => x.ok !== x.expected)).toEqual([]);
  });
});
