/** Provider of `VariableSet` (`/organizations/:org/varsets`, `/varsets/:id`), id `varset-...`. */
import type * as pulumi from "@pulumi/pulumi";
import { VARIABLE_SET_NAME_MAX } from "../../api/variable-sets";
import { VARIABLE_DESCRIPTION_MAX } from "../../api/variables";
import {
  NotFoundError,
  type VariableSet as ApiVariableSet,
  type VariableSetUpdateOptions,
  type WorkspacesClient,
} from "../../client";
import { defaultOrganization } from "../provider-settings";
import { adoptable, type Adopter } from "./adoption";
import { getClient, isNotFound } from "./client";
import { diffFields, sameFlag, sameOptionalString, type FieldRule } from "./compare";
import { confirmGone, type MissingRecord } from "./gone";
import { organizationFailures, organizationInput } from "./inputs";
import { PartialCreateError } from "./lost-create";
import { ProviderError, describe, explainingMissingFeatures } from "./user-errors";
import { isUnknown } from "./unknowns";
import { originDescription, originOfDescription } from "./workspace-variable";
import {
  checkList,
  declaredList,
  keptValues,
  storedOf,
  listAsInput,
  listDiffers,
  reconcile,
  type Collection,
  type RecordedList,
} from "./workspace-variable-lists";
import { keyTaken, recordedOf, sensitiveKey, type RecordedVariable } from "./workspace-variable-rules";
import type { CheckFailure, ProviderImpl, Props } from "./types";
import type { VariableSetArgs } from "../variable-set";

/** Inputs as the engine hands them over. */
type VariableSetInputs = pulumi.Unwrap<VariableSetArgs>;

/** Outputs as stored in state. */
type VariableSetOutputs = {
  name: string;
  organization: string | null;
  description: string | null;
  global: boolean;
  priority: boolean;
  /** Null when the program does not manage the set's variables. */
  variables: RecordedVariable[] | null;
  sensitiveValues: Record<string, string>;
};

const FIELDS: FieldRule[] = [
  { name: "organization", replaces: true },
  { name: "name" },
  { name: "description", same: sameOptionalString },
  { name: "global", same: sameFlag },
  { name: "priority", same: sameFlag },
];

/** The writes of a set's variables; a variable gone already is deleted. */
function setCollection(client: WorkspacesClient, setId: string): Collection {
  return {
    create: (options) => client.variableSets.createVariable(setId, options),
    update: (variableId, options) => client.variableSets.updateVariable(setId, variableId, options),
    delete: (variableId) =>
      client.variableSets.deleteVariable(setId, variableId).catch((err: unknown) => {
        if (!isNotFound(err)) throw err;
      }),
  };
}

function setLabel(name: unknown, id: string): string {
  return typeof name === "string" && name !== "" ? `variable set "${name}" (${id})` : `variable set ${id}`;
}

function missing(id: string, props: Props): MissingRecord {
  // A token that sees every workspace of the organization manages its variable sets too.
  return { label: setLabel(props.name, id), organization: props.organization, kind: "workspace" };
}

function outputsOf(set: ApiVariableSet, organization: unknown, variables: RecordedList | null): VariableSetOutputs {
  return {
    name: set.name,
    organization: set.organization ?? (typeof organization === "string" ? organization : null),
    description: set.description,
    global: set.global,
    priority: set.priority,
    variables: variables ? variables.variables : null,
    sensitiveValues: variables ? variables.sensitiveValues : {},
  };
}

/** The set's variables as found, with the recorded sensitive values of those still sensitive. */
async function readVariables(client: WorkspacesClient, setId: string, props: Props): Promise<RecordedList> {
  const variables = (await client.variableSets.listVariables(setId)).map(recordedOf);
  return { variables, sensitiveValues: keptValues(variables, storedOf(props.sensitiveValues)) };
}

