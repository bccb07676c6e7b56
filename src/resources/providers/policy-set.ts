/**
 * Provider of `PolicySet` (`/organizations/:org/policy-sets`, `/policy-sets/:id`), id
 * `polset-...`: the set's settings, its policies attached one by one (`policyIds`, the
 * whole list) or its folder uploaded as a version (`policiesFolder`).
 */
import type * as pulumi from "@pulumi/pulumi";
import { isId } from "../../api/common";
import { POLICY_DESCRIPTION_MAX } from "../../api/policies";
import type { PolicySet as ApiPolicySet, PolicySetUpdateOptions, WorkspacesClient } from "../../client";
import { readPolicySet, rememberPolicySet } from "../process/policy-set-reads";
import { declareGlobal } from "../process/policy-set-globals";
import { adoptable, nameTaken, type Adopter } from "./adoption";
import { firstNamed, nameKey } from "./by-name";
import { getClient, isNotFound } from "./client";
import { diffFields } from "./compare";
import { checkedOrganization } from "./inputs";
import { confirmGone, unlessGone, updatedUnlessGone, type MissingRecord } from "./gone";
import { PartialCreateError, recoverLostCreate } from "./lost-create";
import {
  POLICY_SET_FIELDS,
  checkPolicySet,
  folderStateOf,
  outputsOf,
  policySetLabel,
  switchedSource,
  type FolderState,
  type PolicySetOutputs,
} from "./policy-set-rules";
import { uploadFolder } from "./policy-set-version";
import { ProviderError, explainingMissingFeatures } from "./user-errors";
import { originDescription, originOfDescription } from "./workspace-variable";
import type { ProviderImpl, Props } from "./types";
import type { PolicySetArgs } from "../policy-set";

/** Inputs as the engine hands them over, with the folder's digest that `check` adds. */
type PolicySetInputs = pulumi.Unwrap<PolicySetArgs> & { policiesSha256?: string };

function missing(id: string, props: Props): MissingRecord {
  return { label: policySetLabel(props.name, id), organization: props.organization, kind: "policy set" };
}

/** The set named `name` in `organization`, or undefined. */
export function policySetByName(
  client: WorkspacesClient,
  organization: string,
  name: string,
): Promise<ApiPolicySet | undefined> {
  return firstNamed(client.policySets.list(organization, { search: name }), name);
}

function notASetId(id: string): ProviderError {
  return new ProviderError(
    `${JSON.stringify(id)} is not the id of a PolicySet: give its polset-<id> (polset-3vKq8HwZx2NtLmRb) or <organization>/<name>`,
  );
}

async function importedByName(client: WorkspacesClient, id: string): Promise<ApiPolicySet | undefined> {
  const slash = id.indexOf("/");
  const organization = id.slice(0, slash);
  const name = id.slice(slash + 1);
  if (organization === "" || name === "" || name.includes("/")) throw notASetId(id);
  return policySetByName(client, organization, name);
}

const NO_FOLDER: FolderState = { policiesFolder: null, policiesSha256: null, currentVersionId: null };

/** A given boolean or string input, for a request: undefined when not declared. */
function given<T extends boolean | string>(v: unknown, type: "boolean" | "string"): T | undefined {
  return typeof v === type ? (v as T) : undefined;
}

/** The settings a create or update sends, of those `names` says to. */
function settingsOf(news: Props, names: readonly string[]): PolicySetUpdateOptions {
  const out: PolicySetUpdateOptions = {};
  const has = (n: string) => names.includes(n) && news[n] !== undefined && news[n] !== null;
  if (has("name")) out.name = String(news.name);
  if (has("description")) out.description = String(news.description);
  if (has("global")) out.global = given(news.global, "boolean");
  if (has("overridable")) out.overridable = given(news.overridable, "boolean");
  if (has("agentEnabled")) out.agentEnabled = given(news.agentEnabled, "boolean");
  if (has("policyToolVersion")) out.policyToolVersion = given(news.policyToolVersion, "string");
  return out;
}

/** Attaches and detaches policies so that the set holds exactly `declared`; whether anything was sent. */
async function syncPolicies(client: WorkspacesClient, id: string, current: string[], declared: string[]) {
  const add = declared.filter((p) => !current.includes(p));
  const remove = current.filter((p) => !declared.includes(p));
  if (add.length > 0) await client.policySets.addPolicies(id, add);
  if (remove.length > 0) await client.policySets.removePolicies(id, remove);
  return add.length + remove.length > 0;
}

/** The recorded folder state after uploading `folder` to the set (or the error that keeps the set in the stack). */
async function uploaded(client: WorkspacesClient, set: ApiPolicySet, folder: string): Promise<FolderState> {
  const { policiesSha256, versionId } = await uploadFolder(client, set.id, policySetLabel(set.name, set.id), folder);
  return { policiesFolder: folder, policiesSha256, currentVersionId: versionId };
}

const SETTINGS = ["description", "global", "overridable", "agentEnabled", "policyToolVersion"];

