/**
 * The typed client against OTF, a server of the same API that this project did not write:
 * every call OTF implements (create, read by id and by name, list across pages, update,
 * rename, lock, unlock, force-unlock, flat tags, SSH keys, delete), what OTF answers
 * differently from the hosted service (null lists, 409 for a taken name, no project), and
 * the calls of features OTF lacks failing with the client's typed error, naming the feature.
 * What OTF holds is read back with plain HTTP.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as pulumi from "@pulumi/pulumi";
import {
  ConflictError,
  FeatureUnavailableError,
  NotFoundError,
  WorkspacesClient,
  type Feature,
} from "../../src/client";
import { getWorkspaces } from "../../src/index";
import { failure as rejected } from "../resources/provider-io";
import {
  createOrganization,
  failure,
  createSshKey,
  otfApi,
  otfServer,
  runOrganization,
  tagNames,
  workspace,
  type OtfServer,
} from "./otf";

const org = runOrganization("client");
let otf: OtfServer;
let client: WorkspacesClient;

beforeAll(async () => {
  otf = otfServer();
  await createOrganization(otf, org);
  client = new WorkspacesClient({ address: otf.url, token: otf.token, organization: org, env: {} });
});

describe("workspaces on OTF", () => {
  let id: string;

  it("creates with the settings OTF stores and reads its null lists as empty", async () => {
    const settings = {
      description: "bills",
      executionMode: "local",
      autoApply: true,
      allowDestroyPlan: false,
      globalRemoteState: true,
      queueAllRuns: true,
      speculativeEnabled: false,
      engineVersion: "1.6.0",
      workingDirectory: "infra",
      sourceName: "client tests",
      sourceUrl: "https://example.com/client",
    } as const;
    const ws = await client.workspaces.create(org, { name: "billing", ...settings });
    id = ws.id;
    expect(ws).toMatchObject({ name: "billing", ...settings, organization: org, locked: false });
    // OTF answers null for these lists and has no project relationship.
    expect(ws.tagNames).toEqual([]);
    expect(ws.triggerPatterns).toEqual([]);
    expect(ws.triggerPrefixes).toEqual([]);
    expect(ws.projectId ?? null).toBeNull();

    const held = (await workspace(otf, id)).attributes;
    expect(held["terraform-version"]).toBe("1.6.0");
    expect(held["execution-mode"]).toBe("local");
    expect(held["working-directory"]).toBe("infra");
  });

  it("reads by id and by name", async () => {
    const byId = await client.workspaces.read(id);
    const byName = await client.workspaces.readByName(org, "billing");
    expect(byId.id).toBe(id);
    expect(byName.id).toBe(id);
    expect(byName.engineVersion).toBe("1.6.0");
    expect(await failure(client.workspaces.read("ws-AbCdEfGhIjKlMnOp"))).toBeInstanceOf(NotFoundError);
  });

  it("answers a taken name with a conflict the client reads as already-exists", async () => {
    const err = await failure(client.workspaces.create(org, { name: "billing" }));
    expect(err).toBeInstanceOf(ConflictError);
    expect((err as ConflictError).reason).toBe("already-exists");
  });

  it("updates each stored setting and renames, keeping the id", async () => {
    const changes = {
      name: "billing-v2",
      description: "bills, again",
      executionMode: "remote",
      autoApply: false,
      engineVersion: "1.7.5",
      workingDirectory: "infra/v2",
      triggerPatterns: ["/infra/**/*"],
      triggerPrefixes: ["modules/"],
    } as const;
    const ws = await client.workspaces.update(id, {
      ...changes,
      triggerPatterns: [...changes.triggerPatterns],
      triggerPrefixes: [...changes.triggerPrefixes],
    });
    expect(ws).toMatchObject({ id, ...changes, fileTriggersEnabled: true });
    const held = (await workspace(otf, id)).attributes;
    expect(held.name).toBe("billing-v2");
    expect(held["terraform-version"]).toBe("1.7.5");
    expect(await workspace(otf, `${org}/billing`)).toBeNull();
    const byName = await client.workspaces.updateByName(org, "billing-v2", { description: "by name" });
    expect(byName.description).toBe("by name");
  });

  it("keeps what OTF does not store at OTF's own value", async () => {
    // Not stored by OTF: assessments, auto-destroy and setting overwrites; the source is kept from create.
    const ws = await client.workspaces.update(id, { assessmentsEnabled: true, sourceName: "renamed source" });
    expect(ws.assessmentsEnabled).toBe(false);
    expect(ws.sourceName).toBe("client tests");
    expect(ws.settingOverwrites).toEqual({ executionMode: false, agentPool: false });
  });

  it("locks, unlocks and force-unlocks", async () => {
    const locked = await client.workspaces.lock(id, "maintenance");
    expect(locked.locked).toBe(true);
    expect((await workspace(otf, id)).attributes.locked).toBe(true);
    const again = await failure(client.workspaces.lock(id));
    expect(again).toBeInstanceOf(ConflictError);
    expect((again as ConflictError).reason).toBe("already-locked");

    expect((await client.workspaces.unlock(id)).locked).toBe(false);
    expect(await failure(client.workspaces.unlock(id))).toBeInstanceOf(ConflictError);

    await client.locks.lock(id);
    expect((await client.workspaces.forceUnlock(id)).locked).toBe(false);
    expect((await workspace(otf, id)).attributes.locked).toBe(false);
  });

  it("adds, lists and removes flat tags, which OTF keeps in the case given", async () => {
    await client.tags.add(id, ["team-a", "web", "Mixed"]);
    expect(await tagNames(otf, id)).toEqual(["Mixed", "team-a", "web"]);
    expect((await client.tags.list(id).all()).map((t) => t.name).sort()).toEqual(["Mixed", "team-a", "web"]);
    expect((await client.workspaces.read(id)).tagNames.sort()).toEqual(["Mixed", "team-a", "web"]);
    expect((await client.tags.listOrganization(org).all()).map((t) => t.name).sort()).toEqual([
      "Mixed",
      "team-a",
      "web",
    ]);
    const tagged = await client.workspaces.list(org, { tags: ["team-a"] }).all();
    expect(tagged.map((w) => w.id)).toEqual([id]);

    await client.tags.remove(id, ["web", "Mixed"]);
    expect(await tagNames(otf, id)).toEqual(["team-a"]);
  });

  it("reads, lists, assigns and unassigns SSH keys", async () => {
    const keyId = await createSshKey(otf, org, "deploy");
    expect((await client.sshKeys.read(keyId)).name).toBe("deploy");
    expect((await client.sshKeys.list(org).all()).map((k) => k.id)).toEqual([keyId]);

    expect((await client.workspaces.assignSSHKey(id, keyId)).sshKeyId).toBe(keyId);
    expect((await workspace(otf, id)).relationships["ssh-key"].data.id).toBe(keyId);
    expect((await client.workspaces.unassignSSHKey(id)).sshKeyId ?? null).toBeNull();
    expect((await workspace(otf, id)).relationships["ssh-key"].data).toBeNull();
  });

  it("lists across pages and filters by name", async () => {
    // 100 a page: 101 more workspaces make two pages.
    const names = Array.from({ length: 101 }, (_, i) => `page-${String(i).padStart(3, "0")}`);
    for (let i = 0; i < names.length; i += 8) {
      await Promise.all(
        names.slice(i, i + 8).map((name) =>
          otfApi(otf, `/organizations/${org}/workspaces`, {
            method: "POST",
            body: { data: { type: "workspaces", attributes: { name } } },
          }),
        ),
      );
    }
    const pages = [];
    for await (const page of client.workspaces.list(org).pages()) pages.push(page);
    expect(pages.map((p) => p.items.length)).toEqual([100, 2]);
    expect(pages[0].pagination?.["total-count"]).toBe(102);
    const all = await client.workspaces.list(org).all();
    expect(new Set(all.map((w) => w.id)).size).toBe(102);
    expect(all.map((w) => w.name)).toContain("billing-v2");

    const found = await client.workspaces.list(org, { search: "page-10" }).all();
    expect(found.map((w) => w.name).sort()).toEqual(["page-100"]);
  });

  it("deletes by id and by name", async () => {
    await client.workspaces.forceDelete(id);
    expect(await workspace(otf, id)).toBeNull();
    await client.workspaces.forceDeleteByName(org, "page-000");
    expect(await workspace(otf, `${org}/page-000`)).toBeNull();
  });
});

