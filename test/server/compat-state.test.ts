/**
 * What a client reads after uploading state (spec 2.2 `outputs`, 4.5 `include=outputs`):
 * the workspace's outputs come from its current state version, and the state version
 * tells where its state can be downloaded.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createWorkspace, expectStatus, start, uploadState, type TestServer } from "./helpers";

let t: TestServer;
beforeAll(async () => {
  t = await start();
});
afterAll(() => t.server.close());

const STATE = {
  version: 4,
  serial: 3,
  lineage: "compat",
  outputs: {
    endpoint: { value: "https://example.com", type: "string" },
    password: { value: "hunter2", type: "string", sensitive: true },
    zones: { value: ["a", "b"], type: ["list", "string"] },
  },
  resources: [{ name: "r0" }],
};

describe("workspace outputs", () => {
  it("are empty before any state, then list the current state version's outputs", async () => {
    const ws = await createWorkspace(t.api, t.org, "outputs-ws");
    expect(ws.relationships.outputs.data).toEqual([]);
    await uploadState(t.api, ws.id, STATE);

    const read = await expectStatus(t.api.get(`/workspaces/${ws.id}?include=outputs`), 200);
    const refs = read.body.data.relationships.outputs.data;
    expect(refs).toHaveLength(3);
    for (const r of refs) {
      expect(r.type).toBe("workspace-outputs");
      expect(r.id).toMatch(/^wsout-/);
    }
    const included = read.body.included.filter((r: any) => r.type === "workspace-outputs");
    expect(included.map((r: any) => r.id).sort()).toEqual(refs.map((r: any) => r.id).sort());
    const byName = Object.fromEntries(included.map((r: any) => [r.attributes.name, r.attributes]));
    expect(byName.endpoint).toMatchObject({ sensitive: false, "output-type": "string", value: "https://example.com" });
    expect(byName.zones).toMatchObject({ sensitive: false, "output-type": "array", value: ["a", "b"] });
    // A sensitive value never leaves the server through the workspace document.
    expect(byName.password).toMatchObject({ sensitive: true, value: null });
    expect(read.text).not.toContain("hunter2");
  });

  it("are listed by state version, with the same ids, names and kinds", async () => {
    const ws = await createWorkspace(t.api, t.org, "outputs-sv");
    const sv = await uploadState(t.api, ws.id, STATE);
    const list = await expectStatus(t.api.get(`/state-versions/${sv.id}/outputs`), 200);
    expect(
      list.body.data.map((o: any) => [o.type, o.attributes.name, o.attributes.type, o.attributes.sensitive]),
    ).toEqual([
      ["state-version-outputs", "endpoint", "string", false],
      ["state-version-outputs", "password", "string", true],
      ["state-version-outputs", "zones", "array", false],
    ]);
    const current = await expectStatus(t.api.get(`/workspaces/${ws.id}/current-state-version-outputs`), 200);
    expect(current.body.data.map((o: any) => o.id)).toEqual(list.body.data.map((o: any) => o.id));
    const wsDoc = await expectStatus(t.api.get(`/workspaces/${ws.id}`), 200);
    expect(wsDoc.body.data.relationships.outputs.data.map((o: any) => o.id).sort()).toEqual(
      list.body.data.map((o: any) => o.id).sort(),
    );
  });
});

describe("state version download", () => {
  it("names hosted-state-download-url at once, and the URL serves the uploaded state", async () => {
    const ws = await createWorkspace(t.api, t.org, "download-ws");
    const sv = await uploadState(t.api, ws.id, STATE);
    const url = sv.attributes["hosted-state-download-url"];
    expect(url).toBe(`${t.server.url}/state-versions/${sv.id}/download`);
    const res = await fetch(url, { headers: { authorization: `Bearer ${t.server.token}` } });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual(STATE);
    const again = await expectStatus(t.api.get(`/state-versions/${sv.id}`), 200);
    expect(again.body.data.attributes["hosted-state-download-url"]).toBe(url);
  });

  it("is 404 for a state version the caller cannot see", async () => {
    const r = await t.api.get(`/state-versions/sv-doesnotexist/outputs`);
    expect(r.status).toBe(404);
  });
});
