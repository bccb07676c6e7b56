/**
 * Variables and variable sets on top of a seeded organization, as a platform team leaves
 * them: a few workspaces with their own variables (an engine and an env variable of one
 * key, HCL, a description, sensitive values), a credentials set applied to a project, a
 * global set, a set applied to workspaces of two projects, a priority set applied to a
 * project and one of its workspaces, and a set applied nowhere. Everything goes through
 * the client, on the service's public API.
 */
import type { VariableCreateOptions, WorkspacesClient } from "../../src/client";
import { workspaceName, type Seeded } from "./seed";

interface SeededSet {
  name: string;
  id: string;
  global: boolean;
  priority: boolean;
  variables: VariableCreateOptions[];
  /** Projects it is applied to. */
  projectIds: string[];
  /** Names of the workspaces it is applied to. */
  workspaces: string[];
}

export interface SeededVariables {
  /** The variables given to each workspace, by workspace name. */
  own: Map<string, VariableCreateOptions[]>;
  sets: SeededSet[];
  /** Every sensitive value written: none may appear in what the generator writes. */
  secretValues: string[];
}

/** Adds the variables and sets to an organization seeded with at least 6 plain workspaces. */
export async function seedVariables(client: WorkspacesClient, seeded: Seeded): Promise<SeededVariables> {
  const organization = client.organization!;
  const own = new Map<string, VariableCreateOptions[]>([
    [
      workspaceName(0),
      [
        { key: "AWS_REGION", value: "eu-west-1", category: "env" },
        { key: "instance_count", value: "3", category: "engine", description: "how many" },
        { key: "labels", value: '{ team = "a" }', category: "engine", hcl: true },
      ],
    ],
    [
      workspaceName(1),
      [
        { key: "DB_PASSWORD", value: "pw-own-1-not-shown", category: "env", sensitive: true },
        { key: "region", value: "us-east-1", category: "engine" },
        { key: "region", value: "us-east-1-env", category: "env" },
      ],
    ],
    [workspaceName(2), [{ key: "api_token", value: "tok-own-2-not-shown", category: "engine", sensitive: true }]],
  ]);
  for (const [name, variables] of own) {
    for (const v of variables) await client.variables.create(seeded.ids.get(name)!, v);
  }

  const specs: Omit<SeededSet, "id">[] = [
    {
      name: "aws-credentials",
      global: false,
      priority: false,
      variables: [
        { key: "AWS_ACCESS_KEY_ID", value: "AKIAEXAMPLE", category: "env" },
        { key: "AWS_SECRET_ACCESS_KEY", value: "aws-secret-not-shown", category: "env", sensitive: true },
      ],
      projectIds: [seeded.projects[0]],
      workspaces: [],
    },
    {
      name: "org-defaults",
      global: true,
      priority: false,
      variables: [{ key: "owner", value: "platform-team", category: "engine" }],
      projectIds: [],
      workspaces: [],
    },
    {
      name: "shared-tools",
      global: false,
      priority: false,
      variables: [{ key: "TOOLS_VERSION", value: "2", category: "env" }],
      projectIds: [],
      // In projects 1 and 2.
      workspaces: [workspaceName(1), workspaceName(2)],
    },
    {
      name: "payments-priority",
      global: false,
      priority: true,
      variables: [{ key: "AWS_REGION", value: "us-west-2", category: "env" }],
      projectIds: [seeded.projects[1]],
      // In project 1 too.
      workspaces: [workspaceName(5)],
    },
    { name: "unused", global: false, priority: false, variables: [], projectIds: [], workspaces: [] },
  ];
  const sets: SeededSet[] = [];
  for (const spec of specs) {
    const set = await client.variableSets.create(organization, {
      name: spec.name,
      ...(spec.name === "unused" ? { description: "kept for later" } : {}),
      global: spec.global,
      priority: spec.priority,
    });
    for (const v of spec.variables) await client.variableSets.createVariable(set.id, v);
    if (spec.projectIds.length) await client.variableSets.applyToProjects(set.id, spec.projectIds);
    if (spec.workspaces.length)
      await client.variableSets.applyToWorkspaces(
        set.id,
        spec.workspaces.map((n) => seeded.ids.get(n)!),
      );
    sets.push({ ...spec, id: set.id });
  }
  const secretValues = [...[...own.values()].flat(), ...sets.flatMap((s) => s.variables)]
    .filter((v) => v.sensitive)
    .map((v) => v.value!);
  return { own, sets, secretValues };
}
