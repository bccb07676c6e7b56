/**
 * Policy sets over real HTTP: the five lists (added to and taken off by id, only the
 * organization's ids, emptied of deleted workspaces and projects), `global` against
 * workspaces and projects, `overridable` as the service answers it per kind, `include`;
 * parameters (a sensitive value sealed, never answered, never made readable again; the
 * 422 on a set that cannot use one) and versions (the anonymous upload link, `ready` with
 * the tarball's count of policies, `errored` for anything but a gzip tarball).
 */
import { gzipSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PARAMETER_NOT_ALLOWED_DETAIL } from "../../src/api/policy-sets";
import { createWorkspace, expectStatus, makeTeam, start, type TestServer } from "./helpers";

let t: TestServer;
const logLines: string[] = [];
beforeAll(async () => {
  t = await start({ logLevel: "info", logDestination: { write: (line) => void logLines.push(line) } });
});
afterAll(() => t.server.close());

const refs = (type: string, ids: string[]) => ({ data: ids.map((id) => ({ type, id })) });
const listIds = (doc: any, list: string): string[] => doc.relationships[list].data.map((d: { id: string }) => d.id);

async function createSet(attributes: Record<string, unknown>, relationships: Record<string, unknown> = {}) {
  const r = await expectStatus(
    t.api.post(`/organizations/${t.org}/policy-sets`, { data: { type: "policy-sets", attributes, relationships } }),
    201,
  );
  return r.body.data;
}

async function createPolicy(name: string) {
  const r = await expectStatus(
    t.api.post(`/organizations/${t.org}/policies`, {
      data: { type: "policies", attributes: { name, "enforcement-level": "advisory" } },
    }),
    201,
  );
  return r.body.data.id as string;
}

async function createProject(name: string) {
  const r = await expectStatus(
    t.api.post(`/organizations/${t.org}/projects`, { data: { type: "projects", attributes: { name } } }),
    201,
  );
  return r.body.data.id as string;
}

/** A `.tar.gz` of `files` (ustar headers, as go-tfe's slug packer writes them). */
function tarball(files: Record<string, string>): Buffer {
  const blocks: Buffer[] = [];
  for (const [name, text] of Object.entries(files)) {
    const data = Buffer.from(text);
    const header = Buffer.alloc(512);
    header.write(name, 0);
    header.write("0000644\0", 100);
    header.write(data.length.toString(8).padStart(11, "0") + "\0", 124);
    header.write("0", 156);
    header.write("ustar\x0000", 257);
    header.fill(" ", 148, 156);
    const sum = header.reduce((a, b) => a + b, 0);
    header.write(sum.toString(8).padStart(6, "0") + "\0 ", 148);
    blocks.push(header, data, Buffer.alloc((512 - (data.length % 512)) % 512));
  }
  return gzipSync(Buffer.concat([...blocks, Buffer.alloc(1024)]));
}

/** The anonymous PUT to a version's upload link, as go-tfe sends it (no token). */
const put = (link: string, body: Buffer) =>
  fetch(link, { method: "PUT", headers: { "content-type": "application/octet-stream" }, body });

