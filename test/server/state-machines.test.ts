import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  createWorkspace,
  expectStatus,
  makeTeam,
  makeUser,
  manageResources,
  start,
  stateFile,
  type Api,
  type TestServer,
} from "./helpers";

let t: TestServer;
beforeAll(async () => {
  t = await start();
});
afterAll(() => t.server.close());

const lock = (api: Api, id: string, body?: unknown) => api.post(`/workspaces/${id}/actions/lock`, body);
const unlock = (api: Api, id: string) => api.post(`/workspaces/${id}/actions/unlock`);
const forceUnlock = (api: Api, id: string) => api.post(`/workspaces/${id}/actions/force-unlock`);

describe("lock state machine (spec 3)", () => {
  it("unlocked -> lock -> locked, storing the reason and locked-by", async () => {
    const ws = await createWorkspace(t.api, t.org, "lk1");
    const r = await expectStatus(lock(t.api, ws.id, { reason: "maintenance" }), 200);
    expect(r.body.data.attributes.locked).toBe(true);
    expect(r.body.data.attributes["locked-reason"]).toBe("maintenance");
    expect(r.body.data.relationships["locked-by"].data.type).toBe("users");
    expect((await t.api.get(`/workspaces/${ws.id}`)).body.data).toEqual(r.body.data);
    const user = await expectStatus(
      t.api.get(r.body.data.relationships["locked-by"].links.related.replace("/api/v2", "")),
      200,
    );
    expect(user.body.data.id).toBe(r.body.data.relationships["locked-by"].data.id);
  });

  it("stores the empty string for a lock without body, or with the media type and no body", async () => {
    const ws = await createWorkspace(t.api, t.org, "lk2");
    const r = await expectStatus(
      t.api.request("POST", `/workspaces/${ws.id}/actions/lock`, undefined, {
        "content-type": "application/vnd.api+json",
      }),
      200,
    );
    expect(r.body.data.attributes["locked-reason"]).toBe("");
    await expectStatus(unlock(t.api, ws.id), 200);
    const r2 = await expectStatus(lock(t.api, ws.id, {}), 200);
    expect(r2.body.data.attributes["locked-reason"]).toBe("");
  });

  it("locked -> lock is 409; unlocked -> unlock and force-unlock are 409", async () => {
    const ws = await createWorkspace(t.api, t.org, "lk3");
    expect((await unlock(t.api, ws.id)).status).toBe(409);
    expect((await forceUnlock(t.api, ws.id)).status).toBe(409);
    await expectStatus(lock(t.api, ws.id), 200);
    const again = await lock(t.api, ws.id);
    expect(again.status).toBe(409);
    expect(again.body.errors[0].status).toBe("409");
    const after = await expectStatus(unlock(t.api, ws.id), 200);
    expect(after.body.data.attributes.locked).toBe(false);
    expect(after.body.data.attributes["locked-reason"]).toBeNull();
    expect(after.body.data.relationships["locked-by"].data).toBeNull();
  });

  it("unlock by a different user is 409; force-unlock by an admin succeeds", async () => {
    const ws = await createWorkspace(t.api, t.org, "lk4");
    const other = await makeTeam(t.api, t.org, "lk4-admins", { manageWorkspaces: true });
    const api2 = t.api.as(other.token);
    await expectStatus(lock(api2, ws.id), 200);
    const r = await unlock(t.api, ws.id);
    expect(r.status).toBe(409);
    expect(r.body.errors[0].detail).toContain("is locked by");
    expect((await t.api.get(`/workspaces/${ws.id}`)).body.data.attributes.locked).toBe(true);
    const f = await expectStatus(forceUnlock(t.api, ws.id), 200);
    expect(f.body.data.attributes.locked).toBe(false);
  });

  it("two tokens of the same user share a lock", async () => {
    const u = await makeUser(t.api, "lk5-user");
    const owners = (await t.api.get(`/organizations/${t.org}`)).body.data;
    expect(owners).toBeTruthy();
    const team = await makeTeam(t.api, t.org, "lk5-team", { manageWorkspaces: true });
    await expectStatus(
      t.api.post(`/teams/${team.id}/relationships/users`, { data: [{ type: "users", id: "lk5-user" }] }),
      204,
    );
    const second = await expectStatus(t.api.post(`/users/${u.id}/authentication-tokens`), 201);
    const ws = await createWorkspace(t.api, t.org, "lk5");
    await expectStatus(lock(t.api.as(u.token), ws.id), 200);
    await expectStatus(unlock(t.api.as(second.body.data.attributes.token), ws.id), 200);
  });

  it("unlock answers 503 while the latest intermediate state version is not finalized, then promotes it", async () => {
    const ws = await createWorkspace(t.api, t.org, "lk6");
    await manageResources(t.api, ws.id, 2, 1);
    await expectStatus(lock(t.api, ws.id), 200);
    const sv = (attrs: Record<string, unknown>) =>
      t.api.post(`/workspaces/${ws.id}/state-versions`, { data: { type: "state-versions", attributes: attrs } });
    const finalized = await expectStatus(sv({ ...stateFile(3, 2), intermediate: true }), 201);
    expect(finalized.body.data.attributes).toMatchObject({
      status: "finalized",
      intermediate: true,
      "resource-count": 3,
    });
    const pending = await expectStatus(sv({ ...stateFile(4, 3), intermediate: true, finalized: false }), 201);
    expect(pending.body.data.attributes.status).toBe("pending");
    const blocked = await unlock(t.api, ws.id);
    expect(blocked.status).toBe(503);
    const still = (await t.api.get(`/workspaces/${ws.id}`)).body.data;
    expect(still.attributes.locked).toBe(true);
    expect(still.attributes["resource-count"]).toBe(2);
    const latest = await expectStatus(sv({ ...stateFile(5, 4), intermediate: true }), 201);
    const done = await expectStatus(unlock(t.api, ws.id), 200);
    expect(done.body.data.attributes.locked).toBe(false);
    expect(done.body.data.relationships["current-state-version"].data.id).toBe(latest.body.data.id);
    expect(done.body.data.attributes["resource-count"]).toBe(5);
    expect(done.body.data.attributes["latest-change-at"]).toBe(latest.body.data.attributes["created-at"]);
    const current = await expectStatus(t.api.get(`/workspaces/${ws.id}/current-state-version`), 200);
    expect(current.body.data.id).toBe(latest.body.data.id);
  });

  it("a state version needs the caller's lock and a matching md5", async () => {
    const ws = await createWorkspace(t.api, t.org, "lk7");
    const body = { data: { type: "state-versions", attributes: stateFile(1) } };
    expect((await t.api.post(`/workspaces/${ws.id}/state-versions`, body)).status).toBe(409);
    await expectStatus(lock(t.api, ws.id), 200);
    const bad = await t.api.post(`/workspaces/${ws.id}/state-versions`, {
      data: { type: "state-versions", attributes: { ...stateFile(1), md5: "0".repeat(32) } },
    });
    expect(bad.status).toBe(422);
    expect(bad.body.errors[0].source.pointer).toBe("/data/attributes/md5");
    const ok = await expectStatus(t.api.post(`/workspaces/${ws.id}/state-versions`, body), 201);
    expect(ok.body.data.id).toMatch(/^sv-/);
    expect((await t.api.get(`/workspaces/${ws.id}`)).body.data.attributes["resource-count"]).toBe(1);
  });

  it("of many concurrent lock requests exactly one wins", async () => {
    const ws = await createWorkspace(t.api, t.org, "race");
    const results = await Promise.all(Array.from({ length: 25 }, (_, i) => lock(t.api, ws.id, { reason: `r${i}` })));
    const statuses = results.map((r) => r.status);
    expect(statuses.filter((s) => s === 200)).toHaveLength(1);
    expect(statuses.filter((s) => s === 409)).toHaveLength(24);
    const winner = results.find((r) => r.status === 200)!;
    expect((await t.api.get(`/workspaces/${ws.id}`)).body.data.attributes["locked-reason"]).toBe(
      winner.body.data.attributes["locked-reason"],
    );
  });

  it("of many concurrent creates with one name exactly one wins", async () => {
    const results = await Promise.all(
      Array.from({ length: 20 }, () =>
        t.api.post(`/organizations/${t.org}/workspaces`, {
          data: { type: "workspaces", attributes: { name: "same-name" } },
        }),
      ),
    );
    expect(results.filter((r) => r.status === 201)).toHaveLength(1);
    expect(
      results.filter((r) => r.status === 422 && r.body.errors[0].detail === "Name has already been taken"),
    ).toHaveLength(19);
  });
});

