/**
 * `TeamWorkspaceAccess`, `TeamProjectAccess` and `getEffectiveAccess` against the real
 * local server, through the entry point as the engine calls them: check failures with
 * their property paths, a preset level and the same custom permissions equal in diff, a
 * permission the service adds (or leaves out) never a change, updates in place and
 * replacements, drift read back and restored, access the team already has taken over with
 * no write or refused with its import id, import ids, the 404 rule, and the three sources
 * of a team's effective access.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { dispatch, PROTOCOL } from "../../src/resources/entry";
import { configureFromStack } from "../../src/resources/provider-settings";
import { resetClients } from "../../src/resources/providers/client";
import { NotVisibleError } from "../../src/resources/providers/gone";
import { UNKNOWN } from "../../src/resources/providers/unknowns";
import { getEffectiveAccess, lookupSettingsFrom } from "../../src/resources/lookups";
import { api, createProject, startHarness, uniqueName, type Harness } from "./helpers";

type Props = Record<string, any>;

let h: Harness;

beforeAll(async () => {
  h = await startHarness();
  lookupSettingsFrom(() => ({ address: h.server.url, token: h.server.token, organization: h.org }));
});
afterAll(async () => {
  await h?.close();
});

/** Points the providers at the same server with another token. */
function as(token: string): void {
  const config: Record<string, string> = {
    "workspaces:address": h.server.url,
    "workspaces:token": token,
    "workspaces:organization": h.org,
  };
  configureFromStack({ config: { get: (k: string) => config[k] } });
  resetClients();
}
afterEach(() => as(h.server.token));

const call = (kind: string, method: string, ...args: unknown[]) =>
  dispatch(PROTOCOL, kind, method, args) as Promise<any>;

const TWS = "TeamWorkspaceAccess";
const TPRJ = "TeamProjectAccess";

async function check(kind: string, news: Props, olds: Props = {}) {
  return call(kind, "check", olds, news) as Promise<{
    inputs: Props;
    failures: { property: string; reason: string }[];
  }>;
}

async function create(kind: string, news: Props): Promise<{ id: string; outs: Props }> {
  const checked = await check(kind, news);
  expect(checked.failures).toEqual([]);
  return call(kind, "create", checked.inputs);
}

async function diff(kind: string, olds: Props, news: Props) {
  const checked = await check(kind, news, olds);
  expect(checked.failures).toEqual([]);
  return call(kind, "diff", "id", olds, checked.inputs) as Promise<{ changes: boolean; replaces: string[] }>;
}

/** Writes the server has answered so far (POST, PATCH, DELETE). */
function writes(): number {
  return Object.entries(h.server.stats().byRoute)
    .filter(([route]) => /^(POST|PATCH|DELETE) /.test(route))
    .reduce((n, [, count]) => n + count, 0);
}

async function newWorkspace(): Promise<string> {
  return (await h.client.workspaces.create(h.org, { name: uniqueName("access") })).id;
}

async function newTeam(organizationAccess: Record<string, boolean> = {}): Promise<string> {
  return (await h.client.teams.create(h.org, { name: uniqueName("team"), organizationAccess })).id;
}

