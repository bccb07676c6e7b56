import * as pulumi from "@pulumi/pulumi";
import {
  Policy,
  PolicySet,
  PolicySetParameter,
  PolicySetProjects,
  PolicySetWorkspaceExclusions,
  Project,
  Workspace,
} from "pulumi-workspaces";

const config = new pulumi.Config();

const payments = new Project("payments", { name: "payments" });
const app = new Workspace("payments-app", { name: "payments-app", project: payments.id });
const sandbox = new Workspace("payments-sandbox", { name: "payments-sandbox", project: payments.id });

// One policy, its code in a file beside the program: the stack keeps the code's SHA-256, so
// an edit of the file is an update that uploads it, in place.
const requireTags = new Policy("require-tags", {
  name: "require-tags",
  codeFile: "policies/require-tags.sentinel",
  enforcementLevel: "hard-mandatory",
});
const guardrails = new PolicySet("guardrails", {
  name: "guardrails",
  description: "Rules every payments workspace runs under",
  policyIds: [requireTags.id],
});

// A set whose policies and sentinel.hcl are a folder of the program, uploaded as a version.
// Only such a set passes parameters to its policies.
const costs = new PolicySet("costs", { name: "costs", policiesFolder: "policies/costs" });
new PolicySetParameter("costs-monthly-limit", {
  policySetId: costs.id,
  key: "monthly_limit",
  value: config.require("monthlyLimit"),
});
// Write-only on the service, a secret in the state: compared with the value last declared.
new PolicySetParameter("costs-api-token", {
  policySetId: costs.id,
  key: "cost_api_token",
  value: config.requireSecret("costApiToken"),
  sensitive: true,
});

// Both sets apply to every workspace of the project, except its sandbox.
for (const [name, set] of [
  ["guardrails", guardrails],
  ["costs", costs],
] as const) {
  new PolicySetProjects(`${name}-payments`, { policySetId: set.id, projectIds: [payments.id] });
  new PolicySetWorkspaceExclusions(`${name}-sandbox`, { policySetId: set.id, workspaceIds: [sandbox.id] });
}

export const projectId = payments.id;
export const appId = app.id;
export const sandboxId = sandbox.id;
export const requireTagsId = requireTags.id;
export const requireTagsSha256 = requireTags.codeSha256;
export const guardrailsId = guardrails.id;
export const costsId = costs.id;
export const costsVersionId = costs.currentVersionId;
