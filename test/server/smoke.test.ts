import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createWorkspace, start, type TestServer } from "./helpers";

describe("server skeleton", () => {
  let t: TestServer;
  beforeAll(async () => {
    t = await start();
  });
  afterAll(() => t.server.close());

  it("creates and reads a workspace identically", async () => {
    const created = await createWorkspace(t.api, t.org, "alpha", { "terraform-version": "1.5.0" });
    expect(created.id).toMatch(/^ws-/);
    expect(created.attributes["engine-version"]).toBe("1.5.0");
    const read = await t.api.get(`/workspaces/${created.id}`);
    expect(read.status).toBe(200);
    expect(read.body.data).toEqual(created);
    const byName = await t.api.get(`/organizations/${t.org}/workspaces/alpha`);
    expect(byName.body.data).toEqual(created);
    const list = await t.api.get(`/organizations/${t.org}/workspaces`);
    expect(list.body.data).toEqual([created]);
    expect(list.body.meta.pagination["total-count"]).toBe(1);
  });

  it("answers unknown routes with a JSON:API 404", async () => {
    const r = await t.api.get("/nope");
    expect(r.status).toBe(404);
    expect(r.body.errors[0].status).toBe("404");
  });
});
