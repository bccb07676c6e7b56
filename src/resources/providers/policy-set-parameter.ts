/**
 * Provider of `PolicySetParameter` (`/policy-sets/:id/parameters`): one parameter of a
 * policy set, id `<polset-id>/<var-id>`.
 *
 * A sensitive value is write-only on the service: what the outputs keep of it is the value
 * the program last declared (`sensitiveValue`, a secret), and the diff compares with that.
 */
import type * as pulumi from "@pulumi/pulumi";
import { isId, text } from "../../api/common";
import { PARAMETER_NOT_ALLOWED_DETAIL } from "../../api/policy-sets";
import type { PolicySet as ApiPolicySet, PolicySetParameter as ApiParameter, WorkspacesClient } from "../../client";
import { listPolicySetParameters, readPolicySet } from "../process/policy-set-reads";
import { reportInfo } from "../process/engine-status";
import { adoptable, type Adopter } from "./adoption";
import { getClient, isNotFound, tokenRefused } from "./client";
import { diffFields, sameFlag, type FieldRule } from "./compare";
import { unlessGone, type MissingRecord } from "./gone";
import { policySetLabel } from "./policy-set-rules";
import { ProviderError, explainingMissingFeatures } from "./user-errors";
import { isUnknown } from "./unknowns";
import { sameWriteOnlyValue } from "./workspace-variable";
import { keyTaken } from "./workspace-variable-rules";
import { answerLost } from "./lost-create";
import type { CheckFailure, DiffResult, ProviderImpl, Props } from "./types";
import type { PolicySetParameterArgs } from "../policy-set-parameter";

/** Inputs as the engine hands them over. */
type ParameterInputs = pulumi.Unwrap<PolicySetParameterArgs>;

/** Outputs as stored in state. */
type ParameterOutputs = {
  policySetId: string;
  parameterId: string;
  key: string;
  /** Null for a sensitive parameter. */
  value: string | null;
  sensitive: boolean;
  /** The value the program last declared for a sensitive parameter (a secret); null otherwise or when unknown (imported). */
  sensitiveValue: string | null;
  /** The set's organization, for the 404 rule once the set is gone. */
  organization: string | null;
};

/** `<polset-id>/<var-id>` -> its two ids. */
function idParts(id: string): { setId: string; parameterId: string } {
  const [setId = "", parameterId = "", ...rest] = id.split("/");
  if (rest.length > 0 || !isId("policySet", setId) || !isId("variable", parameterId))
    throw new ProviderError(
      `${JSON.stringify(id)} is not the id of a PolicySetParameter: give the set's and the parameter's ids as <polset-id>/<var-id> (polset-3vKq8HwZx2NtLmRb/var-8nPqR2sTuVwXyZ01)`,
    );
  return { setId, parameterId };
}

function parameterLabel(key: unknown, setId: string): string {
  return `parameter ${JSON.stringify(String(key))} of policy set ${setId}`;
}

function outputsOf(setId: string, p: ApiParameter, sensitiveValue: string | null, organization: unknown) {
  return {
    policySetId: setId,
    parameterId: p.id,
    key: p.key,
    value: p.sensitive ? null : (p.value ?? ""),
    sensitive: p.sensitive,
    sensitiveValue: p.sensitive ? sensitiveValue : null,
    organization: typeof organization === "string" && organization !== "" ? organization : null,
  } satisfies ParameterOutputs;
}

/**
 * Why the set cannot pass parameters to its policies (#1512: the service takes them, then
 * fails the run with "resource not found"), or undefined when it can: only a Sentinel set
 * whose policies come from a version, or an empty Sentinel set, uses them.
 */
function notAllowed(set: ApiPolicySet): string | undefined {
  if (set.kind === "opa") return "it is an OPA policy set, and OPA policies take no parameters";
  const versioned = set.currentVersionId !== null || set.newestVersionId !== null;
  if (!versioned && set.policyIds.length > 0)
    return "its policies are attached one by one (policyIds), and only a set whose policies come from a version (uploaded from policiesFolder, or VCS) passes parameters to them";
  return undefined;
}

/** The refusal of a parameter on `set`, with the reason and the ways out; undefined when the set takes parameters. */
function refusal(set: ApiPolicySet, key: unknown): string | undefined {
  const why = notAllowed(set);
  if (!why) return undefined;
  return (
    `parameter ${JSON.stringify(String(key))} cannot be set on ${policySetLabel(set.name, set.id)}: ${why} ` +
    `(the service: "${PARAMETER_NOT_ALLOWED_DETAIL}"). Declare the set's policies with policiesFolder on a Sentinel set, ` +
    "or remove the parameter."
  );
}

const FIELDS: FieldRule[] = [
  { name: "policySetId", replaces: true },
  { name: "key" },
  { name: "value", same: sameWriteOnlyValue },
  { name: "sensitive", same: sameFlag },
];

