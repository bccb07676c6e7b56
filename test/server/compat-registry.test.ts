/**
 * Registry and no-code details official clients depend on: the older module delete
 * path, enabling no-code on a module before its first version, engine versions on
 * module-created workspaces, and variable categories answered in the caller's spelling.
 */
import { describe, expect, it } from "vitest";
import { expectStatus, type TestServer } from "./helpers";
import {
  addVersion,
  enableBody,
  enableModule,
  publishModule,
  serveForSuite,
  varItems,
  workspaceFromModuleBody,
} from "./no-code-support";

let t: TestServer;
serveForSuite((s) => (t = s));

describe("POST /registry-modules/actions/delete/:org/:name[/:provider[/:version]]", () => {
  it("deletes a version, then the module, as the path-based DELETE does", async () => {
    const id = await publishModule(t.api, t.org, "legacy", ["1.0.0", "1.1.0"]);
    await expectStatus(t.api.post(`/registry-modules/actions/delete/${t.org}/legacy/aws/1.0.0`), 204);
    const versions = await expectStatus(t.api.get(`/registry-modules/${id}`), 200);
    expect(versions.body.data.attributes["version-statuses"].map((v: any) => v.version)).toEqual(["1.1.0"]);
    await expectStatus(t.api.post(`/registry-modules/actions/delete/${t.org}/legacy`), 204);
    expect((await t.api.get(`/registry-modules/${id}`)).status).toBe(404);
    expect((await t.api.post(`/registry-modules/actions/delete/${t.org}/legacy`)).status).toBe(404);
  });
});

describe("no-code on a module without versions", () => {
  it("can be enabled; workspaces wait for a version, and the first published version fills the pin", async () => {
    const id = await publishModule(t.api, t.org, "empty-mod", []);
    const nc = await enableModule(t.api, t.org, id);
    expect(nc.attributes["version-pin"]).toBe("");
    const early = await t.api.post(`/no-code-modules/${nc.id}/workspaces`, workspaceFromModuleBody("too-early"));
    expect(early.status).toBe(422);
    expect(early.body.errors[0].detail).toContain("no versions yet");
    expect((await t.api.get(`/organizations/${t.org}/workspaces/too-early`)).status).toBe(404);

    await addVersion(t.api, t.org, "empty-mod", "0.1.0");
    expect((await expectStatus(t.api.get(`/no-code-modules/${nc.id}`), 200)).body.data.attributes["version-pin"]).toBe(
      "0.1.0",
    );
    await expectStatus(t.api.post(`/no-code-modules/${nc.id}/workspaces`, workspaceFromModuleBody("in-time")), 200);
  });

  it("a pin that names no version is still refused", async () => {
    const id = await publishModule(t.api, t.org, "pin-mod", []);
    const r = await t.api.post(`/organizations/${t.org}/no-code-modules`, enableBody(id, { "version-pin": "9.9.9" }));
    expect(r.status).toBe(422);
  });
});

describe("workspaces created from a no-code module", () => {
  it("take a requested engine version, and refuse one that is neither version nor constraint", async () => {
    const id = await publishModule(t.api, t.org, "versioned", ["1.0.0"]);
    const nc = await enableModule(t.api, t.org, id);
    const ok = await expectStatus(
      t.api.post(
        `/no-code-modules/${nc.id}/workspaces`,
        workspaceFromModuleBody("nc-engine", [], { "terraform-version": "~> 1.6" }),
      ),
      200,
    );
    expect(ok.body.data.attributes["engine-version"]).toBe("~> 1.6");
    const bad = await t.api.post(
      `/no-code-modules/${nc.id}/workspaces`,
      workspaceFromModuleBody("nc-bad-engine", [], { "engine-version": "banana" }),
    );
    expect(bad.status).toBe(422);
    expect(bad.body.errors[0].source.pointer).toBe("/data/attributes/engine-version");
  });

  it("answer each variable's category in the spelling its writer used", async () => {
    const id = await publishModule(t.api, t.org, "spelled", ["1.0.0"]);
    const nc = await enableModule(t.api, t.org, id);
    const body = workspaceFromModuleBody("nc-spelling");
    body.data.relationships.vars.data = [
      ...varItems([{ key: "region", value: "eu", category: "terraform" }]),
      ...varItems([{ key: "size", value: "s", category: "engine" }]),
      ...varItems([{ key: "TOKEN", value: "t", category: "env" }]),
    ];
    const ws = await expectStatus(t.api.post(`/no-code-modules/${nc.id}/workspaces`, body), 200);
    const vars = await expectStatus(t.api.get(`/workspaces/${ws.body.data.id}/vars`), 200);
    expect(Object.fromEntries(vars.body.data.map((v: any) => [v.attributes.key, v.attributes.category]))).toEqual({
      region: "terraform",
      size: "engine",
      TOKEN: "env",
    });
  });
});
