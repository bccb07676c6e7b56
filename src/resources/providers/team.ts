/** Provider of `Team` (`/organizations/:org/teams`, `/teams/:id`), id `team-...`. */
import type * as pulumi from "@pulumi/pulumi";
import { isId } from "../../api/common";
import { ORGANIZATION_ACCESS_FLAGS, TEAM_VISIBILITIES } from "../../api/teams";
import { type Team as ApiTeam, type TeamUpdateOptions, type WorkspacesClient } from "../../client";
import { reportInfo } from "../process/engine-status";
import { adoptable, nameTaken, type Adopter } from "./adoption";
import { firstNamed, nameKey } from "./by-name";
import { camelToKebab } from "./check-failures";
import { getClient, isNotFound } from "./client";
import { diffFields, sameOptionalString, type FieldRule } from "./compare";
import { confirmGone, unlessGone, updatedUnlessGone, type MissingRecord } from "./gone";
import { checkedOrganization } from "./inputs";
import { ProviderError, explainingMissingFeatures } from "./user-errors";
import { isUnknown } from "./unknowns";
import type { CheckFailure, ProviderImpl, Props } from "./types";
import type { TeamArgs } from "../team";

/** Inputs as the engine hands them over. */
type TeamInputs = pulumi.Unwrap<TeamArgs>;

/** Outputs as stored in state. */
type TeamOutputs = {
  name: string;
  organization: string | null;
  visibility: string | null;
  organizationAccess: Record<string, unknown>;
  ssoTeamId: string | null;
  allowMemberTokenManagement: boolean | null;
};

/** The flags this release knows, in the program's spelling (`manageWorkspaces`). */
const KNOWN_FLAGS: ReadonlySet<string> = new Set(
  ORGANIZATION_ACCESS_FLAGS.map((f) => f.replace(/-([a-z])/g, (_, c: string) => c.toUpperCase())),
);

/** A flag name in the program's spelling: a camel-case word. */
const FLAG_NAME = /^[a-z][A-Za-z0-9]*$/;

type Flags = Record<string, unknown>;

/** Where a program puts the flags this release does not know (`organizationAccess.otherFlags`). */
const OTHER_FLAGS = "otherFlags";

/**
 * Every flag of an `organizationAccess`, the program's or as recorded, in one flat set: the
 * flags this release knows and those of `otherFlags` alike (state written before
 * `otherFlags` holds them flat already).
 */
function flagsOf(access: unknown): Flags {
  const { [OTHER_FLAGS]: other, ...known } = (access ?? {}) as Flags;
  return { ...known, ...(other !== null && typeof other === "object" ? (other as Flags) : {}) };
}

/** A flat set of flags in the shape of the inputs and outputs: the known flags, and the others in `otherFlags`. */
export function shapedAccess(flags: Record<string, boolean>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  const other: Record<string, boolean> = {};
  for (const [k, v] of Object.entries(flags)) {
    if (KNOWN_FLAGS.has(k)) out[k] = v;
    else other[k] = v;
  }
  if (Object.keys(other).length > 0) out[OTHER_FLAGS] = other;
  return out;
}

/**
 * The declared flags against those the service reports: every flag the service reports is
 * compared (one not declared must be off), a declared flag the service does not report is
 * not (a flag newer than the service, sent and never read back).
 */
function sameAccess(declared: unknown, actual: unknown): boolean {
  const d = flagsOf(declared);
  const a = flagsOf(actual);
  return Object.keys(a).every((k) => Boolean(d[k]) === Boolean(a[k]));
}

/** What an update sends to bring `actual` to `declared`: every declared flag, and off for each other flag that is on. */
function accessToSend(declared: unknown, actual: unknown): Record<string, boolean> {
  const d = flagsOf(declared);
  const out: Record<string, boolean> = {};
  for (const [k, v] of Object.entries(flagsOf(actual))) if (v === true && !d[k]) out[k] = false;
  for (const [k, v] of Object.entries(d)) out[k] = v === true;
  return out;
}

/** The service leaves out a setting it does not keep: nothing to compare then. */
function sameOrUnreported(desired: unknown, actual: unknown): boolean {
  return actual === null || actual === undefined || Boolean(desired) === Boolean(actual);
}

const FIELDS: FieldRule[] = [
  { name: "organization", replaces: true },
  { name: "name" },
  { name: "visibility", same: (d, a) => a === null || a === undefined || d === a },
  { name: "organizationAccess", same: sameAccess },
  { name: "ssoTeamId", same: sameOptionalString },
  { name: "allowMemberTokenManagement", same: sameOrUnreported },
];

function teamLabel(name: unknown, id: string): string {
  return typeof name === "string" && name !== "" ? `team "${name}" (${id})` : `team ${id}`;
}

