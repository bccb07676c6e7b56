/** Provider of `Policy` (`/organizations/:org/policies`, `/policies/:id`), id `pol-...`. */
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import type * as pulumi from "@pulumi/pulumi";
import { isId } from "../../api/common";
import {
  POLICY_DESCRIPTION_MAX,
  POLICY_KINDS,
  enforcementLevelProblem,
  policyNameProblem,
  type PolicyKind,
} from "../../api/policies";
import type { Policy as ApiPolicy, PolicyUpdateOptions, WorkspacesClient } from "../../client";
import { reportWarning } from "../process/engine-status";
import { adoptable, nameTaken, type Adopter } from "./adoption";
import { firstNamed, nameKey } from "./by-name";
import { getClient, isNotFound } from "./client";
import { diffFields, sameOptionalString, type FieldRule } from "./compare";
import { childRecord, confirmGone, unlessGone, updatedUnlessGone, type MissingRecord } from "./gone";
import { checkedOrganization } from "./inputs";
import { PartialCreateError, recoverLostCreate } from "./lost-create";
import { folderPath } from "./policy-set-folder";
import { ProviderError, describe, explainingMissingFeatures } from "./user-errors";
import { isUnknown } from "./unknowns";
import { originDescription, originOfDescription } from "./workspace-variable";
import type { CheckFailure, ProviderImpl, Props } from "./types";
import type { PolicyArgs } from "../policy";

/** Inputs as the engine hands them over, with the declared code's digest `check` adds. */
type PolicyInputs = pulumi.Unwrap<PolicyArgs> & { codeSha256?: string };

/** Outputs as stored in state. */
type PolicyOutputs = {
  name: string;
  organization: string | null;
  kind: string;
  description: string | null;
  query: string | null;
  enforcementLevel: string | null;
  codeSha256: string | null;
  codeFile: string | null;
  policySetCount: number | null;
  updatedAt: string | null;
};

/** A level the service does not report reads as the one declared (liberal reading). */
function sameLevel(desired: unknown, actual: unknown): boolean {
  return actual === null || actual === undefined || desired === actual;
}

const FIELDS: FieldRule[] = [
  { name: "organization", replaces: true },
  { name: "name", replaces: true },
  { name: "kind", replaces: true },
  { name: "description", same: sameOptionalString },
  { name: "query", same: sameOptionalString },
  { name: "enforcementLevel", same: sameLevel },
  { name: "codeSha256" },
];

/** The level a policy is created with when the program does not manage it. */
const DEFAULT_LEVEL = "advisory";

function policyLabel(name: unknown, id: string): string {
  return typeof name === "string" && name !== "" ? `policy "${name}" (${id})` : `policy ${id}`;
}

/** The 404 rule's record: the organization state records, else the stack's (a policy lives under nothing else). */
function missing(client: WorkspacesClient, id: string, props: Props): Promise<MissingRecord> {
  return childRecord(client, { label: policyLabel(props.name, id), kind: "policy" }, props, []);
}

/** SHA-256 (hex) of a policy's code, as UTF-8. */
function codeDigest(code: string): string {
  return createHash("sha256").update(code, "utf8").digest("hex");
}

/** The declared code: `code` as given, or the text of `codeFile` read from the program's directory. */
function declaredCode(inputs: Props): string {
  if (typeof inputs.code === "string") return inputs.code;
  return readFileSync(folderPath(String(inputs.codeFile)), "utf8");
}

function outputsOf(p: ApiPolicy, organization: unknown, code: string | undefined, codeFile: unknown): PolicyOutputs {
  return {
    name: p.name,
    organization: p.organization ?? (typeof organization === "string" ? organization : null),
    kind: p.kind,
    description: p.description,
    query: p.query,
    enforcementLevel: p.enforcementLevel,
    codeSha256: code === undefined ? null : codeDigest(code),
    codeFile: typeof codeFile === "string" ? codeFile : null,
    policySetCount: p.policySetCount,
    updatedAt: p.updatedAt,
  };
}

/** The policy named `name` in `organization`, or undefined. */
function policyByName(client: WorkspacesClient, organization: string, name: string): Promise<ApiPolicy | undefined> {
  return firstNamed(client.policies.list(organization, { search: name }), name);
}

/** A string input's failure when it is given and not a string. */
function notAString(news: Props, property: string): CheckFailure[] {
  const v = news[property];
  return v !== undefined && v !== null && !isUnknown(v) && typeof v !== "string"
    ? [{ property, reason: `${property} must be a string` }]
    : [];
}