async function bringVariables(
  client: WorkspacesClient,
  setId: string,
  inputs: Props,
  stored: Record<string, string>,
): Promise<RecordedList> {
  // The set is this resource's: every variable it has is managed by the list.
  const current = (await client.variableSets.listVariables(setId)).map(recordedOf);
  return reconcile(setCollection(client, setId), declaredList(inputs.variables), current, stored);
}

const provider: ProviderImpl<VariableSetInputs & Props, VariableSetOutputs> = {
  async check(olds, news) {
    const failures: CheckFailure[] = [];
    const inputs: Props = { ...news };
    const org = organizationInput(olds, news, defaultOrganization);
    failures.push(...organizationFailures(news.organization));
    if (org) inputs.organization = org;
    else
      failures.push({
        property: "organization",
        reason:
          "organization is required: set it on the resource, or set the stack config workspaces:organization (or WORKSPACES_ORGANIZATION)",
      });
    const name = news.name;
    if (name === undefined || name === null) failures.push({ property: "name", reason: "name is required" });
    else if (!isUnknown(name)) {
      if (typeof name !== "string" || name.trim() === "")
        failures.push({ property: "name", reason: "name must be a non-empty string" });
      else if (name.length > VARIABLE_SET_NAME_MAX)
        failures.push({ property: "name", reason: `name is too long (at most ${VARIABLE_SET_NAME_MAX} characters)` });
    }
    const d = news.description;
    if (d !== undefined && d !== null && !isUnknown(d)) {
      if (typeof d !== "string") failures.push({ property: "description", reason: "description must be a string" });
      else if (d.length > VARIABLE_DESCRIPTION_MAX)
        failures.push({
          property: "description",
          reason: `description is too long (at most ${VARIABLE_DESCRIPTION_MAX} characters)`,
        });
    }
    for (const flag of ["global", "priority"]) {
      const f = news[flag];
      if (f === undefined || f === null) inputs[flag] = false;
      else if (!isUnknown(f) && typeof f !== "boolean")
        failures.push({ property: flag, reason: `${flag} must be true or false` });
    }
    const { failures: listFailures, list } = checkList(news.variables, "variables", false);
    failures.push(...listFailures);
    if (list !== undefined && list !== null) inputs.variables = list;
    return { inputs: inputs as VariableSetInputs & Props, failures };
  },

  async diff(_id, olds, news) {
    const { changed, replaces } = diffFields(olds, news, FIELDS);
    const where = `of variable set "${String(olds.name)}"`;
    if (news.variables !== undefined && listDiffers(news.variables, olds.variables ?? [], olds.sensitiveValues, where))
      changed.push("variables");
    return { changes: changed.length > 0, replaces, deleteBeforeReplace: replaces.length > 0 };
  },

  async create(inputs) {
    const client = getClient();
    const organization = String(inputs.organization);
    const given = inputs.description;
    const description = given !== undefined && given !== null ? String(given) : originDescription(inputs);
    const set = await client.variableSets.create(organization, {
      name: String(inputs.name),
      ...(description !== undefined ? { description } : {}),
      global: inputs.global === true,
      priority: inputs.priority === true,
    });
    if (inputs.variables === undefined || inputs.variables === null)
      return { id: set.id, outs: outputsOf(set, organization, null) };
    try {
      const variables = await bringVariables(client, set.id, inputs, {});
      return { id: set.id, outs: outputsOf(set, organization, variables) };
    } catch (err) {
      // The set exists: it is recorded, so that the next `pulumi up` creates the variables it lacks.
      throw new PartialCreateError(
        `${setLabel(set.name, set.id)} was created, but not all of its variables: ${describe(err)}. The next \`pulumi up\` creates the rest.`,
        set.id,
        outputsOf(set, organization, { variables: [], sensitiveValues: {} }),
      );
    }
  },

  async read(id, props) {
    const client = getClient();
    let set: ApiVariableSet;
    try {
      set = await client.variableSets.read(id);
    } catch (err) {
      if (!isNotFound(err)) throw err;
      await confirmGone(client, missing(id, props), "refresh");
      return {};
    }
    // Read through `get` or `pulumi import` (no name recorded): its variables too.
    const managed = props.name === undefined || (props.variables !== undefined && props.variables !== null);
    const variables = managed ? await readVariables(client, id, props) : null;
    return { id, props: outputsOf(set, props.organization, variables) };
  },

  inputShape(name, value, outputs) {
    if (name === "variables")
      return value === null ? undefined : listAsInput(value, outputs.sensitiveValues, (d) => !!originOfDescription(d));
    if (name === "description") return originOfDescription(value as string) ? undefined : (value ?? "");
    return value;
  },

  async update(id, olds, news) {
    const client = getClient();
    const { changed } = diffFields(olds, news, FIELDS);
    const options: VariableSetUpdateOptions = {};
    if (changed.includes("name")) options.name = String(news.name);
    if (changed.includes("description")) options.description = String(news.description ?? "");
    if (changed.includes("global")) options.global = news.global === true;
    if (changed.includes("priority")) options.priority = news.priority === true;
    let set: ApiVariableSet;
    try {
      set =
        Object.keys(options).length > 0
          ? await client.variableSets.update(id, options)
          : await client.variableSets.read(id);
    } catch (err) {
      if (!isNotFound(err)) throw err;
      await confirmGone(client, missing(id, olds), "update");
      throw new ProviderError(
        `cannot update ${setLabel(olds.name, id)}: it was deleted outside the program. Run \`pulumi refresh\`, then \`pulumi up\` creates it again.`,
      );
    }
    const variables =
      news.variables === undefined || news.variables === null
        ? null
        : await bringVariables(client, id, news, storedOf(olds.sensitiveValues));
    return { outs: outputsOf(set, olds.organization ?? news.organization, variables) };
  },

  async delete(id, props) {
    const client = getClient();
    try {
      await client.variableSets.delete(id);
    } catch (err) {
      if (!isNotFound(err)) throw err;
      await confirmGone(client, missing(id, props), "delete");
    }
  },
};