describe("check: one clear failure per bad input, with its property path", () => {
  it("a workspace access", async () => {
    const f = async (news: Props) => (await check(TWS, news)).failures;
    const ok = { teamId: "team-1", workspaceId: "ws-1" };
    expect(await f({ ...ok, access: "admin" })).toEqual([]);
    expect(await f({ ...ok, access: "owner" })).toEqual([
      { property: "access", reason: 'must be one of "read", "plan", "write", "admin", "custom", not "owner"' },
    ]);
    expect(await f({ ...ok })).toEqual([
      { property: "access", reason: 'is required: one of "read", "plan", "write", "admin", "custom"' },
    ]);
    expect(await f({ ...ok, access: "custom", permissions: { runs: "destroy" } })).toEqual([
      { property: "permissions.runs", reason: 'must be one of "read", "plan", "apply", not "destroy"' },
    ]);
    expect(await f({ ...ok, access: "custom", permissions: { workspaceLocking: "yes" } })).toEqual([
      { property: "permissions.workspaceLocking", reason: 'must be true or false, not "yes"' },
    ]);
    expect((await f({ ...ok, access: "custom", permissions: { state_versions: "read" } }))[0]).toMatchObject({
      property: "permissions.state_versions",
      reason: expect.stringContaining("is not a permission of this grant: give runs, variables, stateVersions"),
    });
    // A preset level with a permission it does not grant: said with the way out.
    expect(await f({ ...ok, access: "read", permissions: { runs: "apply" } })).toEqual([
      {
        property: "permissions.runs",
        reason:
          'is "apply", but access "read" grants "read": set access to "custom" to choose each permission, or leave permissions.runs out',
      },
    ]);
    // The level's own values are allowed beside it.
    expect(await f({ ...ok, access: "write", permissions: { runs: "apply", variables: "write" } })).toEqual([]);
    expect(await f({ teamId: "ops", workspaceId: "web", access: "read" })).toEqual([
      { property: "teamId", reason: 'must be a team id (team-...), not "ops"' },
      { property: "workspaceId", reason: 'must be a workspace id (ws-...), not "web"' },
    ]);
    expect(await f({ ...ok, access: "read", adopt: "yes" })).toMatchObject([{ property: "adopt" }]);
    // Unknown until apply: judged when known.
    expect(await f({ teamId: UNKNOWN, workspaceId: UNKNOWN, access: UNKNOWN, permissions: UNKNOWN })).toEqual([]);
  });

  it("a project access, and one owner per team and target in the stack", async () => {
    const f = async (news: Props) => (await check(TPRJ, news)).failures;
    const ok = { teamId: "team-1", projectId: "prj-1" };
    expect(await f({ ...ok, access: "maintain" })).toEqual([]);
    expect(await f({ ...ok, access: "plan" })).toMatchObject([{ property: "access" }]);
    expect(
      await f({ ...ok, access: "custom", projectPermissions: { settings: "own" }, workspacePermissions: { move: 1 } }),
    ).toEqual([
      { property: "projectPermissions.settings", reason: 'must be one of "read", "update", "delete", not "own"' },
      { property: "workspacePermissions.move", reason: "must be true or false, not 1" },
    ]);
    expect(await f({ ...ok, access: "read", workspacePermissions: { delete: true } })).toMatchObject([
      { property: "workspacePermissions.delete", reason: expect.stringContaining('access "read" grants false') },
    ]);
    expect(await f({ teamId: "team-1", projectId: "ws-1", access: "read" })).toEqual([
      { property: "projectId", reason: 'must be a project id (prj-...), not "ws-1"' },
    ]);
    const claimant = (name: string) => ({ ...ok, teamId: "team-claims", access: "read", __claimant: name });
    expect(await f(claimant("a"))).toEqual([]);
    expect(await f(claimant("a"))).toEqual([]);
    expect((await f(claimant("b")))[0].reason).toContain('by two resources of this stack, this one and "a"');
  });
});

describe("diff: what the grant ends with, never how it is spelled", () => {
  const olds = (access: string, permissions?: Props) => ({
    teamId: "team-1",
    workspaceId: "ws-1",
    access,
    ...(permissions ? { permissions } : {}),
  });
  const admin = {
    runs: "apply",
    variables: "write",
    stateVersions: "write",
    sentinelMocks: "read",
    workspaceLocking: true,
    runTasks: true,
    policyOverrides: false,
  };

  it("a preset level and the same custom permissions compare equal, both ways", async () => {
    expect(await diff(TWS, olds("custom", admin), olds("admin"))).toMatchObject({ changes: false });
    expect(await diff(TWS, olds("admin", admin), olds("custom", admin))).toMatchObject({ changes: false });
    expect(await diff(TWS, olds("admin", admin), olds("custom", { ...admin, runTasks: false }))).toEqual({
      changes: true,
      replaces: [],
    });
    expect(await diff(TWS, olds("admin", admin), olds("write"))).toEqual({ changes: true, replaces: [] });
  });

  it("custom permissions left out take their default; what the service adds or leaves out is no change", async () => {
    const custom = { runs: "plan", variables: "none", stateVersions: "none", sentinelMocks: "none" };
    // Recorded without the flags (an older service), declared with only runs.
    expect(await diff(TWS, olds("custom", custom), olds("custom", { runs: "plan" }))).toMatchObject({
      changes: false,
    });
    // A permission this package does not know, reported by a newer service.
    const newer = { ...custom, workspaceLocking: false, runTasks: false, policyOverrides: false, driftAlerts: true };
    expect(await diff(TWS, olds("custom", newer), olds("custom", { runs: "plan" }))).toMatchObject({
      changes: false,
    });
    expect(await diff(TWS, olds("custom", newer), olds("custom", { runs: "apply" }))).toMatchObject({
      changes: true,
    });
  });

  it("a change of team or target replaces", async () => {
    expect(await diff(TWS, olds("read"), { ...olds("read"), teamId: "team-2" })).toEqual({
      changes: true,
      replaces: ["teamId"],
    });
    expect(await diff(TWS, olds("read"), { ...olds("read"), workspaceId: "ws-2" })).toEqual({
      changes: true,
      replaces: ["workspaceId"],
    });
  });
});

