/**
 * The demo organisation: four services in three environments (a dozen
 * workspaces with tags), remote state consumers between them, a deploy SSH key
 * on the network workspaces, and a network module offered for no-code
 * provisioning with two sandbox workspaces made from it. The payment services
 * live in a project of their own, with a variable set applied to it and a team
 * that may write to it; billing-prod has its own variables, one of them
 * sensitive; a change of network-prod queues a run of identity-prod, whose
 * apply queues one of billing-prod; and network-prod's runs are reported to a
 * webhook.
 *
 * The platform project (with its tag bindings), the SSH key and the registry
 * module are made by `scripts/demo.js` on the embedded server before `pulumi
 * up`, which also starts the webhook's receiver on this machine; their ids, the
 * receiver's URL and two secrets arrive as stack config. Settings (address,
 * token, organization) come from the environment, as `WORKSPACES_*`.
 */
import * as pulumi from "@pulumi/pulumi";
import {
  NoCodeModule,
  NoCodeWorkspace,
  NotificationConfiguration,
  Project,
  RemoteStateConsumers,
  RunTrigger,
  Team,
  TeamProjectAccess,
  VariableSet,
  VariableSetApplication,
  Workspace,
  WorkspaceVariables,
} from "pulumi-workspaces";

const config = new pulumi.Config("demo");
const projectId = config.require("projectId");
const sshKeyId = config.require("sshKeyId");
const networkModuleId = config.require("networkModuleId");

// The payment services' own project, declared here rather than made beforehand.
const payments = new Project("payments", { name: "payments", description: "Billing and checkout" });

const environments = ["dev", "staging", "prod"] as const;
const services = {
  network: { owner: "platform", dir: "infra/network" },
  identity: { owner: "security", dir: "services/identity" },
  billing: { owner: "payments", dir: "services/billing" },
  checkout: { owner: "payments", dir: "services/checkout" },
} as const;
type Service = keyof typeof services;

const workspaces = {} as Record<string, Workspace>;
for (const env of environments) {
  for (const [service, { owner, dir }] of Object.entries(services) as [Service, (typeof services)[Service]][]) {
    const name = `${service}-${env}`;
    workspaces[name] = new Workspace(name, {
      name,
      project: owner === "payments" ? payments.id : projectId,
      description: `${service} (${env}), owned by ${owner}`,
      executionMode: "remote",
      autoApply: env === "dev",
      workingDirectory: dir,
      triggerPrefixes: [dir, "modules/"],
      tags: { env, service, owner },
      tagNames: [service, env],
      ...(service === "network" ? { sshKeyId } : {}),
    });
  }
}

// Who may read whose state: everything reads the network; the payment
// services also read identity.
for (const env of environments) {
  const ws = (service: Service) => workspaces[`${service}-${env}`];
  new RemoteStateConsumers(`network-${env}-readers`, {
    workspaceId: ws("network").id,
    consumerIds: [ws("identity").id, ws("billing").id, ws("checkout").id],
  });
  new RemoteStateConsumers(`identity-${env}-readers`, {
    workspaceId: ws("identity").id,
    consumerIds: [ws("billing").id, ws("checkout").id],
  });
}

const networkModule = new NoCodeModule("network-module", {
  registryModuleId: networkModuleId,
  versionPin: "1.2.0",
  variableOptions: [
    { variableName: "region", variableType: "string", options: ["eu-west-1", "us-east-1"] },
    { variableName: "size", variableType: "string", options: ["small", "medium"] },
  ],
});

const sandboxes = (["eu-west-1", "us-east-1"] as const).map(
  (region) =>
    new NoCodeWorkspace(`sandbox-${region}`, {
      noCodeModuleId: networkModule.id,
      name: `sandbox-network-${region}`,
      project: projectId,
      description: `Self-service network sandbox in ${region}`,
      variables: [
        { key: "region", value: region, category: "engine" },
        { key: "size", value: "small", category: "engine" },
      ],
    }),
);

// Every workspace of the payments project, present and future, gets the set's variables.
const paymentsDefaults = new VariableSet("payments-defaults", {
  name: "payments-defaults",
  description: "Settings every payments run gets",
  variables: [
    { key: "PAYMENTS_CURRENCY", value: "EUR", category: "env" },
    { key: "LOG_LEVEL", value: "warn", category: "env" },
  ],
});
new VariableSetApplication("payments-defaults-on-payments", {
  variableSetId: paymentsDefaults.id,
  projectId: payments.id,
});

// billing-prod's own variables: its LOG_LEVEL overrides the set's, and the gateway key is
// sensitive: write-only on the service, and only encrypted in the stack's state.
new WorkspaceVariables("billing-prod-variables", {
  workspaceId: workspaces["billing-prod"].id,
  variables: [
    { key: "LOG_LEVEL", value: "info", category: "env" },
    {
      key: "PAYMENT_GATEWAY_KEY",
      value: config.requireSecret("paymentGatewayKey"),
      category: "env",
      sensitive: true,
      description: "API key of the payment gateway",
    },
  ],
});

// The payments team runs, and may change the variables of, every workspace of its project.
const paymentsTeam = new Team("payments-team", { name: "payments", visibility: "organization" });
new TeamProjectAccess("payments-team-on-payments", {
  teamId: paymentsTeam.id,
  projectId: payments.id,
  access: "write",
});

// A chain in production: a change to the network queues a run of identity, whose
// apply queues a run of billing.
new RunTrigger("identity-prod-after-network-prod", {
  workspaceId: workspaces["identity-prod"].id,
  sourceWorkspaceId: workspaces["network-prod"].id,
});
new RunTrigger("billing-prod-after-identity-prod", {
  workspaceId: workspaces["billing-prod"].id,
  sourceWorkspaceId: workspaces["identity-prod"].id,
});

// network-prod's finished runs go to a webhook; the token signs each delivery.
const networkRuns = new NotificationConfiguration("network-prod-runs", {
  workspaceId: workspaces["network-prod"].id,
  name: "network-prod runs",
  destinationType: "generic",
  url: config.require("notificationUrl"),
  token: config.requireSecret("notificationToken"),
  triggers: ["run:completed", "run:errored"],
});

export const workspaceIds = Object.fromEntries(Object.entries(workspaces).map(([name, ws]) => [name, ws.id]));
export const noCodeModuleId = networkModule.id;
export const sandboxWorkspaceIds = sandboxes.map((s) => s.id);
export const notificationId = networkRuns.id;
