import * as pulumi from "@pulumi/pulumi";
import { Workspace } from "pulumi-workspaces";

const config = new pulumi.Config();
const project = config.get("project") || undefined;
const team = config.get("team") ?? "payments";

// One workspace per environment, same project, same naming scheme. Tags are what
// later tooling selects on (`search[tags]`, `filter[tagged]`, policy selectors).
const environments = ["dev", "staging", "prod"] as const;

const workspaces = environments.map(
  (env) =>
    new Workspace(`${team}-${env}`, {
      name: `${team}-${env}`,
      project,
      description: `${team} services, ${env}`,
      executionMode: "remote",
      autoApply: env === "dev",
      // Key-value tags: this resource owns them (bindings not listed are removed).
      tags: { team, env, "managed-by": "pulumi" },
      // Flat tags: the service stores them lower-cased, so write them lower-case.
      tagNames: ["quickstart", team],
    }),
);

export const workspaceIds = Object.fromEntries(workspaces.map((ws, i) => [environments[i], ws.id]));
export const workspaceNames = workspaces.map((ws) => ws.name);
export const projectId = workspaces[0].project;
