/**
 * No-code upgrade strategies through the real engine: `in-place` (default) runs an
 * upgrade on the same workspace; `replace` shows and performs a replacement (a new
 * workspace id), and its delete is still a safe delete; a replacement whose new
 * workspace the module would refuse deletes nothing. A failed upgrade says why, in the
 * service's words, once.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RunningServer } from "../../src/server";
import { api, serverEnv, startTestServer, TestStack } from "./harness";
import {
  createProject,
  createRegistryModule,
  giveWorkspaceResources,
  workspaceByName,
  workspaceVars,
} from "./server-helpers";

interface Version {
  version: string;
  region: string;
  /** The region of the replace-style workspace; eu-west-1 unless given. */
  freshRegion?: string;
}

const program = (v: Version) => `
import * as pulumi from "@pulumi/pulumi";
import { NoCodeModule, NoCodeWorkspace } from "pulumi-workspaces";

const config = new pulumi.Config();

const network = new NoCodeModule("network", {
  registryModuleId: config.require("moduleId"),
  versionPin: ${JSON.stringify(v.version)},
  variableOptions: [{ variableName: "region", variableType: "string", options: ["eu-west-1", "us-east-1"] }],
});

const keep = new NoCodeWorkspace("keep", {
  noCodeModuleId: network.id,
  name: "net-keep",
  project: config.require("project"),
  moduleVersion: network.versionPin,
  variables: [{ key: "region", value: ${JSON.stringify(v.region)}, category: "engine" }],
});

const fresh = new NoCodeWorkspace("fresh", {
  noCodeModuleId: network.id,
  name: "net-fresh",
  project: config.require("project"),
  moduleVersion: network.versionPin,
  variables: [{ key: "region", value: ${JSON.stringify(v.freshRegion ?? "eu-west-1")}, category: "engine" }],
  upgradeStrategy: "replace",
});

export const keepId = keep.id;
export const keepVersion = keep.moduleVersion;
export const keepUpgrade = keep.lastUpgrade;
export const freshId = fresh.id;
export const freshVersion = fresh.moduleVersion;
`;

