/**
 * Teams and their access over real HTTP: a team's settings and organization access,
 * preset levels and custom permissions of workspace and project grants (refused when a
 * preset level is given a different permission), lists, and the 4xx answers to bad input.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PROJECT_ACCESS_PRESETS, WORKSPACE_ACCESS_PRESETS } from "../../src/api/team-access";
import { createWorkspace, expectStatus, makeTeam, start, type TestServer } from "./helpers";

let t: TestServer;
beforeAll(async () => {
  t = await start();
});
afterAll(() => t.server.close());

const teamBody = (attributes: Record<string, unknown>) => ({ data: { type: "teams", attributes } });
const grantBody = (teamId: string, workspaceId: string, attributes: Record<string, unknown>) => ({
  data: {
    type: "team-workspaces",
    attributes,
    relationships: {
      workspace: { data: { type: "workspaces", id: workspaceId } },
      team: { data: { type: "teams", id: teamId } },
    },
  },
});
const projectGrantBody = (teamId: string, projectId: string, attributes: Record<string, unknown>) => ({
  data: {
    type: "team-projects",
    attributes,
    relationships: {
      project: { data: { type: "projects", id: projectId } },
      team: { data: { type: "teams", id: teamId } },
    },
  },
});

describe("teams", () => {
  it("keeps every organization access flag, the visibility and the SSO id; an update changes only what it names", async () => {
    const created = await expectStatus(
      t.api.post(
        `/organizations/${t.org}/teams`,
        teamBody({
          name: "platform",
          "sso-team-id": "sso-1",
          "organization-access": { "manage-policies": true, "manage-workspaces": true },
        }),
      ),
      201,
    );
    const a = created.body.data.attributes;
    expect(a.visibility).toBe("secret");
    expect(a["allow-member-token-management"]).toBe(true);
    expect(a["sso-team-id"]).toBe("sso-1");
    expect(a["organization-access"]["manage-policies"]).toBe(true);
    expect(a["organization-access"]["manage-workspaces"]).toBe(true);
    expect(a["organization-access"]["manage-modules"]).toBe(false);
    expect(a.permissions["can-destroy"]).toBe(true);

    const id = created.body.data.id;
    const updated = await expectStatus(
      t.api.patch(
        `/teams/${id}`,
        teamBody({ visibility: "organization", "organization-access": { "manage-modules": true } }),
      ),
      200,
    );
    const u = updated.body.data.attributes;
    expect(u.visibility).toBe("organization");
    expect(u["organization-access"]["manage-modules"]).toBe(true);
    expect(u["organization-access"]["manage-policies"]).toBe(true);
    expect(u["organization-access"]["manage-workspaces"]).toBe(true);
  });

  it("lists with pages, exact names and a part of the name", async () => {
    for (const name of ["alpha-one", "alpha-two", "beta-one"]) await makeTeam(t.api, t.org, name);
    const byName = await expectStatus(
      t.api.get(`/organizations/${t.org}/teams?filter[names]=alpha-one&filter[names]=beta-one`),
      200,
    );
    expect(byName.body.data.map((d: any) => d.attributes.name).sort()).toEqual(["alpha-one", "beta-one"]);
    const byPart = await expectStatus(t.api.get(`/organizations/${t.org}/teams?q=ALPHA`), 200);
    expect(byPart.body.meta.pagination["total-count"]).toBe(2);
    const far = await expectStatus(t.api.get(`/organizations/${t.org}/teams?page[number]=99&page[size]=100`), 200);
    expect(far.body.data).toEqual([]);
    expect(far.body.meta.pagination["current-page"]).toBe(99);
  });

  it("shows a secret team only to its members and the owners; a team of visibility organization to every member", async () => {
    const secret = await makeTeam(t.api, t.org, "secret-team");
    const open = await makeTeam(t.api, t.org, "open-team");
    await expectStatus(t.api.patch(`/teams/${open.id}`, teamBody({ visibility: "organization" })), 200);
    const outsider = await makeTeam(t.api, t.org, "outsider");
    const as = t.api.as(outsider.token);
    expect((await as.get(`/teams/${secret.id}`)).status).toBe(404);
    await expectStatus(as.get(`/teams/${open.id}`), 200);
    await expectStatus(as.get(`/teams/${outsider.id}`), 200);
    const listed = await expectStatus(as.get(`/organizations/${t.org}/teams?page[size]=100`), 200);
    const names = listed.body.data.map((d: any) => d.attributes.name);
    expect(names).toContain("open-team");
    expect(names).toContain("outsider");
    expect(names).not.toContain("secret-team");
    expect(listed.body.meta.pagination["total-count"]).toBe(names.length);
  });

  it("answers bad input with a 4xx", async () => {
    const empty = await t.api.post(`/organizations/${t.org}/teams`, teamBody({ name: "" }));
    expect(empty.status).toBe(422);
    const flag = await t.api.post(
      `/organizations/${t.org}/teams`,
      teamBody({ name: "x", "organization-access": { "manage-policies": "yes" } }),
    );
    expect(flag.status).toBe(422);
    const visibility = await t.api.post(`/organizations/${t.org}/teams`, teamBody({ name: "y", visibility: "public" }));
    expect(visibility.status).toBe(422);
    const taken = await t.api.post(`/organizations/${t.org}/teams`, teamBody({ name: "platform" }));
    expect(taken.status).toBe(422);
  });
});

describe("team access to a workspace", () => {
  it("shows a preset level's permissions, keeps custom ones, and refuses a permission a preset level does not hold", async () => {
    const ws = await createWorkspace(t.api, t.org, "access-ws");
    const team = await makeTeam(t.api, t.org, "access-team");
    const admin = await expectStatus(
      t.api.post(`/team-workspaces`, grantBody(team.id, ws.id, { access: "admin" })),
      201,
    );
    const { access, ...perms } = admin.body.data.attributes;
    expect(access).toBe("admin");
    expect(perms).toEqual(WORKSPACE_ACCESS_PRESETS.admin);

    const again = await t.api.post(`/team-workspaces`, grantBody(team.id, ws.id, { access: "read" }));
    expect(again.status).toBe(422);
    expect(again.body.errors[0].detail).toMatch(/already has access/);

    const custom = await expectStatus(
      t.api.patch(`/team-workspaces/${admin.body.data.id}`, {
        data: { type: "team-workspaces", attributes: { access: "custom", runs: "plan" } },
      }),
      200,
    );
    expect(custom.body.data.attributes).toMatchObject({ access: "custom", runs: "plan", variables: "write" });

    const list = await expectStatus(t.api.get(`/team-workspaces?filter[workspace][id]=${ws.id}`), 200);
    expect(list.body.data.map((d: any) => d.id)).toEqual([admin.body.data.id]);

    const other = await makeTeam(t.api, t.org, "access-team-2");
    const refused = await t.api.post(`/team-workspaces`, grantBody(other.id, ws.id, { access: "read", runs: "apply" }));
    expect(refused.status).toBe(422);
    expect(refused.body.errors[0]).toMatchObject({
      title: "invalid attribute",
      detail: "Runs is read-only when access level is 'read'; use the 'custom' access level to set this attribute.",
      source: { pointer: "/data/attributes/runs" },
    });
    // The same value a preset holds is not a change: accepted.
    await expectStatus(
      t.api.post(`/team-workspaces`, grantBody(other.id, ws.id, { access: "read", runs: "read" })),
      201,
    );
  });

  it("answers bad input with a 4xx", async () => {
    const ws = await createWorkspace(t.api, t.org, "access-bad");
    const team = await makeTeam(t.api, t.org, "access-bad-team");
    expect((await t.api.post(`/team-workspaces`, grantBody(team.id, ws.id, { access: "owner" }))).status).toBe(422);
    expect(
      (await t.api.post(`/team-workspaces`, grantBody(team.id, ws.id, { access: "custom", variables: "all" }))).status,
    ).toBe(422);
    expect((await t.api.post(`/team-workspaces`, grantBody("team-nope", ws.id, { access: "read" }))).status).toBe(404);
    expect((await t.api.get(`/team-workspaces`)).status).toBe(400);
  });
});

describe("team access to a project", () => {
  it("shows a preset level's permissions, keeps custom ones given and the rest of the grant", async () => {
    const project = await expectStatus(
      t.api.post(`/organizations/${t.org}/projects`, { data: { type: "projects", attributes: { name: "apps" } } }),
      201,
    );
    const pid = project.body.data.id;
    const team = await makeTeam(t.api, t.org, "project-team");
    const created = await expectStatus(
      t.api.post(`/team-projects`, projectGrantBody(team.id, pid, { access: "maintain" })),
      201,
    );
    expect(created.body.data.attributes["workspace-access"]).toEqual(PROJECT_ACCESS_PRESETS.maintain.workspace);
    const custom = await expectStatus(
      t.api.patch(`/team-projects/${created.body.data.id}`, {
        data: {
          type: "team-projects",
          attributes: {
            access: "custom",
            "project-access": { teams: "manage" },
            "workspace-access": { delete: false },
          },
        },
      }),
      200,
    );
    const a = custom.body.data.attributes;
    expect(a["project-access"].teams).toBe("manage");
    expect(a["workspace-access"]).toEqual({ ...PROJECT_ACCESS_PRESETS.maintain.workspace, delete: false });
    const read = await expectStatus(t.api.get(`/team-projects/${created.body.data.id}`), 200);
    expect(read.body.data.attributes).toEqual(a);
    const list = await expectStatus(t.api.get(`/team-projects?filter[project][id]=${pid}`), 200);
    expect(list.body.meta.pagination["total-count"]).toBe(1);

    const bad = await t.api.patch(`/team-projects/${created.body.data.id}`, {
      data: { type: "team-projects", attributes: { access: "custom", "project-access": { teams: "everything" } } },
    });
    expect(bad.status).toBe(422);
    const readOnly = await t.api.patch(`/team-projects/${created.body.data.id}`, {
      data: { type: "team-projects", attributes: { access: "read", "workspace-access": { create: true } } },
    });
    expect(readOnly.status).toBe(422);
    expect(readOnly.body.errors[0].source.pointer).toBe("/data/attributes/workspace-access/create");
  });

  it("a custom project grant gives its workspace permissions on the project's workspaces", async () => {
    const project = await expectStatus(
      t.api.post(`/organizations/${t.org}/projects`, {
        data: { type: "projects", attributes: { name: "custom-apps" } },
      }),
      201,
    );
    const ws = await createWorkspace(
      t.api,
      t.org,
      "in-custom",
      {},
      {
        project: { data: { type: "projects", id: project.body.data.id } },
      },
    );
    const team = await makeTeam(t.api, t.org, "custom-readers");
    await expectStatus(
      t.api.post(
        `/team-projects`,
        projectGrantBody(team.id, project.body.data.id, {
          access: "custom",
          "workspace-access": { "state-versions": "read-outputs", variables: "read" },
        }),
      ),
      201,
    );
    const creators = await makeTeam(t.api, t.org, "custom-creators");
    await expectStatus(
      t.api.post(
        `/team-projects`,
        projectGrantBody(creators.id, project.body.data.id, { access: "custom", "workspace-access": { create: true } }),
      ),
      201,
    );
    const inProject = { project: { data: { type: "projects", id: project.body.data.id } } };
    await createWorkspace(t.api.as(creators.token), t.org, "made-by-custom", {}, inProject);
    expect(
      (
        await t.api.as(team.token).post(`/organizations/${t.org}/workspaces`, {
          data: { type: "workspaces", attributes: { name: "not-allowed" }, relationships: inProject },
        })
      ).status,
    ).toBe(404);
    const seen = await expectStatus(t.api.as(team.token).get(`/workspaces/${ws.id}`), 200);
    const p = seen.body.data.attributes.permissions;
    expect(p["can-read-state-outputs"]).toBe(true);
    expect(p["can-read-state-versions"]).toBe(false);
    expect(p["can-read-variable"]).toBe(true);
    expect(p["can-update-variable"]).toBe(false);
  });
});
