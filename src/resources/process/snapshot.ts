/**
 * The workspaces of an organization read a page at a time, shared by every resource the
 * provider process serves during one engine operation.
 *
 * The first read of a workspace of an organization lists that organization's workspaces,
 * 100 per page with their key-value tags (`include=effective_tag_bindings`; flat tags are
 * attributes), and the other reads are answered from that listing: a refresh of N
 * workspaces costs N/100 requests instead of N. Concurrent first reads share one listing.
 *
 * The rules:
 * - Per client, that is per address and token (see getClient), and per organization: a
 *   listing never answers for another token or organization.
 * - A write through the client drops what it may have changed (see {@link noteWrite}): the
 *   entry of the workspace it names, or the whole listing of that client when it cannot
 *   tell which workspaces a write touched.
 * - A listing is used for {@link SNAPSHOT_LIFETIME_MS} after it was read, then read again.
 * - A workspace the listing does not hold is no answer: the caller reads it by id as
 *   before, so a 404 is still judged by the one rule (providers/gone.ts) and no record is
 *   ever taken as gone because a list left it out.
 */
import { BadRequestError, type Workspace as ApiWorkspace, type WorkspacesClient } from "../../client";
import type { AnyResource } from "../../api/common";
import { text } from "../../api/common";

/**
 * How long a listing answers reads. The engine sends the reads of an operation (refresh,
 * the checks and creates of an adopting `up`, the generator) within seconds of each other,
 * and the provider process ends with the operation; the bound keeps an answer from ever
 * being older than this when a process lives longer (the automation API, a long `up`) or
 * when others change the records meanwhile. 30 s covers listing 500 workspaces (5 pages)
 * and answering every read of them under 30 requests per second several times over.
 */
export const SNAPSHOT_LIFETIME_MS = 30_000;

/** A workspace and its tags, as the providers read them. */
export interface WorkspaceWithTags {
  workspace: ApiWorkspace;
  /** Key-value tags bound to the workspace itself. */
  tags: Record<string, string>;
  /** Direct plus inherited key-value tags. */
  effectiveTags: Record<string, string>;
  /**
   * False when the answer shows no sign of key-value tags (no binding included, no
   * `tag-bindings` relationship): a server without them (OTF) ignores the include. The
   * tags then read as none; requireTagBindings asks before any are set.
   */
  offersTagBindings: boolean;
}

interface Listing {
  byId: Map<string, WorkspaceWithTags>;
  /** By lower-cased name: names are unique regardless of case. */
  byName: Map<string, WorkspaceWithTags>;
}

interface Held {
  /** Undefined when the service cannot list with key-value tags: every read then goes by id. */
  listing: Promise<Listing | undefined>;
  /** When the listing was read; undefined while it is being read. */
  readAt?: number;
  /** The listing once read. */
  value?: Listing;
}

const snapshots = new WeakMap<WorkspacesClient, Map<string, Held>>();

/** Whether a workspace document names the relationships of key-value tags. */
export function namesTagBindings(ws: ApiWorkspace): boolean {
  return "tag-bindings" in ws.relationships || "effective-tag-bindings" in ws.relationships;
}

/**
 * A workspace document and the records included with it, as the providers read them:
 * `effective-tag-bindings` entries are direct unless they name the project they are
 * inherited from. `included` may hold the entries of other workspaces (a list page): the
 * workspace's relationship names its own, else an entry's `workspace` relationship does.
 * Undefined when the entries cannot be told apart.
 */
export function withTags(workspace: ApiWorkspace, included: readonly AnyResource[]): WorkspaceWithTags | undefined {
  const bindings = included.filter((i) => i.type === "effective-tag-bindings");
  const named = (workspace.relationships["effective-tag-bindings"] as { data?: unknown } | undefined)?.data;
  let own: AnyResource[];
  if (Array.isArray(named)) {
    const ids = new Set(named.map((d: { id?: unknown }) => d?.id));
    own = bindings.filter((b) => ids.has(b.id));
  } else {
    const owners = bindings.map((b) => (b.relationships?.workspace?.data as { id?: string } | null | undefined)?.id);
    if (owners.some((o) => o === undefined) && new Set(owners).size > 1) return undefined;
    own = bindings.filter((_, i) => owners[i] === undefined || owners[i] === workspace.id);
  }
  const tags: Record<string, string> = {};
  const effectiveTags: Record<string, string> = {};
  for (const item of own) {
    const key = text(item.attributes?.key);
    const value = text(item.attributes?.value);
    effectiveTags[key] = value;
    if (!item.relationships?.["inherited-from"]?.data) tags[key] = value;
  }
  const offersTagBindings = Object.keys(effectiveTags).length > 0 || namesTagBindings(workspace);
  return { workspace, tags, effectiveTags, offersTagBindings };
}

