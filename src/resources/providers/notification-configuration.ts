/**
 * Provider of `NotificationConfiguration` (`/workspaces/:id/notification-configurations`,
 * `/notification-configurations/:id`): id `nc-...`.
 *
 * The token is write-only: what the state keeps is the program's last token (a secret
 * output), compared with the program's new one; it is never read back.
 *
 * The service does not make names unique, so neither a retried create nor the create of
 * a killed update may be sent blind: `create` lists the workspace's configurations first,
 * a name taken is the `adopt: true` error (or, for this very resource's record left out
 * of the state, a take-over), and a create whose answer was lost is looked up among the
 * configurations that were not there before it. The origin travels in the URL's fragment,
 * which is never part of a delivery (an HTTP request carries no fragment).
 */
import type * as pulumi from "@pulumi/pulumi";
import { isId, text } from "../../api/common";
import type { NotificationDestinationType } from "../../api/notifications";
import { ORIGIN_SOURCE_NAME, originQuery } from "../../api/origin";
import type {
  NotificationConfiguration as ApiConfiguration,
  NotificationConfigurationOptions,
  NotificationConfigurationUpdateOptions,
  WorkspacesClient,
} from "../../client";
import { CLAIMANT_KEY, claim } from "../process/claims";
import { adoptable, type Adopter } from "./adoption";
import { getClient, isNotFound } from "./client";
import { diffFields, sameStringSet, type FieldRule } from "./compare";
import { confirmGone } from "./gone";
import { recoverLostCreate } from "./lost-create";
import { ProviderError, explainingMissingFeatures } from "./user-errors";
import { isUnknown } from "./unknowns";
import { missingUnder, workspaceOrganization } from "./workspace-variable";
import { checkConfiguration, label } from "./notification-check";
import type { ProviderImpl, Props } from "./types";
import type { NotificationConfigurationArgs } from "../notification-configuration";

/** Inputs as the engine hands them over. */
type NotificationInputs = pulumi.Unwrap<NotificationConfigurationArgs>;

/** Outputs as stored in state. */
type NotificationOutputs = {
  workspaceId: string;
  name: string;
  destinationType: string;
  /** Without the origin fragment a create added. */
  url: string | null;
  /** The program's last token (a secret); null when none, or unknown (imported). */
  token: string | null;
  enabled: boolean;
  triggers: string[];
  emailAddresses: string[];
  emailUserIds: string[];
  /** The workspace's organization, for the 404 rule once the workspace is gone; absent from earlier state. */
  organization?: string | null;
};

const sameOrNone = (a: unknown, b: unknown) => (a ?? null) === (b ?? null);

const FIELDS: FieldRule[] = [
  { name: "workspaceId", replaces: true },
  { name: "destinationType", replaces: true },
  { name: "name" },
  { name: "url", same: sameOrNone },
  // Against the token the stack recorded: the service never shows it.
  { name: "token", absentIsValue: true, same: sameOrNone },
  { name: "enabled" },
  { name: "triggers", same: (a, b) => sameStringSet(a, b) },
  { name: "emailAddresses", same: (a, b) => sameStringSet(a, b) },
  { name: "emailUserIds", same: (a, b) => sameStringSet(a, b) },
];

function configurationId(id: string): string {
  if (!isId("notificationConfiguration", id) || id.includes("/"))
    throw new ProviderError(
      `${JSON.stringify(id)} is not the id of a NotificationConfiguration: give the configuration's id (nc-4Kd7ZvQe1bGtLmPx)`,
    );
  return id;
}

/** A URL without the origin fragment a create added, and that origin (a `source-url`), where it has one. */
function splitOrigin(url: string | null): { url: string | null; origin?: string } {
  const at = url?.indexOf("#") ?? -1;
  if (!url || at < 0) return { url };
  const fragment = url.slice(at + 1);
  return originQuery(fragment) ? { url: url.slice(0, at), origin: fragment } : { url };
}

/** The URL a create sends: with this resource's origin as its fragment, where it has one and the URL none. */
function withOriginFragment(url: string, inputs: Props): string {
  const origin = inputs.sourceUrl;
  if (inputs.sourceName !== ORIGIN_SOURCE_NAME || !originQuery(origin) || url.includes("#")) return url;
  return `${url}#${String(origin)}`;
}

/** The token as outputs keep it: the program's, or null for none. */
function tokenOf(token: unknown): string | null {
  return typeof token === "string" && token !== "" ? token : null;
}

function outputsOf(
  workspaceId: string,
  c: ApiConfiguration,
  token: unknown,
  organization: string | undefined,
): NotificationOutputs {
  return {
    workspaceId,
    organization: organization ?? null,
    name: c.name,
    destinationType: c.destinationType,
    url: splitOrigin(c.url).url,
    token: tokenOf(token),
    enabled: c.enabled,
    triggers: c.triggers,
    emailAddresses: c.emailAddresses,
    emailUserIds: c.emailUserIds,
  };
}

