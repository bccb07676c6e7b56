/**
 * The workspaces of an organization read a page at a time, shared by every resource the
 * provider process serves during one engine operation.
 *
 * The first read of a workspace of an organization lists that organization's workspaces,
 * 100 per page with their key-value tags (`include=effective_tag_bindings`; flat tags are
 * attributes), and the other reads are answered from that listing: a refresh of N
 * workspaces costs N/100 requests instead of N. Concurrent first reads share one listing.
 *
 * A resource that names its project (`project`, as every workspace of a stack split by
 * project does) is read from the listing of that project alone
 * (`filter[project][id]`): a stack that owns one project of a large organization reads
 * that project's pages, not the organization's. A process that is asked for more than
 * {@link MAX_PROJECT_LISTINGS} projects of one organization (one stack of many projects)
 * reads the organization's listing for the others instead, which costs no more than its
 * projects' listings together. A server that ignores the filter answers with the whole
 * organization: its workspaces of other projects are left out of the project's listing
 * (filtered here too), the answer serves as the organization's listing, and the process
 * asks that server for no other project's listing.
 *
 * The rules:
 * - Per client, that is per address and token (see getClient), and per organization (and
 *   project): a listing never answers for another token or organization, nor a project's
 *   listing for a workspace of another project.
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

/**
 * Projects of one organization a process reads a listing of its own for; the reads of
 * any other project of it go to the organization's listing. A stack split by project
 * asks for one.
 */
export const MAX_PROJECT_LISTINGS = 2;

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
  organization: string;
  /** The project listed (`filter[project][id]`), or undefined for the whole organization. */
  project?: string;
  /** Undefined when the service cannot list with key-value tags: every read then goes by id. */
  listing: Promise<Listing | undefined>;
  /** When the listing was read; undefined while it is being read. */
  readAt?: number;
  /** The listing once read. */
  value?: Listing;
}

/** A client's listings by {@link keyOf}, and the projects of each organization it listed. */
interface Listings {
  held: Map<string, Held>;
  projects: Map<string, Set<string>>;
  /** The server answered a project's listing with other projects' workspaces: it ignores the filter. */
  unfiltered: boolean;
}

const snapshots = new WeakMap<WorkspacesClient, Listings>();

function keyOf(organization: string, project?: string): string {
  return project === undefined ? organization : `${organization}\u0000${project}`;
}

/** The project a workspace document names, or null for none. */
function projectOf(ws: ApiWorkspace): string | null {
  const rel = ws.relationships.project as { data?: { id?: unknown } | null } | undefined;
  return typeof rel?.data?.id === "string" ? rel.data.id : null;
}

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

function emptyListing(): Listing {
  return { byId: new Map(), byName: new Map() };
}

function add(listing: Listing, entry: WorkspaceWithTags): void {
  listing.byId.set(entry.workspace.id, entry);
  listing.byName.set(entry.workspace.name.toLowerCase(), entry);
}

/**
 * The listing of `organization`, or of its `project` alone; with a project, `all` holds
 * the whole answer when the server ignored the filter (it named other projects).
 */
async function list(
  client: WorkspacesClient,
  organization: string,
  project?: string,
): Promise<{ listing: Listing; all?: Listing } | undefined> {
  const listing = emptyListing();
  const all = emptyListing();
  let ignored = false;
  try {
    const pages = client.workspaces.listIncluding(organization, ["effective_tag_bindings"], { projectId: project });
    for await (const page of pages.pages()) {
      for (const { workspace, included } of page.items) {
        const entry = withTags(workspace, included);
        if (!entry) continue;
        add(all, entry);
        if (project === undefined || projectOf(workspace) === project) add(listing, entry);
        else ignored = true;
      }
    }
  } catch (err) {
    // A service that refuses the include: every read goes by id, which knows how to ask.
    if (err instanceof BadRequestError) return undefined;
    throw err;
  }
  return ignored ? { listing, all } : { listing };
}

function listingsOf(client: WorkspacesClient): Listings {
  let listings = snapshots.get(client);
  if (!listings) snapshots.set(client, (listings = { held: new Map(), projects: new Map(), unfiltered: false }));
  return listings;
}

