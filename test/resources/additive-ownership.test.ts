/**
 * The additive ownership rule against the real server: additive `WorkspaceTags` and
 * `RemoteStateConsumers` never change or remove a value they did not set, on create,
 * update and delete, also when another owner changes a value after the resource set it.
 */
import { describe, it, expect, beforeAll, afterAll } from "vitest";
import { workspaceProvider } from "../../src/resources/providers/workspace";
import { workspaceTagsProvider } from "../../src/resources/providers/workspace-tags";
import { remoteStateConsumersProvider } from "../../src/resources/providers/remote-state-consumers";
import { provision as create, startHarness, uniqueName, type Harness } from "./helpers";
import { checkNew } from "./provider-io";

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(async () => {
  await h.close();
});

async function workspace(): Promise<string> {
  return (await create(workspaceProvider, { name: uniqueName("own") })).id;
}

async function bindings(wsId: string): Promise<Record<string, string>> {
  return Object.fromEntries((await h.client.tagBindings.list(wsId)).map((b) => [b.key, b.value]));
}

async function flatTags(wsId: string): Promise<string[]> {
  return (await h.client.workspaces.read(wsId)).tagNames.slice().sort();
}

describe("additive WorkspaceTags: a value set by another owner", () => {
  it("refuses on create with the key and the current value, and changes nothing (flat tags neither)", async () => {
    const wsId = await workspace();
    await h.client.tagBindings.set(wsId, [{ key: "cost-center", value: "cc-original" }]);
    const checked = await checkNew(workspaceTagsProvider, {
      workspaceId: wsId,
      mode: "additive",
      tagNames: ["finops"],
      tags: { "cost-center": "cc-byref", team: "finance" },
    });
    const err = await workspaceTagsProvider.create(checked.inputs).then(
      () => null,
      (e: Error) => e,
    );
    expect(err?.message).toContain("tags.cost-center");
    expect(err?.message).toContain('"cc-original"');
    expect(err?.message).toContain("set outside this resource");
    expect(err?.message).toMatch(/mode "authoritative"/);
    expect(await bindings(wsId)).toEqual({ "cost-center": "cc-original" });
    expect(await flatTags(wsId)).toEqual([]);
  });

  it("accepts the same value without owning it: delete leaves it", async () => {
    const wsId = await workspace();
    await h.client.tagBindings.set(wsId, [{ key: "cost-center", value: "cc-1" }]);
    const { id, outs } = await create(workspaceTagsProvider, {
      workspaceId: wsId,
      mode: "additive",
      tags: { "cost-center": "cc-1", team: "finance" },
    });
    expect(outs.addedTags).toEqual({ team: "finance" });
    expect(outs.tags).toEqual({ "cost-center": "cc-1", team: "finance" });
    await workspaceTagsProvider.delete(id, outs);
    expect(await bindings(wsId)).toEqual({ "cost-center": "cc-1" });
  });
});

