import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  createWorkspace,
  expectStatus,
  makeTeam,
  manageResources,
  start,
  stateFile,
  type Reply,
  type TestServer,
} from "./helpers";
import { createFromModule, enableModule, publishModule, upgradePath } from "./no-code-support";

/**
 * Every 409 of the server says which state refused the request in its error object's
 * `code`, one of the client's ConflictReason values, beside the unchanged title and detail.
 */
let t: TestServer;
beforeAll(async () => {
  t = await start({ runSpeed: 1 });
});
afterAll(() => t.server.close());

/** The 409's code, after checking the rest of its error object keeps its shape. */
async function conflictCode(p: Promise<Reply>): Promise<string> {
  const r = await expectStatus(p, 409);
  expect(r.body.errors).toHaveLength(1);
  const [e] = r.body.errors;
  expect(Object.keys(e)).toEqual(["status", "code", "title", "detail"]);
  expect(e).toMatchObject({ status: "409", title: "conflict" });
  expect(typeof e.detail).toBe("string");
  return e.code;
}

const stateVersion = (id: string) =>
  t.api.post(`/workspaces/${id}/state-versions`, { data: { type: "state-versions", attributes: stateFile(0) } });

describe("409 codes over HTTP", () => {
  it("already-locked, not-locked and locked-by-another-user on the lock, unlock and state endpoints", async () => {
    const ws = await createWorkspace(t.api, t.org, "cc-lock");
    const other = await makeTeam(t.api, t.org, "cc-others", { manageWorkspaces: true });
    expect(await conflictCode(t.api.post(`/workspaces/${ws.id}/actions/unlock`))).toBe("not-locked");
    expect(await conflictCode(t.api.post(`/workspaces/${ws.id}/actions/force-unlock`))).toBe("not-locked");
    expect(await conflictCode(stateVersion(ws.id))).toBe("not-locked");
    await expectStatus(t.api.post(`/workspaces/${ws.id}/actions/lock`), 200);
    expect(await conflictCode(t.api.post(`/workspaces/${ws.id}/actions/lock`))).toBe("already-locked");
    const theirs = t.api.as(other.token);
    expect(await conflictCode(theirs.post(`/workspaces/${ws.id}/actions/unlock`))).toBe("locked-by-another-user");
    expect(
      await conflictCode(
        theirs.post(`/workspaces/${ws.id}/state-versions`, {
          data: { type: "state-versions", attributes: stateFile(0) },
        }),
      ),
    ).toBe("locked-by-another-user");
  });

  it("locked and managing-resources on safe delete", async () => {
    const locked = await createWorkspace(t.api, t.org, "cc-safe-locked");
    await expectStatus(t.api.post(`/workspaces/${locked.id}/actions/lock`), 200);
    expect(await conflictCode(t.api.post(`/workspaces/${locked.id}/actions/safe-delete`))).toBe("locked");
    const busy = await createWorkspace(t.api, t.org, "cc-safe-busy");
    await manageResources(t.api, busy.id, 2);
    expect(await conflictCode(t.api.post(`/workspaces/${busy.id}/actions/safe-delete`))).toBe("managing-resources");
  });

  it("locked for the default project and managing-resources for a project that holds workspaces", async () => {
    const org = await expectStatus(t.api.get(`/organizations/${t.org}`), 200);
    const defaultProject = org.body.data.relationships["default-project"].data.id;
    expect(await conflictCode(t.api.delete(`/projects/${defaultProject}`))).toBe("locked");
    const p = await expectStatus(
      t.api.post(`/organizations/${t.org}/projects`, { data: { type: "projects", attributes: { name: "cc-full" } } }),
      201,
    );
    await createWorkspace(
      t.api,
      t.org,
      "cc-in-project",
      {},
      { project: { data: { type: "projects", id: p.body.data.id } } },
    );
    expect(await conflictCode(t.api.delete(`/projects/${p.body.data.id}`))).toBe("managing-resources");
  });

  it("locked for a run that has ended", async () => {
    const ws = await createWorkspace(t.api, t.org, "cc-run");
    const run = await expectStatus(
      t.api.post(`/runs`, {
        data: { type: "runs", relationships: { workspace: { data: { type: "workspaces", id: ws.id } } } },
      }),
      201,
    );
    await expectStatus(t.api.post(`/runs/${run.body.data.id}/actions/discard`), 202);
    expect(await conflictCode(t.api.post(`/runs/${run.body.data.id}/actions/discard`))).toBe("locked");
  });

  it("locked for a pinned module version and still-processing for an upgrade not planned yet", async () => {
    const mod = await publishModule(t.api, t.org, "cc-mod", ["1.0.0", "1.1.0"]);
    const m = await enableModule(t.api, t.org, mod, { "version-pin": "1.0.0" });
    const base = `/organizations/${t.org}/registry-modules/private/${t.org}/cc-mod/aws`;
    expect(await conflictCode(t.api.delete(`${base}/1.0.0`))).toBe("locked");
    const ws = await createFromModule(t.api, m.id, "cc-upgraded");
    await expectStatus(
      t.api.patch(`/no-code-modules/${m.id}`, {
        data: { type: "no-code-modules", attributes: { "version-pin": "1.1.0" } },
      }),
      200,
    );
    const up = await expectStatus(t.api.post(upgradePath(m.id, ws.id), { data: { type: "workspaces" } }), 200);
    expect(up.body.data.attributes.status).toBe("pending");
    expect(await conflictCode(t.api.post(upgradePath(m.id, ws.id, up.body.data.id)))).toBe("still-processing");
  });
});
