/**
 * Variables and variable sets through the real engine, from the TypeScript door: up, a
 * no-change preview, no sensitive literal in plain text in the exported checkpoint, an
 * edit, drift shown by refresh and restored by up, two applications of one set to one
 * workspace refused at preview, and a destroy that leaves alone what the stack did not
 * create (a workspace and a variable made outside it).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RunningServer } from "../../src/server";
import { NotFoundError, type WorkspacesClient } from "../../src/client";
import { serverEnv, startTestServer, TestStack } from "./harness";
import { workspaceWithTheirVariable } from "./server-helpers";

const TOKEN = "ts-literal-token-5c1f9a";
const TOKEN_2 = "ts-literal-token-2-8e7d3b";
const DB = "ts-literal-db-44aa10";
const AWS = "ts-literal-aws-0b9c72";

const program = (o: { region: string; token: string; level: string }) => `
import { VariableSet, VariableSetApplication, WorkspaceVariable, WorkspaceVariables } from "pulumi-workspaces";
import * as pulumi from "@pulumi/pulumi";

const workspaceId = new pulumi.Config().require("workspaceId");

new WorkspaceVariable("region", { workspaceId, key: "region", value: "${o.region}", category: "engine" });
new WorkspaceVariable("token", { workspaceId, key: "API_TOKEN", value: "${o.token}", category: "env", sensitive: true });
new WorkspaceVariables("many", {
  workspaceId,
  variables: [
    { key: "LOG_LEVEL", value: "${o.level}", category: "env" },
    { key: "DB_PASSWORD", value: "${DB}", category: "env", sensitive: true },
  ],
});
const creds = new VariableSet("creds", {
  name: "e2e-creds",
  variables: [
    { key: "AWS_REGION", value: "eu-west-1", category: "env" },
    { key: "AWS_SECRET_ACCESS_KEY", value: "${AWS}", category: "env", sensitive: true },
  ],
});
new VariableSetApplication("creds-app", { variableSetId: creds.id, workspaceId });
export const setId = creds.id;
`;

describe("variables and variable sets through the engine (TypeScript)", () => {
  let server: RunningServer;
  let client: WorkspacesClient;
  let stack: TestStack;
  let workspaceId: string;
  let theirs: string;

  beforeAll(async () => {
    server = await startTestServer();
    ({ client, workspaceId, theirs } = await workspaceWithTheirVariable(server, "vars-e2e"));
    stack = await TestStack.create({
      project: "vars-e2e",
      files: { "index.ts": program({ region: "eu-west-1", token: TOKEN, level: "info" }) },
      env: serverEnv(server),
      config: { workspaceId },
    });
  });
  afterAll(async () => {
    stack?.dispose();
    await server?.close();
  });

  const vars = async () => Object.fromEntries((await client.variables.list(workspaceId)).map((v) => [v.key, v]));

  it("up creates them; a preview (with its check in the same run as up's) shows no change", async () => {
    // Without --skip-preview: the preview's checks and the update's claim the application once.
    const up = await stack.ok(["up", "--yes", "--non-interactive"]);
    expect(up.output).not.toContain("by two resources of this stack");
    const v = await vars();
    expect(Object.keys(v).sort()).toEqual(["API_TOKEN", "DB_PASSWORD", "LOG_LEVEL", "THEIRS", "region"]);
    expect(v.region.value).toBe("eu-west-1");
    expect(v.API_TOKEN).toMatchObject({ sensitive: true, value: null });
    const { setId } = await stack.outputs();
    const set = await client.variableSets.read(setId);
    expect(set.workspaceIds).toEqual([workspaceId]);
    expect((await client.variableSets.listVariables(setId)).map((x) => x.key).sort()).toEqual([
      "AWS_REGION",
      "AWS_SECRET_ACCESS_KEY",
    ]);
    await stack.expectNoChanges();
  });

  it("no sensitive literal in plain text in the exported checkpoint (only encrypted); a plain value stays readable", async () => {
    await stack.expectEncryptedOnly([TOKEN, DB, AWS]);
    expect((await stack.ok(["stack", "export"])).stdout).toContain("eu-west-1");
  });

  it("an edit of a plain and a sensitive value is an update in place of each; then no change", async () => {
    stack.writeFiles({ "index.ts": program({ region: "us-east-1", token: TOKEN_2, level: "debug" }) });
    const preview = await stack.previewJson();
    expect(preview.changeSummary.update).toBe(3);
    expect(preview.changeSummary).not.toHaveProperty("replace");
    // The plain value is readable in the preview's diff; the sensitive one is not.
    const diff = await stack.pulumi(["preview", "--diff", "--non-interactive"]);
    expect(diff.output).toContain("us-east-1");
    expect(diff.output).not.toContain(TOKEN_2);
    await stack.ok(["up", "--yes", "--non-interactive", "--skip-preview"]);
    const v = await vars();
    expect(v.region.value).toBe("us-east-1");
    expect(v.LOG_LEVEL.value).toBe("debug");
    await stack.expectNoChanges();
    await stack.expectEncryptedOnly([TOKEN_2]);
  });

  it("drift: a value changed outside the program shows in refresh and preview, and up restores it", async () => {
    const v = await vars();
    await client.variables.update(workspaceId, v.region.id, { value: "drifted" });
    await client.variables.update(workspaceId, v.LOG_LEVEL.id, { value: "drifted" });
    await client.variables.delete(workspaceId, v.API_TOKEN.id);
    const refresh = await stack.ok(["refresh", "--yes", "--non-interactive", "--skip-preview"]);
    expect(refresh.output).toMatch(/^\s+~ 2 updated$/m);
    expect(refresh.output).toMatch(/^\s+- 1 deleted$/m);
    const preview = await stack.previewJson();
    expect(preview.changeSummary.update).toBe(2);
    expect(preview.changeSummary.create).toBe(1);
    await stack.ok(["up", "--yes", "--non-interactive", "--skip-preview"]);
    const after = await vars();
    expect(after.region.value).toBe("us-east-1");
    expect(after.LOG_LEVEL.value).toBe("debug");
    expect(after.API_TOKEN.sensitive).toBe(true);
  });

  it("two applications of one set to one workspace are refused at preview", async () => {
    const twice = `${program({ region: "us-east-1", token: TOKEN_2, level: "debug" })}
new VariableSetApplication("creds-app-again", { variableSetId: creds.id, workspaceId });
`;
    stack.writeFiles({ "index.ts": twice });
    const preview = await stack.pulumi(["preview", "--non-interactive"]);
    expect(preview.code).not.toBe(0);
    // The engine checks the two side by side: whichever comes second names the first.
    expect(preview.output).toMatch(/by two resources of this stack, this one and "creds-app(-again)?"/);
    stack.writeFiles({ "index.ts": program({ region: "us-east-1", token: TOKEN_2, level: "debug" }) });
  });

  it("destroy removes what the stack made and leaves the workspace and its other variable", async () => {
    const { setId } = await stack.outputs();
    await stack.ok(["destroy", "--yes", "--non-interactive", "--skip-preview"]);
    const left = await client.variables.list(workspaceId);
    expect(left.map((v) => [v.id, v.key])).toEqual([[theirs, "THEIRS"]]);
    await expect(client.variableSets.read(setId)).rejects.toBeInstanceOf(NotFoundError);
  });
});
