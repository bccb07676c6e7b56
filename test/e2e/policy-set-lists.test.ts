/**
 * Where a policy set applies and a global set, through the real engine (TypeScript door)
 * against the local server: workspaces of a set the program keeps global are refused at
 * `pulumi preview` with nothing written; a set the program makes not global takes its first
 * workspaces in the same `pulumi up` (the set's diff comes before the list's check); and a
 * set made global again with its workspaces still declared is refused at preview.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RunningServer } from "../../src/server";
import { writesSince } from "./engine-steps";
import { serverEnv, startTestServer, TestStack } from "./harness";
import { createWorkspace } from "./server-helpers";
import { policySetOnServer } from "./policy-steps";

/** The program: one set, global or not, with an exclusion, and its workspaces when `applies`. */
const program = (global: boolean, applies: boolean) => `
import * as pulumi from "@pulumi/pulumi";
import { PolicySet, PolicySetWorkspaceExclusions, PolicySetWorkspaces } from "pulumi-workspaces";

const config = new pulumi.Config();
const set = new PolicySet("baseline", { name: "baseline", global: ${global} });
new PolicySetWorkspaceExclusions("baseline-excluded", { policySetId: set.id, workspaceIds: [config.require("b")] });
${applies ? `new PolicySetWorkspaces("baseline-workspaces", { policySetId: set.id, workspaceIds: [config.require("a")] });` : ""}
export const setId = set.id;
`;

describe("where a global policy set applies, through the engine", () => {
  let server: RunningServer;
  let stack: TestStack;
  const ws = { a: "", b: "" };

  beforeAll(async () => {
    server = await startTestServer();
    ws.a = await createWorkspace(server, "lists-a");
    ws.b = await createWorkspace(server, "lists-b");
    stack = await TestStack.create({
      project: "policy-set-lists-e2e",
      files: { "index.ts": program(true, false) },
      env: serverEnv(server),
      config: ws,
    });
  });
  afterAll(async () => {
    stack?.dispose();
    await server?.close();
  });

  it("refuses a global set's workspaces at preview, and takes them when the same up makes it not global", async () => {
    await stack.ok(["up", "--yes", "--skip-preview"]);
    const setId = (await stack.outputs()).setId as string;
    expect(await policySetOnServer(server, setId)).toMatchObject({ global: true, workspaceExclusionIds: [ws.b] });

    // Kept global: refused at preview, naming the set and the way out; nothing written.
    stack.writeFiles({ "index.ts": program(true, true) });
    const before = { ...server.stats().byRoute };
    const refused = await stack.pulumi(["preview"]);
    expect(refused.code).not.toBe(0);
    expect(refused.output).toContain(
      `cannot set the workspaces of policy set ${setId}: policy set "baseline" is global`,
    );
    expect(refused.output).toContain("global: false on the PolicySet");
    expect(writesSince(server, before)).toEqual([]);

    // Made not global in the same up as its first workspaces.
    stack.writeFiles({ "index.ts": program(false, true) });
    await stack.ok(["preview"]);
    await stack.ok(["up", "--yes", "--skip-preview"]);
    expect(await policySetOnServer(server, setId)).toMatchObject({
      global: false,
      workspaceIds: [ws.a],
      workspaceExclusionIds: [ws.b],
    });
    await stack.expectNoChanges();

    // Made global again while its workspaces are still declared: refused at preview.
    stack.writeFiles({ "index.ts": program(true, true) });
    const again = await stack.pulumi(["preview"]);
    expect(again.code).not.toBe(0);
    expect(again.output).toContain("is global");

    await stack.ok(["destroy", "--yes", "--skip-preview"]);
  });
});