describe("TeamWorkspaceAccess against the server", () => {
  it("creates, reads drift back, restores it in place, imports by both ids, and deletes", async () => {
    const [teamId, workspaceId] = [await newTeam(), await newWorkspace()];
    const inputs = { teamId, workspaceId, access: "custom", permissions: { runs: "plan", variables: "read" } };
    const { id, outs } = await create(TWS, inputs);
    expect(id).toMatch(/^tws-/);
    expect(outs).toMatchObject({
      teamId,
      workspaceId,
      access: "custom",
      organization: h.org,
      permissions: { runs: "plan", variables: "read", stateVersions: "none", workspaceLocking: false },
    });
    const onServer = await h.client.teamAccess.read(id);
    expect(onServer).toMatchObject({ access: "custom", permissions: { runs: "plan", variables: "read" } });
    expect((await diff(TWS, outs, inputs)).changes).toBe(false);

    // Drift made over HTTP: refresh shows it, the next diff sees it, update restores it.
    const drift = await api(h, "PATCH", `/team-workspaces/${id}`, {
      data: { type: "team-workspaces", attributes: { access: "admin" } },
    });
    expect(drift.status).toBe(200);
    const read = await call(TWS, "read", id, outs);
    expect(read).toMatchObject({ id, props: { access: "admin" }, inputs: { access: "admin" } });
    expect(await diff(TWS, read.props, inputs)).toEqual({ changes: true, replaces: [] });
    const before = writes();
    const updated = (await call(TWS, "update", id, read.props, (await check(TWS, inputs, read.props)).inputs)).outs;
    expect(writes() - before).toBe(1);
    expect(updated).toMatchObject({ access: "custom", permissions: { runs: "plan", variables: "read" } });
    expect((await h.client.teamAccess.read(id)).access).toBe("custom");

    // Import by the record's id and by team/workspace: the same record.
    expect(await call(TWS, "read", id, {})).toMatchObject({ id, props: { teamId, workspaceId, organization: h.org } });
    expect(await call(TWS, "read", `${teamId}/${workspaceId}`, {})).toMatchObject({ id });
    await expect(call(TWS, "read", "web", {})).rejects.toThrow(/give its tws-\.\.\. id, or <team-id>\/<ws-id>/);

    await call(TWS, "delete", id, updated);
    expect((await api(h, "GET", `/team-workspaces/${id}`)).status).toBe(404);
    // Gone, and the token sees every workspace: dropped, and a second delete is done.
    expect(await call(TWS, "read", id, updated)).toEqual({});
    await call(TWS, "delete", id, updated);
  });

  it("access the team already has: refused with its import id, or adopted with no write", async () => {
    const [teamId, workspaceId] = [await newTeam(), await newWorkspace()];
    const existing = await h.client.teamAccess.add(teamId, workspaceId, { access: "write" });
    const refused = await create(TWS, { teamId, workspaceId, access: "write" }).catch((e: Error) => e);
    expect(refused).toBeInstanceOf(Error);
    const message = (refused as Error).message;
    expect(message).toContain(`team ${teamId} already has access to workspace ${workspaceId} (${existing.id}`);
    expect(message).toContain("set adopt: true");
    expect(message).toContain(`pulumi import workspaces:index:TeamWorkspaceAccess <name> ${existing.id}`);
    expect(message).not.toMatch(/has already been taken/);

    const before = writes();
    const adopted = await create(TWS, { teamId, workspaceId, access: "write", adopt: true });
    expect(writes() - before).toBe(0);
    expect(adopted).toMatchObject({ id: existing.id, outs: { access: "write", adopt: true } });

    // Declared differently: one update of the existing record.
    const [team2, ws2] = [await newTeam(), await newWorkspace()];
    const other = await h.client.teamAccess.add(team2, ws2, { access: "read" });
    const before2 = writes();
    const changed = await create(TWS, { teamId: team2, workspaceId: ws2, access: "plan", adopt: true });
    expect(writes() - before2).toBe(1);
    expect(changed.id).toBe(other.id);
    expect((await h.client.teamAccess.read(other.id)).access).toBe("plan");
  });

  it("a workspace or team the token cannot find is said plainly", async () => {
    const teamId = await newTeam();
    await expect(create(TWS, { teamId, workspaceId: "ws-doesnotexist", access: "read" })).rejects.toThrow(
      /404 for the workspace, so it does not exist or the token in use may not see it/,
    );
    await expect(
      create(TWS, { teamId: "team-doesnotexist", workspaceId: await newWorkspace(), access: "read" }),
    ).rejects.toThrow(/the team does not exist, is in another organization, or the token in use may not see it/);
  });

  it("the 404 rule: a token that cannot see every workspace never drops the record", async () => {
    const [teamId, workspaceId] = [await newTeam(), await newWorkspace()];
    const { id, outs } = await create(TWS, { teamId, workspaceId, access: "read" });
    // A team that may read this workspace but not manage access: the record is hidden from it.
    const reader = await newTeam();
    await h.client.teamAccess.add(reader, workspaceId, { access: "read" });
    const token = (await api(h, "POST", `/teams/${reader}/authentication-token`)).json.data.attributes.token;
    as(token);
    const refused = await call(TWS, "read", id, outs).catch((e: Error) => e);
    expect(refused).toBeInstanceOf(NotVisibleError);
    expect((refused as Error).message).toContain(
      `cannot refresh the access of team ${teamId} to workspace ${workspaceId} (${id})`,
    );
    await expect(call(TWS, "delete", id, outs)).rejects.toBeInstanceOf(NotVisibleError);
    as(h.server.token);
    expect((await h.client.teamAccess.read(id)).id).toBe(id);
  });
});

