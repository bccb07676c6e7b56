/**
 * Adding a workspace attribute is one line of the field table: this process appends a
 * line (`review-required`, carried by `NoCodeWorkspace` too) to the table before
 * anything reads it, and a real server stores it on create (with the line's default
 * when left out), updates it, checks it against the line's request schema and renders
 * it back over HTTP; the `Workspace` resource, whose diff rules derive from the table,
 * sees a change of it; `NoCodeWorkspace` takes it as an input, reports it as an output
 * and compares it; the client sends it in a no-code create, where the server stores it;
 * and the generator writes it when it differs from its absent value.
 *
 * Vitest runs each test file in its own module graph, so the added line stays here.
 */
import { z } from "zod";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { workspaceFieldEntries, type FieldDef, type WorkspaceFieldName } from "../../src/api/workspace-fields";
import { createWorkspace, expectStatus, start, type TestServer } from "./helpers";
import { enableModule, publishModule } from "./no-code-support";

const EXTRA: FieldDef = {
  wire: "review-required",
  read: z.boolean().optional(),
  write: "read",
  absent: false,
  role: "both",
  diff: "bool",
  group: "top",
  noCode: "setting",
};
// The one line. The cast: the table's key type lists the lines written in its source.
workspaceFieldEntries.push(["reviewRequired" as WorkspaceFieldName, EXTRA]);

