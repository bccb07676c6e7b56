/**
 * Variables and variable sets through the real engine, from the YAML door (the provider
 * plugin): up, the effective-variables lookup, a no-change preview, sensitive values given
 * as plain literals in the program absent from the exported checkpoint, an edit, drift
 * restored, `pulumi import` of a variable by its documented id, and a destroy that leaves
 * alone what the stack did not create.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RunningServer } from "../../src/server";
import type { WorkspacesClient } from "../../src/client";
import { startTestServer, TestStack } from "./harness";
import { workspaceWithTheirVariable } from "./server-helpers";

const TOKEN = "yaml-literal-token-3f8a21";
const TOKEN_2 = "yaml-literal-token-2-77c0de";
const DB = "yaml-literal-db-9e41b5";
const AWS = "yaml-literal-aws-c2d6f0";

const program = (o: { region: string; token: string; imported?: string }) => `
config:
  workspaceId:
    type: string
variables:
  effective:
    fn::invoke:
      function: workspaces:index:getEffectiveVariables
      arguments:
        workspaceId: \${workspaceId}
resources:
  region:
    type: workspaces:index:WorkspaceVariable
    properties:
      workspaceId: \${workspaceId}
      key: region
      value: ${o.region}
      category: engine
  token:
    type: workspaces:index:WorkspaceVariable
    properties:
      workspaceId: \${workspaceId}
      key: API_TOKEN
      value: ${o.token}
      category: env
      sensitive: true
  many:
    type: workspaces:index:WorkspaceVariables
    properties:
      workspaceId: \${workspaceId}
      variables:
        - { key: LOG_LEVEL, value: info, category: env }
        - { key: DB_PASSWORD, value: ${DB}, category: env, sensitive: true }
  creds:
    type: workspaces:index:VariableSet
    properties:
      name: yaml-creds
      variables:
        - { key: AWS_REGION, value: eu-west-1, category: env }
        - { key: AWS_SECRET_ACCESS_KEY, value: ${AWS}, category: env, sensitive: true }
  creds-app:
    type: workspaces:index:VariableSetApplication
    properties:
      variableSetId: \${creds.id}
      workspaceId: \${workspaceId}
${o.imported ?? ""}
outputs:
  setId: \${creds.id}
  effectiveKeys: \${effective.variables}
`;

describe("variables and variable sets through the engine (YAML)", () => {
  let server: RunningServer;
  let client: WorkspacesClient;
  let stack: TestStack;
  let workspaceId: string;
  let theirs: string;

  beforeAll(async () => {
    server = await startTestServer();
    ({ client, workspaceId, theirs } = await workspaceWithTheirVariable(server, "vars-yaml"));
    stack = await TestStack.create({
      project: "vars-yaml",
      files: {},
      yaml: program({ region: "eu-west-1", token: TOKEN }),
      config: {
        workspaceId,
        "workspaces:address": server.url,
        "workspaces:organization": server.organization,
      },
      secretConfig: { "workspaces:token": server.token },
    });
  });
  afterAll(async () => {
    stack?.dispose();
    await server?.close();
  });

  const vars = async () => Object.fromEntries((await client.variables.list(workspaceId)).map((v) => [v.key, v]));

  it("up creates them, the lookup reads them, and a preview shows no change", async () => {
    await stack.ok(["up", "--yes", "--non-interactive"]);
    const v = await vars();
    expect(Object.keys(v).sort()).toEqual(["API_TOKEN", "DB_PASSWORD", "LOG_LEVEL", "THEIRS", "region"]);
    expect(v.API_TOKEN).toMatchObject({ sensitive: true, value: null });
    const { setId } = await stack.outputs();
    expect((await client.variableSets.read(setId)).workspaceIds).toEqual([workspaceId]);
    await stack.expectNoChanges();
    // The lookup ran before the set was applied on the first run; the preview's run sees it.
    const again = await stack.ok(["up", "--yes", "--non-interactive", "--skip-preview"]);
    expect(again.code).toBe(0);
    const effective: { key: string; value?: string; source: { kind: string } }[] = (await stack.outputs())
      .effectiveKeys;
    const byKey = Object.fromEntries(effective.map((e) => [e.key, e]));
    expect(byKey.region).toMatchObject({ value: "eu-west-1", source: { kind: "workspace" } });
    expect(byKey.AWS_REGION.source.kind).toBe("variable-set");
    expect(byKey.AWS_SECRET_ACCESS_KEY).not.toHaveProperty("value");
  });

  it("sensitive literals of the program are not in the exported checkpoint; plain values are", async () => {
    await stack.expectEncryptedOnly([TOKEN, DB, AWS]);
    expect((await stack.ok(["stack", "export"])).stdout).toContain("eu-west-1");
  });

  it("an edit is an update in place; drift is restored", async () => {
    stack.writeYaml(program({ region: "us-east-1", token: TOKEN_2 }));
    const preview = await stack.previewJson();
    expect(preview.changeSummary.update).toBe(2);
    await stack.ok(["up", "--yes", "--non-interactive", "--skip-preview"]);
    expect((await vars()).region.value).toBe("us-east-1");
    await stack.expectEncryptedOnly([TOKEN_2]);

    await client.variables.update(workspaceId, (await vars()).LOG_LEVEL.id, { value: "drifted" });
    await stack.ok(["refresh", "--yes", "--non-interactive", "--skip-preview"]);
    expect((await stack.previewJson()).changeSummary.update).toBe(1);
    await stack.ok(["up", "--yes", "--non-interactive", "--skip-preview"]);
    expect((await vars()).LOG_LEVEL.value).toBe("info");
    await stack.expectNoChanges();
  });

  it("pulumi import takes a variable over by <ws-id>/<var-id>; the program that declares it previews no change", async () => {
    const made = await client.variables.create(workspaceId, { key: "IMPORTED", value: "v1", category: "env" });
    const imported = await stack.ok([
      "import",
      "workspaces:index:WorkspaceVariable",
      "imported",
      `${workspaceId}/${made.id}`,
      "--protect=false",
      "--yes",
      "--non-interactive",
    ]);
    expect(imported.output).toContain("key: IMPORTED");
    stack.writeYaml(
      program({
        region: "us-east-1",
        token: TOKEN_2,
        imported: `  imported:
    type: workspaces:index:WorkspaceVariable
    properties:
      workspaceId: \${workspaceId}
      key: IMPORTED
      value: v1
      category: env
      hcl: false
      sensitive: false`,
      }),
    );
    await stack.expectNoChanges();
  });

  it("destroy removes what the stack manages and leaves the workspace and its other variable", async () => {
    await stack.ok(["destroy", "--yes", "--non-interactive", "--skip-preview"]);
    const left = await client.variables.list(workspaceId);
    expect(left.map((v) => [v.id, v.key])).toEqual([[theirs, "THEIRS"]]);
    expect(await client.variableSets.list(server.organization).all()).toEqual([]);
  });
});
