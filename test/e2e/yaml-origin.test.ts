/**
 * Interrupted creates on the plugin door (docs/interrupted-updates.md), through the real
 * engine and the YAML language host against the local server. The provider's checked
 * configuration holds the stack's origin key (a random value the engine records with the
 * provider resource): it stays the same through a refresh and a change of the provider's
 * configuration, and never shows as a change. A workspace the stack created and whose
 * state entry is then gone (what an interrupted update leaves: the record exists, the state
 * does not hold it) is taken over by the next `pulumi up`, also `pulumi up --target`, with
 * one info line; a copy of the program in another state backend gets the `adopt: true`
 * error and changes nothing.
 */
import * as fs from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RunningServer } from "../../src/server";
import { api, startTestServer, TestStack } from "./harness";
import { createProject, createRegistryModule, workspaceByName } from "./server-helpers";

const program = (description: string) => `
resources:
  first:
    type: workspaces:index:Workspace
    properties:
      name: origin-first
      description: ${description}
  second:
    type: workspaces:index:NoCodeWorkspace
    properties:
      noCodeModuleId: \${network.id}
      name: origin-second
      project: \${project}
      forceDelete: true
  network:
    type: workspaces:index:NoCodeModule
    properties:
      registryModuleId: \${moduleId}
config:
  moduleId:
    type: string
  project:
    type: string
`;

/** The provider resource's origin key, as the state holds it (decrypted). */
async function originKey(stack: TestStack): Promise<string> {
  const r = await stack.ok(["stack", "export", "--show-secrets"]);
  const resources = JSON.parse(r.stdout).deployment.resources as Array<{ type: string; inputs?: any }>;
  const providers = resources.filter((x) => x.type === "pulumi:providers:workspaces");
  expect(providers).toHaveLength(1);
  // A secret, which `--show-secrets` exports with its value as JSON text.
  const secret = providers[0].inputs?.__originKey;
  const key = typeof secret?.plaintext === "string" ? JSON.parse(secret.plaintext) : secret;
  expect(key).toMatch(/^[0-9a-f]{32}$/);
  return key;
}

async function record(server: RunningServer, name: string): Promise<{ id: string; source: [string, string] }> {
  const ws = await workspaceByName(server, name);
  return { id: ws.id, source: [ws.attributes["source-name"], ws.attributes["source-url"]] };
}

