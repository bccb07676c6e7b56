/** Provider of `Project` (`/organizations/:org/projects`, `/projects/:id`), id `prj-...`. */
import type * as pulumi from "@pulumi/pulumi";
import { isId } from "../../api/common";
import { PROJECT_NAME_MAX, PROJECT_NAME_PATTERN } from "../../api/organizations";
import { ConflictError, type Project as ApiProject, type WorkspacesClient } from "../../client";
import { adoptable, nameTaken, type Adopter } from "./adoption";
import { firstNamed, nameKey } from "./by-name";
import { getClient, isNotFound } from "./client";
import { diffFields, sameOptionalString, type FieldRule } from "./compare";
import { confirmGone, unlessGone, updatedUnlessGone, type MissingRecord } from "./gone";
import { checkedOrganization } from "./inputs";
import { ProviderError, explainingMissingFeatures } from "./user-errors";
import { isUnknown } from "./unknowns";
import { originDescription, originOfDescription } from "./workspace-variable";
import type { CheckFailure, ProviderImpl, Props } from "./types";
import type { ProjectArgs } from "../project";

/** Inputs as the engine hands them over. */
type ProjectInputs = pulumi.Unwrap<ProjectArgs>;

/** Outputs as stored in state. */
type ProjectOutputs = {
  name: string;
  organization: string | null;
  description: string | null;
};

const FIELDS: FieldRule[] = [
  { name: "organization", replaces: true },
  { name: "name" },
  { name: "description", same: sameOptionalString },
];

function projectLabel(name: unknown, id: string): string {
  return typeof name === "string" && name !== "" ? `project "${name}" (${id})` : `project ${id}`;
}

function missing(id: string, props: Props): MissingRecord {
  return { label: projectLabel(props.name, id), organization: props.organization, kind: "project" };
}

function outputsOf(p: ApiProject, organization: unknown): ProjectOutputs {
  return {
    name: p.name,
    organization: p.organization ?? (typeof organization === "string" ? organization : null),
    description: p.description,
  };
}

/** The failures of a project name: required, at most 40 characters of the service's alphabet. */
function projectNameFailures(name: unknown): CheckFailure[] {
  if (name === undefined || name === null) return [{ property: "name", reason: "name is required" }];
  if (isUnknown(name)) return [];
  if (typeof name !== "string" || name.trim() === "")
    return [{ property: "name", reason: "name must be a non-empty string" }];
  if (name.length > PROJECT_NAME_MAX)
    return [{ property: "name", reason: `name is too long (at most ${PROJECT_NAME_MAX} characters)` }];
  if (!PROJECT_NAME_PATTERN.test(name))
    return [
      {
        property: "name",
        reason: `name may contain only letters, digits, spaces, - and _ (not ${JSON.stringify(name)})`,
      },
    ];
  return [];
}

/**
 * How many workspaces the project holds: the count the service reports with the project,
 * else those the token sees in the organization's listing of the project.
 */
async function workspaceCount(client: WorkspacesClient, p: ApiProject, organization: unknown): Promise<number> {
  const reported = p.attributes["workspace-count"];
  if (typeof reported === "number") return reported;
  const org = p.organization ?? (typeof organization === "string" ? organization : undefined);
  if (!org) return 0;
  let n = 0;
  for await (const _ws of client.workspaces.list(org, { projectId: p.id })) n++;
  return n;
}

function stillHolds(label: string, count?: number): ProviderError {
  const what = count === undefined ? "workspaces" : `${count} workspace${count === 1 ? "" : "s"}`;
  return new ProviderError(
    `cannot delete ${label}: it still holds ${what}. Move them to another project or delete them, then run the destroy ` +
      `again; or keep the project and remove it from the stack with \`pulumi state delete <urn>\` (the URN is shown with ` +
      `this error and by \`pulumi stack --show-urns\`).`,
  );
}

