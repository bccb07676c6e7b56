/**
 * The client the providers use, built from the settings in force at call time, and
 * the few composite reads they share.
 */
import {
  BadRequestError,
  WorkspacesClient,
  NotFoundError,
  UnauthorizedError,
  capDetail,
  tokenSource,
  type Workspace as ApiWorkspace,
} from "../../client";
import { CONFIG_KEYS, currentSettings } from "../settings";
import { ProviderError } from "./errors";
import { text } from "./compare";

const clients = new Map<string, WorkspacesClient>();

/** One client per service address and token in this process (they share pacing and connections). */
export function getClient(): WorkspacesClient {
  const settings = currentSettings();
  const key = `${settings.baseUrl}\u0000${settings.token}`;
  let client = clients.get(key);
  if (!client) {
    client = new WorkspacesClient({ settings });
    clients.set(key, client);
  }
  return client;
}

/** Forgets the cached clients (tests that restart servers). */
export function resetClients(): void {
  clients.clear();
}

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

export interface WorkspaceWithTags {
  workspace: ApiWorkspace;
  /** Key-value tags bound to the workspace itself. */
  tags: Record<string, string>;
  /** Direct plus inherited key-value tags. */
  effectiveTags: Record<string, string>;
  /**
   * False when the answer shows no sign of key-value tags (no binding included, no
   * `tag-bindings` relationship): a server without them (OTF) ignores the include. The
   * tags then read as none; {@link requireTagBindings} asks before any are set.
   */
  offersTagBindings: boolean;
}

/** Whether a workspace document names the relationships of key-value tags. */
export function namesTagBindings(ws: ApiWorkspace): boolean {
  return "tag-bindings" in ws.relationships || "effective-tag-bindings" in ws.relationships;
}

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
 * The workspace document plus its key-value tags, in one request: flat tags come with
 * the document (`tag-names`) and key-value tags with `include=effective_tag_bindings`,
 * where inherited ones name the project they come from. A service that refuses the
 * include (400) is asked for the two binding lists instead.
 */
export async function readWorkspaceWithTags(client: WorkspacesClient, ref: string): Promise<WorkspaceWithTags> {
  const id = ref.startsWith("ws-") || !ref.includes("/") ? ref : (await readWorkspace(client, ref)).id;
  try {
    const { workspace, included } = await client.workspaces.readIncluding(id, ["effective_tag_bindings"]);
    const tags: Record<string, string> = {};
    const effectiveTags: Record<string, string> = {};
    for (const item of included) {
      if (item.type !== "effective-tag-bindings") continue;
      const owner = (item.relationships?.workspace?.data as { id?: string } | null | undefined)?.id;
      if (owner !== undefined && owner !== workspace.id) continue;
      const key = text(item.attributes?.key);
      const value = text(item.attributes?.value);
      effectiveTags[key] = value;
      if (!item.relationships?.["inherited-from"]?.data) tags[key] = value;
    }
    const offersTagBindings = Object.keys(effectiveTags).length > 0 || namesTagBindings(workspace);
    return { workspace, tags, effectiveTags, offersTagBindings };
  } catch (err) {
    if (!(err instanceof BadRequestError)) throw err;
  }
  const workspace = await client.workspaces.read(id);
  const [direct, effective] = await Promise.all([client.tagBindings.list(id), client.tagBindings.listEffective(id)]);
  return { workspace, tags: toMap(direct), effectiveTags: toMap(effective), offersTagBindings: true };
}

function toMap(bindings: { key: string; value: string }[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (const b of bindings) out[b.key] = b.value;
  return out;
}

export function isNotFound(err: unknown): boolean {
  return err instanceof NotFoundError;
}