describe("policy sets", () => {
  it("add to and take off each list by id; counts follow", async () => {
    const ws = await createWorkspace(t.api, t.org, "ps-ws-1");
    const ws2 = await createWorkspace(t.api, t.org, "ps-ws-2");
    const prj = await createProject("ps-prj-1");
    const pol = await createPolicy("ps-pol-1");
    const set = await createSet({ name: "lists" }, { workspaces: refs("workspaces", [ws.id]) });
    expect(set.attributes).toMatchObject({ kind: "sentinel", overridable: null, global: false, "workspace-count": 1 });
    const path = `/policy-sets/${set.id}/relationships`;
    await expectStatus(t.api.post(`${path}/workspaces`, refs("workspaces", [ws2.id, ws.id])), 204);
    await expectStatus(t.api.post(`${path}/workspace-exclusions`, refs("workspaces", [ws2.id])), 204);
    await expectStatus(t.api.post(`${path}/projects`, refs("projects", [prj])), 204);
    await expectStatus(t.api.post(`${path}/project-exclusions`, refs("projects", [prj])), 204);
    await expectStatus(t.api.post(`${path}/policies`, refs("policies", [pol])), 204);
    let read = (await expectStatus(t.api.get(`/policy-sets/${set.id}`), 200)).body.data;
    expect(listIds(read, "workspaces")).toEqual([ws.id, ws2.id]);
    expect(listIds(read, "workspace-exclusions")).toEqual([ws2.id]);
    expect(listIds(read, "projects")).toEqual([prj]);
    expect(listIds(read, "project-exclusions")).toEqual([prj]);
    expect(listIds(read, "policies")).toEqual([pol]);
    expect(read.attributes).toMatchObject({ "workspace-count": 2, "project-count": 1, "policy-count": 1 });

    await expectStatus(t.api.delete(`${path}/workspaces`, refs("workspaces", [ws.id])), 204);
    await expectStatus(t.api.delete(`${path}/policies`, refs("policies", [pol])), 204);
    read = (await expectStatus(t.api.get(`/policy-sets/${set.id}`), 200)).body.data;
    expect(listIds(read, "workspaces")).toEqual([ws2.id]);
    expect(read.attributes["policy-count"]).toBe(0);

    // A deleted workspace or project leaves every list.
    await expectStatus(t.api.delete(`/workspaces/${ws2.id}`), 204);
    await expectStatus(t.api.delete(`/projects/${prj}`), 204);
    read = (await expectStatus(t.api.get(`/policy-sets/${set.id}`), 200)).body.data;
    expect(listIds(read, "workspaces")).toEqual([]);
    expect(listIds(read, "workspace-exclusions")).toEqual([]);
    expect(listIds(read, "projects")).toEqual([]);
  });

  it("refuse an id that is not the organization's with a 422 pointing at it", async () => {
    const ws = await createWorkspace(t.api, t.org, "ps-ws-3");
    const set = await createSet({ name: "foreign-ids" });
    const r = await expectStatus(
      t.api.post(`/policy-sets/${set.id}/relationships/workspaces`, refs("workspaces", [ws.id, "ws-notthisorg00000"])),
      422,
    );
    expect(r.body.errors).toHaveLength(1);
    expect(r.body.errors[0].source.pointer).toBe("/data/1/id");
    const onCreate = await expectStatus(
      t.api.post(`/organizations/${t.org}/policy-sets`, {
        data: {
          type: "policy-sets",
          attributes: { name: "foreign-on-create" },
          relationships: { policies: refs("policies", ["pol-notthisorg00000"]) },
        },
      }),
      422,
    );
    expect(onCreate.body.errors[0].source.pointer).toBe("/data/relationships/policies/data/0/id");
    const read = (await expectStatus(t.api.get(`/policy-sets/${set.id}`), 200)).body.data;
    expect(listIds(read, "workspaces")).toEqual([]);
  });

  it("a global set takes exclusions, not workspaces or projects", async () => {
    const ws = await createWorkspace(t.api, t.org, "ps-ws-4");
    const global = await createSet({ name: "everywhere", global: true });
    const refused = await expectStatus(
      t.api.post(`/policy-sets/${global.id}/relationships/workspaces`, refs("workspaces", [ws.id])),
      422,
    );
    expect(refused.body.errors[0].detail).toContain("global");
    await expectStatus(
      t.api.post(`/policy-sets/${global.id}/relationships/workspace-exclusions`, refs("workspaces", [ws.id])),
      204,
    );
    const targeted = await createSet({ name: "targeted" }, { workspaces: refs("workspaces", [ws.id]) });
    await expectStatus(
      t.api.patch(`/policy-sets/${targeted.id}`, { data: { type: "policy-sets", attributes: { global: true } } }),
      422,
    );
  });

  it("answer overridable for OPA sets only (false unless given), and the policy tool's version per agent setting", async () => {
    const opa = await createSet({ name: "opa-set", kind: "opa" });
    expect(opa.attributes.overridable).toBe(false);
    const sentinel = await createSet({
      name: "sentinel-set",
      overridable: true,
      "agent-enabled": true,
      "policy-tool-version": "0.24.0",
    });
    expect(sentinel.attributes).toMatchObject({
      overridable: null,
      "agent-enabled": true,
      "policy-tool-version": "0.24.0",
    });
    const r = await expectStatus(
      t.api.patch(`/policy-sets/${opa.id}`, { data: { type: "policy-sets", attributes: { overridable: true } } }),
      200,
    );
    expect(r.body.data.attributes.overridable).toBe(true);
    const off = await expectStatus(
      t.api.patch(`/policy-sets/${sentinel.id}`, {
        data: { type: "policy-sets", attributes: { "agent-enabled": false } },
      }),
      200,
    );
    expect(off.body.data.attributes["policy-tool-version"]).toBeNull();
  });

  it("include the records of the lists asked for", async () => {
    const ws = await createWorkspace(t.api, t.org, "ps-ws-5");
    const pol = await createPolicy("ps-pol-5");
    const set = await createSet(
      { name: "included" },
      { workspaces: refs("workspaces", [ws.id]), policies: refs("policies", [pol]) },
    );
    const r = await expectStatus(t.api.get(`/policy-sets/${set.id}?include=workspaces,policies`), 200);
    expect(r.body.included.map((i: any) => `${i.type}:${i.id}`).sort()).toEqual(
      [`policies:${pol}`, `workspaces:${ws.id}`].sort(),
    );
    await expectStatus(t.api.get(`/policy-sets/${set.id}?include=vars`), 400);
    const list = await expectStatus(t.api.get(`/organizations/${t.org}/policy-sets?search[name]=includ`), 200);
    expect(list.body.data.map((d: any) => d.id)).toEqual([set.id]);
  });
});