const provider: ProviderImpl<ProjectInputs & Props, ProjectOutputs> = {
  async check(olds, news) {
    const failures: CheckFailure[] = [];
    const inputs: Props = { ...news };
    checkedOrganization(olds, news, inputs, failures);
    failures.push(...projectNameFailures(news.name));
    const d = news.description;
    if (d !== undefined && d !== null && !isUnknown(d) && typeof d !== "string")
      failures.push({ property: "description", reason: "description must be a string" });
    return { inputs: inputs as ProjectInputs & Props, failures };
  },

  async diff(_id, olds, news) {
    const { changed, replaces } = diffFields(olds, news, FIELDS);
    return { changes: changed.length > 0, replaces };
  },

  async create(inputs) {
    const client = getClient();
    const organization = String(inputs.organization);
    const given = inputs.description;
    const description = given !== undefined && given !== null ? String(given) : originDescription(inputs);
    const p = await client.projects.create(organization, {
      name: String(inputs.name),
      ...(description !== undefined ? { description } : {}),
    });
    return { id: p.id, outs: outputsOf(p, organization) };
  },

  async read(id, props) {
    if (!isId("project", id))
      throw new ProviderError(
        `${JSON.stringify(id)} is not the id of a Project: give its prj-<id> (prj-5FhW9cLtQm2bXvNe)`,
      );
    const client = getClient();
    return unlessGone(
      client,
      missing(id, props),
      "refresh",
      async () => ({ id, props: outputsOf(await client.projects.read(id), props.organization) }),
      () => ({}),
    );
  },

  inputShape(name, value) {
    // The origin a create wrote where the program gave no description is not the program's.
    if (name === "description") return originOfDescription(value as string) ? undefined : (value ?? "");
    return value;
  },

  async update(id, olds, news) {
    const client = getClient();
    const { changed } = diffFields(olds, news, FIELDS);
    const options: { name?: string; description?: string } = {};
    if (changed.includes("name")) options.name = String(news.name);
    if (changed.includes("description")) options.description = String(news.description ?? "");
    const p = await updatedUnlessGone(client, missing(id, olds), () =>
      Object.keys(options).length > 0 ? client.projects.update(id, options) : client.projects.read(id),
    );
    return { outs: outputsOf(p, olds.organization ?? news.organization) };
  },

  async delete(id, props) {
    const client = getClient();
    const label = projectLabel(props.name, id);
    try {
      // Refused before any write: the service would refuse it too, after the engine had planned around it.
      const p = await client.projects.read(id);
      const count = await workspaceCount(client, p, props.organization);
      if (count > 0) throw stillHolds(label, count);
      await client.projects.delete(id);
    } catch (err) {
      if (err instanceof ConflictError) {
        if (/default project/i.test(err.message))
          throw new ProviderError(
            `cannot delete ${label}: it is the organization's default project, which the service never deletes. Remove it from the stack with \`pulumi state delete <urn>\`.`,
          );
        throw stillHolds(label);
      }
      if (!isNotFound(err)) throw err;
      await confirmGone(client, missing(id, props), "delete");
    }
  },
};

function foundLabel(p: ApiProject, organization: string): string {
  return `project "${p.name}" (${p.id}) in organization "${organization}"`;
}

const projectAdopter: Adopter = {
  noun: "project",
  key: nameKey,
  async find(client, inputs) {
    const organization = String(inputs.organization);
    const name = String(inputs.name);
    const p = await firstNamed(client.projects.list(organization, { name }), name);
    if (!p) return undefined;
    return {
      id: p.id,
      label: foundLabel(p, organization),
      seed: { organization },
      source: originOfDescription(p.description),
    };
  },
  isTaken: nameTaken,
  async describeExisting(client, inputs) {
    return (await this.find(client, inputs))?.label;
  },
  otherwise:
    "Programs on the provider plugin can instead `pulumi import workspaces:index:Project` it by that prj- id. Otherwise choose another name.",
};

export const projectProvider = adoptable(explainingMissingFeatures(provider, "project"), projectAdopter);
