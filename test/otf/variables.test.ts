/**
 * Workspace variables and variable sets through the typed client against OTF, which
 * serves both: create, read, update and delete a variable (a sensitive value never read
 * back), a set with its variables applied to a workspace, and the workspace's effective
 * variables as the client resolves them from the lists. OTF has no projects: applying a
 * set to one fails naming them.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { FeatureUnavailableError, NotFoundError, WorkspacesClient, WorkspacesError } from "../../src/client";
import { createOrganization, otfServer, runOrganization, type OtfServer } from "./otf";

const org = runOrganization("variables");
let otf: OtfServer;
let client: WorkspacesClient;

beforeAll(async () => {
  otf = otfServer();
  await createOrganization(otf, org);
  client = new WorkspacesClient({ address: otf.url, token: otf.token, organization: org, env: {} });
});

describe("variables on OTF", () => {
  it("creates, reads, updates and deletes a workspace variable", async () => {
    const ws = await client.workspaces.create(org, { name: "vars" });
    const v = await client.variables.create(ws.id, { key: "region", value: "eu", category: "engine" });
    expect(v).toMatchObject({ key: "region", value: "eu", category: "engine", sensitive: false });
    const u = await client.variables.update(ws.id, v.id, { value: "us" });
    expect(u.value).toBe("us");
    expect((await client.variables.list(ws.id)).map((x) => x.key)).toEqual(["region"]);
    const secret = await client.variables.create(ws.id, {
      key: "TOKEN",
      value: "hunter2",
      category: "env",
      sensitive: true,
    });
    expect(secret.value).toBeNull();
    expect(JSON.stringify(await client.variables.read(ws.id, secret.id))).not.toContain("hunter2");
    await client.variables.delete(ws.id, v.id);
    await expect(client.variables.read(ws.id, v.id)).rejects.toBeInstanceOf(NotFoundError);
  });

  it("applies a variable set and resolves the workspace's effective variables", async () => {
    const ws = await client.workspaces.create(org, { name: "with-set" });
    const set = await client.variableSets.create(org, { name: "shared" });
    await client.variableSets.createVariable(set.id, { key: "region", value: "from-set", category: "engine" });
    await client.variableSets.createVariable(set.id, { key: "size", value: "small", category: "engine" });
    await client.variableSets.applyToWorkspaces(set.id, [ws.id]);
    await client.variables.create(ws.id, { key: "region", value: "own", category: "engine" });
    const eff = await client.variableSets.effectiveVariables(ws.id);
    const byKey = Object.fromEntries(eff.variables.map((e) => [e.variable.key, e]));
    expect(byKey.region).toMatchObject({ variable: { value: "own" }, source: { kind: "workspace" } });
    expect(byKey.size).toMatchObject({ variable: { value: "small" }, source: { kind: "variable-set", id: set.id } });
    await client.variableSets.removeFromWorkspaces(set.id, [ws.id]);
    await client.variableSets.delete(set.id);
    await expect(client.variableSets.read(set.id)).rejects.toBeInstanceOf(NotFoundError);
  });

  it("lets a global set reach every workspace below the workspace's own variables", async () => {
    const ws = await client.workspaces.create(org, { name: "under-global" });
    const set = await client.variableSets.create(org, { name: "everywhere", global: true });
    expect(set).toMatchObject({ global: true, workspaceIds: [] });
    await client.variableSets.createVariable(set.id, { key: "region", value: "global", category: "engine" });
    await client.variableSets.createVariable(set.id, { key: "owner", value: "ops", category: "env" });
    await client.variables.create(ws.id, { key: "region", value: "own", category: "engine" });
    expect((await client.variableSets.listForWorkspace(ws.id).all()).map((s) => s.id)).toContain(set.id);
    const eff = await client.variableSets.effectiveVariables(ws.id);
    const byKey = Object.fromEntries(eff.variables.map((e) => [e.variable.key, e]));
    expect(byKey.region).toMatchObject({ variable: { value: "own" }, overridden: [{ variable: { value: "global" } }] });
    expect(byKey.owner).toMatchObject({ variable: { value: "ops", category: "env" }, source: { scope: "global" } });
    await client.variableSets.delete(set.id);
  });

  it("refuses a key taken in the same category, and fails applying a set to a project naming projects", async () => {
    const ws = await client.workspaces.create(org, { name: "refusals" });
    await client.variables.create(ws.id, { key: "dup", value: "1", category: "engine" });
    // The hosted service answers 422; OTF answers 500. Either way no second variable is made.
    await expect(client.variables.create(ws.id, { key: "dup", value: "2", category: "engine" })).rejects.toBeInstanceOf(
      WorkspacesError,
    );
    expect((await client.variables.list(ws.id)).map((v) => v.value)).toEqual(["1"]);
    const set = await client.variableSets.create(org, { name: "for-projects" });
    const err = await client.variableSets.applyToProjects(set.id, ["prj-aaaaaaaaaaaaaaaa"]).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(FeatureUnavailableError);
    expect((err as FeatureUnavailableError).feature).toBe("projects");
    await client.variableSets.delete(set.id);
  });
});
