/**
 * How `pulumi import` names an existing record of each resource: the id forms the
 * resource's read takes, each with an example. The schema's `## Import` sections are built
 * from this list (scripts/plugin/schema.js), and a test imports a record of each resource
 * by every form.
 *
 * Plain data with no imports, so that the schema derivation can read it as it is.
 */

/** One id form: what it looks like, what it names, and an example. */
interface ImportIdForm {
  readonly form: string;
  readonly says: string;
  readonly example: string;
}

/** The id forms of one resource, and the resource name its `pulumi import` lines use. */
export interface ImportIds {
  readonly name: string;
  readonly forms: readonly ImportIdForm[];
}

/** The id forms of every resource of the schema, by resource type name. */
export const IMPORT_IDS: Readonly<Record<string, ImportIds>> = {
  Workspace: {
    name: "web",
    forms: [
      { form: "ws-<id>", says: "the workspace's id.", example: "ws-2xWmbZ4hFYd5KuUE" },
      {
        form: "<organization>/<name>",
        says: "the workspace's organization and name; the resource's id is then its `ws-` id.",
        example: "acme/web",
      },
    ],
  },
  WorkspaceTags: {
    name: "web-tags",
    forms: [
      { form: "ws-<id>/tags", says: "the tags of the workspace of that id.", example: "ws-2xWmbZ4hFYd5KuUE/tags" },
      { form: "ws-<id>", says: "the same, by the workspace's id alone.", example: "ws-2xWmbZ4hFYd5KuUE" },
    ],
  },
  RemoteStateConsumers: {
    name: "web-readers",
    forms: [
      {
        form: "ws-<id>/remote-state-consumers",
        says: "the consumers of the workspace of that id.",
        example: "ws-2xWmbZ4hFYd5KuUE/remote-state-consumers",
      },
      { form: "ws-<id>", says: "the same, by the workspace's id alone.", example: "ws-2xWmbZ4hFYd5KuUE" },
    ],
  },
  WorkspaceSettings: {
    name: "web-settings",
    forms: [
      {
        form: "ws-<id>",
        says: "the settings of the workspace of that id: every setting it has at the time of the import is declared, remote state consumers included (remove from the program those this stack should not manage).",
        example: "ws-2xWmbZ4hFYd5KuUE",
      },
    ],
  },
  NoCodeModule: {
    name: "network",
    forms: [{ form: "nocode-<id>", says: "the no-code module's id.", example: "nocode-9nY3xqPrPHM8uVdD" }],
  },
  NoCodeWorkspace: {
    name: "net",
    forms: [{ form: "ws-<id>", says: "the workspace's id.", example: "ws-4Kd7ZvQe1bGtLmPx" }],
  },
  WorkspaceLock: {
    name: "freeze",
    forms: [
      {
        form: "ws-<id>/lock",
        says: "the lock of the workspace of that id, which must be locked.",
        example: "ws-2xWmbZ4hFYd5KuUE/lock",
      },
      { form: "ws-<id>", says: "the same, by the workspace's id alone.", example: "ws-2xWmbZ4hFYd5KuUE" },
    ],
  },
  DataRetentionPolicy: {
    name: "retention",
    forms: [
      {
        form: "ws-<id>/data-retention-policy",
        says: "the policy of the workspace of that id, which must have one of its own.",
        example: "ws-2xWmbZ4hFYd5KuUE/data-retention-policy",
      },
      { form: "ws-<id>", says: "the same, by the workspace's id alone.", example: "ws-2xWmbZ4hFYd5KuUE" },
    ],
  },
  WorkspaceVariable: {
    name: "region",
    forms: [
      {
        form: "ws-<id>/var-<id>",
        says: "the variable of that id of the workspace of that id (a sensitive one without its value, which the service never shows: the program declares it).",
        example: "ws-2xWmbZ4hFYd5KuUE/var-8nPqR2sTuVwXyZ01",
      },
    ],
  },
  WorkspaceVariables: {
    name: "web-variables",
    forms: [
      {
        form: "ws-<id>",
        says: "every variable the workspace has at the time of the import, which the resource then owns (sensitive ones without their value: the program declares it).",
        example: "ws-2xWmbZ4hFYd5KuUE",
      },
      { form: "ws-<id>/variables", says: "the same.", example: "ws-2xWmbZ4hFYd5KuUE/variables" },
    ],
  },
  VariableSet: {
    name: "credentials",
    forms: [
      {
        form: "varset-<id>",
        says: "the variable set of that id with all its variables (sensitive ones without their value: the program declares it).",
        example: "varset-3kqPzV6sYw8RnTdM",
      },
    ],
  },
  VariableSetApplication: {
    name: "credentials-web",
    forms: [
      {
        form: "varset-<id>/ws-<id>",
        says: "the application of the set to the workspace, which must be in place.",
        example: "varset-3kqPzV6sYw8RnTdM/ws-2xWmbZ4hFYd5KuUE",
      },
      {
        form: "varset-<id>/prj-<id>",
        says: "the application of the set to the project, which must be in place.",
        example: "varset-3kqPzV6sYw8RnTdM/prj-5FhW9cLtQm2bXvNe",
      },
    ],
  },
  RunTrigger: {
    name: "deploy-after-network",
    forms: [
      {
        form: "rt-<id>",
        says: "the run trigger's id, as the workspace's run triggers list shows it (and the error of a pair that exists already names it).",
        example: "rt-3kqPzV6sYw8RnTdM",
      },
    ],
  },
  NotificationConfiguration: {
    name: "alerts",
    forms: [
      {
        form: "nc-<id>",
        says: "the configuration's id (its token, which the service never shows, is then the program's to declare).",
        example: "nc-4Kd7ZvQe1bGtLmPx",
      },
    ],
  },
  TeamWorkspaceAccess: {
    name: "platform-web",
    forms: [
      { form: "tws-<id>", says: "the team access record's id.", example: "tws-7hGq2WnRt5YcXvBm" },
      {
        form: "team-<id>/ws-<id>",
        says: "the access of that team to that workspace, which it must have; the resource's id is then its `tws-` id.",
        example: "team-6pYwQv8sNb3kLrTz/ws-2xWmbZ4hFYd5KuUE",
      },
    ],
  },
  TeamProjectAccess: {
    name: "platform-apps",
    forms: [
      { form: "tprj-<id>", says: "the project access record's id.", example: "tprj-9dLm3KsQv6TyWpRc" },
      {
        form: "team-<id>/prj-<id>",
        says: "the access of that team to that project, which it must have; the resource's id is then its `tprj-` id.",
        example: "team-6pYwQv8sNb3kLrTz/prj-5FhW9cLtQm2bXvNe",
      },
    ],
  },
  Project: {
    name: "platform",
    forms: [{ form: "prj-<id>", says: "the project's id.", example: "prj-5FhW9cLtQm2bXvNe" }],
  },
  Team: {
    name: "platform-team",
    forms: [{ form: "team-<id>", says: "the team's id.", example: "team-6pYwQv8sNb3kLrTz" }],
  },
  AgentPool: {
    name: "private-network",
    forms: [
      { form: "apool-<id>", says: "the agent pool's id.", example: "apool-8bQwPz3YtLm6VnRs" },
      {
        form: "<organization>/<name>",
        says: "the pool's organization and name; the resource's id is then its `apool-` id.",
        example: "acme/private-network",
      },
    ],
  },
  Policy: {
    name: "require-tags",
    forms: [
      { form: "pol-<id>", says: "the policy's id.", example: "pol-5mWq8ZrT2xVbKc9N" },
      {
        form: "<organization>/<name>",
        says: "the policy's organization and name; the resource's id is then its `pol-` id.",
        example: "acme/require-tags",
      },
    ],
  },
  AgentToken: {
    name: "agents",
    forms: [
      {
        form: "at-<id>",
        says: "the agent token's id (its pool is found among the organization's pools; the token's secret, which the service never shows again, is absent: set `rotation` to make a new one).",
        example: "at-3kqPzV6sYw8RnTdM",
      },
      {
        form: "apool-<id>/at-<id>",
        says: "the same, naming its pool too; the resource's id is then its `at-` id.",
        example: "apool-8bQwPz3YtLm6VnRs/at-3kqPzV6sYw8RnTdM",
      },
    ],
  },
  TeamToken: {
    name: "ci",
    forms: [
      {
        form: "at-<id>",
        says: "the team token's id, a described token or the legacy one (its secret, which the service never shows again, is absent: set `rotation` to make a new one).",
        example: "at-3kqPzV6sYw8RnTdM",
      },
      {
        form: "team-<id>",
        says: "the team's legacy token; the resource's id is then its `at-` id.",
        example: "team-6p5jTwJQXwqZBncC",
      },
    ],
  },
  OrganizationToken: {
    name: "automation",
    forms: [
      {
        form: "<organization>",
        says: "the organization's token (its secret, which the service never shows again, is absent: set `rotation` to make a new one); the resource's id is then its `at-` id.",
        example: "acme",
      },
      {
        form: "<organization>/audit-trails",
        says: "the organization's audit-trail token.",
        example: "acme/audit-trails",
      },
    ],
  },
  AgentPoolAllowedWorkspaces: {
    name: "private-network-allowed",
    forms: [
      {
        form: "apool-<id>",
        says: "the agent pool's id: its whole list of allowed workspaces as it is, which the resource then owns (`authoritative`).",
        example: "apool-7hGq2WnRt5YcXvBm",
      },
    ],
  },
  AgentPoolAllowedProjects: {
    name: "private-network-projects",
    forms: [
      {
        form: "apool-<id>",
        says: "the agent pool's id: its whole list of allowed projects as it is, which the resource then owns (`authoritative`).",
        example: "apool-7hGq2WnRt5YcXvBm",
      },
    ],
  },
  AgentPoolExcludedWorkspaces: {
    name: "private-network-excluded",
    forms: [
      {
        form: "apool-<id>",
        says: "the agent pool's id: its whole list of excluded workspaces as it is, which the resource then owns (`authoritative`).",
        example: "apool-7hGq2WnRt5YcXvBm",
      },
    ],
  },
  PolicySet: {
    name: "production",
    forms: [
      { form: "polset-<id>", says: "the policy set's id.", example: "polset-3vKq8HwZx2NtLmRb" },
      {
        form: "<organization>/<name>",
        says: "the set's organization and name; the resource's id is then its `polset-` id.",
        example: "acme/production",
      },
    ],
  },
  PolicySetParameter: {
    name: "production-max-cost",
    forms: [
      {
        form: "polset-<id>/var-<id>",
        says: "the set's and the parameter's ids (a sensitive value, which the service never shows, is taken to be the one the program declares; the next change of it writes it).",
        example: "polset-3vKq8HwZx2NtLmRb/var-8nPqR2sTuVwXyZ01",
      },
    ],
  },
  PolicySetWorkspaces: {
    name: "production-workspaces",
    forms: [
      {
        form: "polset-<id>",
        says: "the policy set's id: its whole list of workspaces as it is, which the resource then owns (`authoritative`).",
        example: "polset-3vKq8HwZx2NtLmRb",
      },
    ],
  },
  PolicySetProjects: {
    name: "production-projects",
    forms: [
      {
        form: "polset-<id>",
        says: "the policy set's id: its whole list of projects as it is, which the resource then owns (`authoritative`).",
        example: "polset-3vKq8HwZx2NtLmRb",
      },
    ],
  },
  PolicySetWorkspaceExclusions: {
    name: "production-excluded-workspaces",
    forms: [
      {
        form: "polset-<id>",
        says: "the policy set's id: its whole list of excluded workspaces as it is, which the resource then owns (`authoritative`).",
        example: "polset-3vKq8HwZx2NtLmRb",
      },
    ],
  },
  PolicySetProjectExclusions: {
    name: "production-excluded-projects",
    forms: [
      {
        form: "polset-<id>",
        says: "the policy set's id: its whole list of excluded projects as it is, which the resource then owns (`authoritative`).",
        example: "polset-3vKq8HwZx2NtLmRb",
      },
    ],
  },
  OrganizationMembership: {
    name: "ada",
    forms: [
      { form: "ou-<id>", says: "the membership's id, invited or active.", example: "ou-5nQ2rWzXkP8vLtYb" },
      {
        form: "<organization>/<email>",
        says: "the organization and the email of the membership; the resource's id is then its `ou-` id.",
        example: "acme/ada@example.com",
      },
    ],
  },
  TeamMembers: {
    name: "platform-members",
    forms: [
      {
        form: "team-<id>",
        says: 'the team\'s id: every member but the service users, by membership where the service shows one, in `additive` mode (the resource adds and removes no one until the program says so; set `mode: "authoritative"` to own the whole list).',
        example: "team-6tRm2KpQx9WzYbVc",
      },
    ],
  },
};