function checkInputs(news: Props): CheckFailure[] {
  const failures: CheckFailure[] = [];
  const { policySetId, key, value, sensitive } = news;
  if (policySetId === undefined || policySetId === null)
    failures.push({ property: "policySetId", reason: "policySetId is required" });
  else if (!isUnknown(policySetId) && !isId("policySet", policySetId))
    failures.push({ property: "policySetId", reason: "policySetId must be a policy set id (polset-...)" });
  if (key === undefined || key === null) failures.push({ property: "key", reason: "key is required" });
  else if (!isUnknown(key) && (typeof key !== "string" || key.trim() === ""))
    failures.push({ property: "key", reason: "key must be a non-empty string" });
  if (value === undefined || value === null) failures.push({ property: "value", reason: "value is required" });
  else if (!isUnknown(value) && typeof value !== "string")
    failures.push({ property: "value", reason: "value must be a string" });
  if (sensitive !== undefined && sensitive !== null && !isUnknown(sensitive) && typeof sensitive !== "boolean")
    failures.push({ property: "sensitive", reason: "sensitive must be true or false" });
  return failures;
}

/** The #1512 failure of a known set, read once per operation (shared with the set's own resources). */
async function setFailures(policySetId: unknown, key: unknown): Promise<CheckFailure[]> {
  if (typeof policySetId !== "string" || isUnknown(policySetId) || !isId("policySet", policySetId)) return [];
  const client = getClient();
  try {
    const why = refusal(await readPolicySet(client, policySetId), key);
    return why ? [{ property: "policySetId", reason: why }] : [];
  } catch (err) {
    const refused = tokenRefused(err);
    if (refused) throw refused;
    // Not readable now (hidden, gone, or the service is away): create reads it again before writing.
    return [];
  }
}

async function createParameter(inputs: Props): Promise<{ id: string; outs: ParameterOutputs }> {
  const client = getClient();
  const setId = String(inputs.policySetId);
  const key = String(inputs.key);
  const value = String(inputs.value);
  const sensitive = inputs.sensitive === true;
  const set = await readPolicySet(client, setId).catch((err: unknown) => {
    if (!isNotFound(err)) throw err;
    throw new ProviderError(
      `cannot create ${parameterLabel(key, setId)}: the service answered 404 for the set, so it does not exist or the token in use may not see it. Check policySetId, or use a token that may manage the organization's policies.`,
    );
  });
  // Refused before any write, for a set created in this same `pulumi up` too.
  const why = refusal(set, key);
  if (why) throw new ProviderError(why);
  const made = await client.policySetParameters.create(setId, { key, value, sensitive }).catch(async (err: unknown) => {
    // Taken, or made by this very create whose answer was lost.
    if (!keyTaken(err) && !answerLost(err)) throw err;
    return convergeOnTaken(client, setId, key, value, sensitive, err);
  });
  return { id: `${setId}/${made.id}`, outs: outputsOf(setId, made, value, set.organization) };
}

/**
 * A create refused because the set already has the key, or whose answer was lost. A
 * parameter has no field that could say whose it is, so a parameter of the same key and
 * sensitivity (and, when not sensitive, the same value) is the one a create of this
 * declaration made and whose answer was lost (a runner killed mid-`up`, a dropped
 * connection): it is kept and given the declared value, with no duplicate. Any other keeps
 * the error, which then names `adopt: true` when the key was taken.
 */
async function convergeOnTaken(
  client: WorkspacesClient,
  setId: string,
  key: string,
  value: string,
  sensitive: boolean,
  err: unknown,
): Promise<ApiParameter> {
  const all = await listPolicySetParameters(client, setId).catch(() => [] as ApiParameter[]);
  const found = all.find((p) => p.key === key);
  if (!found || found.sensitive !== sensitive || (!sensitive && found.value !== value)) throw err;
  reportInfo(
    `took over ${parameterLabel(key, setId)} (${found.id}), which a create of this declaration made (an interrupted update)`,
  );
  return sensitive ? client.policySetParameters.update(setId, found.id, { value }) : found;
}

/** The parameter as listed with its set (one listing per set and operation), else read by id. */
async function readParameter(client: WorkspacesClient, setId: string, parameterId: string): Promise<ApiParameter> {
  const listed = await listPolicySetParameters(client, setId).catch(() => [] as ApiParameter[]);
  return listed.find((p) => p.id === parameterId) ?? client.policySetParameters.read(setId, parameterId);
}

/** The 404 rule's record of a parameter (./gone.ts): its set's organization proves what the token sees. */
async function missingParameter(
  client: WorkspacesClient,
  setId: string,
  parameterId: string,
  props: Props,
): Promise<MissingRecord> {
  const label = props.key ? parameterLabel(props.key, setId) : `parameter ${parameterId} of policy set ${setId}`;
  return { label, organization: await organizationOf(client, setId, props), kind: "policy set" };
}

