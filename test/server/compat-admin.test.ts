/**
 * The supporting endpoints clients use around the spec's own (go-tfe's helpers and
 * cleanups): /ping's product headers, account details, the organization list, team
 * and agent pool administration, and the data retention relationship of the
 * self-managed offering.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createWorkspace, expectStatus, grant, makeTeam, start, type TestServer } from "./helpers";

let t: TestServer;
let selfManaged: TestServer;
beforeAll(async () => {
  t = await start();
  selfManaged = await start({ selfManaged: true });
});
afterAll(async () => {
  await t.server.close();
  await selfManaged.server.close();
});

describe("/ping", () => {
  it("names the hosted offering, and the self-managed one with its release", async () => {
    const hosted = await t.api.get("/ping");
    expect(hosted.status).toBe(204);
    expect(hosted.headers.get("tfp-appname")).toBe("HCP Terraform");
    expect(hosted.headers.get("x-tfe-version")).toBeNull();
    const sm = await selfManaged.api.get("/ping");
    expect(sm.headers.get("tfp-appname")).toBe("Terraform Enterprise");
    expect(sm.headers.get("x-tfe-version")).toMatch(/^v\d{6}-\d+$/);
  });
});

describe("account and organizations", () => {
  it("GET /account/details answers the caller's user", async () => {
    const r = await expectStatus(t.api.get("/account/details"), 200);
    expect(r.body.data.type).toBe("users");
    expect(r.body.data.id).toMatch(/^user-/);
    expect((await t.api.as("not-a-token").get("/account/details")).status).toBe(401);
  });

  it("GET /organizations lists the organizations the caller belongs to, paginated", async () => {
    await expectStatus(
      t.api.post(`/organizations`, {
        data: { type: "organizations", attributes: { name: "listed-org", email: "a@example.com" } },
      }),
      201,
    );
    const all = await expectStatus(t.api.get("/organizations"), 200);
    expect(all.body.data.map((o: any) => o.id)).toEqual(expect.arrayContaining([t.org, "listed-org"]));
    expect(all.body.meta.pagination["total-count"]).toBe(all.body.data.length);
    const team = await makeTeam(t.api, t.org, "org-lister");
    const mine = await expectStatus(t.api.as(team.token).get("/organizations"), 200);
    expect(mine.body.data.map((o: any) => o.id)).toEqual([t.org]);
  });
});

describe("teams", () => {
  it("PATCH renames and changes organization access; DELETE removes the team and its token", async () => {
    const team = await makeTeam(t.api, t.org, "temp-team");
    const r = await expectStatus(
      t.api.patch(`/teams/${team.id}`, {
        data: {
          type: "teams",
          attributes: { name: "renamed-team", "organization-access": { "manage-workspaces": true } },
        },
      }),
      200,
    );
    expect(r.body.data.attributes.name).toBe("renamed-team");
    expect(r.body.data.attributes["organization-access"]["manage-workspaces"]).toBe(true);
    await expectStatus(t.api.delete(`/teams/${team.id}`), 204);
    expect((await t.api.get(`/teams/${team.id}`)).status).toBe(404);
    expect((await t.api.as(team.token).get(`/organizations/${t.org}`)).status).toBe(401);
  });

  it("DELETE /teams/:id/authentication-token revokes the team token; a second delete is 404", async () => {
    const team = await makeTeam(t.api, t.org, "token-team");
    await expectStatus(t.api.as(team.token).get(`/organizations/${t.org}`), 200);
    await expectStatus(t.api.delete(`/teams/${team.id}/authentication-token`), 204);
    expect((await t.api.as(team.token).get(`/organizations/${t.org}`)).status).toBe(401);
    expect((await t.api.delete(`/teams/${team.id}/authentication-token`)).status).toBe(404);
  });

  it("the owners team cannot be deleted, and a workspace lock outlives its team only until force-unlock", async () => {
    const owners = (await t.api.get(`/organizations/${t.org}/teams`)).body.data.find(
      (x: any) => x.attributes.name === "owners",
    );
    expect((await t.api.delete(`/teams/${owners.id}`)).status).toBe(422);
    const ws = await createWorkspace(t.api, t.org, "team-lock");
    const team = await makeTeam(t.api, t.org, "lock-team");
    await grant(t.api, team.id, ws.id, "write");
    await expectStatus(t.api.as(team.token).post(`/workspaces/${ws.id}/actions/lock`), 200);
    await expectStatus(t.api.delete(`/teams/${team.id}`), 204);
    expect((await t.api.get(`/workspaces/${ws.id}`)).body.data.attributes.locked).toBe(true);
    await expectStatus(t.api.post(`/workspaces/${ws.id}/actions/force-unlock`), 200);
  });
});

describe("team project access", () => {
  it("GET, PATCH and DELETE /team-projects/:id read, change and remove a team's access to a project", async () => {
    const prj = (
      await expectStatus(
        t.api.post(`/organizations/${t.org}/projects`, {
          data: { type: "projects", attributes: { name: "tp-project" } },
        }),
        201,
      )
    ).body.data.id;
    const ws = await createWorkspace(t.api, t.org, "tp-ws", {}, { project: { data: { type: "projects", id: prj } } });
    const team = await makeTeam(t.api, t.org, "tp-team");
    const grantBody = {
      data: {
        type: "team-projects",
        attributes: { access: "read" },
        relationships: {
          project: { data: { type: "projects", id: prj } },
          team: { data: { type: "teams", id: team.id } },
        },
      },
    };
    const created = await expectStatus(t.api.post(`/team-projects`, grantBody), 201);
    const id = created.body.data.id;
    expect((await expectStatus(t.api.get(`/team-projects/${id}`), 200)).body.data.attributes.access).toBe("read");
    const asTeam = t.api.as(team.token);
    expect((await asTeam.get(`/workspaces/${ws.id}`)).body.data.attributes.permissions["can-update"]).toBe(false);

    const patched = await expectStatus(
      t.api.patch(`/team-projects/${id}`, { data: { type: "team-projects", attributes: { access: "admin" } } }),
      200,
    );
    expect(patched.body.data.attributes.access).toBe("admin");
    expect((await asTeam.get(`/workspaces/${ws.id}`)).body.data.attributes.permissions["can-update"]).toBe(true);
    expect(
      (await t.api.patch(`/team-projects/${id}`, { data: { type: "team-projects", attributes: { access: "owner" } } }))
        .status,
    ).toBe(422);

    await expectStatus(t.api.delete(`/team-projects/${id}`), 204);
    expect((await t.api.get(`/team-projects/${id}`)).status).toBe(404);
    expect((await asTeam.get(`/workspaces/${ws.id}`)).status).toBe(404);
  });
});

describe("agent pools", () => {
  it("PATCH renames; DELETE removes an unused pool and refuses one a workspace uses", async () => {
    const pool = (
      await expectStatus(
        t.api.post(`/organizations/${t.org}/agent-pools`, {
          data: { type: "agent-pools", attributes: { name: "pool-x" } },
        }),
        201,
      )
    ).body.data.id;
    const r = await expectStatus(
      t.api.patch(`/agent-pools/${pool}`, { data: { type: "agent-pools", attributes: { name: "pool-y" } } }),
      200,
    );
    expect(r.body.data.attributes.name).toBe("pool-y");
    const ws = await createWorkspace(t.api, t.org, "uses-pool", { "execution-mode": "agent", "agent-pool-id": pool });
    const refused = await t.api.delete(`/agent-pools/${pool}`);
    expect(refused.status).toBe(422);
    expect(refused.body.errors[0].detail).toContain("in use");
    await expectStatus(
      t.api.patch(`/workspaces/${ws.id}`, { data: { type: "workspaces", attributes: { "execution-mode": "remote" } } }),
      200,
    );
    await expectStatus(t.api.delete(`/agent-pools/${pool}`), 204);
    expect((await t.api.get(`/agent-pools/${pool}`)).status).toBe(404);
  });
});

describe("data retention policy relationship (self-managed, spec 2.2 related records)", () => {
  it("is null without a policy and names the policy once one is set", async () => {
    const ws = await createWorkspace(selfManaged.api, selfManaged.org, "drp-ws");
    expect(ws.relationships["data-retention-policy"].data).toBeNull();
    const set = await expectStatus(
      selfManaged.api.post(`/workspaces/${ws.id}/relationships/data-retention-policy`, {
        data: { type: "data-retention-policy-delete-olders", attributes: { "delete-older-than-n-days": 33 } },
      }),
      201,
    );
    const read = await expectStatus(selfManaged.api.get(`/workspaces/${ws.id}`), 200);
    expect(read.body.data.relationships["data-retention-policy"].data).toEqual({
      id: set.body.data.id,
      type: "data-retention-policy-delete-olders",
    });
    await expectStatus(selfManaged.api.delete(`/workspaces/${ws.id}/relationships/data-retention-policy`), 204);
    expect(
      (await selfManaged.api.get(`/workspaces/${ws.id}`)).body.data.relationships["data-retention-policy"].data,
    ).toBeNull();
  });

  it("is absent in the hosted offering", async () => {
    const ws = await createWorkspace(t.api, t.org, "drp-hosted");
    expect(ws.relationships["data-retention-policy"]).toBeUndefined();
  });
});
