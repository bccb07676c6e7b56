/**
 * Provider of `WorkspaceVariable` (`/workspaces/:id/vars`): one variable of a workspace,
 * id `<ws-id>/<var-id>`.
 */
import type * as pulumi from "@pulumi/pulumi";
import { isId, text } from "../../api/common";
import { ORIGIN_SOURCE_NAME, originQuery } from "../../api/origin";
import type { VariableCategory } from "../../api/variables";
import type { Variable, WorkspacesClient } from "../../client";
import { reportInfo } from "../process/engine-status";
import { adoptable, type Adopter } from "./adoption";
import { getClient, isNotFound } from "./client";
import { diffFields, sameFlag, sameOptionalString, type FieldRule } from "./compare";
import { confirmGone, organizationUnder, underWorkspace, type MissingRecord } from "./gone";
import { workspaceIdFailures } from "./inputs";
import { ProviderError } from "./user-errors";
import { isUnknown } from "./unknowns";
import {
  categoryOf,
  changedFields,
  checkVariable,
  createOf,
  declaredOf,
  keyTaken,
  recordedOf,
  refusedInPlace,
  sameSlot,
  updateOf,
  variableLabel,
  withDefaults,
  type RecordedVariable,
} from "./workspace-variable-rules";
import type { DiffResult, ProviderImpl, Props } from "./types";
import type { WorkspaceVariableArgs } from "../workspace-variable";

/** Inputs as the engine hands them over. */
type WorkspaceVariableInputs = pulumi.Unwrap<WorkspaceVariableArgs>;

/** Outputs as stored in state. */
type WorkspaceVariableOutputs = {
  workspaceId: string;
  variableId: string;
  key: string;
  /** Null for a sensitive variable. */
  value: string | null;
  category: VariableCategory;
  description: string | null;
  hcl: boolean;
  sensitive: boolean;
  /** The value the program last declared for a sensitive variable (a secret); null otherwise or when unknown (adopted, imported). */
  sensitiveValue: string | null;
  /** The workspace's organization, for the 404 rule once the workspace is gone; absent from earlier state. */
  organization?: string | null;
};

/** `<ws-id>/<var-id>` -> its two ids. */
function variableIdParts(id: string): { workspaceId: string; variableId: string } {
  const [workspaceId = "", variableId = "", ...rest] = id.split("/");
  if (rest.length > 0 || !isId("workspace", workspaceId) || !isId("variable", variableId))
    throw new ProviderError(
      `${JSON.stringify(id)} is not the id of a WorkspaceVariable: give the workspace's and the variable's ids as <ws-id>/<var-id> (ws-2xWmbZ4hFYd5KuUE/var-8nPqR2sTuVwXyZ01)`,
    );
  return { workspaceId, variableId };
}

/**
 * The description a create writes for a variable declared without one: the origin
 * handed over by the adoption wrapper (see ./adoption.ts and ./origin.ts), so that the
 * next `up` after an interrupted one knows the variable as this resource's.
 */
export function originDescription(inputs: Props): string | undefined {
  if (inputs.description !== undefined && inputs.description !== null) return undefined;
  if (inputs.sourceName !== ORIGIN_SOURCE_NAME || typeof inputs.sourceUrl !== "string") return undefined;
  return inputs.sourceUrl.length <= 512 ? inputs.sourceUrl : undefined;
}

/** A record's description read as an origin (the shape ./adoption.ts compares), where it is one. */
export function originOfDescription(description: string | null | undefined) {
  return originQuery(description) ? { sourceName: ORIGIN_SOURCE_NAME, sourceUrl: description } : undefined;
}

function outputsOf(
  workspaceId: string,
  v: Variable,
  sensitiveValue: string | null,
  organization: string | undefined,
): WorkspaceVariableOutputs {
  const r = recordedOf(v);
  return {
    workspaceId,
    variableId: v.id,
    key: r.key,
    value: r.sensitive ? null : (r.value ?? ""),
    category: r.category,
    description: r.description ?? null,
    hcl: r.hcl,
    sensitive: r.sensitive,
    sensitiveValue: r.sensitive ? sensitiveValue : null,
    organization: organization ?? null,
  };
}