/** The set of the declared name in the declared organization. */
async function byName(
  client: WorkspacesClient,
  organization: string,
  name: string,
): Promise<ApiVariableSet | undefined> {
  try {
    for await (const set of client.variableSets.list(organization, { query: name })) if (set.name === name) return set;
  } catch (err) {
    if (err instanceof NotFoundError) return undefined;
    throw err;
  }
  return undefined;
}

function declaredSensitiveValues(inputs: Props): Record<string, string> {
  const out: Record<string, string> = {};
  for (const d of declaredList(inputs.variables)) if (d.sensitive) out[sensitiveKey(d)] = d.value;
  return out;
}

const variableSetAdopter: Adopter = {
  noun: "variable set",
  key(inputs) {
    const { organization, name } = inputs;
    if (typeof organization !== "string" || typeof name !== "string" || isUnknown(organization) || isUnknown(name))
      return undefined;
    return `"${name}" in organization "${organization}"`;
  },
  async find(client, inputs) {
    const organization = String(inputs.organization);
    const set = await byName(client, organization, String(inputs.name));
    if (!set) return undefined;
    return {
      id: set.id,
      label: `variable set "${set.name}" (${set.id}) in organization "${organization}"`,
      seed: {
        organization,
        // The service never shows a sensitive value: the declared ones are taken as the set's.
        sensitiveValues: declaredSensitiveValues(inputs),
        ...(inputs.variables === undefined ? { name: set.name, variables: null } : {}),
      },
      source: originOfDescription(set.description),
    };
  },
  isTaken: keyTaken,
  async describeExisting(client, inputs) {
    return (await this.find(client, inputs))?.label;
  },
  otherwise: "Otherwise choose another name.",
};

export const variableSetProvider = adoptable(explainingMissingFeatures(provider, "variable set"), variableSetAdopter);