async function list(client: WorkspacesClient, organization: string): Promise<Listing | undefined> {
  const listing: Listing = { byId: new Map(), byName: new Map() };
  try {
    for await (const page of client.workspaces.listIncluding(organization, ["effective_tag_bindings"]).pages()) {
      for (const { workspace, included } of page.items) {
        const entry = withTags(workspace, included);
        if (!entry) continue;
        listing.byId.set(workspace.id, entry);
        listing.byName.set(workspace.name.toLowerCase(), entry);
      }
    }
  } catch (err) {
    // A service that refuses the include: every read goes by id, which knows how to ask.
    if (err instanceof BadRequestError) return undefined;
    throw err;
  }
  return listing;
}

/** The organization's listing for this client: the one being read, the one read less than the lifetime ago, or a new one. */
function listingOf(client: WorkspacesClient, organization: string): Promise<Listing | undefined> {
  let byOrg = snapshots.get(client);
  if (!byOrg) snapshots.set(client, (byOrg = new Map()));
  const held = byOrg.get(organization);
  if (held && (held.readAt === undefined || Date.now() - held.readAt < SNAPSHOT_LIFETIME_MS)) return held.listing;
  const fresh: Held = { listing: list(client, organization) };
  fresh.listing.then(
    (value) => {
      fresh.readAt = Date.now();
      fresh.value = value;
    },
    () => byOrg.get(organization) === fresh && byOrg.delete(organization),
  );
  byOrg.set(organization, fresh);
  return fresh.listing;
}

/**
 * The workspace of `organization` with this id or name (regardless of case) from the
 * shared listing, or undefined when the listing does not hold it or could not be read:
 * the caller then reads it by id or name, as without a listing.
 */
export async function fromSnapshot(
  client: WorkspacesClient,
  organization: string,
  ref: { id: string } | { name: string },
): Promise<WorkspaceWithTags | undefined> {
  let listing: Listing | undefined;
  try {
    listing = await listingOf(client, organization);
  } catch {
    // The read by id that follows meets the same failure, reported as it always was.
    return undefined;
  }
  if (!listing) return undefined;
  return "id" in ref ? listing.byId.get(ref.id) : listing.byName.get(ref.name.toLowerCase());
}

/**
 * The organization whose listing (of this client, read within the lifetime) holds the
 * workspace with this id, or undefined: a workspace never moves between organizations, so
 * a reader that needs only that (the consumers' record of what a 404 means) sends no
 * request for it.
 */
export function listedOrganization(client: WorkspacesClient, workspaceId: string): string | undefined {
  for (const [organization, held] of snapshots.get(client) ?? []) {
    if (
      held.readAt !== undefined &&
      Date.now() - held.readAt < SNAPSHOT_LIFETIME_MS &&
      held.value?.byId.has(workspaceId)
    )
      return organization;
  }
  return undefined;
}

/** `/workspaces/ws-...` or `/organizations/org/workspaces/name`, and what follows. */
const ONE_WORKSPACE = /^\/workspaces\/([^/?]+)|^\/organizations\/([^/?]+)\/workspaces\/([^/?]+)/;

/**
 * What a write (any request but a GET) through `client` means for its listings: a write
 * to one workspace (its settings, tags, lock, consumers, deletion) drops that workspace's
 * entry, a new workspace needs nothing dropped (a listing that lacks it sends its reads
 * by id), and any other write (a project's tags, which workspaces inherit, a no-code
 * module, ...) drops every listing of the client. Called when the write starts and when
 * it ends, so that no listing read meanwhile keeps the earlier state.
 */
export function noteWrite(client: WorkspacesClient, method: string, path: string): void {
  if (method === "GET") return;
  const byOrg = snapshots.get(client);
  if (!byOrg) return;
  const m = ONE_WORKSPACE.exec(path);
  if (!m) {
    if (method === "POST" && /^\/organizations\/[^/]+\/workspaces$/.test(path)) return;
    snapshots.delete(client);
    return;
  }
  const id = m[1] && decodeURIComponent(m[1]);
  const org = m[2] && decodeURIComponent(m[2]);
  const name = m[3] && decodeURIComponent(m[3]).toLowerCase();
  for (const [organization, held] of byOrg) {
    if (org !== undefined && org !== organization) continue;
    if (held.readAt === undefined) {
      // Being read: it may show the state before the write; read again on the next read.
      byOrg.delete(organization);
      continue;
    }
    const listing = held.value;
    const entry = id ? listing?.byId.get(id) : name ? listing?.byName.get(name) : undefined;
    if (!listing || !entry) continue;
    listing.byId.delete(entry.workspace.id);
    listing.byName.delete(entry.workspace.name.toLowerCase());
  }
}
