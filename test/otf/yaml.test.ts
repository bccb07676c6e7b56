/**
 * The provider plugin's YAML door against OTF, a server this project did not write. What OTF
 * implements: workspaces with settings and flat tags, additive flat tags of a workspace made
 * elsewhere, a lock and `fn::invoke` of `getWorkspaces`; up, a no-change preview, a refresh
 * without drift, an edit of each kind, `pulumi import` with a no-change preview after, and
 * destroy. What OTF lacks (key-value tags, remote state consumers, no-code) fails with one
 * message naming the feature, as through the TypeScript door. Assertions read OTF over HTTP.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { TestStack } from "../e2e/harness";
import {
  createOrganization,
  createWorkspace,
  errorsOf,
  expectOneMessageEach,
  otfServer,
  runOrganization,
  tagNames,
  workspace,
  workspaceIds,
  type OtfServer,
} from "./otf";

interface Edit {
  description: string;
  tagNames: string;
  shared: string;
  reason: string;
}

const FIRST: Edit = { description: "first", tagNames: "[web, yaml]", shared: "[platform]", reason: "migration" };
const EDITED: Edit = { description: "second", tagNames: "[web]", shared: "[platform, billing]", reason: "freeze" };

const program = (e: Edit, extra = "") => `
config:
  sharedId:
    type: string
resources:
${extra}  app:
    type: workspaces:index:Workspace
    properties:
      name: yaml-app
      description: ${e.description}
      autoApply: true
      tagNames: ${e.tagNames}
      forceDelete: true
  ops:
    type: workspaces:index:Workspace
    properties:
      name: yaml-ops
      executionMode: local
      forceDelete: true
  hold:
    type: workspaces:index:WorkspaceLock
    properties:
      workspaceId: \${ops.id}
      reason: ${e.reason}
  shared-tags:
    type: workspaces:index:WorkspaceTags
    properties:
      workspaceId: \${sharedId}
      tagNames: ${e.shared}
      mode: additive
variables:
  found:
    fn::invoke:
      function: workspaces:index:getWorkspaces
      arguments:
        names: ["shared"]
outputs:
  appId: \${app.id}
  found: \${found.ids}
`;

/** Plugin config of a stack that reaches OTF (the token as a secret). */
function otfConfig(otf: OtfServer, organization: string) {
  return {
    config: { "workspaces:address": otf.url, "workspaces:organization": organization },
    secretConfig: { "workspaces:token": otf.token },
  };
}

