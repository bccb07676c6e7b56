/** State version outputs over real HTTP: by id, the current ones with outputs-only access, sensitive values hidden. */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createWorkspace, expectStatus, grant, makeTeam, start, uploadState, type TestServer } from "./helpers";

let t: TestServer;
beforeAll(async () => {
  t = await start();
});
afterAll(() => t.server.close());

async function uploadOutputs(workspaceId: string) {
  return uploadState(t.api, workspaceId, {
    version: 4,
    serial: 1,
    lineage: "l",
    outputs: {
      endpoint: { value: "https://app", type: "string" },
      password: { value: "hunter2", type: "string", sensitive: true },
    },
    resources: [],
  });
}

describe("state version outputs", () => {
  it("reads an output by id, shows a sensitive value only to a state reader, and hides it in the current outputs", async () => {
    const ws = await createWorkspace(t.api, t.org, "outputs");
    const sv = await uploadOutputs(ws.id);
    const ids: string[] = sv.relationships.outputs.data.map((d: { id: string }) => d.id);
    const byId = await Promise.all(ids.map((id) => expectStatus(t.api.get(`/state-version-outputs/${id}`), 200)));
    const password = byId.find((r) => r.body.data.attributes.name === "password")!.body.data;
    expect(password.attributes).toMatchObject({ sensitive: true, value: "hunter2" });

    const current = await expectStatus(t.api.get(`/workspaces/${ws.id}/current-state-version-outputs`), 200);
    const values = Object.fromEntries(current.body.data.map((o: any) => [o.attributes.name, o.attributes.value]));
    expect(values).toEqual({ endpoint: "https://app", password: null });
    expect(current.text).not.toContain("hunter2");

    const included = await expectStatus(t.api.get(`/workspaces/${ws.id}/current-state-version?include=outputs`), 200);
    expect(included.body.included.map((o: any) => o.id).sort()).toEqual([...ids].sort());
    expect(included.text).not.toContain("hunter2");

    // A team that may read outputs only: the current outputs, no sensitive value, and no state version.
    const team = await makeTeam(t.api, t.org, "outputs-readers");
    await grant(t.api, team.id, ws.id, "custom", { "state-versions": "read-outputs" });
    const reader = t.api.as(team.token);
    const seen = await expectStatus(reader.get(`/workspaces/${ws.id}/current-state-version-outputs`), 200);
    expect(seen.body.data).toHaveLength(2);
    const hidden = await expectStatus(reader.get(`/state-version-outputs/${password.id}`), 200);
    expect(hidden.body.data.attributes.value).toBeNull();
    expect((await reader.get(`/workspaces/${ws.id}/current-state-version`)).status).toBe(404);
  });

  it("answers a missing output or a workspace without state with 404", async () => {
    const ws = await createWorkspace(t.api, t.org, "no-state");
    expect((await t.api.get(`/state-version-outputs/wsout-missing`)).status).toBe(404);
    expect((await t.api.get(`/workspaces/${ws.id}/current-state-version-outputs`)).status).toBe(404);
    expect((await t.api.get(`/workspaces/${ws.id}/current-state-version?include=owner`)).status).toBe(400);
  });
});
