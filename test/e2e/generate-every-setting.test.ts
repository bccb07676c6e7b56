/**
 * The generator round trip with every setting: a workspace on the real server with every
 * settable line of the field table set to a value other than its default, generated into
 * a program, type-checked against this package (dist/), and adopted by `pulumi up`
 * through the real engine without one write. A settable line the table gains fails here
 * until it is given a value below, so no setting can be left out of generated programs.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { workspaceFieldEntries } from "../../src/api/workspace-fields";
import { WorkspacesClient } from "../../src/client";
import { generate } from "../../src/generate";
import type { RunningServer } from "../../src/server";
import { typeErrors } from "../generate/check";
import { api, serverEnv, startTestServer, TestStack } from "./harness";

/** Lines set elsewhere in this test (the name, the project, tags, the agent mode and its pool, the SSH key) or not a service setting. */
const SET_APART = new Set([
  "name",
  "organization",
  "project",
  "tags",
  "tagNames",
  "executionMode",
  "agentPoolId",
  "operations",
  "settingOverwrites",
  "sshKeyId",
  "forceDelete",
]);

describe("generating and adopting a workspace with every setting", () => {
  let server: RunningServer;
  let client: WorkspacesClient;
  let stack: TestStack;
  let id: string;
  let programPath: string;
  let program: string;

  beforeAll(async () => {
    server = await startTestServer();
    const org = server.organization;
    client = new WorkspacesClient({ address: server.url, token: server.token, organization: org, env: {} });
    const oauth = await api(server, `/organizations/${org}/oauth-clients`, {
      method: "POST",
      body: {
        data: {
          type: "oauth-clients",
          attributes: {
            "service-provider": "github",
            "http-url": "https://github.example",
            "api-url": "https://api.github.example",
          },
        },
      },
    });
    const oauthTokenId = oauth.body.data.relationships["oauth-tokens"].data[0].id as string;
    const pool = await api(server, `/organizations/${org}/agent-pools`, {
      method: "POST",
      body: { data: { type: "agent-pools", attributes: { name: "every-setting" } } },
    });
    /** A value other than the default for each settable line of the table. */
    const values: Record<string, unknown> = {
      description: "every setting set",
      autoApply: true,
      autoApplyRunTrigger: true,
      allowDestroyPlan: false,
      assessmentsEnabled: true,
      autoDestroyAt: "2031-01-02T03:04:05.000Z",
      autoDestroyActivityDuration: "14d",
      fileTriggersEnabled: false,
      globalRemoteState: true,
      queueAllRuns: true,
      sourceName: "a tool",
      sourceUrl: "https://tool.example",
      speculativeEnabled: false,
      engineVersion: "~> 1.5.0",
      triggerPatterns: ["modules/**"],
      triggerPrefixes: ["envs/"],
      vcsRepo: { identifier: "acme/infra", oauthTokenId, branch: "main", ingressSubmodules: true, tagsRegex: "v.*" },
      workingDirectory: "envs/prod",
    };
    const settable = workspaceFieldEntries
      .filter(([name, f]) => f.role !== "computed" && !SET_APART.has(name))
      .map(([name]) => name);
    expect(
      settable.filter((name) => !(name in values)),
      "a settable line without a value in this test",
    ).toEqual([]);
    const ws = await client.workspaces.create(org, {
      name: "every-setting",
      ...values,
      executionMode: "agent",
      agentPoolId: pool.body.data.id as string,
    });
    id = ws.id;
    stack = await TestStack.create({
      project: "every-setting",
      files: { "index.ts": "// replaced by the generator\n" },
      env: serverEnv(server),
    });
    programPath = path.join(stack.dir, "index.ts");
    program = (await generate({ client, out: programPath, force: true })).program;
  }, 120_000);

  afterAll(async () => {
    stack?.dispose();
    await server?.close();
  });

  it("writes every setting the workspace has", async () => {
    const ws = await client.workspaces.read(id);
    for (const [name, f] of workspaceFieldEntries) {
      if (f.role === "computed" || SET_APART.has(name)) continue;
      expect(program, name).toContain(`${name}: `);
    }
    expect(program).toContain(`executionMode: "agent"`);
    expect(program).toContain(`agentPoolId: ${JSON.stringify(ws.agentPoolId)}`);
  });

  it("type-checks against this package (as built in dist/)", () => {
    expect(typeErrors([programPath])).toEqual([]);
  }, 60_000);

  it("pulumi up adopts it without one write, and a following preview shows no change", async () => {
    expect(fs.readFileSync(programPath, "utf8")).toBe(program);
    const before = server.stats().byRoute;
    const r = await stack.up();
    expect(r.code, r.output.slice(-4000)).toBe(0);
    const writes = Object.entries(server.stats().byRoute)
      .filter(([route, n]) => /^(POST|PATCH|PUT|DELETE) /.test(route) && n > (before[route] ?? 0))
      .map(([route]) => route);
    expect(writes).toEqual([]);
    expect(stack.resources("workspaces:Workspace").map((res) => res.id)).toEqual([id]);
    const again = await stack.previewJson();
    expect(Object.keys(again.changeSummary ?? {}).filter((k) => k !== "same")).toEqual([]);
  }, 300_000);
});