describe("a workspace attribute added as one table line", () => {
  let t: TestServer;

  beforeAll(async () => {
    t = await start();
  });
  afterAll(async () => {
    await t.server.close();
  });

  /** A client of the server, loaded after the line was added (it reads the table when it loads). */
  const clientOfServer = async () => {
    const { WorkspacesClient } = await import("../../src/client");
    return new WorkspacesClient({
      address: t.server.url,
      token: t.server.token,
      organization: t.org,
      env: {},
      homeDir: "/nonexistent",
      rateLimit: false,
    });
  };

  const patch = (id: string, attributes: Record<string, unknown>) =>
    t.api.patch(`/workspaces/${id}`, { data: { type: "workspaces", attributes } });

  it("is stored on create, with the line's default when the request leaves it out", async () => {
    const given = await createWorkspace(t.api, t.org, "extra-given", { "review-required": true });
    expect(given.attributes["review-required"]).toBe(true);
    const left = await createWorkspace(t.api, t.org, "extra-default");
    expect(left.attributes["review-required"]).toBe(false);
    const read = await expectStatus(t.api.get(`/workspaces/${given.id}`), 200);
    expect(read.body.data.attributes["review-required"]).toBe(true);
    // Its place in the document is its place in the table: after the line before it.
    const before = workspaceFieldEntries
      .slice(0, -1)
      .flatMap(([, f]) => [f.wire, f.alias])
      .filter((n): n is string => n !== undefined && n in read.body.data.attributes)
      .at(-1)!;
    const names = Object.keys(read.body.data.attributes);
    expect(names.indexOf("review-required")).toBe(names.indexOf(before) + 1);
  });

  it("is updated, and an update that repeats it changes nothing", async () => {
    const ws = await createWorkspace(t.api, t.org, "extra-updated");
    const on = await expectStatus(patch(ws.id, { "review-required": true }), 200);
    expect(on.body.data.attributes["review-required"]).toBe(true);
    const again = await expectStatus(patch(ws.id, { "review-required": true }), 200);
    expect(again.body.data.attributes["updated-at"]).toBe(on.body.data.attributes["updated-at"]);
    // Other updates leave it as it is.
    const other = await expectStatus(patch(ws.id, { description: "d" }), 200);
    expect(other.body.data.attributes["review-required"]).toBe(true);
    await expectStatus(patch(ws.id, { "review-required": false }), 200);
    const read = await expectStatus(t.api.get(`/organizations/${t.org}/workspaces/extra-updated`), 200);
    expect(read.body.data.attributes["review-required"]).toBe(false);
    const listed = await expectStatus(t.api.get(`/organizations/${t.org}/workspaces?search[name]=extra-updated`), 200);
    expect(listed.body.data[0].attributes["review-required"]).toBe(false);
  });

  it("is checked against the line's request schema", async () => {
    const ws = await createWorkspace(t.api, t.org, "extra-checked");
    const refused = await patch(ws.id, { "review-required": "yes" });
    expect(refused.status).toBe(422);
    expect(refused.body.errors[0].source.pointer).toBe("/data/attributes/review-required");
    const create = await t.api.post(`/organizations/${t.org}/workspaces`, {
      data: { type: "workspaces", attributes: { name: "extra-bad", "review-required": 3 } },
    });
    expect(create.status).toBe(422);
    const read = await expectStatus(t.api.get(`/workspaces/${ws.id}`), 200);
    expect(read.body.data.attributes["review-required"]).toBe(false);
  });

  it("is compared by the Workspace resource's diff", async () => {
    // Loaded after the line was added: the resource derives its diff rules when it loads.
    const { workspaceProvider } = await import("../../src/resources/providers/workspace");
    const olds = { name: "w", organization: t.org, reviewRequired: true };
    const changed = await workspaceProvider.diff("ws-1", olds, { ...olds, reviewRequired: false });
    expect(changed.changes).toBe(true);
    expect(changed.replaces).toEqual([]);
    const same = await workspaceProvider.diff("ws-1", olds, { ...olds });
    expect(same.changes).toBe(false);
  });

  it("is an input, an output and a compared value of NoCodeWorkspace", async () => {
    const { NO_CODE_SETTINGS } = await import("../../src/resources/no-code-workspace-fields");
    expect(NO_CODE_SETTINGS).toContain("reviewRequired");
    const { noCodeWorkspaceProvider } = await import("../../src/resources/providers/no-code-workspace");
    const olds = { noCodeModuleId: "nocode-1", name: "w", project: "prj-1", reviewRequired: true };
    const changed = await noCodeWorkspaceProvider.diff("ws-1", olds as never, { ...olds, reviewRequired: false });
    expect(changed.changes).toBe(true);
    expect(changed.replaces ?? []).toEqual([]);
    const same = await noCodeWorkspaceProvider.diff("ws-1", olds as never, { ...olds });
    expect(same.changes).toBe(false);
  });

  it("is sent by the client's no-code create, stored by the server's and reported by NoCodeWorkspace", async () => {
    const { createOptions, outputsOf } = await import("../../src/resources/providers/no-code-fields");
    const client = await clientOfServer();
    const rm = await publishModule(t.api, t.org, "extra", ["1.0.0"]);
    const nc = await enableModule(t.api, t.org, rm);
    // Through a variable: the inputs' type lists the lines written in the table's source.
    const inputs = { noCodeModuleId: nc.id, name: "extra-no-code", project: "", reviewRequired: true };
    const options = createOptions(inputs);
    expect(options).toMatchObject({ reviewRequired: true });
    const ws = await client.noCode.createWorkspace(nc.id, options);
    const read = await expectStatus(t.api.get(`/workspaces/${ws.id}`), 200);
    expect(read.body.data.attributes["review-required"]).toBe(true);
    const outputs = outputsOf(ws, {}, { moduleVersion: null }) as Record<string, unknown>;
    expect(outputs.reviewRequired).toBe(true);
    const left = await client.noCode.createWorkspace(nc.id, { name: "extra-no-code-default" });
    expect((await expectStatus(t.api.get(`/workspaces/${left.id}`), 200)).body.data.attributes["review-required"]).toBe(
      false,
    );
  });

  it("is written by the generator when it differs from its absent value, for Workspace and NoCodeWorkspace", async () => {
    const { settingsOf, noCodeSettingsOf } = await import("../../src/generate/written-settings");
    const client = await clientOfServer();
    const set = await client.workspaces.read(
      (await createWorkspace(t.api, t.org, "extra-generated", { "review-required": true })).id,
    );
    expect(settingsOf(set, undefined)).toMatchObject({ reviewRequired: true });
    expect(noCodeSettingsOf(set, undefined).carried).toMatchObject({ reviewRequired: true });
    const unset = await client.workspaces.read((await createWorkspace(t.api, t.org, "extra-not-generated")).id);
    expect(settingsOf(unset, undefined)).not.toHaveProperty("reviewRequired");
  });
});