describe("existence state machine (spec 3)", () => {
  it("safe delete removes a workspace that manages nothing (both paths)", async () => {
    const a = await createWorkspace(t.api, t.org, "sd1");
    await expectStatus(t.api.post(`/workspaces/${a.id}/actions/safe-delete`), 204);
    expect((await t.api.get(`/workspaces/${a.id}`)).status).toBe(404);
    await createWorkspace(t.api, t.org, "sd2");
    await expectStatus(
      t.api.post(`/organizations/${t.org}/workspaces/sd2/actions/safe-delete`, undefined, {
        "content-type": "application/vnd.api+json",
      }),
      204,
    );
    expect((await t.api.get(`/organizations/${t.org}/workspaces/sd2`)).status).toBe(404);
  });

  it("safe delete of a workspace managing resources is 409 and keeps it", async () => {
    const ws = await createWorkspace(t.api, t.org, "sd3");
    await manageResources(t.api, ws.id, 3);
    const r = await t.api.post(`/workspaces/${ws.id}/actions/safe-delete`);
    expect(r.status).toBe(409);
    expect(r.body.errors[0].status).toBe("409");
    expect((await t.api.post(`/organizations/${t.org}/workspaces/sd3/actions/safe-delete`)).status).toBe(409);
    expect((await t.api.get(`/workspaces/${ws.id}`)).status).toBe(200);
  });

  it("safe delete becomes possible once the state is empty again", async () => {
    const ws = await createWorkspace(t.api, t.org, "sd4");
    await manageResources(t.api, ws.id, 2, 1);
    await manageResources(t.api, ws.id, 0, 2);
    await expectStatus(t.api.post(`/workspaces/${ws.id}/actions/safe-delete`), 204);
  });

  it("force delete removes a workspace managing resources (both paths); unknown is 404", async () => {
    const a = await createWorkspace(t.api, t.org, "fd1");
    await manageResources(t.api, a.id, 2);
    await expectStatus(t.api.delete(`/workspaces/${a.id}`), 204);
    expect((await t.api.get(`/workspaces/${a.id}`)).status).toBe(404);
    await createWorkspace(t.api, t.org, "fd2");
    await expectStatus(t.api.delete(`/organizations/${t.org}/workspaces/fd2`), 204);
    expect((await t.api.delete(`/workspaces/${a.id}`)).status).toBe(404);
    expect((await t.api.post(`/workspaces/${a.id}/actions/safe-delete`)).status).toBe(404);
  });

  it("force delete is 403 for a workspace admin unless the organization allows it", async () => {
    const team = await makeTeam(t.api, t.org, "fd-admins");
    const ws = await createWorkspace(t.api, t.org, "fd3");
    await expectStatus(
      t.api.post(`/team-workspaces`, {
        data: {
          type: "team-workspaces",
          attributes: { access: "admin" },
          relationships: {
            workspace: { data: { id: ws.id, type: "workspaces" } },
            team: { data: { id: team.id, type: "teams" } },
          },
        },
      }),
      201,
    );
    const admin = t.api.as(team.token);
    expect((await admin.get(`/workspaces/${ws.id}`)).body.data.attributes.permissions["can-force-delete"]).toBe(false);
    const denied = await admin.delete(`/workspaces/${ws.id}`);
    expect(denied.status).toBe(403);
    expect(denied.body.errors[0].status).toBe("403");
    expect((await t.api.get(`/workspaces/${ws.id}`)).status).toBe(200);
    await expectStatus(
      t.api.patch(`/organizations/${t.org}`, {
        data: { type: "organizations", attributes: { "allow-force-delete-workspaces": true } },
      }),
      200,
    );
    expect((await admin.get(`/workspaces/${ws.id}`)).body.data.attributes.permissions["can-force-delete"]).toBe(true);
    await expectStatus(admin.delete(`/workspaces/${ws.id}`), 204);
    await expectStatus(
      t.api.patch(`/organizations/${t.org}`, {
        data: { type: "organizations", attributes: { "allow-force-delete-workspaces": false } },
      }),
      200,
    );
  });
});