function recordedFrom(o: WorkspaceVariableOutputs): RecordedVariable {
  return {
    id: o.variableId,
    key: o.key,
    ...(o.sensitive ? {} : { value: o.value ?? "" }),
    category: categoryOf(o.category) ?? "engine",
    ...(o.description ? { description: o.description } : {}),
    hcl: o.hcl === true,
    sensitive: o.sensitive === true,
  };
}

/**
 * The 404 rule (./gone.ts) for a record of a workspace (its variables, notification
 * configurations): the workspace's organization, as recorded in the outputs, proves whether
 * the token sees them, also once the workspace itself is gone.
 */
export function missingUnder(
  client: WorkspacesClient,
  workspaceId: string,
  label: string,
  props: Props,
): Promise<MissingRecord> {
  return underWorkspace(client, `${label} of workspace ${workspaceId}`, workspaceId, props);
}

/** The organization recorded with a record of the workspace: from state, else from the workspace. */
export function workspaceOrganization(client: WorkspacesClient, workspaceId: string, props: Props = {}) {
  return organizationUnder(client, props, [{ kind: "workspace", id: workspaceId }]);
}

/**
 * The value comparison of a record whose value is write-only when `sensitive` (a variable,
 * a policy set parameter): a sensitive one against the value the stack recorded in
 * `sensitiveValue` (none recorded: taken as declared), any other against `value`.
 */
export function sameWriteOnlyValue(desired: unknown, _actual: unknown, olds: Props): boolean {
  if (olds.sensitive === true) {
    const stored = olds.sensitiveValue;
    return stored === undefined || stored === null || stored === (desired ?? "");
  }
  return (olds.value ?? "") === (desired ?? "");
}

const FIELDS: FieldRule[] = [
  { name: "workspaceId", replaces: true },
  { name: "key" },
  { name: "category", same: (a, b) => categoryOf(a) === categoryOf(b) },
  { name: "value", same: sameWriteOnlyValue },
  { name: "description", same: sameOptionalString },
  { name: "hcl", same: sameFlag },
  { name: "sensitive", same: sameFlag },
];

/**
 * The diff of one variable's inputs against its outputs, with the replacements the
 * service's refusals call for (and one info line that says why, since a diff carries no
 * message of its own).
 */
function variableDiff(olds: Props, news: Props, where: string): DiffResult {
  const { changed, replaces } = diffFields(olds, news, FIELDS);
  if (changed.length === 0) return { changes: false, replaces: [] };
  const recorded: RecordedVariable = {
    id: text(olds.variableId),
    key: text(olds.key),
    category: categoryOf(olds.category) ?? "engine",
    hcl: olds.hcl === true,
    sensitive: olds.sensitive === true,
  };
  const key = news.key === undefined ? recorded.key : news.key;
  const sensitive = news.sensitive === undefined ? recorded.sensitive : news.sensitive;
  if (!isUnknown(key) && !isUnknown(sensitive)) {
    const why = refusedInPlace(
      { ...declaredOf({ ...news, key, category: recorded.category }), sensitive: sensitive === true },
      recorded,
    );
    if (why) {
      replaces.push(changed.includes("sensitive") && recorded.sensitive && sensitive !== true ? "sensitive" : "key");
      reportInfo(`${variableLabel(recorded)} ${where}: replaced (a new variable, the old one deleted), because ${why}`);
    }
  }
  const slotKept = !changed.some((c) => c === "key" || c === "category" || c === "workspaceId");
  return {
    changes: true,
    replaces: Array.from(new Set(replaces)),
    deleteBeforeReplace: replaces.length > 0 && slotKept,
  };
}

async function createVariable(inputs: Props): Promise<{ id: string; outs: WorkspaceVariableOutputs }> {
  const workspaceId = String(inputs.workspaceId);
  const desired = declaredOf(inputs);
  const description = desired.description ?? originDescription(inputs);
  const client = getClient();
  try {
    const v = await client.variables.create(workspaceId, {
      ...createOf(desired),
      ...(description !== undefined ? { description } : {}),
    });
    const organization = await workspaceOrganization(client, workspaceId);
    return { id: `${workspaceId}/${v.id}`, outs: outputsOf(workspaceId, v, desired.value, organization) };
  } catch (err) {
    if (!isNotFound(err)) throw err;
    throw new ProviderError(
      `cannot create ${variableLabel(desired)} in workspace ${workspaceId}: the service answered 404 for the workspace, so it does not exist or the token in use may not see it. Check workspaceId, or use a token that may manage the workspace's variables.`,
    );
  }
}

