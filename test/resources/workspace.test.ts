import { describe, it, expect, beforeAll, afterAll } from "vitest";
import { workspaceProvider } from "../../src/resources/providers/workspace";
import { api, createProject, giveResources, startHarness, uniqueName, type Harness } from "./helpers";
import { vcsRepoInput } from "./provider-io";

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(async () => {
  await h.close();
});

/** Runs check then create, as the engine does. */
async function create(inputs: Record<string, unknown>) {
  const checked = await workspaceProvider.check({}, inputs);
  expect(checked.failures).toEqual([]);
  const created = await workspaceProvider.create(checked.inputs);
  return { id: created.id, outs: created.outs, inputs: checked.inputs };
}

describe("Workspace against the local server", () => {
  it("creates with tags in at most two requests, then a no-op diff after refresh", async () => {
    const before = apiRequests(h);
    const name = uniqueName("web");
    const { id, outs, inputs } = await create({
      name,
      description: "front end",
      autoApply: true,
      triggerPatterns: ["b/**", "a/**"],
      tags: { env: "prod", team: "web" },
      tagNames: ["Team-A", "frontend"],
    });
    expect(id).toMatch(/^ws-/);
    expect(apiRequests(h) - before).toBeLessThanOrEqual(2);
    expect(outs.tags).toEqual({ env: "prod", team: "web" });
    expect(outs.tagNames).toEqual(["frontend", "team-a"]);
    expect(outs.organization).toBe(h.org);

    const beforeRead = apiRequests(h);
    const read = await workspaceProvider.read(id, outs);
    expect(apiRequests(h) - beforeRead).toBe(1);
    expect(read.id).toBe(id);
    expect(read.props!.tagNames).toEqual(["frontend", "team-a"]);
    expect(read.props!.effectiveTags).toEqual({ env: "prod", team: "web" });
    const beforeDiff = apiRequests(h);
    const diff = await workspaceProvider.diff(id, read.props!, inputs);
    expect(diff).toMatchObject({ changes: false, replaces: [] });
    expect(apiRequests(h) - beforeDiff).toBe(0);
  });

  it("updates in place, then sees an out-of-band change on refresh and puts it back", async () => {
    const { id, outs, inputs } = await create({
      name: uniqueName("api"),
      description: "one",
      tagNames: ["a"],
      tags: { k: "v" },
    });
    const news = { ...inputs, description: "two", tagNames: ["b"], tags: { k: "w", other: "x" } };
    const d = await workspaceProvider.diff(id, outs, news);
    expect(d.changes).toBe(true);
    const updated = await workspaceProvider.update(id, outs, news);
    expect(updated.outs).toMatchObject({ description: "two", tagNames: ["b"], tags: { k: "w", other: "x" } });
    const ws = await h.client.workspaces.read(id);
    expect(ws.id).toBe(id);
    expect(ws.description).toBe("two");
    expect(ws.tagNames).toEqual(["b"]);

    // Someone edits the workspace by hand.
    await h.client.workspaces.update(id, { description: "hand edit", tagBindings: [{ key: "k", value: "w" }] });
    await h.client.tags.add(id, ["manual"]);
    const refreshed = await workspaceProvider.read(id, updated.outs);
    expect(refreshed.props).toMatchObject({ description: "hand edit", tags: { k: "w" } });
    expect(refreshed.props!.tagNames).toEqual(["b", "manual"]);
    const drift = await workspaceProvider.diff(id, refreshed.props!, news);
    expect(drift.changes).toBe(true);
    const fixed = await workspaceProvider.update(id, refreshed.props!, news);
    expect(fixed.outs).toMatchObject({ description: "two", tags: { k: "w", other: "x" }, tagNames: ["b"] });
  });

  it("renames, moves project and sees inherited tags in effectiveTags", async () => {
    const prj = await createProject(h, uniqueName("prj"), { costcenter: "42" });
    const { id, outs, inputs } = await create({ name: uniqueName("mv"), tags: { env: "dev" } });
    const news = { ...inputs, name: uniqueName("moved"), project: prj };
    const updated = await workspaceProvider.update(id, outs, news);
    expect(updated.outs.name).toBe(news.name);
    expect(updated.outs.project).toBe(prj);
    expect(updated.outs.tags).toEqual({ env: "dev" });
    expect(updated.outs.effectiveTags).toEqual({ env: "dev", costcenter: "42" });
    // Inherited bindings are not the workspace's own: a refresh keeps them apart.
    const refreshed = await workspaceProvider.read(id, updated.outs);
    expect(refreshed.props!.tags).toEqual({ env: "dev" });
    expect(refreshed.props!.effectiveTags).toEqual({ env: "dev", costcenter: "42" });
    expect((await workspaceProvider.diff(id, updated.outs, news)).changes).toBe(false);
  });

  it("read of a deleted workspace returns no id; delete of a missing one succeeds", async () => {
    const { id, outs } = await create({ name: uniqueName("gone") });
    await h.client.workspaces.forceDelete(id);
    expect(await workspaceProvider.read(id, outs)).toEqual({});
    await expect(workspaceProvider.delete(id, outs)).resolves.toBeUndefined();
  });

  it("safe delete refuses a workspace managing resources and names forceDelete; forced delete removes it", async () => {
    const { id, outs } = await create({ name: uniqueName("busy") });
    await giveResources(h, id, 3);
    const err = await workspaceProvider.delete(id, outs).then(
      () => null,
      (e: Error) => e,
    );
    expect(err).not.toBeNull();
    expect(err!.message).toMatch(/still manages resources/);
    expect(err!.message).toMatch(/forceDelete/);
    expect((await h.client.workspaces.read(id)).id).toBe(id);

    await workspaceProvider.delete(id, { ...outs, forceDelete: true });
    expect(await workspaceProvider.read(id, outs)).toEqual({});
  });

  it("safe delete removes an idle workspace", async () => {
    const { id, outs } = await create({ name: uniqueName("idle") });
    await workspaceProvider.delete(id, outs);
    const r = await api(h, "GET", `/workspaces/${id}`);
    expect(r.status).toBe(404);
  });

  it("adopts by id and by org/name through read", async () => {
    const { id, outs } = await create({ name: uniqueName("adopt") });
    const byName = await workspaceProvider.read(`${h.org}/${outs.name}`, {});
    expect(byName.id).toBe(id);
    expect(byName.props!.name).toBe(outs.name);
  });

  it("a refused create reports the service's reason (duplicate name)", async () => {
    const { inputs } = await create({ name: uniqueName("dup") });
    await expect(workspaceProvider.create(inputs)).rejects.toThrow(/409|422|already|taken/i);
  });
});

