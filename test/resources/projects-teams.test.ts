/**
 * `Project`, `Team` and `getTeam` against the real local server, through the entry point as
 * the engine calls them: check failures with their property paths, a diff that sends no
 * request, create, drift read back and restored, a name taken refused with one message,
 * adoption with no write, the take-over of an interrupted project create by its origin (and
 * none for a team), a project that still holds workspaces refused before any write, and the
 * 404 rule for a token that could not have seen the record.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { dispatch, PROTOCOL } from "../../src/resources/entry";
import { configureFromStack } from "../../src/resources/provider-settings";
import { resetClients } from "../../src/resources/providers/client";
import { originFor } from "../../src/resources/providers/origin";
import { UNKNOWN } from "../../src/resources/providers/unknowns";
import { getTeam, lookupSettingsFrom } from "../../src/resources/lookups";
import { api, startHarness, uniqueName, type Harness } from "./helpers";

type Props = Record<string, any>;
type Failure = { property: string; reason: string };

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

async function check(kind: string, news: Props, olds: Props = {}): Promise<{ inputs: Props; failures: Failure[] }> {
  return call(kind, "check", olds, news);
}

async function create(kind: string, news: Props): Promise<{ id: string; outs: Props }> {
  const checked = await check(kind, news);
  expect(checked.failures).toEqual([]);
  return call(kind, "create", checked.inputs);
}

async function diff(kind: string, id: string, olds: Props, news: Props) {
  const checked = await check(kind, news, olds);
  return call(kind, "diff", id, olds, checked.inputs);
}

/** Writes the server has answered so far (POST, PATCH, DELETE). */
function writes(): number {
  return Object.entries(h.server.stats().byRoute)
    .filter(([route]) => /^(POST|PATCH|DELETE) /.test(route))
    .reduce((n, [, count]) => n + count, 0);
}

/** A name the service takes for a project (no dots or other characters). */
const projectName = (prefix: string) => uniqueName(prefix).replace(/[^A-Za-z0-9 _-]/g, "-");

const origin = (name: string, kind: string) => originFor("0123456789abcdef0123456789abcdef", "proj", "dev", kind, name);

/** A token of a new team with the given organization flags (in the service's spelling). */
async function teamToken(flags: Record<string, boolean>): Promise<string> {
  const team = await api(h, "POST", `/organizations/${h.org}/teams`, {
    data: { type: "teams", attributes: { name: uniqueName("viewer"), "organization-access": flags } },
  });
  expect(team.status).toBe(201);
  return (await api(h, "POST", `/teams/${team.json.data.id}/authentication-token`)).json.data.attributes.token;
}