describe("no-code upgrade strategies through the engine", () => {
  let server: RunningServer;
  let stack: TestStack;
  let first: { keepId: string; freshId: string };

  beforeAll(async () => {
    server = await startTestServer({ runSpeed: 50 });
    const project = await createProject(server, "networks");
    const moduleId = await createRegistryModule(server, "network", "aws", ["1.0.0", "1.1.0", "1.2.0"]);
    stack = await TestStack.create({
      project: "nocode-strategy-e2e",
      files: { "index.ts": program({ version: "1.0.0", region: "eu-west-1" }) },
      env: serverEnv(server),
      config: { moduleId, project },
    });
    const r = await stack.up();
    if (r.code !== 0) throw new Error(`first up failed:\n${r.output}`);
    first = (await stack.outputs()) as { keepId: string; freshId: string };
  });
  afterAll(async () => {
    stack?.dispose();
    await server?.close();
  });

  it("a failed upgrade fails with the service's reason, printed once, and the workspace keeps its value", async () => {
    stack.writeFiles({ "index.ts": program({ version: "1.0.0", region: "ap-south-1" }) });
    const r = await stack.upWithEvents();
    expect(r.code).not.toBe(0);
    const reason = 'value of variable "region" is not one of the allowed options: eu-west-1, us-east-1';
    // One diagnostic, and no stack trace anywhere.
    const failures = r.diagnostics.filter((d) => d.message.includes(reason));
    expect(failures, r.output).toHaveLength(1);
    expect(failures[0].urn).toMatch(/NoCodeWorkspace::keep$/);
    expect(failures[0].message).toMatch(
      /upgrade of workspace "net-keep" \(ws-\S+\) failed while planning: value of variable "region"/,
    );
    expect(r.output).not.toMatch(/^\s+at .+:\d+:\d+\)?$/m);
    expect(r.output).not.toMatch(/\.ts:\d+:\d+/);
    const vars = await workspaceVars(server, first.keepId);
    expect(vars.region.value).toBe("eu-west-1");
    stack.writeFiles({ "index.ts": program({ version: "1.0.0", region: "eu-west-1" }) });
  });

  it("a replacement whose new workspace the module refuses deletes nothing: the old workspace stays on the server and in state", async () => {
    stack.writeFiles({ "index.ts": program({ version: "1.0.0", region: "eu-west-1", freshRegion: "ap-south-1" }) });
    const r = await stack.upWithEvents();
    expect(r.code).not.toBe(0);
    // Diff could not vouch for the new workspace, so the replacement creates first: the service refuses the create.
    const reason = 'value of variable "region" is not one of the allowed options';
    const failures = r.diagnostics.filter((d) => d.message.includes(reason));
    expect(failures, r.output).toHaveLength(1);
    expect(failures[0].urn).toMatch(/NoCodeWorkspace::fresh$/);
    expect(r.output).not.toMatch(/\.ts:\d+:\d+/);
    const fresh = await workspaceByName(server, "net-fresh");
    expect(fresh.id).toBe(first.freshId);
    expect((await workspaceVars(server, first.freshId)).region.value).toBe("eu-west-1");
    const inState = stack.resources("NoCodeWorkspace").filter((res) => res.urn.endsWith("::fresh"));
    expect(inState.map((res) => res.id)).toEqual([first.freshId]);
    // Back to the declared value: nothing left to do.
    stack.writeFiles({ "index.ts": program({ version: "1.0.0", region: "eu-west-1" }) });
    const preview = await stack.previewJson(["--expect-no-changes"]);
    expect(preview.code, preview.raw.output).toBe(0);
  });

  it("previews an in-place upgrade as an update and a replace-style one as a replacement", async () => {
    stack.writeFiles({ "index.ts": program({ version: "1.1.0", region: "eu-west-1" }) });
    const p = await stack.previewJson();
    expect(p.code, p.raw.output).toBe(0);
    const ops = Object.fromEntries(p.steps.map((s) => [s.urn.split("::").pop(), s.op]));
    expect(ops.keep).toBe("update");
    expect(ops.fresh).toBe("replace");
    const text = await stack.pulumi(["preview", "--non-interactive"]);
    expect(text.output).toMatch(/\+-\s+pulumi-nodejs:dynamic\/workspaces:NoCodeWorkspace\s+fresh\s+replace/);
    expect(text.output).toMatch(/~\s+pulumi-nodejs:dynamic\/workspaces:NoCodeWorkspace\s+keep\s+update/);
  });

  it("in place keeps the workspace id; replace makes a new workspace and deletes the old one", async () => {
    const r = await stack.upWithEvents();
    expect(r.code, r.output).toBe(0);
    // The upgrade said what it waited for, as ephemeral status messages: plan, confirm, apply.
    const status = r.diagnostics
      .filter((d) => d.ephemeral && d.message.includes('upgrading workspace "net-keep"'))
      .map((d) => d.message);
    const step = (re: RegExp) => status.findIndex((m) => re.test(m));
    const steps = [
      /starting the upgrade plan/,
      /waiting for the plan of run run-/,
      /planned, confirming/,
      /waiting for run run-\S+ to apply/,
    ].map(step);
    expect(
      steps.every((i) => i >= 0),
      status.join("\n"),
    ).toBe(true);
    expect(
      [...steps].sort((a, b) => a - b),
      status.join("\n"),
    ).toEqual(steps);
    const out = await stack.outputs();
    expect(out.keepId).toBe(first.keepId);
    expect(out.keepVersion).toBe("1.1.0");
    expect(out.keepUpgrade?.status).toBe("applied");
    expect(out.freshId).not.toBe(first.freshId);
    expect(out.freshVersion).toBe("1.1.0");
    expect((await api(server, `/workspaces/${first.freshId}`)).status).toBe(404);
    const fresh = await workspaceByName(server, "net-fresh");
    expect(fresh.id).toBe(out.freshId);
    expect(fresh.attributes["no-code-upgrade-available"]).toBe(false);
    const keep = await workspaceByName(server, "net-keep");
    expect(keep.id).toBe(first.keepId);
    const upgrade = await api<any>(
      server,
      `/no-code-modules/${stack.resources("NoCodeModule")[0].id}/workspaces/${first.keepId}/upgrade/${out.keepUpgrade.runId}`,
    );
    expect(upgrade.body.data.attributes.status).toBe("applied");
  });

  it("replace still uses safe delete: a workspace that manages resources is not replaced", async () => {
    const before = await stack.outputs();
    await giveWorkspaceResources(server, before.freshId, 2);
    stack.writeFiles({ "index.ts": program({ version: "1.2.0", region: "eu-west-1" }) });
    const r = await stack.up();
    expect(r.code).not.toBe(0);
    expect(r.output).toMatch(/cannot delete workspace "net-fresh" \(ws-\S+\): the workspace still manages resources/);
    expect(r.output).toMatch(/forceDelete/);
    const fresh = await workspaceByName(server, "net-fresh");
    expect(fresh.id).toBe(before.freshId);
    expect(fresh.attributes["resource-count"]).toBe(2);
    const inState = stack.resources("NoCodeWorkspace").map((res) => res.id);
    expect(inState).toContain(before.freshId);
  });
});
