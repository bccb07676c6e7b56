/**
 * Two workspaces and a consumer made by hand before this stack existed, declared the way
 * `pulumi-workspaces generate` writes them: every resource has `adopt: true`, so the first
 * `pulumi up` takes the existing records over instead of failing on their names, and
 * changes nothing the program states as it is.
 */
import { RemoteStateConsumers, Workspace } from "pulumi-workspaces";

// The organization comes from the stack config `workspaces:organization` or WORKSPACES_ORGANIZATION.
export const billingApi = new Workspace("billing-api", {
  name: "billing-api",
  description: "billing HTTP API",
  autoApply: true,
  tags: { env: "prod", team: "billing" },
  tagNames: ["billing"],
  adopt: true,
});

export const billingDb = new Workspace("billing-db", {
  name: "billing-db",
  executionMode: "local",
  tags: { env: "prod", team: "billing" },
  adopt: true,
});

// The API reads the database workspace's outputs.
new RemoteStateConsumers("billing-db-consumers", { workspaceId: billingDb.id, consumerIds: [billingApi.id] });

export const ids = { billingApi: billingApi.id, billingDb: billingDb.id };