// ---------------------------------------------------------------------------
// requests

async function configurationsOf(client: WorkspacesClient, workspaceId: string): Promise<ApiConfiguration[]> {
  const all: ApiConfiguration[] = [];
  for await (const c of client.notificationConfigurations.list(workspaceId)) all.push(c);
  return all;
}

/** A create refused by this provider because the workspace has a configuration of the name already. */
class NameTakenError extends ProviderError {
  constructor(readonly existing: ApiConfiguration[]) {
    super(`notification configuration name taken (${existing.map((c) => c.id).join(", ")})`);
  }
}

function createOptions(inputs: Props): NotificationConfigurationOptions {
  const list = (v: unknown) => (Array.isArray(v) ? v.map(String) : undefined);
  const url = typeof inputs.url === "string" ? withOriginFragment(inputs.url, inputs) : undefined;
  return {
    name: String(inputs.name),
    destinationType: inputs.destinationType as NotificationDestinationType,
    enabled: inputs.enabled !== false,
    ...(url !== undefined ? { url } : {}),
    ...(typeof inputs.token === "string" && inputs.token !== "" ? { token: inputs.token } : {}),
    triggers: list(inputs.triggers) ?? [],
    ...(list(inputs.emailAddresses) ? { emailAddresses: list(inputs.emailAddresses) } : {}),
    ...(list(inputs.emailUserIds) ? { emailUserIds: list(inputs.emailUserIds) } : {}),
  };
}

async function createConfiguration(inputs: Props): Promise<{ id: string; outs: NotificationOutputs }> {
  const workspaceId = String(inputs.workspaceId);
  const name = String(inputs.name);
  const client = getClient();
  let before: ApiConfiguration[];
  try {
    before = await configurationsOf(client, workspaceId);
  } catch (err) {
    if (!isNotFound(err)) throw err;
    throw new ProviderError(
      `cannot create ${label(name, workspaceId)}: the service answered 404 for the workspace, so it does not exist or the token in use may not see it. Check workspaceId, or use a token that may manage the workspace's notifications.`,
    );
  }
  const taken = before.filter((c) => c.name === name);
  if (taken.length > 0) throw new NameTakenError(taken);
  const known = new Set(before.map((c) => c.id));
  const started = Date.now();
  let made: ApiConfiguration;
  try {
    made = await client.notificationConfigurations.create(workspaceId, createOptions(inputs));
  } catch (err) {
    // The answer was lost: the configuration this create made, if it did, is the new one of that name.
    const found = await recoverLostCreate(
      err,
      async () => {
        const mine = (await configurationsOf(client, workspaceId)).find((c) => c.name === name && !known.has(c.id));
        if (!mine) throw err;
        return { configuration: mine, createdAt: text(mine.attributes["created-at"]) };
      },
      started,
    );
    made = found.configuration;
  }
  const organization = await workspaceOrganization(client, workspaceId);
  return { id: made.id, outs: outputsOf(workspaceId, made, inputs.token, organization) };
}

/** The changes an update sends: what differs from the outputs, users always for an email destination (absent, the service clears them). */
function updateOptions(olds: Props, news: Props): NotificationConfigurationUpdateOptions | undefined {
  const { changed } = diffFields(olds, news, FIELDS);
  if (changed.length === 0) return undefined;
  const out: NotificationConfigurationUpdateOptions = {};
  const list = (v: unknown) => (Array.isArray(v) ? v.map(String) : []);
  if (changed.includes("name")) out.name = String(news.name);
  if (changed.includes("url")) out.url = typeof news.url === "string" ? news.url : null;
  if (changed.includes("token")) out.token = typeof news.token === "string" && news.token !== "" ? news.token : null;
  if (changed.includes("enabled")) out.enabled = news.enabled !== false;
  if (changed.includes("triggers")) out.triggers = list(news.triggers);
  if (changed.includes("emailAddresses")) out.emailAddresses = list(news.emailAddresses);
  if ((news.destinationType ?? olds.destinationType) === "email")
    out.emailUserIds = list(news.emailUserIds ?? olds.emailUserIds);
  return out;
}