describe("additive WorkspaceTags: a value changed by another owner after the resource set it", () => {
  it("delete leaves the other owner's value, and removes the keys that still hold its own", async () => {
    const wsId = await workspace();
    const { id, outs } = await create(workspaceTagsProvider, {
      workspaceId: wsId,
      mode: "additive",
      tags: { "cost-center": "cc-1", team: "finance" },
    });
    expect(outs.addedTags).toEqual({ "cost-center": "cc-1", team: "finance" });
    await h.client.tagBindings.set(wsId, [
      { key: "cost-center", value: "cc-2" },
      { key: "team", value: "finance" },
    ]);
    const refreshed = await workspaceTagsProvider.read(id, outs);
    // What this resource set is kept in state as it was set, so delete can tell.
    expect(refreshed.props!.addedTags).toEqual({ "cost-center": "cc-1", team: "finance" });
    expect(refreshed.props!.tags).toEqual({ "cost-center": "cc-2", team: "finance" });
    await workspaceTagsProvider.delete(id, refreshed.props!);
    expect(await bindings(wsId)).toEqual({ "cost-center": "cc-2" });
  });

  it("update refuses to put its value back over the other owner's, naming both values", async () => {
    const wsId = await workspace();
    const { id, outs, inputs } = await create(workspaceTagsProvider, {
      workspaceId: wsId,
      mode: "additive",
      tags: { env: "dev" },
    });
    await h.client.tagBindings.set(wsId, [{ key: "env", value: "prod" }]);
    const refreshed = await workspaceTagsProvider.read(id, outs);
    expect((await workspaceTagsProvider.diff(id, refreshed.props!, inputs)).changes).toBe(true);
    const err = await workspaceTagsProvider.update(id, refreshed.props!, inputs).then(
      () => null,
      (e: Error) => e,
    );
    expect(err?.message).toContain(
      'tags.env: env was changed outside this resource to "prod" after this resource set it to "dev"',
    );
    expect(await bindings(wsId)).toEqual({ env: "prod" });
  });

  it("update changes its own value, drops its own key, and leaves a key that became another owner's", async () => {
    const wsId = await workspace();
    const { id, outs, inputs } = await create(workspaceTagsProvider, {
      workspaceId: wsId,
      mode: "additive",
      tags: { a: "1", b: "1", c: "1" },
    });
    await h.client.tagBindings.set(wsId, [
      { key: "a", value: "1" },
      { key: "b", value: "1" },
      { key: "c", value: "other" },
      { key: "z", value: "theirs" },
    ]);
    const refreshed = await workspaceTagsProvider.read(id, outs);
    // a: changed by the program; b: dropped by the program; c: dropped, but another owner's value now.
    const updated = await workspaceTagsProvider.update(id, refreshed.props!, { ...inputs, tags: { a: "2" } });
    expect(await bindings(wsId)).toEqual({ a: "2", c: "other", z: "theirs" });
    expect(updated.outs.addedTags).toEqual({ a: "2" });
    await workspaceTagsProvider.delete(id, updated.outs);
    expect(await bindings(wsId)).toEqual({ c: "other", z: "theirs" });
  });

  it("a key it set that someone removed is its own to add again", async () => {
    const wsId = await workspace();
    const { id, outs, inputs } = await create(workspaceTagsProvider, {
      workspaceId: wsId,
      mode: "additive",
      tags: { env: "dev" },
    });
    await h.client.tagBindings.set(wsId, []);
    const refreshed = await workspaceTagsProvider.read(id, outs);
    const updated = await workspaceTagsProvider.update(id, refreshed.props!, inputs);
    expect(await bindings(wsId)).toEqual({ env: "dev" });
    expect(updated.outs.addedTags).toEqual({ env: "dev" });
  });
});

describe("additive flat tags and consumers: one already present is left to its owner", () => {
  it("flat tags: a listed tag the workspace had is not recorded and survives delete", async () => {
    const wsId = await workspace();
    await h.client.tags.add(wsId, ["search"]);
    const { id, outs } = await create(workspaceTagsProvider, {
      workspaceId: wsId,
      mode: "additive",
      tagNames: ["search", "finops"],
    });
    expect(outs.addedTagNames).toEqual(["finops"]);
    await workspaceTagsProvider.delete(id, outs);
    expect(await flatTags(wsId)).toEqual(["search"]);
  });

  it("consumers: a listed consumer the workspace had is not recorded, survives update and delete", async () => {
    const [target, theirs, mine, later] = await Promise.all([workspace(), workspace(), workspace(), workspace()]);
    await h.client.remoteStateConsumers.add(target, [theirs]);
    const { id, outs, inputs } = await create(remoteStateConsumersProvider, {
      workspaceId: target,
      mode: "additive",
      consumerIds: [theirs, mine],
    });
    expect(outs.addedConsumerIds).toEqual([mine]);
    // Dropping the other owner's consumer from the list does not remove it.
    const updated = await remoteStateConsumersProvider.update(id, outs, { ...inputs, consumerIds: [mine, later] });
    expect((await h.client.remoteStateConsumers.listIds(target)).sort()).toEqual([theirs, mine, later].sort());
    await remoteStateConsumersProvider.delete(id, updated.outs);
    expect(await h.client.remoteStateConsumers.listIds(target)).toEqual([theirs]);
  });
});
