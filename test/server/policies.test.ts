/**
 * Policies over real HTTP: the level said both ways (and checked against the kind), the
 * OPA query, the code uploaded as raw bytes and downloaded as given, the count of sets
 * holding a policy (and a deleted policy leaving them), the list's search and kind
 * filter, and who may manage: a team with manage-policies may, any other member reads,
 * and a write by anybody else gets what an unknown id gets.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { expectStatus, makeTeam, start, type TestServer } from "./helpers";

let t: TestServer;
beforeAll(async () => {
  t = await start();
});
afterAll(() => t.server.close());

const policyBody = (attributes: Record<string, unknown>) => ({ data: { type: "policies", attributes } });

async function createPolicy(attributes: Record<string, unknown>) {
  const r = await expectStatus(t.api.post(`/organizations/${t.org}/policies`, policyBody(attributes)), 201);
  return r.body.data as { id: string; attributes: Record<string, any> };
}

/** A raw upload, as go-tfe sends one (`application/octet-stream`). */
function upload(path: string, body: Buffer | string, token: string | null = t.api.token) {
  return fetch(t.api.url + path, {
    method: "PUT",
    headers: { "content-type": "application/octet-stream", ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body,
  });
}

describe("policies", () => {
  it("answer the level both ways; enforce lists the file once code is uploaded", async () => {
    const p = await createPolicy({ name: "tags", "enforcement-level": "soft-mandatory", description: "tags" });
    expect(p.id).toMatch(/^pol-/);
    expect(p.attributes).toMatchObject({
      name: "tags",
      kind: "sentinel",
      query: null,
      "enforcement-level": "soft-mandatory",
      enforce: [],
      "policy-set-count": 0,
    });
    expect((await upload(`/policies/${p.id}/upload`, "main = rule { true }")).status).toBe(204);
    const read = await expectStatus(t.api.get(`/policies/${p.id}`), 200);
    expect(read.body.data.attributes.enforce).toEqual([{ path: "tags.sentinel", mode: "soft-mandatory" }]);

    const changed = await expectStatus(
      t.api.patch(`/policies/${p.id}`, policyBody({ enforce: [{ path: "tags.sentinel", mode: "advisory" }] })),
      200,
    );
    expect(changed.body.data.attributes["enforcement-level"]).toBe("advisory");
  });

  it("keep the uploaded code as given, and a policy without code downloads as not found", async () => {
    const p = await createPolicy({ name: "code", "enforcement-level": "advisory" });
    await expectStatus(t.api.get(`/policies/${p.id}/download`), 404);
    const code = Buffer.from("main = rule { \u00e9 }\n\x00binary");
    expect((await upload(`/policies/${p.id}/upload`, code)).status).toBe(204);
    const down = await fetch(`${t.api.url}/policies/${p.id}/download`, {
      headers: { authorization: `Bearer ${t.api.token}` },
    });
    expect(down.status).toBe(200);
    expect(Buffer.from(await down.arrayBuffer())).toEqual(code);
    // An empty upload is code too.
    expect((await upload(`/policies/${p.id}/upload`, "")).status).toBe(204);
    expect((await expectStatus(t.api.get(`/policies/${p.id}/download`), 200)).text).toBe("");
  });

  it("check the level against the kind and require an OPA policy's query", async () => {
    const noQuery = await expectStatus(
      t.api.post(
        `/organizations/${t.org}/policies`,
        policyBody({ name: "opa1", kind: "opa", "enforcement-level": "mandatory" }),
      ),
      422,
    );
    expect(noQuery.body.errors[0].source.pointer).toBe("/data/attributes/query");
    const wrongLevel = await expectStatus(
      t.api.post(
        `/organizations/${t.org}/policies`,
        policyBody({ name: "opa2", kind: "opa", query: "data.x.deny", "enforcement-level": "hard-mandatory" }),
      ),
      422,
    );
    expect(wrongLevel.body.errors[0].detail).toContain("advisory, mandatory");
    const unknownKind = await expectStatus(
      t.api.post(
        `/organizations/${t.org}/policies`,
        policyBody({ name: "k", kind: "rego2", "enforcement-level": "advisory" }),
      ),
      422,
    );
    expect(unknownKind.body.errors[0].source.pointer).toBe("/data/attributes/kind");
    await expectStatus(t.api.post(`/organizations/${t.org}/policies`, policyBody({ name: "no-level" })), 422);
    await expectStatus(
      t.api.post(
        `/organizations/${t.org}/policies`,
        policyBody({ name: "bad name!", "enforcement-level": "advisory" }),
      ),
      422,
    );
    const opa = await createPolicy({
      name: "opa3",
      kind: "opa",
      query: "data.x.deny",
      "enforcement-level": "mandatory",
    });
    expect(opa.attributes).toMatchObject({ kind: "opa", query: "data.x.deny", "enforcement-level": "mandatory" });
    const taken = await expectStatus(
      t.api.post(`/organizations/${t.org}/policies`, policyBody({ name: "opa3", "enforcement-level": "advisory" })),
      422,
    );
    expect(taken.body.errors[0].detail).toContain("taken");
  });

  it("a Sentinel policy keeps no query, and a description can be cleared", async () => {
    const p = await createPolicy({ name: "sentinel-q", "enforcement-level": "advisory", description: "d" });
    const r = await expectStatus(
      t.api.patch(`/policies/${p.id}`, policyBody({ query: "data.x", description: null })),
      200,
    );
    expect(r.body.data.attributes).toMatchObject({ query: null, description: null, kind: "sentinel" });
  });

  it("count the sets holding them, and leave the sets when deleted", async () => {
    const p = await createPolicy({ name: "counted", "enforcement-level": "advisory" });
    const set = await expectStatus(
      t.api.post(`/organizations/${t.org}/policy-sets`, {
        data: {
          type: "policy-sets",
          attributes: { name: "holds-counted" },
          relationships: { policies: { data: [{ type: "policies", id: p.id }] } },
        },
      }),
      201,
    );
    const setId = set.body.data.id as string;
    expect((await expectStatus(t.api.get(`/policies/${p.id}`), 200)).body.data.attributes["policy-set-count"]).toBe(1);
    await expectStatus(t.api.delete(`/policies/${p.id}`), 204);
    await expectStatus(t.api.get(`/policies/${p.id}`), 404);
    const after = await expectStatus(t.api.get(`/policy-sets/${setId}`), 200);
    expect(after.body.data.relationships.policies.data).toEqual([]);
    expect(after.body.data.attributes["policy-count"]).toBe(0);
  });

  it("list by name fragment and kind, a page at a time", async () => {
    await createPolicy({ name: "list-alpha", "enforcement-level": "advisory" });
    await createPolicy({ name: "list-beta", kind: "opa", query: "data.b", "enforcement-level": "advisory" });
    const byName = await expectStatus(t.api.get(`/organizations/${t.org}/policies?search[name]=list-al`), 200);
    expect(byName.body.data.map((d: any) => d.attributes.name)).toEqual(["list-alpha"]);
    const byKind = await expectStatus(
      t.api.get(`/organizations/${t.org}/policies?search[name]=list-&filter[kind]=opa`),
      200,
    );
    expect(byKind.body.data.map((d: any) => d.attributes.name)).toEqual(["list-beta"]);
    const far = await expectStatus(t.api.get(`/organizations/${t.org}/policies?page[number]=999`), 200);
    expect(far.body.data).toEqual([]);
    expect(far.body.meta.pagination["current-page"]).toBe(999);
  });

  it("a team with manage-policies manages them; other members read; a write by them is not found", async () => {
    const managers = await makeTeam(t.api, t.org, "policy-managers", { flags: { "manage-policies": true } });
    const readers = await makeTeam(t.api, t.org, "policy-readers");
    const asManager = t.api.as(managers.token);
    const asReader = t.api.as(readers.token);
    const created = await expectStatus(
      asManager.post(
        `/organizations/${t.org}/policies`,
        policyBody({ name: "by-team", "enforcement-level": "advisory" }),
      ),
      201,
    );
    const id = created.body.data.id as string;
    await expectStatus(asReader.get(`/policies/${id}`), 200);
    const refused = await expectStatus(asReader.patch(`/policies/${id}`, policyBody({ description: "x" })), 404);
    const unknown = await expectStatus(
      asReader.patch(`/policies/pol-doesnotexist1234`, policyBody({ description: "x" })),
      404,
    );
    expect(refused.body).toEqual(unknown.body);
    expect((await upload(`/policies/${id}/upload`, "x", readers.token)).status).toBe(404);
    await expectStatus(
      asReader.post(
        `/organizations/${t.org}/policies`,
        policyBody({ name: "by-reader", "enforcement-level": "advisory" }),
      ),
      404,
    );
    await expectStatus(asManager.delete(`/policies/${id}`), 204);
  });
});