describe("check: one clear failure per bad input, with its property path", () => {
  it("a project", async () => {
    const f = async (news: Props) => (await check("Project", { organization: h.org, ...news })).failures;
    expect(await f({ name: "platform", description: "d" })).toEqual([]);
    expect(await f({})).toEqual([{ property: "name", reason: "is required" }]);
    expect(await f({ name: "" })).toEqual([{ property: "name", reason: "must be a non-empty string" }]);
    expect(await f({ name: "a/b" })).toEqual([
      { property: "name", reason: 'may contain only letters, digits, spaces, - and _ (not "a/b")' },
    ]);
    expect(await f({ name: "x".repeat(41) })).toEqual([
      { property: "name", reason: "is too long (at most 40 characters)" },
    ]);
    expect(await f({ name: "p", description: 12 })).toEqual([{ property: "description", reason: "must be a string" }]);
    expect(await f({ name: UNKNOWN })).toEqual([]);
  });

  it("a team: visibility, flags by their path, and a flag this release does not know passed through", async () => {
    const f = async (news: Props) => (await check("Team", { organization: h.org, name: "t", ...news })).failures;
    expect(await f({ visibility: "public" })).toEqual([
      { property: "visibility", reason: 'must be "secret" or "organization", not "public"' },
    ]);
    expect(await f({ organizationAccess: { manageWorkspaces: "yes" } })).toEqual([
      { property: "organizationAccess.manageWorkspaces", reason: "must be true or false" },
    ]);
    expect(await f({ organizationAccess: { "manage-workspaces": true } })).toEqual([
      {
        property: "organizationAccess.manage-workspaces",
        reason: '"manage-workspaces" is not a flag name: write flags in camel case (manageWorkspaces)',
      },
    ]);
    expect((await f({ organizationAccess: true }))[0].property).toBe("organizationAccess");
    expect(await f({ allowMemberTokenManagement: "no" })).toEqual([
      { property: "allowMemberTokenManagement", reason: "must be true or false" },
    ]);
    const future = await check("Team", {
      organization: h.org,
      name: "t",
      organizationAccess: { manageWorkspaces: true, manageFutureThings: true, readProjects: undefined },
    });
    expect(future.failures).toEqual([]);
    // Every door writes such a flag in otherFlags (the schema's input); the checked inputs hold it there.
    expect(future.inputs.organizationAccess).toEqual({
      manageWorkspaces: true,
      otherFlags: { manageFutureThings: true },
    });
    const other = await check("Team", {
      organization: h.org,
      name: "t",
      organizationAccess: { otherFlags: { manageFutureThings: true } },
    });
    expect(other.failures).toEqual([]);
    expect(other.inputs.organizationAccess).toEqual({ otherFlags: { manageFutureThings: true } });
    expect(await f({ organizationAccess: { otherFlags: { manageWorkspaces: true } } })).toEqual([
      {
        property: "organizationAccess.otherFlags.manageWorkspaces",
        reason:
          "manageWorkspaces is a flag this release knows: set organizationAccess.manageWorkspaces, and keep otherFlags for flags it does not know",
      },
    ]);
    expect(await f({ organizationAccess: { otherFlags: { manageFutureThings: "yes" } } })).toEqual([
      { property: "organizationAccess.otherFlags.manageFutureThings", reason: "must be true or false" },
    ]);
  });
});

describe("diff: pure, from the recorded outputs", () => {
  it("a rename is an update, a change of organization a replacement; no request is made", async () => {
    const olds = { name: "a", organization: h.org, description: "d" };
    const before = h.server.stats().total;
    expect(await call("Project", "diff", "prj-1", olds, { ...olds, name: "b" })).toMatchObject({
      changes: true,
      replaces: [],
    });
    expect(await call("Project", "diff", "prj-1", olds, { ...olds, organization: "other" })).toMatchObject({
      changes: true,
      replaces: ["organization"],
    });
    expect((await call("Project", "diff", "prj-1", olds, { name: "a", organization: h.org })).changes).toBe(false);
    const team = {
      name: "t",
      organization: h.org,
      visibility: "secret",
      organizationAccess: { manageWorkspaces: true, manageModules: false },
      ssoTeamId: null,
      allowMemberTokenManagement: true,
    };
    expect(await call("Team", "diff", "team-1", team, { name: "u", organization: h.org })).toMatchObject({
      changes: true,
      replaces: [],
    });
    expect(await call("Team", "diff", "team-1", team, { name: "t", organization: "other" })).toMatchObject({
      replaces: ["organization"],
    });
    // The declared flags are the whole set: one left out is off; one the service does not report is not compared.
    const same = { name: "t", organization: h.org, organizationAccess: { manageWorkspaces: true, newFlag: true } };
    expect((await call("Team", "diff", "team-1", team, same)).changes).toBe(false);
    const more = { name: "t", organization: h.org, organizationAccess: {} };
    expect((await call("Team", "diff", "team-1", team, more)).changes).toBe(true);
    expect(h.server.stats().total).toBe(before);
  });
});