const provider: ProviderImpl<WorkspaceVariableInputs & Props, WorkspaceVariableOutputs> = {
  async check(_olds, news) {
    const failures = workspaceIdFailures(news.workspaceId);
    failures.push(...checkVariable(news, ""));
    return { inputs: withDefaults(news) as WorkspaceVariableInputs & Props, failures };
  },

  async diff(_id, olds, news) {
    return variableDiff(olds, news, `of workspace ${String(news.workspaceId ?? olds.workspaceId)}`);
  },

  create: createVariable,

  async read(id, props) {
    const { workspaceId, variableId } = variableIdParts(id);
    const client = getClient();
    let v: Variable;
    try {
      v = await client.variables.read(workspaceId, variableId);
    } catch (err) {
      if (!isNotFound(err)) throw err;
      const label = props.key ? variableLabel(props) : `variable ${variableId}`;
      await confirmGone(client, await missingUnder(client, workspaceId, label, props), "refresh");
      return {};
    }
    const organization = await workspaceOrganization(client, workspaceId, props);
    return { id, props: outputsOf(workspaceId, v, props.sensitiveValue ?? null, organization) };
  },

  inputShape(name, value, outputs) {
    if (name === "value") return outputs.sensitive ? (outputs.sensitiveValue ?? undefined) : (value ?? "");
    if (name === "description") return value ?? "";
    return value;
  },

  async update(id, olds, news) {
    const { workspaceId, variableId } = variableIdParts(id);
    const desired = declaredOf(news);
    const changed = changedFields(desired, recordedFrom(olds), olds.sensitiveValue ?? undefined);
    if (changed.length === 0) return { outs: { ...olds, sensitiveValue: olds.sensitive ? desired.value : null } };
    const client = getClient();
    try {
      const v = await client.variables.update(workspaceId, variableId, updateOf(desired, changed));
      const organization = await workspaceOrganization(client, workspaceId, olds);
      return { outs: outputsOf(workspaceId, v, desired.value, organization) };
    } catch (err) {
      if (!isNotFound(err)) throw err;
      await confirmGone(client, await missingUnder(client, workspaceId, variableLabel(desired), olds), "update");
      throw new ProviderError(
        `cannot update ${variableLabel(desired)} of workspace ${workspaceId}: it was deleted outside the program. Run \`pulumi refresh\`, then \`pulumi up\` creates it again.`,
      );
    }
  },

  async delete(id, props) {
    const { workspaceId, variableId } = variableIdParts(id);
    const client = getClient();
    try {
      await client.variables.delete(workspaceId, variableId);
    } catch (err) {
      if (!isNotFound(err)) throw err;
      const label = props.key ? variableLabel(props) : `variable ${variableId}`;
      await confirmGone(client, await missingUnder(client, workspaceId, label, props), "delete");
    }
  },
};

/** A workspace's variable of the declared key and category, for adoption and the take-over of an interrupted create. */
const workspaceVariableAdopter: Adopter = {
  noun: "variable",
  key(inputs) {
    const { workspaceId, key, category } = inputs;
    if ([workspaceId, key, category].some((v) => typeof v !== "string" || isUnknown(v))) return undefined;
    return `${variableLabel({ key: String(key), category: String(category) })} of workspace ${String(workspaceId)}`;
  },
  async find(client, inputs) {
    const workspaceId = String(inputs.workspaceId);
    const desired = declaredOf(inputs);
    let found: Variable | undefined;
    try {
      found = (await client.variables.list(workspaceId)).find((v) => sameSlot(v, desired));
    } catch (err) {
      if (isNotFound(err)) return undefined;
      throw err;
    }
    if (!found) return undefined;
    return {
      id: `${workspaceId}/${found.id}`,
      label: `${variableLabel(found)} (${found.id}) of workspace ${workspaceId}`,
      // The service never shows a sensitive value: the declared one is taken as the record's.
      seed: { key: found.key, category: found.category, sensitiveValue: found.sensitive ? desired.value : null },
      source: originOfDescription(found.description),
    };
  },
  isTaken: keyTaken,
  async describeExisting(client, inputs) {
    return (await this.find(client, inputs))?.label;
  },
  otherwise: "Otherwise choose another key, or delete the variable on the service.",
};

export const workspaceVariableProvider = adoptable(provider, workspaceVariableAdopter);
