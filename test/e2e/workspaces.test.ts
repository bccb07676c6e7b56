/**
 * Workspaces, tags and remote state consumers through the real engine and the
 * real local server: create, no-change preview, edits (update in place,
 * rename, project move), out-of-band change plus refresh, safe delete blocking
 * destroy until `forceDelete`, and no credential in the state file.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RunningServer } from "../../src/server";
import { api, serverEnv, startTestServer, TestStack } from "./harness";
import { giveWorkspaceResources, createProject, workspaceByName, tagBindings, consumerIds } from "./server-helpers";

interface Version {
  appName: string;
  netName: string;
  appDescription: string;
  appProject: "projectA" | "projectB";
  env: string;
  forceDelete: boolean;
}

const program = (v: Version) => `
import * as pulumi from "@pulumi/pulumi";
import { Workspace, RemoteStateConsumers } from "pulumi-workspaces";

const config = new pulumi.Config();

const net = new Workspace("net", {
  name: ${JSON.stringify(v.netName)},
  description: "shared network",
  executionMode: "remote",
  tags: { env: ${JSON.stringify(v.env)}, team: "platform" },
  forceDelete: ${v.forceDelete},
});

const app = new Workspace("app", {
  name: ${JSON.stringify(v.appName)},
  description: ${JSON.stringify(v.appDescription)},
  project: config.require(${JSON.stringify(v.appProject)}),
  executionMode: "remote",
  tags: { env: ${JSON.stringify(v.env)}, team: "apps" },
  tagNames: ["web", "Frontend"],
  forceDelete: ${v.forceDelete},
});

// The app reads the network's state.
new RemoteStateConsumers("net-consumers", { workspaceId: net.id, consumerIds: [app.id] });

export const netId = net.id;
export const appId = app.id;
export const appTagNames = app.tagNames;
`;

const v1: Version = {
  appName: "app-dev",
  netName: "net-dev",
  appDescription: "first",
  appProject: "projectA",
  env: "dev",
  forceDelete: false,
};

describe("workspaces through the engine", () => {
  let server: RunningServer;
  let stack: TestStack;
  let projectA: string;
  let projectB: string;
  let ids: { netId: string; appId: string };

  beforeAll(async () => {
    server = await startTestServer();
    projectA = await createProject(server, "team-a");
    projectB = await createProject(server, "team-b");
    stack = await TestStack.create({
      project: "workspaces-e2e",
      files: { "index.ts": program(v1) },
      env: serverEnv(server),
      config: { projectA, projectB },
    });
  });
  afterAll(async () => {
    stack?.dispose();
    await server?.close();
  });

  it("creates workspaces with tags and consumers on the server", async () => {
    const r = await stack.up();
    expect(r.code, r.output).toBe(0);
    ids = (await stack.outputs()) as typeof ids;
    expect(ids.appId).toMatch(/^ws-/);

    const app = await workspaceByName(server, "app-dev");
    expect(app.id).toBe(ids.appId);
    expect(app.attributes.description).toBe("first");
    expect(app.relationships.project.data.id).toBe(projectA);
    expect([...app.attributes["tag-names"]].sort()).toEqual(["frontend", "web"]);
    expect(await tagBindings(server, ids.appId)).toEqual({ env: "dev", team: "apps" });
    expect(await consumerIds(server, ids.netId)).toEqual([ids.appId]);
  });

  it("keeps no token in the state file", () => {
    const text = stack.stateText();
    expect(text).not.toContain(server.token);
    expect(text).not.toContain("WORKSPACES_TOKEN");
    // Every provider closure is small and carries no absolute path of this machine.
    for (const res of stack.resources("dynamic/workspaces:Workspace")) {
      const provider = typeof res.outputs?.__provider === "string" ? res.outputs.__provider : "";
      expect(provider.length).toBeGreaterThan(0);
      expect(provider.length).toBeLessThan(4096);
      expect(provider).not.toContain(stack.dir);
    }
  });

  it("previews no change without a single request to the server", async () => {
    const before = server.stats().total;
    const p = await stack.previewJson(["--expect-no-changes"]);
    expect(p.code, p.raw.output).toBe(0);
    expect(p.steps.filter((s) => s.op !== "same")).toEqual([]);
    expect(server.stats().total - before).toBe(0);
  });

  it("updates in place, renames and moves between projects, keeping the ids", async () => {
    stack.writeFiles({
      "index.ts": program({
        ...v1,
        appDescription: "second",
        netName: "net-shared",
        appProject: "projectB",
        env: "test",
      }),
    });
    const p = await stack.previewJson();
    const ops = Object.fromEntries(p.steps.map((s) => [s.urn.split("::").pop(), s.op]));
    expect(ops.app).toBe("update");
    expect(ops.net).toBe("update");

    const r = await stack.up();
    expect(r.code, r.output).toBe(0);
    const out = await stack.outputs();
    expect(out.appId).toBe(ids.appId);
    expect(out.netId).toBe(ids.netId);

    const app = await workspaceByName(server, "app-dev");
    expect(app.attributes.description).toBe("second");
    expect(app.relationships.project.data.id).toBe(projectB);
    expect(await tagBindings(server, ids.appId)).toEqual({ env: "test", team: "apps" });
    const renamed = await workspaceByName(server, "net-shared");
    expect(renamed.id).toBe(ids.netId);
    expect((await api(server, `/organizations/${server.organization}/workspaces/net-dev`)).status).toBe(404);
    expect(await consumerIds(server, ids.netId)).toEqual([ids.appId]);
  });

  it("sees an out-of-band change on refresh and puts it back on up", async () => {
    const patch = await api(server, `/workspaces/${ids.appId}`, {
      method: "PATCH",
      body: { data: { type: "workspaces", attributes: { description: "changed by hand" } } },
    });
    expect(patch.status).toBe(200);

    const r = await stack.refresh();
    expect(r.code, r.output).toBe(0);
    const [app] = stack.resources().filter((x) => x.urn.endsWith("::app"));
    expect(app.outputs?.description).toBe("changed by hand");

    const p = await stack.previewJson();
    expect(p.steps.find((s) => s.urn.endsWith("::app"))?.op).toBe("update");
    const up = await stack.up();
    expect(up.code, up.output).toBe(0);
    expect((await workspaceByName(server, "app-dev")).attributes.description).toBe("second");
  });

  it("refuses to destroy a workspace that manages resources until forceDelete is set", async () => {
    await giveWorkspaceResources(server, ids.netId, 3);
    const blocked = await stack.destroy();
    expect(blocked.code).not.toBe(0);
    expect(blocked.output).toMatch(/forceDelete/);
    expect((await api(server, `/workspaces/${ids.netId}`)).status).toBe(200);

    stack.writeFiles({
      "index.ts": program({
        ...v1,
        appDescription: "second",
        netName: "net-shared",
        appProject: "projectB",
        env: "test",
        forceDelete: true,
      }),
    });
    const up = await stack.up();
    expect(up.code, up.output).toBe(0);
    const done = await stack.destroy();
    expect(done.code, done.output).toBe(0);
    expect((await api(server, `/workspaces/${ids.netId}`)).status).toBe(404);
    expect((await api(server, `/workspaces/${ids.appId}`)).status).toBe(404);
    expect(stack.resources("dynamic/workspaces:Workspace")).toEqual([]);
  });
});

describe("adopting an existing workspace with get", () => {
  let server: RunningServer;
  let stack: TestStack;

  beforeAll(async () => {
    server = await startTestServer();
    const created = await api(server, `/organizations/${server.organization}/workspaces`, {
      method: "POST",
      body: { data: { type: "workspaces", attributes: { name: "legacy-billing", description: "made by hand" } } },
    });
    expect(created.status).toBe(201);
    // Settings come from stack config here (the token as a secret), not from the environment.
    stack = await TestStack.create({
      project: "adopt-e2e",
      files: {
        "index.ts": `
import * as pulumi from "@pulumi/pulumi";
import { Workspace } from "pulumi-workspaces";

const org = new pulumi.Config("workspaces").require("organization");
const legacy = Workspace.get("legacy", \`\${org}/legacy-billing\`);
export const id = legacy.id;
export const description = legacy.description;
`,
      },
      config: { "workspaces:address": server.url, "workspaces:organization": server.organization },
      secretConfig: { "workspaces:token": server.token },
    });
  });
  afterAll(async () => {
    stack?.dispose();
    await server?.close();
  });

  it("reads the workspace by org/name into the stack", async () => {
    const r = await stack.up();
    expect(r.code, r.output).toBe(0);
    const out = await stack.outputs();
    const ws = await workspaceByName(server, "legacy-billing");
    // The engine records the id the provider read back; the program's own
    // `legacy.id` output echoes what was passed to get().
    const [adopted] = stack.resources("dynamic/workspaces:Workspace");
    expect(adopted.id).toBe(ws.id);
    expect([ws.id, `${server.organization}/legacy-billing`]).toContain(out.id);
    expect(out.description).toBe("made by hand");
    expect(stack.stateText()).not.toContain(server.token);
  });

  it("leaves the adopted workspace alone on destroy", async () => {
    const r = await stack.destroy();
    expect(r.code, r.output).toBe(0);
    expect((await workspaceByName(server, "legacy-billing")).attributes.description).toBe("made by hand");
  });
});