async function organizationOf(client: WorkspacesClient, setId: string, props: Props): Promise<string | null> {
  if (typeof props.organization === "string" && props.organization !== "") return props.organization;
  return readPolicySet(client, setId).then(
    (s) => s.organization,
    () => null,
  );
}

function parameterDiff(olds: Props, news: Props): DiffResult {
  const { changed, replaces } = diffFields(olds, news, FIELDS);
  // The service never unseals a value: a sensitive parameter made non-sensitive is a new one.
  if (olds.sensitive === true && news.sensitive === false) {
    replaces.push("sensitive");
    reportInfo(
      `${parameterLabel(olds.key, String(olds.policySetId))}: replaced (a new parameter, the old one deleted), because the service never makes a sensitive parameter non-sensitive again`,
    );
  }
  const sameSlot = !changed.includes("policySetId") && !changed.includes("key");
  return { changes: changed.length > 0, replaces, deleteBeforeReplace: replaces.length > 0 && sameSlot };
}

const provider: ProviderImpl<ParameterInputs & Props, ParameterOutputs> = {
  async check(_olds, news) {
    const failures = checkInputs(news);
    if (failures.length === 0) failures.push(...(await setFailures(news.policySetId, news.key)));
    const sensitive = news.sensitive === undefined || news.sensitive === null ? false : news.sensitive;
    return { inputs: { ...news, sensitive }, failures };
  },

  async diff(_id, olds, news) {
    return parameterDiff(olds, news);
  },

  create: createParameter,

  async read(id, props) {
    const { setId, parameterId } = idParts(id);
    const client = getClient();
    return unlessGone(
      client,
      () => missingParameter(client, setId, parameterId, props),
      "refresh",
      async () => {
        const p = await readParameter(client, setId, parameterId);
        const organization = await organizationOf(client, setId, props);
        return { id, props: outputsOf(setId, p, props.sensitiveValue ?? null, organization) };
      },
      () => ({}),
    );
  },

  inputShape(name, value, outputs) {
    if (name === "value") return outputs.sensitive ? (outputs.sensitiveValue ?? undefined) : (value ?? "");
    return value;
  },

  async update(id, olds, news) {
    const { setId, parameterId } = idParts(id);
    const { changed } = diffFields(olds, news, FIELDS);
    const value = String(news.value ?? "");
    const sensitive = news.sensitive === true;
    const options: { key?: string; value?: string; sensitive?: boolean } = {};
    if (changed.includes("key")) options.key = String(news.key);
    if (changed.includes("value") || changed.includes("sensitive")) options.value = value;
    if (changed.includes("sensitive")) options.sensitive = sensitive;
    if (Object.keys(options).length === 0) return { outs: { ...olds, sensitiveValue: olds.sensitive ? value : null } };
    const client = getClient();
    const p = await unlessGone(
      client,
      () => missingParameter(client, setId, parameterId, olds),
      "update",
      () => client.policySetParameters.update(setId, parameterId, options),
      () => {
        throw new ProviderError(
          `cannot update ${parameterLabel(olds.key, setId)}: it was deleted outside the program. Run \`pulumi refresh\`, then \`pulumi up\` creates it again.`,
        );
      },
    );
    return { outs: outputsOf(setId, p, value, await organizationOf(client, setId, olds)) };
  },

  async delete(id, props) {
    const { setId, parameterId } = idParts(id);
    const client = getClient();
    await unlessGone(
      client,
      () => missingParameter(client, setId, parameterId, props),
      "delete",
      () => client.policySetParameters.delete(setId, parameterId),
      () => undefined,
    );
  },
};

/** A set's parameter of the declared key, for adoption. */
const parameterAdopter: Adopter = {
  noun: "policy set parameter",
  key(inputs) {
    const { policySetId, key } = inputs;
    if ([policySetId, key].some((v) => typeof v !== "string" || isUnknown(v))) return undefined;
    return parameterLabel(key, String(policySetId));
  },
  async find(client, inputs) {
    const setId = String(inputs.policySetId);
    let found: ApiParameter | undefined;
    try {
      found = (await listPolicySetParameters(client, setId)).find((p) => p.key === inputs.key);
    } catch (err) {
      if (isNotFound(err)) return undefined;
      throw err;
    }
    if (!found) return undefined;
    return {
      id: `${setId}/${found.id}`,
      label: `${parameterLabel(found.key, setId)} (${found.id})`,
      // The service never shows a sensitive value: the declared one is taken as the record's.
      seed: { key: found.key, sensitiveValue: found.sensitive ? text(inputs.value) : null },
    };
  },
  isTaken: keyTaken,
  async describeExisting(client, inputs) {
    return (await this.find(client, inputs))?.label;
  },
  otherwise: "Otherwise choose another key, or delete the parameter on the service.",
};

export const policySetParameterProvider = adoptable(
  explainingMissingFeatures(provider, "policy sets"),
  parameterAdopter,
);