describe("features OTF lacks, through the client", () => {
  let id: string;

  beforeAll(async () => {
    id = (await client.workspaces.create(org, { name: "lacking" })).id;
  });

  /** The call fails with FeatureUnavailableError naming `feature`, in its message too. */
  async function expectUnavailable(p: Promise<unknown>, feature: Feature): Promise<void> {
    const err = await failure(p);
    expect(err, err.message).toBeInstanceOf(FeatureUnavailableError);
    expect((err as FeatureUnavailableError).feature).toBe(feature);
    expect(err.message).toContain(feature);
    expect(err.message).toContain(otf.url);
  }

  it("fails key-value tags", async () => {
    await expectUnavailable(client.tagBindings.list(id), "key-value tags");
    await expectUnavailable(client.tagBindings.set(id, [{ key: "env", value: "dev" }]), "key-value tags");
  });

  it("fails projects", async () => {
    await expectUnavailable(client.projects.list(org).all(), "projects");
  });

  it("fails remote state consumers", async () => {
    await expectUnavailable(client.remoteStateConsumers.listIds(id), "remote state consumers");
    await expectUnavailable(client.remoteStateConsumers.add(id, [id]), "remote state consumers");
  });

  it("fails no-code provisioning", async () => {
    await expectUnavailable(
      client.noCode.enable(org, { registryModuleId: "mod-AbCdEfGhIjKlMnOp" }),
      "no-code provisioning",
    );
  });

  describe("lookups", () => {
    beforeAll(() =>
      pulumi.runtime.setAllConfig(
        { "workspaces:address": otf.url, "workspaces:token": otf.token, "workspaces:organization": org },
        ["workspaces:token"],
      ),
    );
    afterAll(() => pulumi.runtime.setAllConfig({}));

    it("select by name themselves, and refuse key-value tags and project, which OTF cannot apply", async () => {
      expect((await getWorkspaces({ names: ["lacking"] })).ids).toEqual([id]);
      const byTags = await rejected(getWorkspaces({ tags: { env: "dev" } }));
      expect(byTags.message).toMatch(/^getWorkspaces: the server at .* does not offer key-value tags/);
      const byProject = await rejected(getWorkspaces({ project: "prj-AbCdEfGhIjKlMnOp" }));
      expect(byProject.message).toMatch(/^getWorkspaces: the server at .* does not offer projects/);
    });
  });

  it("fails safe delete and deletes nothing", async () => {
    await expectUnavailable(client.workspaces.safeDelete(id), "safe delete");
    await expectUnavailable(client.workspaces.safeDeleteByName(org, "lacking"), "safe delete");
    expect((await workspace(otf, id)).attributes.name).toBe("lacking");
  });
});