describe("policy sets: who may manage them, and tag selectors", () => {
  it("a member reads a set; a write by a member without manage-policies gets what an unknown id gets", async () => {
    const ws = await createWorkspace(t.api, t.org, "ps-ws-6");
    const set = await createSet({ name: "guarded" });
    const readers = await makeTeam(t.api, t.org, "set-readers");
    const asReader = t.api.as(readers.token);
    await expectStatus(asReader.get(`/policy-sets/${set.id}`), 200);
    const body = refs("workspaces", [ws.id]);
    const refused = await expectStatus(asReader.post(`/policy-sets/${set.id}/relationships/workspaces`, body), 404);
    const unknown = await expectStatus(
      asReader.post(`/policy-sets/polset-QQQQQQQQQQQQQQQQ/relationships/workspaces`, body),
      404,
    );
    expect(refused.body).toEqual(unknown.body);
    await expectStatus(
      asReader.post(`/policy-sets/${set.id}/parameters`, {
        data: { type: "vars", attributes: { key: "k", category: "policy-set" } },
      }),
      404,
    );
    const managers = await makeTeam(t.api, t.org, "set-managers", { flags: { "manage-policies": true } });
    await expectStatus(t.api.as(managers.token).post(`/policy-sets/${set.id}/relationships/workspaces`, body), 204);
  });

  it("add tag selectors once each, and take them off", async () => {
    const set = await createSet({ name: "selected" });
    const selectors = {
      data: [
        { "tag-key": "env", "tag-value": "prod", "is-exclude": true },
        { "tag-key": "team", "tag-value": null },
      ],
    };
    await expectStatus(t.api.post(`/policy-sets/${set.id}/tag-selectors`, selectors), 204);
    await expectStatus(t.api.post(`/policy-sets/${set.id}/tag-selectors`, selectors), 204);
    let read = (await expectStatus(t.api.get(`/policy-sets/${set.id}`), 200)).body.data;
    expect(read.attributes["tag-selectors"]).toEqual([
      { "tag-key": "env", "tag-value": "prod", "is-exclude": true },
      { "tag-key": "team", "tag-value": null, "is-exclude": false },
    ]);
    await expectStatus(
      t.api.delete(`/policy-sets/${set.id}/tag-selectors`, {
        data: [{ "tag-key": "env", "tag-value": "prod", "is-exclude": true }],
      }),
      204,
    );
    read = (await expectStatus(t.api.get(`/policy-sets/${set.id}`), 200)).body.data;
    expect(read.attributes["tag-selectors"]).toEqual([{ "tag-key": "team", "tag-value": null, "is-exclude": false }]);
  });
});

