/**
 * What every language gets through the provider plugin, from a YAML program (which, like
 * Python and Go, cannot send `null`), run by the real engine and the YAML language host
 * against the local server:
 * - a sensitive no-code variable given as a plain literal is in the checkpoint
 *   (`pulumi stack export`) only encrypted, in its inputs and its outputs, through a refresh;
 * - `""` clears a string setting and `vcsRepo: {}` removes the VCS connection on the
 *   server, the state then previews and refreshes with no change, and a value set by hand
 *   shows at the next refresh and is cleared again by `pulumi up`;
 * - `pulumi import` takes a workspace by `<organization>/<name>`, one of the id forms of
 *   the schema's Import section.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RunningServer } from "../../src/server";
import { api, startTestServer, TestStack, type StateResource } from "./harness";
import {
  createProject,
  createRegistryModule,
  createVcsTokenAndSshKey,
  createWorkspace,
  workspaceByName,
  workspaceVars,
} from "./server-helpers";

const LITERAL = "yaml-plain-literal-3f9a1c";

interface Ids {
  oauthTokenId: string;
  sshKeyId: string;
}

/** The string settings every language clears with `""`, set. */
const SET = (ids: Ids) => `
      description: owned by platform
      workingDirectory: infra/live
      autoDestroyAt: "2031-01-02T03:04:05Z"
      autoDestroyActivityDuration: 14d
      sshKeyId: ${ids.sshKeyId}
      vcsRepo:
        identifier: acme/web
        oauthTokenId: ${ids.oauthTokenId}
        tagsRegex: ^v[0-9]+`;

/** The same settings cleared with `""`; the VCS connection stays, its tags regex goes. */
const CLEARED = (ids: Ids) => `
      description: ""
      workingDirectory: ""
      autoDestroyAt: ""
      autoDestroyActivityDuration: ""
      sshKeyId: ""
      vcsRepo:
        identifier: acme/web
        oauthTokenId: ${ids.oauthTokenId}
        tagsRegex: ""`;

/** The VCS connection removed with an empty object. */
const NO_REPO = `
      vcsRepo: {}`;

const program = (settings: string) => `
config:
  moduleId:
    type: string
  project:
    type: string
resources:
  app:
    type: workspaces:index:Workspace
    properties:
      name: doors-app${settings}
  network:
    type: workspaces:index:NoCodeModule
    properties:
      registryModuleId: \${moduleId}
      versionPin: "1.0.0"
  net:
    type: workspaces:index:NoCodeWorkspace
    properties:
      noCodeModuleId: \${network.id}
      name: doors-net
      project: \${project}
      forceDelete: true
      variables:
        - key: region
          value: eu-west-1
          category: engine
        - key: db_password
          value: ${LITERAL}
          category: engine
          sensitive: true
`;

/** The string settings of a workspace document, `null` where the service has none. */
function settingsOf(doc: any): Record<string, unknown> {
  const a = doc.attributes;
  return {
    description: a.description || null,
    workingDirectory: a["working-directory"] || null,
    autoDestroyAt: a["auto-destroy-at"] ?? null,
    autoDestroyActivityDuration: a["auto-destroy-activity-duration"] ?? null,
    sshKeyId: doc.relationships["ssh-key"]?.data?.id ?? null,
    tagsRegex: a["vcs-repo"]?.["tags-regex"] ?? null,
  };
}

const NONE = {
  description: null,
  workingDirectory: null,
  autoDestroyAt: null,
  autoDestroyActivityDuration: null,
  sshKeyId: null,
  tagsRegex: null,
};