function missing(id: string, props: Props): MissingRecord {
  return { label: teamLabel(props.name, id), organization: props.organization, kind: "team" };
}

function outputsOf(t: ApiTeam, organization: unknown): TeamOutputs {
  return {
    name: t.name,
    organization: t.organization ?? (typeof organization === "string" ? organization : null),
    visibility: t.visibility,
    organizationAccess: shapedAccess(t.organizationAccess),
    ssoTeamId: t.ssoTeamId,
    allowMemberTokenManagement: t.allowMemberTokenManagement,
  };
}

/** Whether `given` is an object of flags (or not known yet, at preview). */
function isFlagObject(given: unknown): boolean {
  return isUnknown(given) || (given !== null && typeof given === "object" && !Array.isArray(given));
}

function accessFailures(given: unknown): CheckFailure[] {
  if (given === undefined || given === null || isUnknown(given)) return [];
  if (!isFlagObject(given))
    return [
      {
        property: "organizationAccess",
        reason: "organizationAccess must be an object of flags, e.g. { manageWorkspaces: true }",
      },
    ];
  const failures: CheckFailure[] = [];
  const unknown: string[] = [];
  const { [OTHER_FLAGS]: other, ...named } = given as Flags;
  const otherFlags = other === undefined || other === null || isUnknown(other) ? {} : other;
  if (!isFlagObject(otherFlags))
    failures.push({
      property: `organizationAccess.${OTHER_FLAGS}`,
      reason: `organizationAccess.${OTHER_FLAGS} must be an object of flags, e.g. { manageNewThing: true }`,
    });
  const entries = [
    ...Object.entries(named).map(([flag, value]) => ({
      flag,
      value,
      property: `organizationAccess.${flag}`,
      other: false,
    })),
    ...(isFlagObject(otherFlags) ? Object.entries(otherFlags as Flags) : []).map(([flag, value]) => ({
      flag,
      value,
      property: `organizationAccess.${OTHER_FLAGS}.${flag}`,
      other: true,
    })),
  ];
  for (const { flag, value, property, other: inOther } of entries) {
    if (!FLAG_NAME.test(flag)) {
      const camel = flag.replace(/[-_]([a-z])/g, (_, c: string) => c.toUpperCase());
      failures.push({
        property,
        reason: `${JSON.stringify(flag)} is not a flag name: write flags in camel case${FLAG_NAME.test(camel) ? ` (${camel})` : ""}`,
      });
    } else if (value !== undefined && value !== null && !isUnknown(value) && typeof value !== "boolean")
      failures.push({ property, reason: `${property} must be true or false` });
    else if (inOther && KNOWN_FLAGS.has(flag))
      failures.push({
        property,
        reason: `${flag} is a flag this release knows: set organizationAccess.${flag}, and keep ${OTHER_FLAGS} for flags it does not know`,
      });
    else if (!KNOWN_FLAGS.has(flag)) unknown.push(flag);
  }
  if (unknown.length > 0 && failures.length === 0)
    reportInfo(
      `organizationAccess: ${unknown.join(", ")} ${unknown.length === 1 ? "is not a flag" : "are not flags"} this release knows; ` +
        `sent to the service as ${unknown.map(camelToKebab).join(", ")} (a newer service may offer ${unknown.length === 1 ? "it" : "them"}; ` +
        `one it does not keep is never read back)`,
    );
  return failures;
}

/** The declared flags, flat, without those left undefined (a program's optional flag not given). */
function declaredAccess(given: unknown): Record<string, boolean> | undefined {
  if (given === undefined || given === null) return undefined;
  const out: Record<string, boolean> = {};
  for (const [k, v] of Object.entries(flagsOf(given))) if (v !== undefined && v !== null) out[k] = v === true;
  return out;
}

