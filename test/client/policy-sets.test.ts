/**
 * Policy sets, their parameters and versions through the client against the local
 * server: the lists a set's read answers and each list's add and remove, the typed
 * error of a parameter on a set that cannot take one, a sensitive value never read back,
 * and a version's tarball sent to its upload link without the token.
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { describe, expect, it } from "vitest";
import { NotFoundError, PolicySetParameterNotAllowedError, ValidationError } from "../../src/client";
import { folderFiles, tarball } from "../../src/resources/providers/policy-set-folder";
import { fakeClient, reply, startFakeService } from "./fake-service";
import { failure, uniqueName, useServer } from "./helpers";

const t = useServer();

async function policy(kind = "sentinel") {
  return t.client.policies.create(t.org, {
    name: uniqueName("pol"),
    kind,
    enforcementLevel: "advisory",
    ...(kind === "opa" ? { query: "data.a.deny" } : {}),
  });
}

/** A gzipped tarball of a folder with one Sentinel policy. */
function policiesTarball(): Buffer {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "policies-"));
  fs.writeFileSync(path.join(dir, "sentinel.hcl"), 'policy "p" { enforcement_level = "advisory" }\n');
  fs.writeFileSync(path.join(dir, "p.sentinel"), "main = rule { true }\n");
  return tarball(folderFiles(dir));
}

async function until<T>(read: () => Promise<T>, done: (v: T) => boolean): Promise<T> {
  for (let i = 0; ; i++) {
    const v = await read();
    if (done(v) || i >= 50) return v;
    await new Promise((r) => setTimeout(r, 100));
  }
}

describe("policy sets", () => {
  it("creates a set with its lists, reads them in one read, and adds and removes each list", async () => {
    const [a, b] = [await policy(), await policy()];
    const ws1 = await t.client.workspaces.create(t.org, { name: uniqueName("ps-ws") });
    const ws2 = await t.client.workspaces.create(t.org, { name: uniqueName("ps-ws") });
    const prj = await t.client.projects.create(t.org, { name: uniqueName("ps-prj") });
    const prj2 = await t.client.projects.create(t.org, { name: uniqueName("ps-prj") });
    const name = uniqueName("set");
    const set = await t.client.policySets.create(t.org, {
      name,
      description: "guardrails",
      policyIds: [a.id],
      workspaceIds: [ws1.id],
      projectIds: [prj.id],
    });
    expect(set).toMatchObject({
      name,
      description: "guardrails",
      kind: "sentinel",
      global: false,
      organization: t.org,
      policyIds: [a.id],
      workspaceIds: [ws1.id],
      projectIds: [prj.id],
      workspaceExclusionIds: [],
      projectExclusionIds: [],
      currentVersionId: null,
    });
    expect(set.id).toMatch(/^polset-/);

    await t.client.policySets.addPolicies(set.id, [b.id]);
    await t.client.policySets.removePolicies(set.id, [a.id]);
    await t.client.policySets.addWorkspaces(set.id, [ws2.id]);
    await t.client.policySets.removeWorkspaces(set.id, [ws1.id]);
    await t.client.policySets.addWorkspaceExclusions(set.id, [ws1.id]);
    await t.client.policySets.addProjects(set.id, [prj2.id]);
    await t.client.policySets.removeProjects(set.id, [prj.id]);
    await t.client.policySets.addProjectExclusions(set.id, [prj.id]);
    const before = t.client.stats.requests;
    const read = await t.client.policySets.read(set.id);
    expect(t.client.stats.requests - before).toBe(1);
    expect(read).toMatchObject({
      policyIds: [b.id],
      workspaceIds: [ws2.id],
      workspaceExclusionIds: [ws1.id],
      projectIds: [prj2.id],
      projectExclusionIds: [prj.id],
    });
    await t.client.policySets.removeWorkspaceExclusions(set.id, [ws1.id]);
    await t.client.policySets.removeProjectExclusions(set.id, [prj.id]);
    expect(await t.client.policySets.read(set.id)).toMatchObject({
      workspaceExclusionIds: [],
      projectExclusionIds: [],
    });

    // An empty list sends nothing.
    const quiet = t.client.stats.requests;
    await t.client.policySets.addWorkspaces(set.id, []);
    expect(t.client.stats.requests).toBe(quiet);
  });

  it("renames, lists by name and kind, and deletes", async () => {
    const name = uniqueName("set");
    const set = await t.client.policySets.create(t.org, { name });
    const renamed = await t.client.policySets.update(set.id, { name: `${name}-2`, global: true });
    expect(renamed).toMatchObject({ id: set.id, name: `${name}-2`, global: true });
    const opa = await t.client.policySets.create(t.org, { name: `${name}-opa`, kind: "opa", overridable: true });
    expect(opa).toMatchObject({ kind: "opa", overridable: true });
    expect((await t.client.policySets.list(t.org, { search: name }).all()).map((s) => s.id).sort()).toEqual(
      [set.id, opa.id].sort(),
    );
    expect((await t.client.policySets.list(t.org, { search: name, kind: "opa" }).all()).map((s) => s.id)).toEqual([
      opa.id,
    ]);
    await t.client.policySets.delete(set.id);
    expect(await failure(t.client.policySets.read(set.id))).toBeInstanceOf(NotFoundError);
  });

  it("refuses a bad name before sending anything", async () => {
    const before = t.client.stats.requests;
    const err = await failure(t.client.policySets.create(t.org, { name: "not a name" }));
    expect(err).toBeInstanceOf(ValidationError);
    expect((err as ValidationError).problems[0].pointer).toBe("/data/attributes/name");
    expect(t.client.stats.requests).toBe(before);
  });
});