describe("policy set parameters", () => {
  const param = (attributes: Record<string, unknown>) => ({ data: { type: "vars", attributes } });

  it("seal a sensitive value: never answered, never made readable again, never logged", async () => {
    const set = await createSet({ name: "params" });
    const secret = "s3cret-parameter-value-4411";
    const created = await expectStatus(
      t.api.post(
        `/policy-sets/${set.id}/parameters`,
        param({ key: "token", value: secret, category: "policy-set", sensitive: true }),
      ),
      201,
    );
    const id = created.body.data.id as string;
    expect(created.body.data.attributes).toMatchObject({
      key: "token",
      value: null,
      sensitive: true,
      category: "policy-set",
    });
    expect(created.body.data.relationships.configurable.data).toEqual({ id: set.id, type: "policy-sets" });
    const listed = await expectStatus(t.api.get(`/policy-sets/${set.id}/parameters`), 200);
    expect(listed.text).not.toContain(secret);
    const downgrade = await expectStatus(
      t.api.patch(`/policy-sets/${set.id}/parameters/${id}`, param({ sensitive: false })),
      422,
    );
    expect(downgrade.body.errors[0].source.pointer).toBe("/data/attributes/sensitive");
    const plain = await expectStatus(
      t.api.post(`/policy-sets/${set.id}/parameters`, param({ key: "region", value: "eu", category: "policy-set" })),
      201,
    );
    expect(plain.body.data.attributes).toMatchObject({ value: "eu", sensitive: false });
    const duplicate = await expectStatus(
      t.api.post(`/policy-sets/${set.id}/parameters`, param({ key: "region", value: "us", category: "policy-set" })),
      422,
    );
    expect(duplicate.body.errors[0].source.pointer).toBe("/data/attributes/key");
    await expectStatus(
      t.api.post(`/policy-sets/${set.id}/parameters`, param({ key: "k", value: "v", category: "terraform" })),
      422,
    );
    expect(logLines.length).toBeGreaterThan(0);
    expect(logLines.join("\n")).not.toContain(secret);
  });

  it("refuse a parameter on an OPA set or one with policies attached individually; an empty Sentinel set takes one", async () => {
    const opa = await createSet({ name: "opa-params", kind: "opa" });
    const pol = await createPolicy("attached-pol");
    const attached = await createSet({ name: "attached-params" }, { policies: refs("policies", [pol]) });
    const body = param({ key: "k", value: "v", category: "policy-set" });
    for (const set of [opa, attached]) {
      const r = await expectStatus(t.api.post(`/policy-sets/${set.id}/parameters`, body), 422);
      expect(r.body.errors[0].detail).toBe(PARAMETER_NOT_ALLOWED_DETAIL);
    }
    const empty = await createSet({ name: "empty-params" });
    await expectStatus(t.api.post(`/policy-sets/${empty.id}/parameters`, body), 201);
  });
});

