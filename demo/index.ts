/**
 * The demo organisation: four services in three environments (a dozen
 * workspaces with tags), remote state consumers between them, a deploy SSH key
 * on the network workspaces, and a network module offered for no-code
 * provisioning with two sandbox workspaces made from it.
 *
 * The project (with its tag bindings), the SSH key and the registry module are
 * made by `scripts/demo.js` on the embedded server before `pulumi up`; their
 * ids arrive as stack config. Settings (address, token, organization) come
 * from the environment, as `WORKSPACES_*`.
 */
import * as pulumi from "@pulumi/pulumi";
import { NoCodeModule, NoCodeWorkspace, RemoteStateConsumers, Workspace } from "pulumi-workspaces";

const config = new pulumi.Config("demo");
const projectId = config.require("projectId");
const sshKeyId = config.require("sshKeyId");
const networkModuleId = config.require("networkModuleId");

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
      project: projectId,
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

export const workspaceIds = Object.fromEntries(Object.entries(workspaces).map(([name, ws]) => [name, ws.id]));
export const noCodeModuleId = networkModule.id;
export const sandboxWorkspaceIds = sandboxes.map((s) => s.id);