describe("policy set parameters", () => {
  it("keeps a sensitive value unread, and changes a value in place", async () => {
    // An empty Sentinel set (no policies, no version) takes parameters, as go-tfe's own tests use it.
    const set = await t.client.policySets.create(t.org, { name: uniqueName("params") });
    const plain = await t.client.policySetParameters.create(set.id, { key: "region", value: "eu" });
    expect(plain).toMatchObject({ key: "region", value: "eu", sensitive: false, category: "policy-set" });
    expect(plain.id).toMatch(/^var-/);
    const secret = await t.client.policySetParameters.create(set.id, {
      key: "token",
      value: "s3cr3t-value",
      sensitive: true,
    });
    expect(secret).toMatchObject({ key: "token", value: null, sensitive: true });
    expect(JSON.stringify(await t.client.policySetParameters.read(set.id, secret.id))).not.toContain("s3cr3t");

    const changed = await t.client.policySetParameters.update(set.id, plain.id, { value: "us" });
    expect(changed).toMatchObject({ id: plain.id, value: "us" });
    const all = await t.client.policySetParameters.list(set.id).all();
    expect(all.map((p) => p.key).sort()).toEqual(["region", "token"]);
    expect(JSON.stringify(all)).not.toContain("s3cr3t");

    await t.client.policySetParameters.delete(set.id, plain.id);
    expect(await failure(t.client.policySetParameters.read(set.id, plain.id))).toBeInstanceOf(NotFoundError);
  });

  it("raises PolicySetParameterNotAllowedError on an OPA set and on one with policies attached", async () => {
    const opa = await t.client.policySets.create(t.org, { name: uniqueName("opa-set"), kind: "opa" });
    const attached = await t.client.policySets.create(t.org, {
      name: uniqueName("attached"),
      policyIds: [(await policy()).id],
    });
    for (const set of [opa, attached]) {
      const err = await failure(t.client.policySetParameters.create(set.id, { key: "k", value: "v" }));
      expect(err).toBeInstanceOf(PolicySetParameterNotAllowedError);
      expect((err as PolicySetParameterNotAllowedError).status).toBe(422);
    }
  });
});

describe("policy set versions", () => {
  it("uploads a folder's tarball to the version's link: ready, and the set's current version", async () => {
    const set = await t.client.policySets.create(t.org, { name: uniqueName("versioned") });
    const version = await t.client.policySetVersions.create(set.id);
    expect(version).toMatchObject({ status: "pending", policySetId: set.id });
    expect(version.uploadUrl).toBeTruthy();
    await t.client.policySetVersions.upload(version, policiesTarball());
    const ready = await until(
      () => t.client.policySetVersions.read(version.id),
      (v) => v.status !== "pending",
    );
    expect(ready.status).toBe("ready");
    expect((await t.client.policySets.read(set.id)).currentVersionId).toBe(version.id);
    // A versioned Sentinel set takes parameters.
    expect((await t.client.policySetParameters.create(set.id, { key: "k", value: "v" })).key).toBe("k");
  });

  it("marks a body that is not a gzipped tarball errored", async () => {
    const set = await t.client.policySets.create(t.org, { name: uniqueName("bad-version") });
    const version = await t.client.policySetVersions.create(set.id);
    await t.client.policySetVersions.upload(version, Buffer.from("not a tarball"));
    const settled = await until(
      () => t.client.policySetVersions.read(version.id),
      (v) => v.status !== "pending",
    );
    expect(settled.status).toBe("errored");
    expect(settled.errorMessage).toBeTruthy();
  });

  it("sends the tarball raw to the link as it is, without the token", async () => {
    const seen: { method?: string; url?: string; auth?: string; type?: string; body?: string } = {};
    const archive = await startFakeService((req, res, body) => {
      Object.assign(seen, {
        method: req.method,
        url: req.url,
        auth: req.headers.authorization,
        type: req.headers["content-type"],
        body,
      });
      reply(res, 200, undefined);
    });
    try {
      const client = fakeClient(archive, { rateLimit: false });
      await client.policySetVersions.upload(
        { id: "polsetver-1", uploadUrl: `${archive.url}/v1/object/abc?signature=x%2By` },
        Buffer.from("bytes"),
      );
      expect(seen).toEqual({
        method: "PUT",
        url: "/v1/object/abc?signature=x%2By",
        auth: undefined,
        type: "application/octet-stream",
        body: "bytes",
      });
    } finally {
      await archive.close();
    }
  });
});