describe("policy set versions", () => {
  it("take a tarball through the upload link, without a token, and count its policies", async () => {
    const set = await createSet({ name: "versioned" });
    const created = await expectStatus(t.api.post(`/policy-sets/${set.id}/versions`), 201);
    const v = created.body.data;
    expect(v.id).toMatch(/^polsetver-/);
    expect(v.attributes).toMatchObject({ status: "pending", source: "tfe-api" });
    const link = v.links.upload as string;
    expect(link.startsWith(`${t.api.url}/policy-set-versions/${v.id}/upload?`)).toBe(true);
    // The link read back is the same; a wrong secret finds nothing.
    expect((await expectStatus(t.api.get(`/policy-set-versions/${v.id}`), 200)).body.data.links.upload).toBe(link);
    expect((await put(link.replace(/key=[^&]+/, "key=wrong"), tarball({}))).status).toBe(404);
    // A member who may not manage the set reads the version without its upload link.
    const reader = t.api.as((await makeTeam(t.api, t.org, "version-readers")).token);
    const asRead = (await expectStatus(reader.get(`/policy-set-versions/${v.id}`), 200)).body.data;
    expect(asRead.links.upload).toBeUndefined();

    const files = { "a.sentinel": "main = rule { true }", "sub/b.sentinel": "x", "sentinel.hcl": "policy {}" };
    expect((await put(link, tarball(files))).status).toBe(204);
    const ready = (await expectStatus(t.api.get(`/policy-set-versions/${v.id}`), 200)).body.data;
    expect(ready.attributes.status).toBe("ready");
    expect(ready.links.upload).toBeUndefined();
    expect((await put(link, tarball(files))).status).toBe(422);
    // The link's secret is in its query, which no log line carries.
    expect(logLines.join("\n")).not.toContain(new URL(link).searchParams.get("key")!);

    const next = (await expectStatus(t.api.post(`/policy-sets/${set.id}/versions`), 201)).body.data;
    const read = await expectStatus(t.api.get(`/policy-sets/${set.id}?include=newest_version,current_version`), 200);
    expect(read.body.data.relationships["newest-version"].data.id).toBe(next.id);
    expect(read.body.data.relationships["current-version"].data.id).toBe(v.id);
    expect(read.body.data.attributes["policy-count"]).toBe(2);
    expect(read.body.included.map((i: any) => i.id).sort()).toEqual([v.id, next.id].sort());

    // A versioned set passes parameters to its policies.
    await expectStatus(
      t.api.post(`/policy-sets/${set.id}/parameters`, {
        data: { type: "vars", attributes: { key: "k", category: "policy-set" } },
      }),
      201,
    );
  });

  it("an upload that is not a gzip tarball makes the version errored, with the reason", async () => {
    const set = await createSet({ name: "errored" });
    const v = (await expectStatus(t.api.post(`/policy-sets/${set.id}/versions`), 201)).body.data;
    expect((await put(v.links.upload, Buffer.from("not a tarball"))).status).toBe(204);
    const read = (await expectStatus(t.api.get(`/policy-set-versions/${v.id}`), 200)).body.data;
    expect(read.attributes.status).toBe("errored");
    expect(read.attributes["error-message"]).toContain("gzip");
    const setRead = await expectStatus(t.api.get(`/policy-sets/${set.id}`), 200);
    expect(setRead.body.data.relationships["current-version"].data).toBeNull();
  });

  it("a tarball that unpacks past 64 MiB is errored, not unpacked whole", async () => {
    const set = await createSet({ name: "bomb" });
    const v = (await expectStatus(t.api.post(`/policy-sets/${set.id}/versions`), 201)).body.data;
    expect((await put(v.links.upload, gzipSync(Buffer.alloc(65 * 1024 * 1024)))).status).toBe(204);
    const read = (await expectStatus(t.api.get(`/policy-set-versions/${v.id}`), 200)).body.data;
    expect(read.attributes.status).toBe("errored");
    expect(read.attributes["error-message"]).toContain("64 MiB");
  });
});