describe("TeamProjectAccess against the server", () => {
  it("creates custom access, compares a preset level equal, updates in place, adopts, deletes", async () => {
    const [teamId, projectId] = [await newTeam(), await createProject(h, uniqueName("prj"))];
    const inputs = {
      teamId,
      projectId,
      access: "custom",
      projectPermissions: { settings: "update", teams: "read" },
      workspacePermissions: { runs: "apply", create: true },
    };
    const { id, outs } = await create(TPRJ, inputs);
    expect(id).toMatch(/^tprj-/);
    expect(outs).toMatchObject({
      access: "custom",
      organization: h.org,
      projectPermissions: { settings: "update", teams: "read", variableSets: "none" },
      workspacePermissions: { runs: "apply", create: true, variables: "none", delete: false },
    });
    expect((await diff(TPRJ, outs, inputs)).changes).toBe(false);

    // The preset `maintain` declared as the custom permissions it grants: no change.
    const maintain = await create(TPRJ, { teamId: await newTeam(), projectId, access: "maintain" });
    expect(
      await diff(TPRJ, maintain.outs, {
        ...maintain.outs,
        access: "custom",
        projectPermissions: maintain.outs.projectPermissions,
        workspacePermissions: maintain.outs.workspacePermissions,
      }),
    ).toMatchObject({ changes: false });

    const next = { ...inputs, access: "admin", projectPermissions: undefined, workspacePermissions: undefined };
    expect(await diff(TPRJ, outs, next)).toEqual({ changes: true, replaces: [] });
    const updated = (await call(TPRJ, "update", id, outs, (await check(TPRJ, next, outs)).inputs)).outs;
    expect(updated).toMatchObject({ access: "admin", workspacePermissions: { move: true } });
    expect((await h.client.teamProjectAccess.read(id)).access).toBe("admin");

    expect(await call(TPRJ, "read", `${teamId}/${projectId}`, {})).toMatchObject({ id });
    const refused = await create(TPRJ, { teamId, projectId, access: "admin" }).catch((e: Error) => e.message);
    expect(refused).toContain(`(${id}, access "admin")`);
    expect(refused).toContain("adopt: true");
    const before = writes();
    expect(await create(TPRJ, { teamId, projectId, access: "admin", adopt: true })).toMatchObject({ id });
    expect(writes() - before).toBe(0);

    await call(TPRJ, "delete", id, updated);
    expect((await api(h, "GET", `/team-projects/${id}`)).status).toBe(404);
  });
});