/** Requests served so far, leaving out the once-per-process rate-limit announcement (`/ping`). */
function apiRequests(harness: Harness): number {
  const s = harness.server.stats();
  const pings = Object.entries(s.byRoute)
    .filter(([k]) => k.includes("/ping"))
    .reduce((n, [, v]) => n + v, 0);
  return s.total - pings;
}

describe("Workspace VCS repository and SSH key", () => {
  it("connects a repository and a key, changes the branch, then removes both", async () => {
    const oc = await api(h, "POST", `/organizations/${h.org}/oauth-clients`, {
      data: {
        type: "oauth-clients",
        attributes: {
          "service-provider": "github",
          "http-url": "https://github.com",
          "api-url": "https://api.github.com",
        },
      },
    });
    expect(oc.status).toBe(201);
    const oauthTokenId = oc.json.data.relationships["oauth-tokens"].data[0].id;
    const key = await api(h, "POST", `/organizations/${h.org}/ssh-keys`, {
      data: { type: "ssh-keys", attributes: { name: uniqueName("key"), value: "-----BEGIN KEY-----" } },
    });
    expect(key.status).toBe(201);

    const { id, outs, inputs } = await create({
      name: uniqueName("vcs"),
      vcsRepo: { identifier: "acme/web", oauthTokenId, branch: "main" },
      workingDirectory: "infra",
      triggerPrefixes: ["modules/", "infra/"],
      sshKeyId: key.json.data.id,
    });
    expect(outs.vcsRepo).toMatchObject({ identifier: "acme/web", oauthTokenId, branch: "main" });
    expect(outs.sshKeyId).toBe(key.json.data.id);
    const refreshed = await workspaceProvider.read(id, outs);
    expect((await workspaceProvider.diff(id, refreshed.props!, inputs)).changes).toBe(false);

    const branch = { ...inputs, vcsRepo: vcsRepoInput({ identifier: "acme/web", oauthTokenId, branch: "release" }) };
    const u1 = await workspaceProvider.update(id, refreshed.props!, branch);
    expect(u1.outs.vcsRepo!.branch).toBe("release");

    // From the OAuth token to a VCS app installation: the token is cleared in the same request.
    const app = {
      ...inputs,
      vcsRepo: vcsRepoInput({ identifier: "acme/web", vcsAppInstallationId: "ghain-123", branch: "release" }),
    };
    const appCheck = await workspaceProvider.check({}, app);
    expect(appCheck.failures).toEqual([]);
    const u1b = await workspaceProvider.update(id, u1.outs, appCheck.inputs);
    expect(u1b.outs.vcsRepo).toMatchObject({ vcsAppInstallationId: "ghain-123" });
    expect(u1b.outs.vcsRepo!.oauthTokenId ?? null).toBeNull();
    expect((await workspaceProvider.diff(id, u1b.outs, appCheck.inputs)).changes).toBe(false);

    const removed = { ...branch, vcsRepo: null, sshKeyId: "" };
    const check = await workspaceProvider.check({}, removed);
    expect(check.failures).toEqual([]);
    const u2 = await workspaceProvider.update(id, u1b.outs, check.inputs);
    expect(u2.outs.vcsRepo).toBeNull();
    expect(u2.outs.sshKeyId).toBeNull();
    const ws = await h.client.workspaces.read(id);
    expect(ws.vcsRepo).toBeNull();
    expect(ws.sshKeyId).toBeNull();
    expect((await workspaceProvider.diff(id, u2.outs, check.inputs)).changes).toBe(false);
  });
});

