import * as pulumi from "@pulumi/pulumi";
import {
  AgentPool,
  AgentPoolAllowedProjects,
  AgentPoolAllowedWorkspaces,
  AgentPoolExcludedWorkspaces,
  AgentToken,
  Project,
  Workspace,
  WorkspaceSettings,
} from "pulumi-workspaces";

const config = new pulumi.Config();

// The agents of the private network. Not organization-scoped: only what the lists below
// allow may run on it.
const pool = new AgentPool("private-net", { name: "private-net", organizationScoped: false });

// Every workspace of the payments project may use the pool, except its sandbox.
const project = new Project("payments", { name: "payments" });
const app = new Workspace("payments-app", { name: "payments-app", project: project.id });
const sandbox = new Workspace("payments-sandbox", { name: "payments-sandbox", project: project.id });
new AgentPoolAllowedProjects("private-net-projects", { agentPoolId: pool.id, projectIds: [project.id] });
new AgentPoolExcludedWorkspaces("private-net-excluded", { agentPoolId: pool.id, workspaceIds: [sandbox.id] });

// The app runs on the pool. Its Workspace declares no execution settings: WorkspaceSettings
// does, and waits for the allowance above within the same `pulumi up` (no dependsOn).
new WorkspaceSettings("payments-app-on-agents", {
  workspaceId: app.id,
  executionMode: "agent",
  agentPoolId: pool.id,
});

// A workspace another team owns: this stack allows it on the pool (additively, beside
// whatever else the list holds) and puts it there, and on destroy puts back its previous
// mode and removes only the id it added.
const reportsId = config.require("reportsWorkspaceId");
new AgentPoolAllowedWorkspaces("private-net-reports", {
  agentPoolId: pool.id,
  workspaceIds: [reportsId],
  mode: "additive",
});
new WorkspaceSettings("reports-on-agents", { workspaceId: reportsId, executionMode: "agent", agentPoolId: pool.id });

// The secret the agents start with: answered once by the service, kept encrypted in the
// state. Changing `tokenRotation` replaces it; nothing else ever does.
const agents = new AgentToken("private-net-agents", {
  agentPoolId: pool.id,
  description: "agents of the private network",
  rotation: config.require("tokenRotation"),
});

export const poolId = pool.id;
export const projectId = project.id;
export const appId = app.id;
export const sandboxId = sandbox.id;
export const agentTokenId = agents.id;
export const agentToken = agents.token;
