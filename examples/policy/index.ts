import * as pulumi from "@pulumi/pulumi";
import { RemoteStateConsumers, Workspace } from "pulumi-workspaces";

const config = new pulumi.Config();
const team = config.get("team") ?? "billing";
const prodAutoApply = config.getBoolean("prodAutoApply") ?? false;

// Everything below satisfies policy-config.json: names end in the environment,
// every workspace carries `owner` and `env`, env values come from the allowed
// list, the production workspace sets its execution mode explicitly and does not
// auto-apply. Try `pulumi config set prodAutoApply true` and preview again.
const dev = new Workspace(`${team}-dev`, {
  name: `${team}-dev`,
  executionMode: "remote",
  autoApply: true,
  tags: { owner: team, env: "dev" },
  tagNames: ["policy-example"],
});

const prod = new Workspace(`${team}-prod`, {
  name: `${team}-prod`,
  executionMode: "remote",
  autoApply: prodAutoApply,
  tags: { owner: team, env: "prod" },
  tagNames: ["policy-example"],
});

// The dev workspace may read production outputs (one owner of the consumer set).
new RemoteStateConsumers(`${team}-prod-readers`, { workspaceId: prod.id, consumerIds: [dev.id] });

export const workspaceIds = { dev: dev.id, prod: prod.id };
