/**
 * What the every-setting generator round trips share (against the local server here,
 * against OTF in test/otf): a value other than the default for every settable line of
 * the field table, and the lines set apart.
 */
import { workspaceFieldEntries } from "../../src/api/workspace-fields";

/** Lines set elsewhere in the tests (the name, the project, tags, the agent mode and its pool, the SSH key) or not a service setting. */
const SET_APART: ReadonlySet<string> = new Set([
  "name",
  "organization",
  "project",
  "tags",
  "tagNames",
  "executionMode",
  "agentPoolId",
  "operations",
  "settingOverwrites",
  "sshKeyId",
  "forceDelete",
]);

/** Every settable line of the table but those set apart, in table order. */
export function settableLines(): string[] {
  return workspaceFieldEntries
    .filter(([name, f]) => f.role !== "computed" && !SET_APART.has(name))
    .map(([name]) => name);
}

/** A value other than the default for each settable line; `vcsRepo` only with an OAuth token to connect through. */
export function everySettingValues(oauthTokenId?: string): Record<string, unknown> {
  return {
    description: "every setting set",
    autoApply: true,
    autoApplyRunTrigger: true,
    allowDestroyPlan: false,
    assessmentsEnabled: true,
    autoDestroyAt: "2031-01-02T03:04:05.000Z",
    autoDestroyActivityDuration: "14d",
    fileTriggersEnabled: false,
    globalRemoteState: true,
    queueAllRuns: true,
    sourceName: "a tool",
    sourceUrl: "https://tool.example",
    speculativeEnabled: false,
    engineVersion: "~> 1.5.0",
    triggerPatterns: ["modules/**"],
    triggerPrefixes: ["envs/"],
    ...(oauthTokenId
      ? {
          vcsRepo: {
            identifier: "acme/infra",
            oauthTokenId,
            branch: "main",
            ingressSubmodules: true,
            tagsRegex: "v.*",
          },
        }
      : {}),
    workingDirectory: "envs/prod",
  };
}