describe("a YAML program through the provider plugin, on what OTF implements", () => {
  const org = runOrganization("yaml-otf");
  let otf: OtfServer;
  let stack: TestStack;
  let sharedId: string;
  let appId: string;

  beforeAll(async () => {
    otf = otfServer();
    await createOrganization(otf, org);
    sharedId = await createWorkspace(otf, org, { name: "shared" });
    const { config, secretConfig } = otfConfig(otf, org);
    stack = await TestStack.create({
      project: "otf-yaml",
      files: {},
      yaml: program(FIRST),
      config: { ...config, sharedId },
      secretConfig,
    });
  });
  afterAll(() => stack?.dispose());

  it("creates the workspaces, the lock and the tags, and calls the lookup", async () => {
    const r = await stack.up();
    expect(r.code, r.output).toBe(0);
    const out = await stack.outputs();
    appId = out.appId;
    expect(out.found).toEqual([sharedId]);
    const app = await workspace(otf, appId);
    expect(app.attributes.description).toBe("first");
    expect(app.attributes["auto-apply"]).toBe(true);
    expect(await tagNames(otf, appId)).toEqual(["web", "yaml"]);
    expect((await workspace(otf, `${org}/yaml-ops`)).attributes.locked).toBe(true);
    expect(await tagNames(otf, sharedId)).toEqual(["platform"]);
    expect(stack.stateText()).not.toContain(otf.token);
  });

  it("previews no change, and refreshes without drift", async () => {
    const p = await stack.previewJson();
    expect(Object.keys(p.changeSummary), p.raw.output).toEqual(["same"]);
    const r = await stack.refresh(["--expect-no-changes"]);
    expect(r.code, r.output).toBe(0);
  });

  it("edits in place, adds tags and replaces the lock", async () => {
    stack.writeYaml(program(EDITED));
    const r = await stack.up();
    expect(r.code, r.output).toBe(0);
    const app = await workspace(otf, appId);
    expect(app.attributes.description).toBe("second");
    expect(await tagNames(otf, appId)).toEqual(["web"]);
    expect(await tagNames(otf, sharedId)).toEqual(["billing", "platform"]);
    expect((await workspace(otf, `${org}/yaml-ops`)).attributes.locked).toBe(true);
    const p = await stack.previewJson();
    expect(Object.keys(p.changeSummary), p.raw.output).toEqual(["same"]);
  });

  it("takes over a workspace with pulumi import, with no change to preview after", async () => {
    const preId = await createWorkspace(otf, org, { name: "pre-existing", description: "made by hand" });
    const code = path.join(stack.dir, "imported.yaml");
    await stack.ok(["import", "workspaces:index:Workspace", "pre", preId, "--yes", "--protect=false", "--out", code]);
    const text = fs.readFileSync(code, "utf8");
    const entries = text.slice(text.indexOf("resources:\n") + "resources:\n".length).replace(/\n*$/, "\n");
    stack.writeYaml(program(EDITED, entries));
    const p = await stack.previewJson();
    expect(p.code, p.raw.output).toBe(0);
    expect(Object.keys(p.changeSummary), p.raw.output).toEqual(["same"]);
    // OTF has no safe delete: the program lets destroy delete the imported workspace.
    stack.writeYaml(program(EDITED, entries.replace("forceDelete: false", "forceDelete: true")));
    const up = await stack.up();
    expect(up.code, up.output).toBe(0);
  });

  it("destroys: unlocks, deletes its workspaces and removes only the tags it added", async () => {
    const r = await stack.destroy();
    expect(r.code, r.output).toBe(0);
    expect(await workspaceIds(otf, org)).toEqual([sharedId]);
    expect(await tagNames(otf, sharedId)).toEqual([]);
  });
});

describe("a YAML program through the provider plugin, on what OTF lacks", () => {
  const org = runOrganization("yaml-otf-lacking");
  let otf: OtfServer;
  let stack: TestStack;

  beforeAll(async () => {
    otf = otfServer();
    await createOrganization(otf, org);
    const targetId = await createWorkspace(otf, org, { name: "target" });
    const { config, secretConfig } = otfConfig(otf, org);
    stack = await TestStack.create({
      project: "otf-yaml-lacking",
      files: {},
      yaml: `
resources:
  safe:
    type: workspaces:index:Workspace
    properties:
      name: safe
      forceDelete: true
  kv:
    type: workspaces:index:Workspace
    properties:
      name: kv
      tags:
        env: dev
      forceDelete: true
  consumers:
    type: workspaces:index:RemoteStateConsumers
    properties:
      workspaceId: ${targetId}
      consumerIds: ["\${safe.id}"]
  module:
    type: workspaces:index:NoCodeModule
    properties:
      registryModuleId: mod-AbCdEfGhIjKlMnOp
`,
      config,
      secretConfig,
    });
  });
  afterAll(() => stack?.dispose());

  it("fails each missing feature with one message naming it, and loses no record", async () => {
    const r = await stack.upWithEvents(["--continue-on-error"]);
    expect(r.code, r.output).not.toBe(0);
    const features: Array<[string, RegExp]> = [
      ["kv", /key-value tags/],
      ["consumers", /remote state consumers/],
      ["module", /no-code provisioning/],
    ];
    expectOneMessageEach(r, features);
    expect(errorsOf(r.diagnostics, "safe")).toEqual([]);
    // Every workspace on OTF is the target or in state.
    const inState = stack
      .resources("workspaces:index:Workspace")
      .map((w) => w.id ?? "")
      .sort();
    const onServer = await workspaceIds(otf, org);
    expect(onServer.filter((id) => !inState.includes(id))).toHaveLength(1);
    const destroyed = await stack.destroy();
    expect(destroyed.code, destroyed.output).toBe(0);
  });
});
