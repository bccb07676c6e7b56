/**
 * A parent deleted out of band never strands its children, through the real engine from
 * two doors: a TypeScript stack and a YAML stack (the provider plugin), each holding a child
 * of every kind that lives under a workspace, project, team or variable set. Their workspace
 * and project are then deleted over HTTP, as a person or another stack would. TypeScript:
 * its checkpoint rewritten as an earlier release wrote it (no organization recorded), then
 * `pulumi refresh --preview-only` (every child read) and `pulumi destroy` with the children
 * still in state (every child deleted against a 404). YAML: `pulumi refresh`, which drops
 * them from state, then `pulumi destroy`. Never a `pulumi state delete`. The YAML stack
 * adopts four of its records, made first, and its preview must name each.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RunningServer } from "../../src/server";
import { WorkspacesClient } from "../../src/client";
import { api, serverEnv, startTestServer, TestStack, type StateResource } from "./harness";

/** The children, one of each kind, by the resource name both programs give them. */
const CHILDREN: Record<string, string> = {
  variable: "WorkspaceVariable",
  variables: "WorkspaceVariables",
  application: "VariableSetApplication",
  "workspace-access": "TeamWorkspaceAccess",
  "project-access": "TeamProjectAccess",
  notification: "NotificationConfiguration",
  trigger: "RunTrigger",
  tags: "WorkspaceTags",
  consumers: "RemoteStateConsumers",
  lock: "WorkspaceLock",
  retention: "DataRetentionPolicy",
};

const TS_PROGRAM = `
import * as pulumi from "pulumi-workspaces";
import { Config } from "@pulumi/pulumi";

const config = new Config();
const workspaceId = config.require("workspaceId");
const sourceId = config.require("sourceId");
const teamId = config.require("teamId");
const projectId = config.require("projectId");

new pulumi.WorkspaceVariable("variable", { workspaceId, key: "region", value: "eu", category: "env" });
new pulumi.WorkspaceVariables("variables", { workspaceId, variables: [{ key: "LOG", value: "info", category: "env" }] });
new pulumi.VariableSetApplication("application", { variableSetId: config.require("setId"), workspaceId });
new pulumi.TeamWorkspaceAccess("workspace-access", { teamId, workspaceId, access: "read" });
new pulumi.TeamProjectAccess("project-access", { teamId, projectId, access: "read" });
new pulumi.NotificationConfiguration("notification", {
  workspaceId,
  name: "ops",
  destinationType: "generic",
  url: "http://127.0.0.1:9/hook",
  enabled: false,
});
new pulumi.RunTrigger("trigger", { workspaceId, sourceWorkspaceId: sourceId });
new pulumi.WorkspaceTags("tags", { workspaceId, tagNames: ["web"] });
new pulumi.RemoteStateConsumers("consumers", { workspaceId, consumerIds: [sourceId] });
new pulumi.WorkspaceLock("lock", { workspaceId, reason: "freeze" });
new pulumi.DataRetentionPolicy("retention", { workspaceId, deleteOlderThanNDays: 30 });
`;

const YAML_PROGRAM = `
config:
  workspaceId:
    type: string
  sourceId:
    type: string
  teamId:
    type: string
  projectId:
    type: string
  setId:
    type: string
resources:
  variable:
    type: workspaces:index:WorkspaceVariable
    properties:
      workspaceId: \${workspaceId}
      key: region
      value: eu
      category: env
  variables:
    type: workspaces:index:WorkspaceVariables
    properties:
      workspaceId: \${workspaceId}
      variables:
        - key: LOG
          value: info
          category: env
      adopt: true
  application:
    type: workspaces:index:VariableSetApplication
    properties:
      variableSetId: \${setId}
      workspaceId: \${workspaceId}
      adopt: true
  workspace-access:
    type: workspaces:index:TeamWorkspaceAccess
    properties:
      teamId: \${teamId}
      workspaceId: \${workspaceId}
      access: read
      adopt: true
  project-access:
    type: workspaces:index:TeamProjectAccess
    properties:
      teamId: \${teamId}
      projectId: \${projectId}
      access: read
      adopt: true
  notification:
    type: workspaces:index:NotificationConfiguration
    properties:
      workspaceId: \${workspaceId}
      name: ops
      destinationType: generic
      url: http://127.0.0.1:9/hook
      enabled: false
  trigger:
    type: workspaces:index:RunTrigger
    properties:
      workspaceId: \${workspaceId}
      sourceWorkspaceId: \${sourceId}
  tags:
    type: workspaces:index:WorkspaceTags
    properties:
      workspaceId: \${workspaceId}
      tagNames: [web]
  consumers:
    type: workspaces:index:RemoteStateConsumers
    properties:
      workspaceId: \${workspaceId}
      consumerIds: ["\${sourceId}"]
  lock:
    type: workspaces:index:WorkspaceLock
    properties:
      workspaceId: \${workspaceId}
      reason: freeze
  retention:
    type: workspaces:index:DataRetentionPolicy
    properties:
      workspaceId: \${workspaceId}
      deleteOlderThanNDays: 30
`;

/** The children of the checkpoint, by resource name. */
function children(resources: StateResource[]): string[] {
  return resources
    .map((r) => r.urn.split("::").pop() ?? "")
    .filter((name) => name in CHILDREN)
    .sort();
}