describe("Project", () => {
  it("creates, reads drift back, restores it, and renames in place", async () => {
    const name = projectName("prj");
    const news = { name, organization: h.org, description: "shared networking" };
    const { id, outs } = await create("Project", news);
    expect(id).toMatch(/^prj-/);
    expect(outs).toMatchObject({ name, organization: h.org, description: "shared networking" });
    expect((await diff("Project", id, outs, news)).changes).toBe(false);

    await h.client.projects.update(id, { description: "changed in the UI" });
    const read = await call("Project", "read", id, outs);
    expect(read.props.description).toBe("changed in the UI");
    expect(await diff("Project", id, read.props, news)).toMatchObject({ changes: true, replaces: [] });
    const restored = (
      await call("Project", "update", id, read.props, (await check("Project", news, read.props)).inputs)
    ).outs;
    expect((await h.client.projects.read(id)).description).toBe("shared networking");

    const renamed = { ...news, name: `${name}-b` };
    const outsB = (await call("Project", "update", id, restored, (await check("Project", renamed, restored)).inputs))
      .outs;
    expect(outsB.name).toBe(`${name}-b`);
    expect((await h.client.projects.read(id)).name).toBe(`${name}-b`);
  });

  it("a name taken: one message naming the id and adopt: true, no write; adopt takes it over with no write", async () => {
    const name = projectName("taken");
    const existing = await h.client.projects.create(h.org, { name, description: "theirs" });
    const checked = await check("Project", { name, organization: h.org, description: "theirs" });
    const refused = await call("Project", "create", checked.inputs).catch((e: Error) => e);
    expect(refused.message).toContain(`project "${name}" (${existing.id}) in organization "${h.org}" already exists`);
    expect(refused.message).toContain("adopt: true");

    const before = writes();
    const adopted = await create("Project", { name, organization: h.org, description: "theirs", adopt: true });
    expect(writes() - before).toBe(0);
    expect(adopted.id).toBe(existing.id);
    expect(adopted.outs.adopt).toBe(true);
    // Without a description the project's own is left as it is: still no write.
    const quiet = await create("Project", { name, organization: h.org, adopt: true });
    expect(quiet.id).toBe(existing.id);
    expect(writes() - before).toBe(0);
  });

  it("an interrupted create is taken over by its origin, with no duplicate; another origin's is not", async () => {
    const name = projectName("crash");
    const news = { name, organization: h.org, __origin: origin("platform", "Project") };
    const first = await create("Project", news);
    expect((await h.client.projects.read(first.id)).description).toContain("interrupted-updates");
    const again = await create("Project", news);
    expect(again.id).toBe(first.id);
    expect((await h.client.projects.list(h.org, { name }).all()).map((p) => p.id)).toEqual([first.id]);
    // A refresh gives the origin back as no description: the program declared none.
    const read = await call("Project", "read", first.id, { ...again.outs, __inputNames: ["name", "organization"] });
    expect(read.inputs).toEqual({ name, organization: h.org });
    const other = await check("Project", { ...news, __origin: origin("another", "Project") });
    await expect(call("Project", "create", other.inputs)).rejects.toThrow(/already exists.*adopt: true/s);
  });

  it("delete refuses, before any write, a project that still holds workspaces, naming the count and the ways out", async () => {
    const { id, outs } = await create("Project", { name: projectName("held"), organization: h.org });
    const a = await h.client.workspaces.create(h.org, { name: uniqueName("in-a"), projectId: id });
    await h.client.workspaces.create(h.org, { name: uniqueName("in-b"), projectId: id });
    const before = writes();
    const refused = await call("Project", "delete", id, outs).catch((e: Error) => e);
    expect(writes()).toBe(before);
    expect(refused.message).toContain(`cannot delete project "${outs.name}" (${id}): it still holds 2 workspaces`);
    expect(refused.message).toContain("Move them to another project or delete them");
    expect(refused.message).toContain("pulumi state delete");
    expect((await h.client.projects.read(id)).id).toBe(id);

    const b = (await h.client.workspaces.list(h.org, { projectId: id }).all()).find((w) => w.id !== a.id)!;
    await h.client.workspaces.safeDelete(a.id);
    await h.client.workspaces.safeDelete(b.id);
    await call("Project", "delete", id, outs);
    // Gone, and the token may create projects: a refresh drops it, a second delete succeeds.
    expect(await call("Project", "read", id, outs)).toEqual({});
    await call("Project", "delete", id, outs);
  });

  it("a 404 for a token that may not see every project drops nothing and says why", async () => {
    const { id, outs } = await create("Project", { name: projectName("hidden"), organization: h.org });
    await h.client.projects.delete(id);
    as(await teamToken({}));
    await expect(call("Project", "read", id, outs)).rejects.toThrow(
      /cannot refresh project .*: the service answered 404.*cannot see every project.*pulumi state delete/s,
    );
    as(await teamToken({ "manage-projects": true }));
    expect(await call("Project", "read", id, outs)).toEqual({});
  });

  it("imports by prj-<id>; another id is refused with the form", async () => {
    const p = await h.client.projects.create(h.org, { name: projectName("imp"), description: "d" });
    const read = await call("Project", "read", p.id, {});
    expect(read.props).toMatchObject({ name: p.name, organization: h.org, description: "d" });
    await expect(call("Project", "read", "ws-1", {})).rejects.toThrow(/prj-<id>/);
  });
});

