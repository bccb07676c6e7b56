/** Run triggers over real HTTP: inbound and outbound lists, includes, and the service's 4xx answers and limit. */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MAX_RUN_TRIGGER_SOURCES } from "../../src/api/run-triggers";
import { createWorkspace, expectStatus, start, type TestServer } from "./helpers";

let t: TestServer;
beforeAll(async () => {
  t = await start();
});
afterAll(() => t.server.close());

const triggerBody = (sourceId: string) => ({
  data: { type: "run-triggers", relationships: { sourceable: { data: { type: "workspaces", id: sourceId } } } },
});

describe("run triggers", () => {
  it("lists a trigger inbound on its workspace and outbound on its source, with includes; deleting a source removes it", async () => {
    const target = await createWorkspace(t.api, t.org, "rt-target");
    const source = await createWorkspace(t.api, t.org, "rt-source");
    const created = await expectStatus(
      t.api.post(`/workspaces/${target.id}/run-triggers`, triggerBody(source.id)),
      201,
    );
    expect(created.body.data.attributes).toMatchObject({
      "sourceable-name": "rt-source",
      "workspace-name": "rt-target",
    });
    const id = created.body.data.id;

    const inbound = await expectStatus(
      t.api.get(`/workspaces/${target.id}/run-triggers?filter[run-trigger][type]=inbound&include=sourceable`),
      200,
    );
    expect(inbound.body.data.map((d: any) => d.id)).toEqual([id]);
    expect(inbound.body.included.map((d: any) => d.id)).toEqual([source.id]);
    const outbound = await expectStatus(
      t.api.get(`/workspaces/${source.id}/run-triggers?filter[run-trigger][type]=outbound`),
      200,
    );
    expect(outbound.body.data.map((d: any) => d.id)).toEqual([id]);
    expect(outbound.body.meta.pagination["total-count"]).toBe(1);

    await expectStatus(t.api.delete(`/workspaces/${source.id}`), 204);
    expect((await t.api.get(`/run-triggers/${id}`)).status).toBe(404);
  });

  it("refuses a trigger from a workspace to itself, a duplicate, another organization's workspace, and past the limit", async () => {
    const target = await createWorkspace(t.api, t.org, "rt-limits");
    const self = await t.api.post(`/workspaces/${target.id}/run-triggers`, triggerBody(target.id));
    expect(self.status).toBe(422);
    expect(self.body.errors[0].source.pointer).toBe("/data/relationships/sourceable/data/id");

    await expectStatus(
      t.api.post(`/organizations`, {
        data: { type: "organizations", attributes: { name: "other-org", email: "o@example.com" } },
      }),
      201,
    );
    const foreign = await createWorkspace(t.api, "other-org", "foreign");
    const across = await t.api.post(`/workspaces/${target.id}/run-triggers`, triggerBody(foreign.id));
    expect(across.status).toBe(422);
    expect(across.body.errors[0].detail).toMatch(/same organization/);

    for (let i = 0; i < MAX_RUN_TRIGGER_SOURCES; i++) {
      const s = await createWorkspace(t.api, t.org, `rt-src-${i}`);
      await expectStatus(t.api.post(`/workspaces/${target.id}/run-triggers`, triggerBody(s.id)), 201);
      if (i === 0)
        expect((await t.api.post(`/workspaces/${target.id}/run-triggers`, triggerBody(s.id))).status).toBe(422);
    }
    const extra = await createWorkspace(t.api, t.org, "rt-src-extra");
    const over = await t.api.post(`/workspaces/${target.id}/run-triggers`, triggerBody(extra.id));
    expect(over.status).toBe(422);
    expect(over.body.errors[0].detail).toMatch(/at most 20/);
  });

  it("answers bad input with a 4xx", async () => {
    const ws = await createWorkspace(t.api, t.org, "rt-bad");
    expect((await t.api.get(`/workspaces/${ws.id}/run-triggers`)).status).toBe(400);
    expect((await t.api.get(`/workspaces/${ws.id}/run-triggers?filter[run-trigger][type]=sideways`)).status).toBe(400);
    expect(
      (await t.api.get(`/workspaces/${ws.id}/run-triggers?filter[run-trigger][type]=inbound&include=owner`)).status,
    ).toBe(400);
    expect((await t.api.post(`/workspaces/${ws.id}/run-triggers`, { data: { type: "run-triggers" } })).status).toBe(
      422,
    );
    expect((await t.api.post(`/workspaces/${ws.id}/run-triggers`, triggerBody("ws-missing"))).status).toBe(422);
    expect((await t.api.post(`/workspaces/ws-missing/run-triggers`, triggerBody(ws.id))).status).toBe(404);
    expect((await t.api.delete(`/run-triggers/rt-missing`)).status).toBe(404);
  });
});
