import { describe, it, expect, beforeAll, afterAll } from "vitest";
import { workspaceProvider } from "../../src/resources/providers/workspace";
import { workspaceTagsProvider } from "../../src/resources/providers/workspace-tags";
import { remoteStateConsumersProvider } from "../../src/resources/providers/remote-state-consumers";
import { workspaceLockProvider } from "../../src/resources/providers/workspace-lock";
import { api, provision as create, startHarness, uniqueName, type Harness } from "./helpers";
import { checkNew, partialState } from "./provider-io";

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(async () => {
  await h.close();
});

async function workspace(extra: Record<string, unknown> = {}): Promise<string> {
  return (await create(workspaceProvider, { name: uniqueName("ws"), ...extra })).id;
}

describe("WorkspaceTags", () => {
  it("authoritative: exactly the listed tags, drift found on refresh, delete removes them", async () => {
    const wsId = await workspace();
    await h.client.tags.add(wsId, ["stray"]);
    await h.client.tagBindings.set(wsId, [{ key: "stray", value: "1" }]);
    const { id, outs, inputs } = await create(workspaceTagsProvider, {
      workspaceId: wsId,
      tagNames: ["A", "b"],
      tags: { env: "prod" },
    });
    expect(id).toBe(`${wsId}/tags`);
    expect(outs.tagNames).toEqual(["a", "b"]);
    expect(outs.tags).toEqual({ env: "prod" });
    expect((await h.client.workspaces.read(wsId)).tagNames.sort()).toEqual(["a", "b"]);
    expect((await workspaceTagsProvider.diff(id, outs, inputs)).changes).toBe(false);

    await h.client.tags.add(wsId, ["c"]);
    const refreshed = await workspaceTagsProvider.read(id, outs);
    expect(refreshed.props!.tagNames).toEqual(["a", "b", "c"]);
    expect((await workspaceTagsProvider.diff(id, refreshed.props!, inputs)).changes).toBe(true);
    const fixed = await workspaceTagsProvider.update(id, refreshed.props!, inputs);
    expect(fixed.outs.tagNames).toEqual(["a", "b"]);

    await workspaceTagsProvider.delete(id, fixed.outs);
    const ws = await h.client.workspaces.read(wsId);
    expect(ws.tagNames).toEqual([]);
    expect(await h.client.tagBindings.list(wsId)).toEqual([]);
  });

  it("additive: adds only, and delete removes only what it added", async () => {
    const wsId = await workspace();
    await h.client.tags.add(wsId, ["existing", "shared"]);
    await h.client.tagBindings.set(wsId, [{ key: "owner", value: "ops" }]);
    const { id, outs, inputs } = await create(workspaceTagsProvider, {
      workspaceId: wsId,
      mode: "additive",
      tagNames: ["shared", "mine"],
      tags: { env: "dev" },
    });
    expect(outs.addedTagNames).toEqual(["mine"]);
    expect(outs.addedTags).toEqual({ env: "dev" });
    expect(outs.allTagNames).toEqual(["existing", "mine", "shared"]);
    expect((await workspaceTagsProvider.diff(id, outs, inputs)).changes).toBe(false);

    await workspaceTagsProvider.delete(id, outs);
    expect((await h.client.workspaces.read(wsId)).tagNames.sort()).toEqual(["existing", "shared"]);
    expect(await h.client.tagBindings.list(wsId).then((l) => l.map((b) => [b.key, b.value]))).toEqual([
      ["owner", "ops"],
    ]);
  });

  it("a missing workspace reads as gone and deletes as done (for a token that sees every workspace)", async () => {
    const org = h.org;
    // Hand-written state: the id names the workspace.
    expect(
      await workspaceTagsProvider.read(
        "ws-doesnotexist/tags",
        partialState(workspaceTagsProvider, { mode: "authoritative", tagNames: [], organization: org }),
      ),
    ).toEqual({});
    await expect(
      workspaceTagsProvider.delete(
        "ws-doesnotexist/tags",
        partialState(workspaceTagsProvider, { mode: "authoritative", tagNames: ["a"], organization: org }),
      ),
    ).resolves.toBeUndefined();
  });
});

