import * as pulumi from "@pulumi/pulumi";
import { RemoteStateConsumers, Workspace } from "pulumi-workspaces";

const env = new pulumi.Config().get("env") ?? "dev";

function workspace(name: string, description: string): Workspace {
  return new Workspace(name, {
    name: `${name}-${env}`,
    description,
    executionMode: "remote",
    // Only the workspaces listed below may read this state; keep it closed.
    globalRemoteState: false,
    tags: { env, layer: name === "network" ? "foundation" : "app" },
  });
}

// The graph: the network's outputs (VPC, subnets) are read by every app; the
// database's outputs (endpoint) are read by the two apps that talk to it.
const network = workspace("network", "VPC, subnets and routing");
const database = workspace("database", "managed database cluster");
const api = workspace("api", "public API service");
const web = workspace("web", "web front end");
const worker = workspace("worker", "background jobs");

// Consumers are a resource of their own, not a Workspace argument: two
// workspaces may read each other's state without a dependency cycle, and the
// consumer set has exactly one owner. Authoritative mode (the default) makes the
// set exactly this list and needs a token that manages all workspaces; use
// `mode: "additive"` with a workspace-admin token.
new RemoteStateConsumers("network-readers", {
  workspaceId: network.id,
  consumerIds: [database.id, api.id, web.id, worker.id],
});

new RemoteStateConsumers("database-readers", {
  workspaceId: database.id,
  consumerIds: [api.id, worker.id],
});

export const ids = {
  network: network.id,
  database: database.id,
  api: api.id,
  web: web.id,
  worker: worker.id,
};