describe("children of a parent deleted out of band, through the engine", () => {
  let server: RunningServer;
  let client: WorkspacesClient;

  beforeAll(async () => {
    // Data retention policies exist only on a self-managed installation.
    server = await startTestServer({ selfManaged: true });
    client = new WorkspacesClient({ address: server.url, token: server.token, organization: server.organization });
  });
  afterAll(async () => {
    await server?.close();
  });

  /** Parents made outside the stack, as the stack's config. */
  async function parents(prefix: string): Promise<Record<string, string>> {
    const org = server.organization;
    const projectId = (await client.projects.create(org, { name: `${prefix}-apps` })).id;
    return {
      workspaceId: (await client.workspaces.create(org, { name: `${prefix}-web` })).id,
      sourceId: (await client.workspaces.create(org, { name: `${prefix}-net` })).id,
      teamId: (await client.teams.create(org, { name: `${prefix}-ops` })).id,
      setId: (await client.variableSets.create(org, { name: `${prefix}-creds` })).id,
      projectId,
    };
  }

  /** Deletes the workspace and the project over HTTP, outside the program. */
  async function deleteParents(config: Record<string, string>): Promise<void> {
    for (const p of [`/workspaces/${config.workspaceId}`, `/projects/${config.projectId}`]) {
      expect((await api(server, p, { method: "DELETE" })).status).toBe(204);
    }
  }

  /**
   * The YAML program adopts four records made here first: its preview names each one
   * (the resources that report adoption through reportsAdoption and not adoptable).
   */
  async function adoptionShown(stack: TestStack, config: Record<string, string>): Promise<void> {
    await client.variables.create(config.workspaceId, { key: "LOG", value: "info", category: "env" });
    await client.variableSets.applyToWorkspaces(config.setId, [config.workspaceId]);
    await client.teamAccess.add(config.teamId, config.workspaceId, { access: "read" });
    await client.teamProjectAccess.add(config.teamId, config.projectId, { access: "read" });
    const preview = await stack.ok(["preview", "--non-interactive"]);
    for (const record of [
      /adopts the existing variable "LOG" \(env\) var-\S+ of workspace/,
      /adopts the existing application of variable set "\S+" \(varset-\S+\) to workspace/,
      /adopts the existing access of team team-\S+ to workspace ws-\S+ \(tws-/,
      /adopts the existing access of team team-\S+ to project prj-\S+ \(tprj-/,
    ])
      expect(preview.output).toMatch(record);
  }

  /** Rewrites the checkpoint as state written before the children recorded their organization. */
  async function withoutOrganization(stack: TestStack): Promise<void> {
    const file = path.join(stack.root, "state.json");
    await stack.ok(["stack", "export", "--file", file]);
    const state = JSON.parse(fs.readFileSync(file, "utf8"));
    let stripped = 0;
    for (const r of state.deployment.resources)
      if ((r.urn.split("::").pop() ?? "") in CHILDREN && r.outputs && "organization" in r.outputs) {
        delete r.outputs.organization;
        stripped += 1;
      }
    expect(stripped).toBe(Object.keys(CHILDREN).length);
    fs.writeFileSync(file, JSON.stringify(state));
    await stack.ok(["stack", "import", "--file", file]);
  }

  for (const door of ["TypeScript", "YAML"] as const) {
    it(`${door}: refresh and destroy succeed with no state delete`, async () => {
      const config = await parents(door.toLowerCase());
      const stack = await TestStack.create({
        project: `parents-deleted-${door.toLowerCase()}`,
        files: door === "TypeScript" ? { "index.ts": TS_PROGRAM } : {},
        ...(door === "YAML" ? { yaml: YAML_PROGRAM } : {}),
        env: serverEnv(server),
        config,
      });
      try {
        if (door === "YAML") await adoptionShown(stack, config);
        await stack.ok(["up", "--yes", "--non-interactive", "--skip-preview"]);
        expect(children(stack.resources())).toEqual(Object.keys(CHILDREN).sort());
        await deleteParents(config);

        if (door === "TypeScript") {
          // As an earlier release wrote it: no organization recorded; the stack's own is taken.
          await withoutOrganization(stack);
          // Every child read (nothing written), then every child deleted against a 404.
          const refresh = await stack.pulumi(["refresh", "--preview-only"], { PULUMI_SKIP_CONFIRMATIONS: "false" });
          expect(refresh.code, refresh.output).toBe(0);
          expect(refresh.output).toMatch(new RegExp(`${Object.keys(CHILDREN).length} to delete`));
          expect(children(stack.resources())).toHaveLength(Object.keys(CHILDREN).length);
        } else {
          const refresh = await stack.refresh();
          expect(refresh.code, refresh.output).toBe(0);
          expect(children(stack.resources())).toEqual([]);
        }
        const destroy = await stack.destroy();
        expect(destroy.code, destroy.output).toBe(0);
        expect(destroy.output).not.toMatch(/state delete/);
        expect(children(stack.resources())).toEqual([]);
        // What outlives the deleted parents is untouched by the destroy.
        expect((await client.workspaces.read(config.sourceId)).id).toBe(config.sourceId);
      } finally {
        stack.dispose();
      }
    });
  }
});