describe("interrupted creates on the plugin door (YAML)", () => {
  let server: RunningServer;
  let stack: TestStack;
  let copy: TestStack | undefined;
  let key: string;
  let config: Record<string, string>;
  const before: Record<string, { id: string; source: [string, string] }> = {};
  /** A stack of the project "yaml-origin" in a state backend of its own. */
  const newStack = (description: string) =>
    TestStack.create({
      project: "yaml-origin",
      files: {},
      yaml: program(description),
      config,
      secretConfig: { "workspaces:token": server.token },
    });

  beforeAll(async () => {
    server = await startTestServer();
    const project = await createProject(server, "origin-networks");
    const moduleId = await createRegistryModule(server, "network", "aws", ["1.0.0"]);
    config = { moduleId, project, "workspaces:address": server.url, "workspaces:organization": server.organization };
    stack = await newStack("v1");
  });
  afterAll(async () => {
    await stack?.destroy();
    stack?.dispose();
    copy?.dispose();
    await server?.close();
  });

  it("creates with an origin from a key the stack's state holds, kept through refresh and a config change", async () => {
    const up = await stack.up();
    expect(up.code, up.output).toBe(0);
    key = await originKey(stack);
    // Encrypted in the checkpoint: the key is the stack's, never shown in plain text.
    expect(stack.stateText()).not.toContain(key);
    await stack.expectEncryptedOnly([key]);
    for (const name of ["origin-first", "origin-second"]) {
      before[name] = await record(server, name);
      expect(before[name].source[0], name).toBe("pulumi-workspaces");
      expect(before[name].source[1], name).toMatch(/[?&]stack=yaml-origin%2Fdev&.*origin=[0-9a-f]{32}/);
    }
    expect(before["origin-first"].source[1]).toContain("resource=first");

    const refreshed = await stack.refresh(["--expect-no-changes"]);
    expect(refreshed.code, refreshed.output).toBe(0);
    expect(await originKey(stack)).toBe(key);

    // Another value of the provider's configuration: the provider is updated, its key kept.
    await stack.ok(["config", "set", "workspaces:address", `${server.url}/`]);
    const changed = await stack.up();
    expect(changed.code, changed.output).toBe(0);
    expect(await originKey(stack)).toBe(key);

    const preview = await stack.previewJson();
    expect(preview.code, preview.raw.output).toBe(0);
    expect(Object.keys(preview.changeSummary), preview.raw.output).toEqual(["same"]);
  }, 240_000);

  it("takes over the stack's own records left out of the state, under --target too, with one info line", async () => {
    const urnOf = (name: string) => stack.resources().find((r) => r.urn.endsWith(`::${name}`))!.urn;
    const first = urnOf("first");
    const second = urnOf("second");
    // What an interrupted update leaves: the records exist on the server, the state lacks them.
    await stack.ok(["state", "delete", first, "--yes", "--non-interactive"]);
    await stack.ok(["state", "delete", second, "--yes", "--non-interactive"]);

    const targeted = await stack.upWithEvents(["--target", first]);
    expect(targeted.code, targeted.output).toBe(0);
    const infos = targeted.diagnostics.filter((d) => /took over/.test(d.message));
    expect(infos).toHaveLength(1);
    expect(infos[0].message).toContain(
      `took over workspace "origin-first" (${before["origin-first"].id}) in organization "${server.organization}", ` +
        "created by an interrupted update of this stack",
    );
    expect(stack.resources("index:Workspace").map((r) => r.id)).toEqual([before["origin-first"].id]);
    expect(stack.resources("index:NoCodeWorkspace")).toEqual([]);

    const rest = await stack.upWithEvents();
    expect(rest.code, rest.output).toBe(0);
    expect(rest.diagnostics.filter((d) => /took over/.test(d.message))).toHaveLength(1);
    expect(stack.resources("index:NoCodeWorkspace").map((r) => r.id)).toEqual([before["origin-second"].id]);

    // No duplicate, nothing recreated, the origin unchanged, and the state agrees with the program.
    for (const name of ["origin-first", "origin-second"]) expect(await record(server, name)).toEqual(before[name]);
    const list = await api<any>(server, `/organizations/${server.organization}/workspaces`);
    expect(list.body.data.map((w: any) => w.attributes.name).sort()).toEqual(["origin-first", "origin-second"]);
    const preview = await stack.previewJson();
    expect(Object.keys(preview.changeSummary), preview.raw.output).toEqual(["same"]);
    expect(await originKey(stack)).toBe(key);
  }, 240_000);

  it("gives a provider recorded without a key (an earlier release) one, with no change shown", async () => {
    const file = `${stack.root}/state.json`;
    await stack.ok(["stack", "export", "--file", file]);
    const state = JSON.parse(fs.readFileSync(file, "utf8"));
    for (const r of state.deployment.resources)
      if (r.type === "pulumi:providers:workspaces") {
        delete r.inputs.__originKey;
        delete r.outputs?.__originKey;
      }
    fs.writeFileSync(file, JSON.stringify(state));
    await stack.ok(["stack", "import", "--file", file]);

    const preview = await stack.previewJson();
    expect(preview.code, preview.raw.output).toBe(0);
    expect(Object.keys(preview.changeSummary), preview.raw.output).toEqual(["same"]);
    const up = await stack.up();
    expect(up.code, up.output).toBe(0);
    const renewed = await originKey(stack);
    expect(renewed).not.toBe(key);
    const after = await stack.previewJson();
    expect(Object.keys(after.changeSummary), after.raw.output).toEqual(["same"]);
    expect(await originKey(stack)).toBe(renewed);
    key = renewed;
  }, 240_000);

  it("refuses a copy of the program in another state backend with the adopt: true error", async () => {
    // The same project, stack and resource names: only the stack's origin key differs.
    copy = await newStack("copied");
    const full = await copy.upWithEvents();
    expect(full.code).not.toBe(0);
    const errors = full.diagnostics.filter((d) => d.severity === "error" && /already exists/.test(d.message));
    expect(errors.map((e) => e.message).join("\n")).toMatch(/workspace "origin-first" \(ws-\w+\).*set adopt: true/s);
    for (const e of errors) expect(e.message).toMatch(/set adopt: true/);
    expect(full.output).not.toMatch(/took over/);
    expect(copy.resources("index:Workspace")).toEqual([]);
    expect(copy.resources("index:NoCodeWorkspace")).toEqual([]);
    expect(await originKey(copy)).not.toBe(key);
    for (const name of ["origin-first", "origin-second"]) expect(await record(server, name)).toEqual(before[name]);
    expect((await workspaceByName(server, "origin-first")).attributes.description).toBe("v1");
  }, 240_000);
});
