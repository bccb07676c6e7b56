/**
 * The client areas of teams, team access, run triggers, notification configurations and
 * state version outputs against the local server: typed values, paged lists, typed
 * errors, and a token that no value or error of the client carries.
 */
import { describe, expect, it } from "vitest";
import { NotFoundError, ValidationError } from "../../src/client";
import { failure, uniqueName, uploadState, useServer } from "./helpers";

const t = useServer();

describe("teams and their access", () => {
  it("creates, lists, updates and deletes a team", async () => {
    const name = uniqueName("team");
    const team = await t.client.teams.create(t.org, { name, organizationAccess: { manageModules: true } });
    expect(team.organizationAccess.manageModules).toBe(true);
    expect(team.organizationAccess.manageWorkspaces).toBe(false);
    expect(team.visibility).toBe("secret");
    const found = await t.client.teams.list(t.org, { names: [name] }).all();
    expect(found.map((x) => x.id)).toEqual([team.id]);
    const updated = await t.client.teams.update(team.id, {
      visibility: "organization",
      organizationAccess: { manageProviders: true },
    });
    expect(updated.organizationAccess).toMatchObject({ manageModules: true, manageProviders: true });
    expect((await failure(t.client.teams.create(t.org, { name }))) instanceof ValidationError).toBe(true);
    await t.client.teams.delete(team.id);
    expect((await failure(t.client.teams.delete(team.id))) instanceof NotFoundError).toBe(true);
    expect((await failure(t.client.teams.read(team.id))) instanceof NotFoundError).toBe(true);
  });

  it("grants a team a level on a workspace and custom permissions on a project", async () => {
    const team = await t.client.teams.create(t.org, { name: uniqueName("grantee") });
    const ws = await t.client.workspaces.create(t.org, { name: uniqueName("granted") });
    const access = await t.client.teamAccess.add(team.id, ws.id, { access: "write" });
    expect(access.permissions).toMatchObject({ runs: "apply", workspaceLocking: true, runTasks: false });
    const custom = await t.client.teamAccess.update(access.id, {
      access: "custom",
      permissions: { stateVersions: "read-outputs" },
    });
    expect(custom.permissions).toMatchObject({ stateVersions: "read-outputs", runs: "apply" });
    expect((await t.client.teamAccess.list(ws.id).all()).map((a) => a.id)).toEqual([access.id]);
    const refused = await failure(t.client.teamAccess.add(team.id, ws.id, { access: "read" }));
    expect(refused instanceof ValidationError).toBe(true);
    await t.client.teamAccess.remove(access.id);

    const project = (await t.client.projects.list(t.org).all())[0];
    const onProject = await t.client.teamProjectAccess.add(team.id, project.id, {
      access: "custom",
      projectPermissions: { variableSets: "read" },
      workspacePermissions: { runs: "plan", create: true },
    });
    expect(onProject.projectPermissions.variableSets).toBe("read");
    expect(onProject.workspacePermissions).toMatchObject({ runs: "plan", create: true, delete: false });
    expect((await t.client.teamProjectAccess.list(project.id).all()).map((a) => a.id)).toEqual([onProject.id]);
    await t.client.teamProjectAccess.remove(onProject.id);
  });
});

describe("run triggers", () => {
  it("creates, lists both ways, reads and deletes a trigger", async () => {
    const target = await t.client.workspaces.create(t.org, { name: uniqueName("target") });
    const source = await t.client.workspaces.create(t.org, { name: uniqueName("source") });
    const trigger = await t.client.runTriggers.create(target.id, source.id);
    expect(trigger).toMatchObject({ workspaceId: target.id, sourceableId: source.id, sourceableName: source.name });
    expect((await t.client.runTriggers.list(target.id, "inbound").all()).map((r) => r.id)).toEqual([trigger.id]);
    expect((await t.client.runTriggers.list(source.id, "outbound").all()).map((r) => r.id)).toEqual([trigger.id]);
    expect((await failure(t.client.runTriggers.create(target.id, target.id))) instanceof ValidationError).toBe(true);
    await t.client.runTriggers.delete(trigger.id);
    expect((await failure(t.client.runTriggers.read(trigger.id))) instanceof NotFoundError).toBe(true);
  });
});

describe("notification configurations", () => {
  it("creates one with a token it never reads back, and carries no token in an error", async () => {
    const ws = await t.client.workspaces.create(t.org, { name: uniqueName("notified") });
    const token = "client-secret-token-7f3c";
    const nc = await t.client.notificationConfigurations.create(ws.id, {
      name: "failures",
      destinationType: "generic",
      enabled: false,
      url: "https://hooks.example.com/deploys",
      token,
      triggers: ["run:errored"],
    });
    expect(nc).toMatchObject({
      enabled: false,
      triggers: ["run:errored"],
      subscribable: { type: "workspaces", id: ws.id },
    });
    expect(JSON.stringify(nc)).not.toContain(token);
    const listed = await t.client.notificationConfigurations.list(ws.id).all();
    expect(listed.map((x) => x.id)).toEqual([nc.id]);
    const refused = await failure(t.client.notificationConfigurations.verify(nc.id));
    expect(refused instanceof ValidationError).toBe(true);
    expect(refused.message).toMatch(/only to loopback addresses/);
    expect(refused.message).not.toContain(token);
    const bad = await failure(
      t.client.notificationConfigurations.create(ws.id, {
        name: "x",
        destinationType: "generic",
        enabled: false,
        url: "nope",
        token,
      }),
    );
    expect(bad instanceof ValidationError).toBe(true);
    expect(`${bad.message} ${JSON.stringify(bad)}`).not.toContain(token);
    const renamed = await t.client.notificationConfigurations.update(nc.id, { name: "all failures" });
    expect(renamed.name).toBe("all failures");
    await t.client.notificationConfigurations.delete(nc.id);
    expect((await failure(t.client.notificationConfigurations.read(nc.id))) instanceof NotFoundError).toBe(true);
  });
});

describe("state version outputs", () => {
  it("reads a workspace's current outputs and one by id", async () => {
    const ws = await t.client.workspaces.create(t.org, { name: uniqueName("outputs") });
    await t.client.locks.lock(ws.id);
    await uploadState(t.server, ws.id, {
      serial: 1,
      resources: 0,
      outputs: { url: { value: "https://x", type: "string" }, key: { value: "k", type: "string", sensitive: true } },
    });
    await t.client.locks.unlock(ws.id);
    const outputs = await t.client.stateVersionOutputs.readCurrent(ws.id);
    expect(Object.fromEntries(outputs.map((o) => [o.name, o.value]))).toEqual({ key: null, url: "https://x" });
    const key = outputs.find((o) => o.name === "key")!;
    expect(await t.client.stateVersionOutputs.read(key.id)).toMatchObject({ sensitive: true, value: "k" });
  });
});