describe("Team", () => {
  it("creates with its flags, reads a flag turned on outside back, and turns it off again", async () => {
    const name = uniqueName("team");
    const news = {
      name,
      organization: h.org,
      visibility: "organization",
      organizationAccess: { manageWorkspaces: true, manageFutureThings: true },
      ssoTeamId: "sso-1",
    };
    const { id, outs } = await create("Team", news);
    expect(id).toMatch(/^team-/);
    expect(outs).toMatchObject({ name, visibility: "organization", ssoTeamId: "sso-1" });
    expect(outs.organizationAccess).toMatchObject({ manageWorkspaces: true, manageModules: false });
    // The flag this server does not keep is never read back and never a change.
    expect(outs.organizationAccess).not.toHaveProperty("manageFutureThings");
    expect((await diff("Team", id, outs, news)).changes).toBe(false);

    await h.client.teams.update(id, { organizationAccess: { manageModules: true }, visibility: "secret" });
    const read = await call("Team", "read", id, outs);
    expect(read.props.organizationAccess.manageModules).toBe(true);
    expect(await diff("Team", id, read.props, news)).toMatchObject({ changes: true, replaces: [] });
    const checked = await check("Team", news, read.props);
    const restored = (await call("Team", "update", id, read.props, checked.inputs)).outs;
    expect(restored.organizationAccess).toMatchObject({ manageWorkspaces: true, manageModules: false });
    expect(restored.visibility).toBe("organization");
    expect((await diff("Team", id, restored, news)).changes).toBe(false);

    // "" clears the SSO id; a rename is made in place.
    const cleared = { ...news, name: `${name}-b`, ssoTeamId: "" };
    const after = (await call("Team", "update", id, restored, (await check("Team", cleared, restored)).inputs)).outs;
    expect(after).toMatchObject({ name: `${name}-b`, ssoTeamId: null });
    expect((await diff("Team", id, after, cleared)).changes).toBe(false);

    await call("Team", "delete", id, after);
    expect(await call("Team", "read", id, after)).toEqual({});
  });

  it("a name taken: the adopt message even with an origin (a team cannot carry one); adopt with no write", async () => {
    const name = uniqueName("taken-team");
    const existing = await h.client.teams.create(h.org, { name, visibility: "organization" });
    const checked = await check("Team", { name, organization: h.org, __origin: origin("t", "Team") });
    const refused = await call("Team", "create", checked.inputs).catch((e: Error) => e);
    expect(refused.message).toContain(`team "${name}" (${existing.id}) in organization "${h.org}" already exists`);
    expect(refused.message).toContain("adopt: true");
    const before = writes();
    const adopted = await create("Team", { name, organization: h.org, visibility: "organization", adopt: true });
    expect(writes() - before).toBe(0);
    expect(adopted.id).toBe(existing.id);
  });

  it("a 404 drops a secret team only for a token that could have seen it", async () => {
    const { id, outs } = await create("Team", { name: uniqueName("secret"), organization: h.org });
    await h.client.teams.delete(id);
    as(await teamToken({ "manage-workspaces": true }));
    await expect(call("Team", "delete", id, outs)).rejects.toThrow(/cannot delete team .*cannot see every team/s);
    as(h.server.token);
    await call("Team", "delete", id, outs);
  });
});

describe("getTeam", () => {
  it("a team by name with its flags and members; none found says why", async () => {
    const name = uniqueName("lookup");
    const team = await h.client.teams.create(h.org, { name, organizationAccess: { readWorkspaces: true } });
    const found = await getTeam({ name });
    expect(found).toMatchObject({ id: team.id, name, organization: h.org, visibility: "secret", userIds: [] });
    expect(found.organizationAccess).toMatchObject({ readWorkspaces: true, manageWorkspaces: false });
    await expect(getTeam({ name: "no-such-team" })).rejects.toThrow(
      /getTeam: no team "no-such-team" in organization .* may see/,
    );
    await expect(getTeam({ name: "" })).rejects.toThrow(/getTeam/);
  });
});
