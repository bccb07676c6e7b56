/**
 * The client the providers use, built from the settings in force at call time, and
 * the few composite reads they share.
 */
import { WorkspacesClient, NotFoundError, type Workspace as ApiWorkspace } from "../../client";
import { currentSettings } from "../settings";

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

export interface WorkspaceWithTags {
  workspace: ApiWorkspace;
  /** Key-value tags bound to the workspace itself. */
  tags: Record<string, string>;
  /** Direct plus inherited key-value tags. */
  effectiveTags: Record<string, string>;
}

/** `ws-...` or `org/name`. */
export async function readWorkspace(client: WorkspacesClient, ref: string): Promise<ApiWorkspace> {
  const slash = ref.indexOf("/");
  if (slash > 0 && !ref.startsWith("ws-")) {
    return client.workspaces.readByName(ref.slice(0, slash), ref.slice(slash + 1));
  }
  return client.workspaces.read(ref);
}

interface IncludingReader {
  readWithTagBindings?: (id: string) => Promise<{ workspace: ApiWorkspace; tags: Record<string, string>; effectiveTags: Record<string, string> }>;
}

/**
 * The workspace document plus its key-value tags. Flat tags come with the document
 * (`tag-names`); key-value tags need the binding lists unless the client can read
 * them in the same request.
 */
export async function readWorkspaceWithTags(client: WorkspacesClient, ref: string): Promise<WorkspaceWithTags> {
  const including = client.workspaces as unknown as IncludingReader;
  if (typeof including.readWithTagBindings === "function") {
    const id = ref.startsWith("ws-") ? ref : (await readWorkspace(client, ref)).id;
    return including.readWithTagBindings(id);
  }
  const workspace = await readWorkspace(client, ref);
  const [direct, effective] = await Promise.all([
    client.tagBindings.list(workspace.id),
    client.tagBindings.listEffective(workspace.id),
  ]);
  return { workspace, tags: toMap(direct), effectiveTags: toMap(effective) };
}

export function toMap(bindings: { key: string; value: string }[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (const b of bindings) out[b.key] = b.value;
  return out;
}

export function isNotFound(err: unknown): boolean {
  return err instanceof NotFoundError;
}
