/**
 * Teams, team access, run triggers and notification configurations through the typed
 * client against OTF. OTF serves teams (no `organization` or users relationship, every
 * team listed whatever the filter), run triggers (no workspace names, a duplicate
 * accepted) and notification configurations on workspaces (generic, Slack and email; its
 * own verify route). It lacks team access to workspaces and projects, Microsoft Teams
 * destinations and the verify action: each fails with the client's error naming the
 * feature. What OTF holds is read back with plain HTTP.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { FeatureUnavailableError, NotFoundError, WorkspacesClient, type Feature } from "../../src/client";
import {
  createOrganization,
  failure,
  createWorkspace,
  otfApi,
  otfServer,
  runOrganization,
  type OtfServer,
} from "./otf";

const org = runOrganization("teams");
const other = runOrganization("teams-other");
let otf: OtfServer;
let client: WorkspacesClient;

beforeAll(async () => {
  otf = otfServer();
  await createOrganization(otf, org);
  await createOrganization(otf, other);
  client = new WorkspacesClient({ address: otf.url, token: otf.token, organization: org, env: {} });
});

async function unavailable(p: Promise<unknown>, feature: Feature): Promise<void> {
  const err = await failure(p);
  expect(err, err.message).toBeInstanceOf(FeatureUnavailableError);
  expect((err as FeatureUnavailableError).feature).toBe(feature);
  expect(err.message).toContain(`does not offer ${feature}`);
}

describe("teams on OTF", () => {
  it("creates, reads, lists by name, updates and deletes a team", async () => {
    const team = await client.teams.create(org, {
      name: "devs",
      visibility: "organization",
      organizationAccess: { manageWorkspaces: true, manageModules: true },
      ssoTeamId: "sso-devs",
    });
    expect(team).toMatchObject({
      name: "devs",
      visibility: "organization",
      ssoTeamId: "sso-devs",
      organizationAccess: { manageWorkspaces: true, manageModules: true, manageProviders: false },
      userIds: [],
    });
    // OTF's team carries no organization relationship and no allow-member-token-management.
    expect(team.organization).toBeNull();
    expect(team.allowMemberTokenManagement).toBeNull();
    expect((await client.teams.read(team.id)).name).toBe("devs");

    // OTF lists every team (its owners team too) whatever the filter; the client keeps the named ones.
    const raw = await otfApi<any>(otf, `/organizations/${org}/teams?filter%5Bnames%5D=devs`);
    expect(raw.body.data.map((t: any) => t.attributes.name).sort()).toEqual(["devs", "owners"]);
    expect((await client.teams.list(org, { names: ["devs"] }).all()).map((t) => t.id)).toEqual([team.id]);
    expect((await client.teams.list(org, { query: "DEV" }).all()).map((t) => t.id)).toEqual([team.id]);
    expect((await client.teams.list(org).all()).map((t) => t.name).sort()).toEqual(["devs", "owners"]);

    const updated = await client.teams.update(team.id, {
      name: "developers",
      visibility: "secret",
      organizationAccess: { manageModules: false, manageProviders: true },
    });
    expect(updated).toMatchObject({
      name: "developers",
      visibility: "secret",
      organizationAccess: { manageWorkspaces: true, manageModules: false, manageProviders: true },
    });
    expect((await otfApi<any>(otf, `/teams/${team.id}`)).body.data.attributes.name).toBe("developers");

    await client.teams.delete(team.id);
    expect(await failure(client.teams.read(team.id))).toBeInstanceOf(NotFoundError);
    expect(await failure(client.teams.delete(team.id))).toBeInstanceOf(NotFoundError);
  });

  it("refuses a name taken, and leaves one team of it", async () => {
    await client.teams.create(org, { name: "taken" });
    // The hosted service answers 422; OTF answers 409.
    const err = await failure(client.teams.create(org, { name: "taken" }));
    expect(err.message).toMatch(/409|already exists/);
    expect((await client.teams.list(org, { names: ["taken"] }).all()).length).toBe(1);
  });
});

describe("team access on OTF", () => {
  it("fails team workspace access and team project access naming the feature", async () => {
    const team = await client.teams.create(org, { name: "grantees" });
    const ws = await client.workspaces.create(org, { name: "granted" });
    await unavailable(client.teamAccess.add(team.id, ws.id, { access: "write" }), "team workspace access");
    await unavailable(client.teamAccess.list(ws.id).all(), "team workspace access");
    // OTF has no projects at all: a project id reads nowhere, so the grant's 404 stays a NotFoundError,
    // and the projects of the organization are the feature that is missing.
    expect(
      await failure(client.teamProjectAccess.add(team.id, "prj-aaaaaaaaaaaaaaaa", { access: "read" })),
    ).toBeInstanceOf(NotFoundError);
    await unavailable(client.projects.list(org).all(), "projects");
    // Nothing was granted: the workspace's team access route still answers 404.
    expect((await otfApi(otf, `/team-workspaces?filter%5Bworkspace%5D%5Bid%5D=${ws.id}`)).status).toBe(404);
  });
});

describe("run triggers on OTF", () => {
  it("creates, lists both ways, reads and deletes a trigger", async () => {
    const target = await client.workspaces.create(org, { name: "downstream" });
    const source = await client.workspaces.create(org, { name: "upstream" });
    const rt = await client.runTriggers.create(target.id, source.id);
    expect(rt).toMatchObject({ workspaceId: target.id, sourceableId: source.id });
    expect(rt.id).toMatch(/^rt-/);
    expect(rt.createdAt).not.toBeNull();
    // OTF sends neither workspace's name.
    expect(rt).toMatchObject({ workspaceName: null, sourceableName: null });
    expect((await client.runTriggers.list(target.id, "inbound").all()).map((t) => t.id)).toEqual([rt.id]);
    expect((await client.runTriggers.list(source.id, "outbound").all()).map((t) => t.id)).toEqual([rt.id]);
    expect(await client.runTriggers.list(source.id, "inbound").all()).toEqual([]);
    expect((await client.runTriggers.read(rt.id)).sourceableId).toBe(source.id);
    await client.runTriggers.delete(rt.id);
    expect(await failure(client.runTriggers.read(rt.id))).toBeInstanceOf(NotFoundError);
    expect(await failure(client.runTriggers.delete(rt.id))).toBeInstanceOf(NotFoundError);
    expect(await client.runTriggers.list(target.id, "inbound").all()).toEqual([]);
  });

  it("refuses a workspace triggering itself with a 422, and accepts a second trigger of the same pair", async () => {
    const ws = await client.workspaces.create(org, { name: "loop" });
    const err = await failure(client.runTriggers.create(ws.id, ws.id));
    expect(err.message).toMatch(/422/);
    expect(err.message).toContain("cannot trigger itself");
    expect(await client.runTriggers.list(ws.id, "inbound").all()).toEqual([]);

    // The hosted service refuses a pair already linked ("has already been taken"); OTF makes a second trigger.
    const source = await client.workspaces.create(org, { name: "twice" });
    const first = await client.runTriggers.create(ws.id, source.id);
    const second = await client.runTriggers.create(ws.id, source.id);
    expect(second.id).not.toBe(first.id);
    expect((await client.runTriggers.list(ws.id, "inbound").all()).map((t) => t.id).sort()).toEqual(
      [first.id, second.id].sort(),
    );
    await client.runTriggers.delete(first.id);
    await client.runTriggers.delete(second.id);
  });

  it("makes a trigger from another organization's workspace, and drops a trigger with its source", async () => {
    const ws = await client.workspaces.create(org, { name: "across" });
    const foreign = await createWorkspace(otf, other, { name: "foreign" });
    // The hosted service refuses a source of another organization; OTF makes the trigger.
    const across = await client.runTriggers.create(ws.id, foreign);
    expect(across.sourceableId).toBe(foreign);
    await client.runTriggers.delete(across.id);

    // A source workspace deleted takes its triggers with it: the trigger then reads 404.
    const source = await client.workspaces.create(org, { name: "short-lived" });
    const rt = await client.runTriggers.create(ws.id, source.id);
    await client.workspaces.forceDelete(source.id);
    expect(await failure(client.runTriggers.read(rt.id))).toBeInstanceOf(NotFoundError);
    expect(await client.runTriggers.list(ws.id, "inbound").all()).toEqual([]);
  });
});

describe("notification configurations on OTF", () => {
  let ws: string;
  beforeAll(async () => {
    ws = (await client.workspaces.create(org, { name: "notified" })).id;
  });

  it("creates, reads, lists, updates and deletes a generic configuration; its token never comes back", async () => {
    const c = await client.notificationConfigurations.create(ws, {
      name: "hook",
      destinationType: "generic",
      enabled: false,
      url: "http://127.0.0.1:9/hook",
      token: "hook-token-never-read",
      triggers: ["run:errored", "run:completed"],
    });
    expect(c).toMatchObject({
      name: "hook",
      destinationType: "generic",
      enabled: false,
      url: "http://127.0.0.1:9/hook",
      subscribable: { type: "workspaces", id: ws },
      deliveryResponses: [],
      emailAddresses: [],
      emailUserIds: [],
    });
    expect(c.triggers.sort()).toEqual(["run:completed", "run:errored"]);
    // OTF echoes `token: ""`; the client keeps no token attribute at all.
    expect("token" in c.attributes).toBe(false);
    const raw = await otfApi<any>(otf, `/notification-configurations/${c.id}`);
    expect(JSON.stringify(raw.body)).not.toContain("hook-token-never-read");
    expect(JSON.stringify(await client.notificationConfigurations.read(c.id))).not.toContain("hook-token-never-read");

    const u = await client.notificationConfigurations.update(c.id, {
      name: "hook-2",
      enabled: true,
      url: "http://127.0.0.1:9/other",
      triggers: ["run:created"],
    });
    expect(u).toMatchObject({
      name: "hook-2",
      enabled: true,
      url: "http://127.0.0.1:9/other",
      triggers: ["run:created"],
    });
    expect((await client.notificationConfigurations.list(ws).all()).map((x) => x.id)).toContain(c.id);

    await client.notificationConfigurations.delete(c.id);
    expect(await failure(client.notificationConfigurations.read(c.id))).toBeInstanceOf(NotFoundError);
    expect(await failure(client.notificationConfigurations.delete(c.id))).toBeInstanceOf(NotFoundError);
  });

  it("creates Slack and email configurations; an email one has no URL", async () => {
    const slack = await client.notificationConfigurations.create(ws, {
      name: "slack",
      destinationType: "slack",
      enabled: false,
      url: "http://127.0.0.1:9/slack",
    });
    expect(slack).toMatchObject({ destinationType: "slack", url: "http://127.0.0.1:9/slack", triggers: [] });
    const email = await client.notificationConfigurations.create(ws, {
      name: "mail",
      destinationType: "email",
      enabled: true,
    });
    // OTF sends `url: ""` for it; the client reads no URL, as the hosted service's null.
    expect(email).toMatchObject({ destinationType: "email", url: null, emailAddresses: [] });
    expect((await otfApi<any>(otf, `/notification-configurations/${email.id}`)).body.data.attributes.url).toBe("");
    await client.notificationConfigurations.delete(slack.id);
    await client.notificationConfigurations.delete(email.id);
  });

  it("fails Microsoft Teams and verification naming the feature, and makes nothing", async () => {
    const before = (await client.notificationConfigurations.list(ws).all()).map((c) => c.id);
    await unavailable(
      client.notificationConfigurations.create(ws, {
        name: "teams",
        destinationType: "microsoft-teams",
        enabled: true,
        url: "http://127.0.0.1:9/teams",
      }),
      "Microsoft Teams notifications",
    );
    expect((await client.notificationConfigurations.list(ws).all()).map((c) => c.id)).toEqual(before);

    const c = await client.notificationConfigurations.create(ws, {
      name: "verified",
      destinationType: "generic",
      enabled: true,
      url: "http://127.0.0.1:9/verify",
    });
    await unavailable(client.notificationConfigurations.verify(c.id), "notification verification");
    await client.notificationConfigurations.delete(c.id);
    expect(await failure(client.notificationConfigurations.verify(c.id))).toBeInstanceOf(NotFoundError);
  });

  it("refuses a trigger it does not know, and keeps nothing of the create", async () => {
    const before = (await client.notificationConfigurations.list(ws).all()).length;
    // `assessment:drifted` is on the hosted service's list, not on OTF's (which answers 500).
    const err = await failure(
      client.notificationConfigurations.create(ws, {
        name: "drift",
        destinationType: "generic",
        enabled: true,
        url: "http://127.0.0.1:9/drift",
        triggers: ["assessment:drifted"],
      }),
    );
    expect(err.message).toContain("invalid notification trigger");
    expect(await client.notificationConfigurations.list(ws).all()).toHaveLength(before);
  });

  it("lists a missing workspace's configurations as a NotFoundError", async () => {
    expect(await failure(client.notificationConfigurations.list("ws-aaaaaaaaaaaaaaaa").all())).toBeInstanceOf(
      NotFoundError,
    );
  });
});
