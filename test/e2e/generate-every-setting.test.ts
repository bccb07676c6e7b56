/**
 * The generator round trip with every setting: a workspace on the real server with every
 * settable line of the field table set to a value other than its default, generated into
 * a program, type-checked against this package (dist/), and adopted by `pulumi up`
 * through the real engine without one write. A settable line the table gains fails here
 * until it is given a value in ./every-setting.ts, so no setting can be left out of generated programs.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { everySettingValues, settableLines } from "./every-setting";
import { typeErrors } from "../generate/check";
import { WorkspacesClient } from "../../src/client";
import { generate } from "../../src/generate";
import type { RunningServer } from "../../src/server";
import { api, serverEnv, startTestServer, TestStack } from "./harness";

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
    const values = everySettingValues(oauthTokenId);
    const settable = settableLines();
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
    for (const name of settableLines()) expect(program, name).toContain(`${name}: `);
    expect(program).toContain(`executionMode: "agent"`);
    // The pool is declared in the program too, and the workspace refers to it.
    expect(ws.agentPoolId).toBeTruthy();
    expect(program).toContain(
      'new AgentPool("every-setting-pool", { name: "every-setting", organization, adopt: true });',
    );
    expect(program).toContain("agentPoolId: everySettingPool.id");
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