describe("RemoteStateConsumers", () => {
  it("authoritative replace, reads every page, drift, delete clears", async () => {
    const target = await workspace();
    const consumers = await Promise.all(Array.from({ length: 23 }, () => workspace()));
    const { id, outs, inputs } = await create(remoteStateConsumersProvider, {
      workspaceId: target,
      consumerIds: consumers,
    });
    expect(outs.consumerIds).toEqual([...consumers].sort());
    const read = await remoteStateConsumersProvider.read(id, outs);
    expect(read.props!.consumerIds).toHaveLength(23);
    expect(
      (await remoteStateConsumersProvider.diff(id, read.props!, { ...inputs, consumerIds: [...consumers].reverse() }))
        .changes,
    ).toBe(false);

    await h.client.remoteStateConsumers.remove(target, [consumers[0]]);
    const drifted = await remoteStateConsumersProvider.read(id, outs);
    expect(drifted.props!.consumerIds).toHaveLength(22);
    expect((await remoteStateConsumersProvider.diff(id, drifted.props!, inputs)).changes).toBe(true);
    const fixed = await remoteStateConsumersProvider.update(id, drifted.props!, inputs);
    expect(fixed.outs.consumerIds).toHaveLength(23);

    await remoteStateConsumersProvider.delete(id, fixed.outs);
    expect(await h.client.remoteStateConsumers.listIds(target)).toEqual([]);
  });

  it("reads consumers beyond the first page", async () => {
    const target = await workspace();
    const created = await Promise.all(
      Array.from({ length: 105 }, (_, i) =>
        api(h, "POST", `/organizations/${h.org}/workspaces`, {
          data: { type: "workspaces", attributes: { name: uniqueName(`c${i}`) } },
        }),
      ),
    );
    const ids = created.map((r) => r.json.data.id as string);
    const { id, outs } = await create(remoteStateConsumersProvider, { workspaceId: target, consumerIds: ids });
    expect(outs.consumerIds).toHaveLength(105);
    const read = await remoteStateConsumersProvider.read(id, outs);
    expect(read.props!.consumerIds).toEqual([...ids].sort());
  });

  it("additive: adds and removes only its own", async () => {
    const target = await workspace();
    const [mine, theirs] = [await workspace(), await workspace()];
    await h.client.remoteStateConsumers.add(target, [theirs]);
    const { id, outs } = await create(remoteStateConsumersProvider, {
      workspaceId: target,
      consumerIds: [mine, theirs],
      mode: "additive",
    });
    expect(outs.addedConsumerIds).toEqual([mine]);
    await remoteStateConsumersProvider.delete(id, outs);
    expect(await h.client.remoteStateConsumers.listIds(target)).toEqual([theirs]);
  });

  it("a workspace with global remote state gives an error that says so", async () => {
    const target = await workspace({ globalRemoteState: true });
    const other = await workspace();
    const checked = await checkNew(remoteStateConsumersProvider, { workspaceId: target, consumerIds: [other] });
    await expect(remoteStateConsumersProvider.create(checked.inputs)).rejects.toThrow(
      /global-remote-state.*globalRemoteState: false/s,
    );
  });
});

describe("WorkspaceLock", () => {
  it("locks, refuses a second lock naming the holder, unlocks on delete", async () => {
    const wsId = await workspace();
    const { id, outs } = await create(workspaceLockProvider, { workspaceId: wsId, reason: "migration" });
    expect(outs).toMatchObject({ locked: true, reason: "migration" });
    expect((await h.client.workspaces.read(wsId)).locked).toBe(true);

    const second = await checkNew(workspaceLockProvider, { workspaceId: wsId });
    const err = await workspaceLockProvider.create(second.inputs).then(
      () => null,
      (e: Error) => e,
    );
    expect(err?.message).toMatch(/already locked by .+migration/);

    await workspaceLockProvider.delete(id, outs);
    expect((await h.client.workspaces.read(wsId)).locked).toBe(false);
    expect(await workspaceLockProvider.read(id, outs)).toEqual({});
    // Unlocking what is already unlocked is done, not an error.
    await expect(workspaceLockProvider.delete(id, outs)).resolves.toBeUndefined();
  });

  it("force-unlocks when force is set", async () => {
    const wsId = await workspace();
    const { id, outs } = await create(workspaceLockProvider, { workspaceId: wsId, force: true });
    await workspaceLockProvider.delete(id, outs);
    expect((await h.client.workspaces.read(wsId)).locked).toBe(false);
  });

  it("an out-of-band unlock makes the lock gone on refresh", async () => {
    const wsId = await workspace();
    const { id, outs } = await create(workspaceLockProvider, { workspaceId: wsId });
    await api(h, "POST", `/workspaces/${wsId}/actions/unlock`);
    expect(await workspaceLockProvider.read(id, outs)).toEqual({});
  });
});

describe("WorkspaceLock held by someone else", () => {
  it("unlock answers 409 naming force; force-unlock releases it", async () => {
    const wsId = await workspace();
    const teams = await api(h, "GET", `/organizations/${h.org}/teams`);
    const owners = teams.json.data.find((t: any) => t.attributes.name === "owners");
    const user = await api(h, "POST", "/admin/users", {
      data: { type: "users", attributes: { username: uniqueName("alice") } },
    });
    expect(user.status).toBe(201);
    await api(h, "POST", `/teams/${owners.id}/relationships/users`, {
      data: [{ type: "users", id: user.json.data.id }],
    });
    const token = (
      await api(h, "POST", `/users/${user.json.data.id}/authentication-tokens`, {
        data: { type: "authentication-tokens" },
      })
    ).json.data.attributes.token;

    const { id, outs } = await create(workspaceLockProvider, { workspaceId: wsId, reason: "ours" });
    // Our lock is released by hand and another user takes it.
    await api(h, "POST", `/workspaces/${wsId}/actions/force-unlock`);
    const theirs = await fetch(`${h.server.url}/workspaces/${wsId}/actions/lock`, {
      method: "POST",
      headers: { Authorization: `Bearer ${token}`, "Content-Type": "application/vnd.api+json" },
      body: JSON.stringify({ reason: "alice's" }),
    });
    expect(theirs.status).toBe(200);

    const err = await workspaceLockProvider.delete(id, outs).then(
      () => null,
      (e: Error) => e,
    );
    expect(err?.message).toMatch(/another user holds the lock.*force: true/s);
    expect((await h.client.workspaces.read(wsId)).locked).toBe(true);

    await workspaceLockProvider.delete(id, { ...outs, force: true });
    expect((await h.client.workspaces.read(wsId)).locked).toBe(false);
  });
});