describe("every door: secrets and clears from a YAML program", () => {
  let server: RunningServer;
  let stack: TestStack;
  let ids: Ids;

  beforeAll(async () => {
    server = await startTestServer({ runSpeed: 50 });
    const project = await createProject(server, "doors");
    const moduleId = await createRegistryModule(server, "network", "aws", ["1.0.0"]);
    ids = await createVcsTokenAndSshKey(server);
    stack = await TestStack.create({
      project: "yaml-doors",
      files: {},
      yaml: program(SET(ids)),
      config: { moduleId, project, "workspaces:address": server.url, "workspaces:organization": server.organization },
      secretConfig: { "workspaces:token": server.token },
    });
  });
  afterAll(async () => {
    stack?.dispose();
    await server?.close();
  });

  const app = (): StateResource => stack.resources("workspaces:index:Workspace")[0];
  const exported = async () => (await stack.ok(["stack", "export"])).stdout;

  it("stores a sensitive variable's plain literal only encrypted, in the inputs and the outputs", async () => {
    const r = await stack.up();
    expect(r.code, r.output).toBe(0);
    const net = stack.resources("workspaces:index:NoCodeWorkspace")[0];
    expect((await workspaceVars(server, net.id!)).db_password.sensitive).toBe(true);
    const text = await exported();
    expect(text).not.toContain(LITERAL);
    expect(text).toContain("eu-west-1");
    await stack.expectEncryptedOnly([LITERAL]);
    const inputs = net.inputs?.variables as Record<string, unknown>[];
    expect(JSON.stringify(inputs[1].value)).toContain("ciphertext");
    expect(inputs[0].value).toBe("eu-west-1");
    expect(JSON.stringify(net.outputs?.sensitiveValues)).toContain("ciphertext");
    expect(net.outputs).not.toHaveProperty("__inputNames");

    const refreshed = await stack.refresh(["--expect-no-changes"]);
    expect(refreshed.code, refreshed.output).toBe(0);
    expect(await exported()).not.toContain(LITERAL);
  });

  it('clears each string setting with "", keeps null in state, then previews and refreshes with no change', async () => {
    expect(settingsOf(await workspaceByName(server, "doors-app"))).not.toEqual(NONE);
    stack.writeYaml(program(CLEARED(ids)));
    const r = await stack.up();
    expect(r.code, r.output).toBe(0);
    const doc = await workspaceByName(server, "doors-app");
    expect(settingsOf(doc)).toEqual(NONE);
    expect(doc.attributes["vcs-repo"]?.identifier).toBe("acme/web");
    for (const k of ["description", "workingDirectory", "autoDestroyAt", "autoDestroyActivityDuration", "sshKeyId"])
      expect(app().inputs?.[k], k).toBeNull();

    const p = await stack.previewJson(["--expect-no-changes"]);
    expect(p.code, p.raw.output).toBe(0);
    const refreshed = await stack.refresh(["--expect-no-changes"]);
    expect(refreshed.code, refreshed.output).toBe(0);
    // The refresh read back the inputs the engine recorded: the clears are still the program's.
    for (const k of ["description", "workingDirectory", "sshKeyId"]) expect(app().inputs?.[k], k).toBeNull();
    expect(app().outputs).not.toHaveProperty("__inputNames");
  });

  it("finds a value set by hand on refresh, and clears it again", async () => {
    const id = app().id!;
    const patch = await api(server, `/workspaces/${id}`, {
      method: "PATCH",
      body: { data: { type: "workspaces", attributes: { description: "edited by hand", "working-directory": "x" } } },
    });
    expect(patch.status).toBe(200);
    const refreshed = await stack.refresh();
    expect(refreshed.code, refreshed.output).toBe(0);
    const p = await stack.previewJson();
    expect(p.steps.filter((s) => s.op !== "same").map((s) => [s.op, s.urn.split("::").pop()])).toEqual([
      ["update", "app"],
    ]);
    const up = await stack.up();
    expect(up.code, up.output).toBe(0);
    expect(settingsOf(await workspaceByName(server, "doors-app"))).toEqual(NONE);
  });

  it("removes the VCS connection with vcsRepo: {}", async () => {
    stack.writeYaml(program(NO_REPO));
    const r = await stack.up();
    expect(r.code, r.output).toBe(0);
    expect((await workspaceByName(server, "doors-app")).attributes["vcs-repo"] ?? null).toBeNull();
    expect(app().inputs?.vcsRepo).toBeNull();
    const p = await stack.previewJson(["--expect-no-changes"]);
    expect(p.code, p.raw.output).toBe(0);
  });

  it("imports a workspace by <organization>/<name>, recorded under its ws- id", async () => {
    const made = await createWorkspace(server, "doors-pre");
    const r = await stack.ok([
      "import",
      "workspaces:index:Workspace",
      "pre",
      `${server.organization}/doors-pre`,
      "--yes",
      "--non-interactive",
      "--protect=false",
    ]);
    expect(r.output).toContain("imported");
    expect(stack.resources("workspaces:index:Workspace").find((x) => x.urn.endsWith("::pre"))?.id).toBe(made);
  });

  it("destroys the stack", async () => {
    const r = await stack.destroy();
    expect(r.code, r.output).toBe(0);
  });
});
