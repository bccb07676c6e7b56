import * as pulumi from "@pulumi/pulumi";
import { Team, TeamToken, TeamWorkspaceAccess, Workspace, WorkspaceVariable } from "pulumi-workspaces";

const config = new pulumi.Config();

// The workspace whose runs deploy the releases, and the team those runs act as: it may
// queue runs and write variables and state there, and nothing else.
const ci = new Workspace("ci", { name: "ci-releases" });
const releasers = new Team("releasers", { name: "releasers", visibility: "organization" });
new TeamWorkspaceAccess("releasers-ci", { teamId: releasers.id, workspaceId: ci.id, access: "write" });

// One of the team's described tokens (the legacy single token stays free). It expires 30
// days after its create; a week before that, the preview plans its rotation and says why.
// Changing `tokenRotation` rotates it at once. Nothing else ever makes a new secret.
const token = new TeamToken("releasers-ci-token", {
  teamId: releasers.id,
  description: "CI runs of ci-releases",
  expiresInDays: 30,
  rotateBeforeDays: 7,
  rotation: config.require("tokenRotation"),
});

// The secret goes straight into the CI workspace, as a sensitive environment variable of
// its runs: encrypted in this stack's state, write-only on the service, never printed.
new WorkspaceVariable("ci-token-variable", {
  workspaceId: ci.id,
  key: "WORKSPACES_TOKEN",
  category: "env",
  // Absent only for a token adopted or imported (its secret cannot be read back): never here.
  value: token.token.apply((t) => t ?? ""),
  sensitive: true,
  description: "releasers team token, managed by the ci-tokens stack",
});

export const workspaceId = ci.id;
export const teamId = releasers.id;
export const tokenId = token.tokenId;
export const tokenExpiresAt = token.expiredAt;