const provider: ProviderImpl<NotificationInputs & Props, NotificationOutputs> = {
  async check(_olds, news) {
    const { [CLAIMANT_KEY]: claimant, ...given } = news;
    const failures = checkConfiguration(news);
    const { workspaceId, name } = news;
    if (failures.length === 0 && typeof claimant === "string" && !isUnknown(workspaceId) && !isUnknown(name)) {
      const other = claim(`notification:${String(workspaceId)}/${String(name)}`, claimant);
      if (other !== undefined)
        failures.push({
          property: "name",
          reason: `${label(name, workspaceId)} is declared by two resources of this stack, this one and "${other}": give each configuration of a workspace its own name`,
        });
    }
    const inputs: Props = { ...given };
    if (inputs.enabled === undefined || inputs.enabled === null) inputs.enabled = true;
    if (inputs.triggers === undefined || inputs.triggers === null) inputs.triggers = [];
    return { inputs: inputs as NotificationInputs & Props, failures };
  },

  async diff(_id, olds, news) {
    const { changed, replaces } = diffFields(olds, news, FIELDS);
    return { changes: changed.length > 0, replaces, deleteBeforeReplace: replaces.length > 0 };
  },

  create: createConfiguration,

  async read(id, props) {
    const client = getClient();
    let c: ApiConfiguration;
    try {
      c = await client.notificationConfigurations.read(configurationId(id));
    } catch (err) {
      if (!isNotFound(err)) throw err;
      const record = await missingUnder(client, String(props.workspaceId), label(props.name, undefined, id), props);
      await confirmGone(client, record, "refresh");
      return {};
    }
    const workspaceId = c.subscribable?.type === "workspaces" ? c.subscribable.id : String(props.workspaceId);
    const organization = await workspaceOrganization(client, workspaceId, props);
    return { id, props: outputsOf(workspaceId, c, props.token, organization) };
  },

  inputShape(name, value, outputs) {
    if (name === "token" || name === "url") return value ?? undefined;
    if (name === "emailAddresses" || name === "emailUserIds")
      return Array.isArray(value) && value.length > 0 ? value : outputs.destinationType === "email" ? [] : undefined;
    return value;
  },

  async update(id, olds, news) {
    const changes = updateOptions(olds, news);
    if (!changes) return { outs: { ...olds, token: tokenOf(news.token) } };
    const client = getClient();
    try {
      const c = await client.notificationConfigurations.update(configurationId(id), changes);
      const organization = await workspaceOrganization(client, String(olds.workspaceId), olds);
      return { outs: outputsOf(String(olds.workspaceId), c, news.token, organization) };
    } catch (err) {
      if (!isNotFound(err)) throw err;
      const what = label(news.name, undefined, id);
      await confirmGone(client, await missingUnder(client, String(olds.workspaceId), what, olds), "update");
      throw new ProviderError(
        `cannot update ${what} of workspace ${String(olds.workspaceId)}: it was deleted outside the program. Run \`pulumi refresh\`, then \`pulumi up\` creates it again.`,
      );
    }
  },

  async delete(id, props) {
    const client = getClient();
    try {
      await client.notificationConfigurations.delete(configurationId(id));
    } catch (err) {
      if (!isNotFound(err)) throw err;
      const record = await missingUnder(client, String(props.workspaceId), label(props.name, undefined, id), props);
      await confirmGone(client, record, "delete");
    }
  },
};

/** The workspace's configuration of the declared name, for adoption and the take-over of an interrupted create. */
const notificationAdopter: Adopter = {
  noun: "notification configuration",
  key(inputs) {
    const { workspaceId, name } = inputs;
    if ([workspaceId, name].some((v) => typeof v !== "string" || isUnknown(v))) return undefined;
    return label(name, workspaceId).replace(/^notification configuration /, "");
  },
  async find(client, inputs) {
    const workspaceId = String(inputs.workspaceId);
    let named: ApiConfiguration[];
    try {
      named = (await configurationsOf(client, workspaceId)).filter((c) => c.name === inputs.name);
    } catch (err) {
      if (isNotFound(err)) return undefined;
      throw err;
    }
    if (named.length === 0) return undefined;
    const c = named[0];
    const what = label(c.name, workspaceId, c.id);
    if (named.length > 1)
      throw new ProviderError(
        `cannot adopt ${label(c.name, workspaceId)}: the workspace has ${named.length} configurations of that name (${named.map((n) => n.id).join(", ")}). Delete or rename all but one on the service, then run pulumi up again.`,
      );
    if (typeof inputs.destinationType === "string" && c.destinationType !== inputs.destinationType)
      throw new ProviderError(
        `cannot adopt ${what}: it delivers to a ${c.destinationType} destination and this resource declares ${inputs.destinationType}, which the service never changes in place. Declare destinationType: "${c.destinationType}", or choose another name.`,
      );
    const origin = splitOrigin(c.url).origin;
    return {
      id: c.id,
      label: what,
      // The service never shows the token: the declared one is taken as the record's.
      seed: { workspaceId, token: inputs.token ?? null },
      ...(origin ? { source: { sourceName: ORIGIN_SOURCE_NAME, sourceUrl: origin } } : {}),
    };
  },
  isTaken: (err) => err instanceof NameTakenError,
  async describeExisting(client, inputs) {
    const named = (await configurationsOf(client, String(inputs.workspaceId))).filter((c) => c.name === inputs.name);
    return named.length > 0
      ? `${label(inputs.name, inputs.workspaceId)} (${named.map((c) => c.id).join(", ")})`
      : undefined;
  },
  otherwise: "Otherwise choose another name.",
};

/** The provider, with adoption and the take-over of an interrupted create. */
export const notificationConfigurationProvider = explainingMissingFeatures(
  adoptable(provider, notificationAdopter),
  "notification configuration",
);
