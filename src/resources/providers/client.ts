/**
 * The client the providers use, built from the settings in force at call time, and
 * the few composite reads they share.
 */
import {
  BadRequestError,
  type WorkspacesClient,
  NotFoundError,
  UnauthorizedError,
  capDetail,
  tokenSource,
  type Workspace as ApiWorkspace,
} from "../../client";
import { CONFIG_KEYS, currentSettings } from "../provider-settings";
import { fromSnapshot, listedOrganization, withTags, type WorkspaceWithTags } from "../process/snapshot";
import { ProviderError } from "./user-errors";

export { getClient, resetClients } from "../process/clients";

/** How the address's source is named, by where it came from. */
const ADDRESS_SOURCES = {
  options: `stack config ${CONFIG_KEYS.address}`,
  "WORKSPACES_*": "WORKSPACES_ADDRESS",
  "TFE_*": "TFE_HOSTNAME",
  "credentials file": "the credentials file",
} as const;

/**
 * A refused token (401, or the service's throttle of invalid tokens) as the one error that
 * ends the operation: no later call could succeed with that token, and the client sends no
 * more requests with it. Names where the token came from and the address, never the token.
 */
export function tokenRefused(err: unknown): ProviderError | undefined {
  if (!(err instanceof UnauthorizedError)) return undefined;
  let settings;
  try {
    settings = currentSettings();
  } catch {
    return undefined;
  }
  const source = tokenSource(settings, {
    name: `stack config ${CONFIG_KEYS.token}`,
    replace: `set a valid one with \`pulumi config set --secret ${CONFIG_KEYS.token}\``,
  });
  const address = `${settings.baseUrl} (from ${ADDRESS_SOURCES[settings.sources.address]})`;
  const answer = `${err.status}${err.detail ? ` - ${capDetail(err.detail)}` : ""}`;
  return new ProviderError(
    `the service at ${address} refused the API token from ${source.name} (${answer}); no request with this token can succeed: ${source.replace}, then run again`,
  );
}

export { namesTagBindings, type WorkspaceWithTags } from "../process/snapshot";

/**
 * Before key-value tags are set on a workspace whose answers showed no sign of them:
 * a server without them says so with a FeatureUnavailableError (its tag-binding route
 * answers 404 while the workspace reads), one that has them lists them and the call
 * goes on. Nothing to ask when no tag is wanted or the service has shown its bindings.
 */
export async function requireTagBindings(
  client: WorkspacesClient,
  workspaceId: string,
  offers: boolean,
  wanted: Record<string, unknown> | undefined,
): Promise<void> {
  if (offers || Object.keys(wanted ?? {}).length === 0) return;
  await client.tagBindings.list(workspaceId);
}

/** `ws-...` or `org/name`. */
async function readWorkspace(client: WorkspacesClient, ref: string): Promise<ApiWorkspace> {
  const slash = ref.indexOf("/");
  if (slash > 0 && !ref.startsWith("ws-")) {
    return client.workspaces.readByName(ref.slice(0, slash), ref.slice(slash + 1));
  }
  return client.workspaces.read(ref);
}

/**
 * The workspace document plus its key-value tags. With the organization known (from
 * state, or `org/name`), from the process's listing of that organization, or of the
 * `project` the caller knows the workspace in (see process/snapshot.ts): a refresh reads
 * a hundred workspaces per request. Else, or when
 * the listing does not hold it, in one request: flat tags come with the document
 * (`tag-names`) and key-value tags with `include=effective_tag_bindings`, where inherited
 * ones name the project they come from. A service that refuses the include (400) is
 * asked for the two binding lists instead. A 404 propagates, for the one rule (gone.ts).
 */
export async function readWorkspaceWithTags(
  client: WorkspacesClient,
  ref: string,
  organization?: unknown,
  project?: unknown,
): Promise<WorkspaceWithTags> {
  const byName = !ref.startsWith("ws-") && ref.indexOf("/") > 0;
  const org = byName ? ref.slice(0, ref.indexOf("/")) : organizationOrListed(client, ref, organization);
  if (org !== "") {
    const shared = await fromSnapshot(client, org, byName ? { name: ref.slice(org.length + 1) } : { id: ref }, project);
    if (shared) return shared;
  }
  const id = byName ? (await readWorkspace(client, ref)).id : ref;
  try {
    const { workspace, included } = await client.workspaces.readIncluding(id, ["effective_tag_bindings"]);
    const read = withTags(workspace, included);
    if (read) return read;
  } catch (err) {
    if (!(err instanceof BadRequestError)) throw err;
  }
  const workspace = await client.workspaces.read(id);
  const [direct, effective] = await Promise.all([client.tagBindings.list(id), client.tagBindings.listEffective(id)]);
  return { workspace, tags: toMap(direct), effectiveTags: toMap(effective), offersTagBindings: true };
}

/**
 * The workspace document alone: from the process's listing of the organization (or of
 * `project`) when it is known and the listing holds the workspace, else
 * `GET /workspaces/:id` (a 404 then propagates, for the one rule in gone.ts).
 */
export async function readWorkspaceShared(
  client: WorkspacesClient,
  id: string,
  organization: unknown,
  project?: unknown,
): Promise<ApiWorkspace> {
  const org = organizationOrListed(client, id, organization);
  const shared = org !== "" ? await fromSnapshot(client, org, { id }, project) : undefined;
  return shared?.workspace ?? client.workspaces.read(id);
}

/**
 * The organization to look a workspace up in: the one recorded in state, else the one
 * whose listing already holds the workspace (a workspace never changes organization),
 * else "" (no listing: read by id).
 */
function organizationOrListed(client: WorkspacesClient, id: string, organization: unknown): string {
  if (typeof organization === "string" && organization !== "") return organization;
  return listedOrganization(client, id) ?? "";
}

function toMap(bindings: { key: string; value: string }[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (const b of bindings) out[b.key] = b.value;
  return out;
}

export function isNotFound(err: unknown): boolean {
  return err instanceof NotFoundError;
}