const provider: ProviderImpl<PolicySetInputs & Props, PolicySetOutputs> = {
  async check(olds, news) {
    const inputs: Props = { ...news };
    const failures = checkPolicySet(news, inputs);
    checkedOrganization(olds, news, inputs, failures);
    return { inputs: inputs as PolicySetInputs & Props, failures };
  },

  async diff(id, olds, news) {
    // Where the set applies is checked after this diff, against what the program declares.
    // Undeclared, `global` is the service's, as the last read recorded it in the state.
    const global = typeof news.global === "boolean" ? news.global : olds.global;
    if (typeof global === "boolean") declareGlobal(id, global);
    const { changed, replaces } = diffFields(olds, news, POLICY_SET_FIELDS);
    const switched = switchedSource(olds, news);
    if (switched) replaces.push(switched);
    const sameOrganization = !changed.includes("organization");
    return {
      changes: changed.length > 0 || switched !== undefined,
      replaces,
      deleteBeforeReplace: replaces.length > 0 && sameOrganization,
    };
  },

  async create(inputs) {
    const client = getClient();
    const organization = String(inputs.organization);
    const name = String(inputs.name);
    const description = inputs.description ?? originDescription(inputs);
    const started = Date.now();
    const set = await client.policySets
      .create(organization, {
        name,
        kind: String(inputs.kind ?? "sentinel"),
        ...settingsOf(inputs, SETTINGS),
        ...(typeof description === "string" && description.length <= POLICY_DESCRIPTION_MAX ? { description } : {}),
        ...(Array.isArray(inputs.policyIds) ? { policyIds: inputs.policyIds.map(String) } : {}),
      })
      .catch((err: unknown) => {
        if (isNotFound(err))
          throw new ProviderError(
            `cannot create policy set "${name}" in organization "${organization}": the service answered 404, so the organization does not exist or the token in use may not manage its policies (that takes an owners token, an organization token or a team that manages policies).`,
          );
        // A create whose answer was lost: the set of this name made since it started is its own.
        return recoverLostCreate(
          err,
          async () => {
            const found = await policySetByName(client, organization, name);
            if (!found) throw err;
            return { ...found, createdAt: found.createdAt ?? "" };
          },
          started,
        );
      });
    const folder = typeof inputs.policiesFolder === "string" ? inputs.policiesFolder : undefined;
    if (!folder) {
      rememberPolicySet(client, set);
      return { id: set.id, outs: outputsOf(set, organization, NO_FOLDER) };
    }
    try {
      const state = await uploaded(client, set, folder);
      return { id: set.id, outs: outputsOf(await readPolicySet(client, set.id), organization, state) };
    } catch (err) {
      // The set exists: it is recorded without a version, and the next `pulumi up` uploads the folder again.
      const outs = outputsOf(set, organization, { ...NO_FOLDER, policiesFolder: folder });
      throw new PartialCreateError(err instanceof Error ? err.message : String(err), set.id, outs);
    }
  },

  async read(id, props) {
    const client = getClient();
    if (id.includes("/")) {
      const found = await importedByName(client, id);
      return found ? { id: found.id, props: outputsOf(found, props.organization, folderStateOf(found, props)) } : {};
    }
    if (!isId("policySet", id)) throw notASetId(id);
    return unlessGone(
      client,
      missing(id, props),
      "refresh",
      async () => {
        const set = await readPolicySet(client, id);
        return { id, props: outputsOf(set, props.organization, folderStateOf(set, props)) };
      },
      () => ({}),
    );
  },

  inputShape(name, value) {
    // The origin a create wrote where the program gave no description is not the program's.
    if (name === "description") return originOfDescription(value as string) ? undefined : (value ?? "");
    return value ?? undefined;
  },

  async update(id, olds, news) {
    const client = getClient();
    const { changed } = diffFields(olds, news, POLICY_SET_FIELDS);
    const options = settingsOf(
      news,
      ["name", ...SETTINGS].filter((n) => changed.includes(n)),
    );
    let set = await updatedUnlessGone(client, missing(id, olds), () =>
      Object.keys(options).length > 0 ? client.policySets.update(id, options) : readPolicySet(client, id),
    );
    let folder = folderStateOf(set, olds);
    if (Array.isArray(news.policyIds) && changed.includes("policyIds")) {
      if (await syncPolicies(client, id, set.policyIds, news.policyIds.map(String)))
        set = await readPolicySet(client, id);
    }
    const declared = typeof news.policiesFolder === "string" ? news.policiesFolder : undefined;
    if (declared && changed.includes("policiesSha256")) {
      folder = await uploaded(client, set, declared);
      set = await readPolicySet(client, id);
    } else if (declared) folder = { ...folder, policiesFolder: declared };
    return { outs: outputsOf(set, olds.organization ?? news.organization, folder) };
  },

  async delete(id, props) {
    const client = getClient();
    try {
      await client.policySets.delete(id);
    } catch (err) {
      if (!isNotFound(err)) throw err;
      await confirmGone(client, missing(id, props), "delete");
    }
  },
};

const policySetAdopter: Adopter = {
  noun: "policy set",
  key: nameKey,
  async find(client, inputs) {
    const organization = String(inputs.organization);
    const set = await policySetByName(client, organization, String(inputs.name));
    if (!set) return undefined;
    return {
      id: set.id,
      label: `policy set "${set.name}" (${set.id}) in organization "${organization}"`,
      // The service never gives a version's files back: a current version is taken to be the folder's.
      seed: { organization, policiesFolder: inputs.policiesFolder, policiesSha256: inputs.policiesSha256 },
      source: originOfDescription(set.description),
    };
  },
  isTaken: nameTaken,
  async describeExisting(client, inputs) {
    return (await this.find(client, inputs))?.label;
  },
  otherwise:
    "Programs on the provider plugin can instead `pulumi import workspaces:index:PolicySet` it by that polset- id. Otherwise choose another name.",
};

export const policySetProvider = adoptable(explainingMissingFeatures(provider, "policy sets"), policySetAdopter);