describe("getEffectiveAccess", () => {
  it("puts organization flags, project grants and workspace grants together per team", async () => {
    const projectId = await createProject(h, uniqueName("eff"));
    const ws = await h.client.workspaces.create(h.org, { name: uniqueName("eff"), projectId });
    const managers = await newTeam({ manageWorkspaces: true });
    const viaProject = await newTeam();
    const direct = await newTeam();
    const grant = await h.client.teamProjectAccess.add(viaProject, projectId, { access: "write" });
    const extra = await h.client.teamAccess.add(viaProject, ws.id, {
      access: "custom",
      permissions: { runTasks: true },
    });
    const own = await h.client.teamAccess.add(direct, ws.id, { access: "plan" });

    const result = await getEffectiveAccess({ workspaceId: ws.id });
    expect(result).toMatchObject({ workspaceId: ws.id, projectId });
    const of = (teamId: string) => result.teams.find((t) => t.teamId === teamId);
    expect(of(managers)).toMatchObject({
      access: "admin",
      sources: [{ kind: "organization", id: h.org, access: "admin", flag: "manageWorkspaces" }],
      permissions: { runs: "apply", runTasks: true },
    });
    // write on the project and run tasks on the workspace: more than write, so custom.
    expect(of(viaProject)).toMatchObject({
      access: "custom",
      permissions: { runs: "apply", variables: "write", workspaceLocking: true, runTasks: true },
      sources: [
        { kind: "project", id: grant.id, access: "write" },
        { kind: "workspace", id: extra.id, access: "custom" },
      ],
    });
    expect(of(direct)).toMatchObject({
      access: "plan",
      permissions: { runs: "plan", variables: "read" },
      sources: [{ kind: "workspace", id: own.id, access: "plan" }],
    });
    expect(of(direct)?.teamName).toMatch(/^team-/);
    // The owners team holds every flag.
    expect(result.teams.find((t) => t.teamName === "owners")).toMatchObject({ access: "admin" });

    await expect(getEffectiveAccess({ workspaceId: "web" })).rejects.toThrow(/workspaceId: must be a workspace id/);
    await expect(getEffectiveAccess({ workspaceId: "ws-doesnotexist" })).rejects.toThrow(/answered 404/);
  });

  it("says what the server enforces: a team's organization-wide flags, seen through its own token", async () => {
    const ws = await h.client.workspaces.create(h.org, { name: uniqueName("eff-flags") });
    const readers = await newTeam({ readProjects: true });
    const projectManagers = await newTeam({ manageProjects: true });
    const result = await getEffectiveAccess({ workspaceId: ws.id });
    const of = (teamId: string) => result.teams.find((t) => t.teamId === teamId);
    expect(of(readers)).toMatchObject({ access: "read", sources: [{ kind: "organization", flag: "readProjects" }] });
    expect(of(projectManagers)).toMatchObject({
      access: "admin",
      sources: [{ kind: "organization", flag: "manageProjects" }],
    });
    const permissionsOf = async (teamId: string) => {
      const token = (await api(h, "POST", `/teams/${teamId}/authentication-token`)).json.data.attributes.token;
      const res = await fetch(`${h.server.url}/workspaces/${ws.id}`, {
        headers: { Authorization: `Bearer ${token}` },
      });
      expect(res.status).toBe(200);
      return ((await res.json()) as any).data.attributes.permissions;
    };
    expect(await permissionsOf(readers)).toMatchObject({
      "can-read-run": true,
      "can-queue-run": false,
      "can-update": false,
    });
    expect(await permissionsOf(projectManagers)).toMatchObject({ "can-update": true, "can-destroy": true });
  });
});