/** The failures of `code` and `codeFile`, and the declared code's digest in `inputs` (the value itself while unknown). */
function checkCode(news: Props, inputs: Props): CheckFailure[] {
  const given = (k: string) => news[k] !== undefined && news[k] !== null;
  if (given("code") === given("codeFile"))
    return [
      {
        property: given("code") ? "codeFile" : "code",
        reason: given("code")
          ? "give either code or codeFile, not both"
          : "code or codeFile is required: the policy's code as text, or a file of the program that holds it",
      },
    ];
  const property = given("code") ? "code" : "codeFile";
  const value = news[property];
  if (isUnknown(value)) {
    inputs.codeSha256 = value;
    return [];
  }
  const failures = notAString(news, property);
  if (failures.length > 0) return failures;
  try {
    inputs.codeSha256 = codeDigest(declaredCode(news));
    return [];
  } catch (err) {
    const at = folderPath(String(value));
    const why = (err as NodeJS.ErrnoException).code === "ENOENT" ? "no such file" : describe(err);
    return [{ property, reason: `codeFile ${JSON.stringify(value)} cannot be read (${why}; read from ${at})` }];
  }
}

/** The failures of the kind's own settings: the level it accepts, and the query only OPA has (and needs). */
function checkKindSettings(kind: unknown, news: Props): CheckFailure[] {
  const failures = [...notAString(news, "query"), ...notAString(news, "enforcementLevel")];
  if (typeof kind !== "string" || isUnknown(kind) || !POLICY_KINDS.includes(kind as PolicyKind)) return failures;
  const { query, enforcementLevel: level } = news;
  if (kind === "opa" && (query === undefined || query === null || query === ""))
    failures.push({
      property: "query",
      reason: "query is required for an OPA policy: the rule that evaluates it, data.<package>.<rule>",
    });
  if (kind === "sentinel" && typeof query === "string" && query !== "")
    failures.push({ property: "query", reason: "query applies to OPA policies only; remove it, or set kind: opa" });
  const problem = typeof level === "string" && !isUnknown(level) ? enforcementLevelProblem(kind, level) : null;
  if (problem)
    failures.push({ property: "enforcementLevel", reason: `enforcementLevel ${JSON.stringify(level)} ${problem}` });
  return failures;
}

function checkInputs(news: Props, inputs: Props): CheckFailure[] {
  const failures: CheckFailure[] = [];
  const name = news.name;
  if (name === undefined || name === null) failures.push({ property: "name", reason: "name is required" });
  else if (!isUnknown(name)) {
    const problem = typeof name === "string" ? policyNameProblem(name) : "must be a string";
    if (problem) failures.push({ property: "name", reason: `name ${problem}` });
  }
  const kind = news.kind ?? "sentinel";
  inputs.kind = kind;
  if (typeof kind !== "string") failures.push({ property: "kind", reason: "kind must be a string (sentinel or opa)" });
  else if (!isUnknown(kind) && !POLICY_KINDS.includes(kind as PolicyKind))
    reportWarning(
      `policy ${JSON.stringify(name)}: kind ${JSON.stringify(kind)} is not one this release knows (${POLICY_KINDS.join(", ")}); it is sent as given and the service decides`,
    );
  const description = news.description;
  failures.push(...notAString(news, "description"));
  if (typeof description === "string" && description.length > POLICY_DESCRIPTION_MAX)
    failures.push({
      property: "description",
      reason: `description is too long (at most ${POLICY_DESCRIPTION_MAX} characters)`,
    });
  failures.push(...checkKindSettings(kind, news), ...checkCode(news, inputs));
  return failures;
}

function notAPolicyId(id: string): ProviderError {
  return new ProviderError(
    `${JSON.stringify(id)} is not the id of a Policy: give its pol-<id> (pol-8bQwPz3YtLm6VnRs) or <organization>/<name>`,
  );
}

/** The policy and its code, as a refresh reads them. */
async function readPolicy(client: WorkspacesClient, id: string, props: Props): Promise<PolicyOutputs> {
  const p = await client.policies.read(id);
  const code = await client.policies.download(id);
  return outputsOf(p, props.organization, code, props.codeFile);
}

/** The description a create sends: the declared one, else the stack's origin where it fits. */
function createDescription(inputs: Props): string | undefined {
  const given = inputs.description;
  if (typeof given === "string") return given;
  const origin = originDescription(inputs);
  return origin !== undefined && origin.length <= POLICY_DESCRIPTION_MAX ? origin : undefined;
}