describe("Workspace force delete without the right", () => {
  it("a 403 says who may force delete and leaves the workspace", async () => {
    const team = await api(h, "POST", `/organizations/${h.org}/teams`, {
      data: {
        type: "teams",
        attributes: { name: uniqueName("platform"), "organization-access": { "manage-workspaces": true } },
      },
    });
    expect(team.status).toBe(201);
    const token = (await api(h, "POST", `/teams/${team.json.data.id}/authentication-token`)).json.data.attributes
      .token as string;
    const { id, outs } = await create({ name: uniqueName("guarded") });
    const { configureFromStack } = await import("../../src/resources/provider-settings");
    const { resetClients } = await import("../../src/resources/providers/client");
    const as = (t: string) => {
      const config: Record<string, string> = {
        "workspaces:address": h.server.url,
        "workspaces:token": t,
        "workspaces:organization": h.org,
      };
      configureFromStack({ config: { get: (k: string) => config[k] } });
      resetClients();
    };
    try {
      as(token);
      const err = await workspaceProvider.delete(id, { ...outs, forceDelete: true }).then(
        () => null,
        (e: Error) => e,
      );
      expect(err?.message).toMatch(/not allowed to.*organization owners/s);
      expect(err?.message).not.toContain(token);
    } finally {
      as(h.server.token);
    }
    expect((await h.client.workspaces.read(id)).id).toBe(id);
  });
});

describe("Workspace create that fails after the workspace exists", () => {
  it("reports the workspace id so the engine records it instead of orphaning it", async () => {
    const name = uniqueName("half");
    const checked = await workspaceProvider.check({}, { name, sshKeyId: "sshkey-doesnotexist" });
    expect(checked.failures).toEqual([]);
    const err = (await workspaceProvider.create(checked.inputs).then(
      () => null,
      (e: unknown) => e,
    )) as (Error & { id?: string; properties?: Record<string, unknown>; reasons?: string[] }) | null;
    expect(err?.message).toMatch(/was created but setting it up failed/);
    expect(err?.id).toMatch(/^ws-/);
    expect(err?.properties?.name).toBe(name);
    expect(err?.reasons?.[0]).toBe(err?.message);
    expect((await h.client.workspaces.read(err!.id!)).name).toBe(name);
  });
});
