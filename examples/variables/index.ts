import * as pulumi from "@pulumi/pulumi";
import {
  VariableSet,
  VariableSetApplication,
  Workspace,
  WorkspaceVariables,
  getEffectiveVariables,
} from "pulumi-workspaces";

const config = new pulumi.Config();
const projectId = config.require("project");

// One set holds the project's credentials; the secret key is sensitive: write-only on the
// service and only encrypted in the state, even if the config held it in plain text.
const credentials = new VariableSet("aws-credentials", {
  name: "aws-credentials",
  description: "AWS credentials of the billing project's runs",
  variables: [
    { key: "AWS_ACCESS_KEY_ID", value: config.require("awsAccessKeyId"), category: "env" },
    {
      key: "AWS_SECRET_ACCESS_KEY",
      value: config.requireSecret("awsSecretAccessKey"),
      category: "env",
      sensitive: true,
    },
    // The project's default region; each workspace below overrides it with its own.
    { key: "AWS_REGION", value: "us-east-1", category: "env" },
  ],
});

// Applied to the project: every workspace in it, present and future, gets the set.
const application = new VariableSetApplication("aws-credentials-billing", {
  variableSetId: credentials.id,
  projectId,
});

const regions: Record<string, string> = { "billing-eu": "eu-west-1", "billing-us": "us-west-2" };

export const effectiveRegion: Record<string, pulumi.Output<{ value?: string; from: string; overrides: string[] }>> = {};
for (const [name, region] of Object.entries(regions)) {
  const workspace = new Workspace(name, { name, project: projectId, tags: { team: "billing" } });
  // A workspace's own variable wins over a set that is not a priority set: the override.
  // WorkspaceVariables is additive: it never touches a variable of the workspace it does not list.
  const own = new WorkspaceVariables(`${name}-variables`, {
    workspaceId: workspace.id,
    variables: [
      { key: "AWS_REGION", value: region, category: "env" },
      { key: "instance_count", value: "2", category: "engine", description: "instances per region" },
    ],
  });
  // Which AWS_REGION the workspace's runs get, and what it overrides, read back from the
  // service once the variables and the application are in place.
  effectiveRegion[name] = pulumi.all([workspace.id, own.id, application.id]).apply(async ([workspaceId]) => {
    const { variables } = await getEffectiveVariables({ workspaceId });
    const v = variables.find((x) => x.key === "AWS_REGION" && x.category === "env")!;
    return {
      value: v.value,
      from: v.source.kind === "workspace" ? "workspace" : `set ${v.source.variableSetName}`,
      overrides: v.overrides.map((o) => (o.kind === "workspace" ? "workspace" : `set ${o.variableSetName}`)),
    };
  });
}

export const variableSetId = credentials.id;