/** Whether a listing is being read, or was read less than the lifetime ago. */
function fresh(held: Held | undefined): held is Held {
  return held !== undefined && (held.readAt === undefined || Date.now() - held.readAt < SNAPSHOT_LIFETIME_MS);
}

/** Which listing answers for a workspace of `project` (undefined: not known) in `organization`. */
function scopeOf(listings: Listings, organization: string, project: unknown): string | undefined {
  if (typeof project !== "string" || project === "" || listings.unfiltered) return undefined;
  if (fresh(listings.held.get(organization))) return undefined;
  const seen = listings.projects.get(organization) ?? new Set<string>();
  listings.projects.set(organization, seen);
  if (!seen.has(project) && seen.size >= MAX_PROJECT_LISTINGS) return undefined;
  seen.add(project);
  return project;
}

function settle(held: Held, value: Listing | undefined): void {
  held.readAt = Date.now();
  held.value = value;
}

/** The listing for this client: the one being read, the one read less than the lifetime ago, or a new one. */
function listingOf(client: WorkspacesClient, organization: string, projectHint: unknown): Promise<Listing | undefined> {
  const listings = listingsOf(client);
  const project = scopeOf(listings, organization, projectHint);
  const key = keyOf(organization, project);
  const held = listings.held.get(key);
  if (fresh(held)) return held.listing;
  const read = list(client, organization, project);
  const next: Held = { organization, project, listing: read.then((r) => r?.listing) };
  read.then(
    (r) => {
      settle(next, r?.listing);
      if (!r?.all) return;
      // The server ignored the filter: its answer is the organization's listing.
      listings.unfiltered = true;
      const whole: Held = { organization, listing: Promise.resolve(r.all) };
      settle(whole, r.all);
      if (!fresh(listings.held.get(organization))) listings.held.set(organization, whole);
    },
    () => listings.held.get(key) === next && listings.held.delete(key),
  );
  listings.held.set(key, next);
  return next.listing;
}

/**
 * The workspace of `organization` with this id or name (regardless of case) from the
 * shared listing, or undefined when the listing does not hold it or could not be read:
 * the caller then reads it by id or name, as without a listing. `project` is the project
 * the caller expects it in (its recorded or declared `project`), when it knows one: the
 * listing of that project then answers.
 */
export async function fromSnapshot(
  client: WorkspacesClient,
  organization: string,
  ref: { id: string } | { name: string },
  project?: unknown,
): Promise<WorkspaceWithTags | undefined> {
  let listing: Listing | undefined;
  try {
    listing = await listingOf(client, organization, project);
  } catch {
    // The read by id that follows meets the same failure, reported as it always was.
    return undefined;
  }
  if (!listing) return undefined;
  return "id" in ref ? listing.byId.get(ref.id) : listing.byName.get(ref.name.toLowerCase());
}

/**
 * The organization whose listing (of this client, read at any time: past its lifetime
 * too) holds the workspace with this id, or undefined: a workspace never moves between
 * organizations, so a reader that needs only that (a child's record of what a 404 means)
 * sends no request for it, however long the engine took to get there.
 */
export function listedOrganization(client: WorkspacesClient, workspaceId: string): string | undefined {
  for (const held of snapshots.get(client)?.held.values() ?? []) {
    if (held.readAt !== undefined && held.value?.byId.has(workspaceId)) return held.organization;
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
  const listings = snapshots.get(client);
  if (!listings) return;
  const m = ONE_WORKSPACE.exec(path);
  if (!m) {
    if (method === "POST" && /^\/organizations\/[^/]+\/workspaces$/.test(path)) return;
    snapshots.delete(client);
    return;
  }
  const id = m[1] && decodeURIComponent(m[1]);
  const org = m[2] && decodeURIComponent(m[2]);
  const name = m[3] && decodeURIComponent(m[3]).toLowerCase();
  for (const [key, held] of listings.held) {
    if (org !== undefined && org !== held.organization) continue;
    if (held.readAt === undefined) {
      // Being read: it may show the state before the write; read again on the next read.
      listings.held.delete(key);
      continue;
    }
    const listing = held.value;
    const entry = id ? listing?.byId.get(id) : name ? listing?.byName.get(name) : undefined;
    if (!listing || !entry) continue;
    listing.byId.delete(entry.workspace.id);
    listing.byName.delete(entry.workspace.name.toLowerCase());
  }
}
