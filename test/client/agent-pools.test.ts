/**
 * The agent pool area of the client against the local server: typed values, the lists
 * sent whole (`[]` clears), filters, a request refused before it leaves, and the typed
 * error of a workspace on a pool that does not allow it.
 */
import { describe, expect, it } from "vitest";
import { AgentPoolNotAllowedError, NotFoundError, ValidationError } from "../../src/client";
import { failure, uniqueName, useServer } from "./helpers";

const t = useServer();

describe("agent pools", () => {
  it("creates a pool with its lists, reads them, and sends each list whole", async () => {
    const a = await t.client.workspaces.create(t.org, { name: uniqueName("pool-ws") });
    const b = await t.client.workspaces.create(t.org, { name: uniqueName("pool-ws") });
    const project = (await t.client.projects.list(t.org).all())[0];
    const pool = await t.client.agentPools.create(t.org, {
      name: uniqueName("pool"),
      organizationScoped: false,
      allowedWorkspaceIds: [a.id],
      allowedProjectIds: [project.id],
    });
    expect(pool).toMatchObject({
      organization: t.org,
      organizationScoped: false,
      allowedWorkspaceIds: [a.id],
      allowedProjectIds: [project.id],
      excludedWorkspaceIds: [],
    });
    expect(pool.id).toMatch(/^apool-/);
    expect(Date.parse(pool.createdAt ?? "")).not.toBeNaN();

    const replaced = await t.client.agentPools.updateAllowedWorkspaces(pool.id, [b.id]);
    expect(replaced.allowedWorkspaceIds).toEqual([b.id]);
    // Each list call leaves the other lists as they were.
    expect(replaced.allowedProjectIds).toEqual([project.id]);
    const excluded = await t.client.agentPools.updateExcludedWorkspaces(pool.id, [a.id]);
    expect(excluded.excludedWorkspaceIds).toEqual([a.id]);
    const cleared = await t.client.agentPools.updateAllowedProjects(pool.id, []);
    expect(cleared.allowedProjectIds).toEqual([]);
    expect(cleared.allowedWorkspaceIds).toEqual([b.id]);

    const read = await t.client.agentPools.read(pool.id);
    expect(read).toMatchObject({
      allowedWorkspaceIds: [b.id],
      allowedProjectIds: [],
      excludedWorkspaceIds: [a.id],
    });
  });

  it("renames and rescopes in place, lists with filters, and deletes", async () => {
    const name = uniqueName("pool");
    const pool = await t.client.agentPools.create(t.org, { name });
    expect(pool.organizationScoped).toBe(true);
    const renamed = await t.client.agentPools.update(pool.id, { name: `${name}-2`, organizationScoped: false });
    expect(renamed).toMatchObject({ id: pool.id, name: `${name}-2`, organizationScoped: false });

    const ws = await t.client.workspaces.create(t.org, { name: uniqueName("filter-ws") });
    const other = await t.client.agentPools.create(t.org, {
      name: uniqueName("other-pool"),
      organizationScoped: false,
    });
    await t.client.agentPools.updateAllowedWorkspaces(other.id, [ws.id]);
    expect((await t.client.agentPools.list(t.org, { query: `${name}-2` }).all()).map((p) => p.id)).toEqual([pool.id]);
    expect((await t.client.agentPools.list(t.org, { allowedWorkspaceName: ws.name }).all()).map((p) => p.id)).toEqual([
      other.id,
    ]);
    const project = (await t.client.projects.list(t.org).all())[0];
    await t.client.agentPools.updateAllowedProjects(pool.id, [project.id]);
    expect(
      (await t.client.agentPools.list(t.org, { allowedProjectName: project.name }).all()).map((p) => p.id),
    ).toContain(pool.id);
    expect(
      (await t.client.agentPools.list(t.org, { allowedProjectName: project.name }).all()).map((p) => p.id),
    ).not.toContain(other.id);
    const byName = (await t.client.agentPools.list(t.org, { sort: "-name" }).all()).map((p) => p.name);
    expect(byName).toEqual([...byName].sort().reverse());
    const all = (await t.client.agentPools.list(t.org).all()).map((p) => p.id);
    expect(all).toEqual(expect.arrayContaining([pool.id, other.id]));

    // A second pool of one name is refused by the service.
    expect(await failure(t.client.agentPools.create(t.org, { name: `${name}-2` }))).toBeInstanceOf(ValidationError);
    await t.client.agentPools.delete(pool.id);
    expect(await failure(t.client.agentPools.read(pool.id))).toBeInstanceOf(NotFoundError);
  });

  it("refuses an empty name before sending anything", async () => {
    const before = t.client.stats.requests;
    const err = await failure(t.client.agentPools.create(t.org, { name: "" }));
    expect(err).toBeInstanceOf(ValidationError);
    expect((err as ValidationError).problems[0].pointer).toBe("/data/attributes/name");
    expect(err.message).toContain("not sent");
    expect(t.client.stats.requests).toBe(before);
  });

  it("raises AgentPoolNotAllowedError for a workspace put on a pool that does not allow it", async () => {
    const pool = await t.client.agentPools.create(t.org, { name: uniqueName("closed"), organizationScoped: false });
    const ws = await t.client.workspaces.create(t.org, { name: uniqueName("outside") });
    const err = await failure(t.client.workspaces.update(ws.id, { executionMode: "agent", agentPoolId: pool.id }));
    expect(err).toBeInstanceOf(AgentPoolNotAllowedError);
    expect(err).toBeInstanceOf(ValidationError);
    await t.client.agentPools.updateAllowedWorkspaces(pool.id, [ws.id]);
    const moved = await t.client.workspaces.update(ws.id, { executionMode: "agent", agentPoolId: pool.id });
    expect(moved.id).toBe(ws.id);
    // Any other 422 stays a plain ValidationError.
    const other = await failure(t.client.workspaces.create(t.org, { name: ws.name }));
    expect(other).toBeInstanceOf(ValidationError);
    expect(other).not.toBeInstanceOf(AgentPoolNotAllowedError);
  });
});