const provider: ProviderImpl<PolicyInputs & Props, PolicyOutputs> = {
  async check(olds, news) {
    const inputs: Props = { ...news };
    const failures: CheckFailure[] = [];
    checkedOrganization(olds, news, inputs, failures);
    failures.push(...checkInputs(news, inputs));
    return { inputs: inputs as PolicyInputs & Props, failures };
  },

  async diff(_id, olds, news) {
    const { changed, replaces } = diffFields(olds, news, FIELDS);
    // The name is unique: a new kind under the same name can only follow the old policy's delete.
    const deleteBeforeReplace = replaces.includes("kind") && !replaces.includes("name");
    return { changes: changed.length > 0, replaces, deleteBeforeReplace };
  },

  async create(inputs) {
    const client = getClient();
    const organization = String(inputs.organization);
    const name = String(inputs.name);
    const code = declaredCode(inputs);
    const description = createDescription(inputs);
    const started = Date.now();
    const p = await client.policies
      .create(organization, {
        name,
        kind: String(inputs.kind ?? "sentinel"),
        ...(typeof inputs.query === "string" && inputs.query !== "" ? { query: inputs.query } : {}),
        ...(description !== undefined ? { description } : {}),
        enforcementLevel: typeof inputs.enforcementLevel === "string" ? inputs.enforcementLevel : DEFAULT_LEVEL,
      })
      .catch((err: unknown) => {
        if (isNotFound(err))
          throw new ProviderError(
            `cannot create policy "${name}" in organization "${organization}": the service answered 404, so the organization does not exist or the token in use may not manage its policies (that takes an owners token, an organization token or a team that manages policies).`,
          );
        // A create whose answer was lost: the policy of this name changed since it started is its own.
        return recoverLostCreate(
          err,
          async () => {
            const found = await policyByName(client, organization, name);
            if (!found) throw err;
            return { ...found, createdAt: found.updatedAt ?? "" };
          },
          started,
        );
      });
    try {
      await client.policies.upload(p.id, code);
    } catch (err) {
      // The policy exists: it is recorded without code, so that the next `pulumi up` uploads it.
      throw new PartialCreateError(
        `${policyLabel(p.name, p.id)} was created, but uploading its code failed: ${describe(err)}. The next \`pulumi up\` uploads it.`,
        p.id,
        outputsOf(p, organization, undefined, inputs.codeFile),
      );
    }
    return { id: p.id, outs: outputsOf(p, organization, code, inputs.codeFile) };
  },

  async read(id, props) {
    const client = getClient();
    if (id.includes("/")) {
      const slash = id.indexOf("/");
      const [organization, name] = [id.slice(0, slash), id.slice(slash + 1)];
      if (organization === "" || name === "" || name.includes("/")) throw notAPolicyId(id);
      const found = await policyByName(client, organization, name);
      return found ? { id: found.id, props: await readPolicy(client, found.id, { organization }) } : {};
    }
    if (!isId("policy", id)) throw notAPolicyId(id);
    return unlessGone(
      client,
      () => missing(client, id, props),
      "refresh",
      async () => ({ id, props: await readPolicy(client, id, props) }),
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
    const options: PolicyUpdateOptions = {};
    if (changed.includes("description")) options.description = String(news.description ?? "");
    if (changed.includes("query")) options.query = String(news.query ?? "");
    if (changed.includes("enforcementLevel")) options.enforcementLevel = String(news.enforcementLevel);
    const code = changed.includes("codeSha256") ? declaredCode(news) : undefined;
    const record = await missing(client, id, olds);
    const p = await updatedUnlessGone(client, record, async () => {
      if (code !== undefined) await client.policies.upload(id, code);
      return Object.keys(options).length > 0 ? client.policies.update(id, options) : client.policies.read(id);
    });
    const codeFile = news.codeFile ?? null;
    const outs = outputsOf(p, olds.organization ?? news.organization, code, codeFile);
    return { outs: code === undefined ? { ...outs, codeSha256: olds.codeSha256 } : outs };
  },

  async delete(id, props) {
    const client = getClient();
    try {
      // The service takes the policy out of every set that holds it; the sets stay.
      await client.policies.delete(id);
    } catch (err) {
      if (!isNotFound(err)) throw err;
      await confirmGone(client, await missing(client, id, props), "delete");
    }
  },
};

const policyAdopter: Adopter = {
  noun: "policy",
  key: nameKey,
  async find(client, inputs) {
    const organization = String(inputs.organization);
    const p = await policyByName(client, organization, String(inputs.name));
    if (!p) return undefined;
    return {
      id: p.id,
      label: `policy "${p.name}" (${p.id}) in organization "${organization}"`,
      seed: { organization, codeFile: inputs.codeFile },
      source: originOfDescription(p.description),
    };
  },
  isTaken: nameTaken,
  async describeExisting(client, inputs) {
    return (await this.find(client, inputs))?.label;
  },
  otherwise:
    "Programs on the provider plugin can instead `pulumi import workspaces:index:Policy` it by that pol- id. Otherwise choose another name.",
};

export const policyProvider = adoptable(explainingMissingFeatures(provider, "policy"), policyAdopter);