const provider: ProviderImpl<TeamInputs & Props, TeamOutputs> = {
  async check(olds, news) {
    const failures: CheckFailure[] = [];
    const inputs: Props = { ...news };
    checkedOrganization(olds, news, inputs, failures);
    const name = news.name;
    if (name === undefined || name === null) failures.push({ property: "name", reason: "name is required" });
    else if (!isUnknown(name) && (typeof name !== "string" || name.trim() === ""))
      failures.push({ property: "name", reason: "name must be a non-empty string" });
    const v = news.visibility;
    if (v !== undefined && v !== null && !isUnknown(v) && !(TEAM_VISIBILITIES as readonly unknown[]).includes(v))
      failures.push({
        property: "visibility",
        reason: `visibility must be ${TEAM_VISIBILITIES.map((x) => `"${x}"`).join(" or ")}, not ${JSON.stringify(v)}`,
      });
    failures.push(...accessFailures(news.organizationAccess));
    if (failures.every((f) => !f.property.startsWith("organizationAccess"))) {
      const access = declaredAccess(news.organizationAccess);
      if (access && !isUnknown(news.organizationAccess) && !isUnknown((news.organizationAccess as Flags)[OTHER_FLAGS]))
        inputs.organizationAccess = shapedAccess(access);
    }
    const sso = news.ssoTeamId;
    if (sso !== undefined && sso !== null && !isUnknown(sso) && typeof sso !== "string")
      failures.push({ property: "ssoTeamId", reason: "ssoTeamId must be a string" });
    const m = news.allowMemberTokenManagement;
    if (m !== undefined && m !== null && !isUnknown(m) && typeof m !== "boolean")
      failures.push({
        property: "allowMemberTokenManagement",
        reason: "allowMemberTokenManagement must be true or false",
      });
    return { inputs: inputs as TeamInputs & Props, failures };
  },

  async diff(_id, olds, news) {
    const { changed, replaces } = diffFields(olds, news, FIELDS);
    return { changes: changed.length > 0, replaces };
  },

  async create(inputs) {
    const client = getClient();
    const organization = String(inputs.organization);
    const sso = inputs.ssoTeamId;
    const team = await client.teams.create(organization, {
      name: String(inputs.name),
      ...(typeof inputs.visibility === "string" ? { visibility: inputs.visibility } : {}),
      ...(inputs.organizationAccess ? { organizationAccess: declaredAccess(inputs.organizationAccess) } : {}),
      ...(typeof sso === "string" && sso !== "" ? { ssoTeamId: sso } : {}),
      ...(typeof inputs.allowMemberTokenManagement === "boolean"
        ? { allowMemberTokenManagement: inputs.allowMemberTokenManagement }
        : {}),
    });
    return { id: team.id, outs: outputsOf(team, organization) };
  },

  async read(id, props) {
    if (!isId("team", id))
      throw new ProviderError(
        `${JSON.stringify(id)} is not the id of a Team: give its team-<id> (team-6pYwQv8sNb3kLrTz)`,
      );
    const client = getClient();
    return unlessGone(
      client,
      missing(id, props),
      "refresh",
      async () => ({ id, props: outputsOf(await client.teams.read(id), props.organization) }),
      () => ({}),
    );
  },

  inputShape(name, value) {
    // A cleared SSO id reads back as null: the program's way to say none is "".
    if (name === "ssoTeamId") return value ?? "";
    return value;
  },

  async update(id, olds, news) {
    const client = getClient();
    const { changed } = diffFields(olds, news, FIELDS);
    const options: TeamUpdateOptions = {};
    if (changed.includes("name")) options.name = String(news.name);
    if (changed.includes("visibility")) options.visibility = news.visibility;
    if (changed.includes("organizationAccess"))
      options.organizationAccess = accessToSend(news.organizationAccess, olds.organizationAccess);
    if (changed.includes("ssoTeamId")) options.ssoTeamId = news.ssoTeamId ? String(news.ssoTeamId) : null;
    if (changed.includes("allowMemberTokenManagement"))
      options.allowMemberTokenManagement = news.allowMemberTokenManagement === true;
    const team = await updatedUnlessGone(client, missing(id, olds), () =>
      Object.keys(options).length > 0 ? client.teams.update(id, options) : client.teams.read(id),
    );
    return { outs: outputsOf(team, olds.organization ?? news.organization) };
  },

  async delete(id, props) {
    const client = getClient();
    try {
      await client.teams.delete(id);
    } catch (err) {
      if (!isNotFound(err)) throw err;
      await confirmGone(client, missing(id, props), "delete");
    }
  },
};

/** The team of the declared name in the declared organization, among those the token sees. */
export function teamByName(client: WorkspacesClient, organization: string, name: string): Promise<ApiTeam | undefined> {
  return firstNamed(client.teams.list(organization, { names: [name] }), name);
}

const teamAdopter: Adopter = {
  noun: "team",
  key: nameKey,
  async find(client, inputs) {
    const organization = String(inputs.organization);
    const t = await teamByName(client, organization, String(inputs.name));
    if (!t) return undefined;
    // A team has no field that could carry an origin: it is never taken over without adopt.
    return { id: t.id, label: `team "${t.name}" (${t.id}) in organization "${organization}"`, seed: { organization } };
  },
  isTaken: nameTaken,
  async describeExisting(client, inputs) {
    return (await this.find(client, inputs))?.label;
  },
  otherwise:
    "Programs on the provider plugin can instead `pulumi import workspaces:index:Team` it by that team- id. Otherwise choose another name.",
};

export const teamProvider = adoptable(explainingMissingFeatures(provider, "team"), teamAdopter);
