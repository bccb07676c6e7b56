/** A 404: gone, or not this token's to see (spec section 7), decided by one rule. */
import { NotFoundError } from "../../client/typed-errors";
import type { WorkspacesClient } from "../../client";
import { defaultOrganization } from "../provider-settings";
import { listedOrganization } from "../process/snapshot";
import { learnOrganization, learntOrganization } from "../process/parent-organizations";
import { standingIn } from "../process/standings";
import { ProviderError } from "./user-errors";
import type { Props } from "./types";

/**
 * What a 404 concerned. The service answers 404 both for a record that does not exist
 * and for one the token may not see (spec section 7), so a 404 alone never proves
 * that a record is gone.
 */
export interface MissingRecord {
  /** How messages name the record, e.g. `workspace "app" (ws-123)`. */
  label: string;
  /** Organization of the record as recorded in state; unknown for adopted (`get`) resources and older state. */
  organization?: unknown;
  /**
   * Which records the token must be able to see all of: `workspace` (also for the tags,
   * consumers and lock of a workspace), `no-code module`, `project`, `team` or `agent pool`
   * (also for the lists of a pool), `agent token`, `policy set` (also for where a set applies), `policy`.
   */
  kind:
    | "workspace"
    | "no-code module"
    | "project"
    | "team"
    | "organization membership"
    | "agent pool"
    | "agent token"
    | "team token"
    | "organization token"
    | "policy set"
    | "policy";
  /** Why nothing tells the organization, for the message when it is unknown; the causes of a top-level record by default. */
  unknownBecause?: string;
}

/** Refusal to take a 404 as "gone": the record may exist and be hidden from the token. */
export class NotVisibleError extends ProviderError {
  constructor(message: string) {
    super(message);
    this.name = "NotVisibleError";
  }
}

/**
 * Organization permissions that prove a token sees every record of a kind. Spec 5.3:
 * only owners, teams that manage all workspaces and the organization token may create
 * workspaces, and each of them sees every workspace of the organization, so
 * `can-create-workspace` proves it for workspaces. No-code modules are hidden from
 * organization tokens (spec 5.9), which also create workspaces; only the owners'
 * `can-update` proves it for modules. Those who may create projects (owners and teams that
 * manage projects) see every project. Secret teams are hidden from every member but the
 * team's own and those who may see secret teams, which no organization permission shows
 * but the owners' `can-update`. Agent pools are seen by those who may put workspaces on
 * them: whoever may create workspaces sees every pool. Their tokens are shown to fewer
 * (teams that manage agent pools, organization tokens), which no organization permission
 * shows but the owners' `can-update`. Policy sets are seen by those who may manage them
 * (owners, the organization token, teams that manage policies), of whom only the owners
 * show it, by `can-update`; policies the same.
 */
const PROOF: Record<MissingRecord["kind"], string> = {
  workspace: "can-create-workspace",
  "no-code module": "can-update",
  project: "can-create-project",
  team: "can-update",
  // Owners and teams that manage membership see every membership; only the owners show it.
  "organization membership": "can-update",
  "agent pool": "can-create-workspace",
  "agent token": "can-update",
  // Team tokens are also shown to teams that manage teams, organization tokens to owners alone.
  "team token": "can-update",
  "organization token": "can-update",
  "policy set": "can-update",
  policy: "can-update",
};

/** Who sees every record of a kind besides the owners, for messages. */
const ALSO_SEE_ALL: Partial<Record<MissingRecord["kind"], string>> = {
  workspace: ", an organization token or a team that manages all workspaces",
  project: " or a team that manages projects",
  "agent pool": ", an organization token or a team that manages all workspaces",
};

/**
 * The one rule for a 404 on read, delete or update: it means "gone" only when the token
 * could have seen the record, that is when the organization's permissions show that the
 * token sees every record of its kind (see PROOF). Resolves when the record is gone;
 * otherwise throws a NotVisibleError that names the record, says why the 404 proves
 * nothing, and gives both ways out.
 *
 * @param action what was being done, for the message: `refresh` (read) or `delete`
 */
export async function confirmGone(
  client: WorkspacesClient,
  record: MissingRecord,
  action: "refresh" | "delete" | "update",
): Promise<void> {
  const org = typeof record.organization === "string" && record.organization !== "" ? record.organization : undefined;
  let why: string;
  if (!org) {
    throw new NotVisibleError(
      `cannot ${action === "refresh" ? "read" : action} ${record.label}: the service answered 404, so it does not exist or the token in use ` +
        `may not see it, and nothing recorded with the resource tells which (${
          record.unknownBecause ?? "a resource adopted with `get`, or state written by an earlier release"
        }). Check the id and use a token that can see it; if it really is gone and the resource is in the stack, ` +
        `remove it with \`pulumi state delete <urn>\`.`,
    );
  } else {
    const standing = await standingIn(client, org);
    if (standing.member && standing.permissions[PROOF[record.kind]] === true) return;
    why = standing.member
      ? `the token cannot see every ${record.kind} of organization "${org}" (it is not an owners token${
          ALSO_SEE_ALL[record.kind] ?? ""
        }), so the ${record.kind} may exist and be hidden from it`
      : `the token is not a member of organization "${org}", so the ${record.kind} may exist and be hidden from it`;
  }
  const retry = action === "refresh" ? "`pulumi refresh`" : action === "delete" ? "the destroy" : "`pulumi up`";
  throw new NotVisibleError(
    `cannot ${action} ${record.label}: the service answered 404 (not found, or not visible to this token) and ${why}. ` +
      `Run ${retry} again with a token that can see it, or, if it really is gone, remove it from the stack with ` +
      `\`pulumi state delete <urn>\` (the URN is shown with this error and by \`pulumi stack --show-urns\`).`,
  );
}

/**
 * `fn`'s result, or what a 404 means under the one rule: `gone()` when the token could
 * have seen the record (see confirmGone), a NotVisibleError otherwise.
 */
export async function unlessGone<T, G>(
  client: WorkspacesClient,
  record: MissingRecord | (() => Promise<MissingRecord>),
  action: "refresh" | "delete" | "update",
  fn: () => Promise<T>,
  gone: () => G,
): Promise<T | G> {
  try {
    return await fn();
  } catch (err) {
    if (!(err instanceof NotFoundError)) throw err;
    await confirmGone(client, typeof record === "function" ? await record() : record, action);
    return gone();
  }
}

/**
 * `fn`'s result, or for a 404 the error of an update of a record deleted outside the
 * program (once the one rule says it is gone): refresh, then `pulumi up` creates it again.
 */
export async function updatedUnlessGone<T>(
  client: WorkspacesClient,
  record: MissingRecord,
  fn: () => Promise<T>,
): Promise<T> {
  return unlessGone(client, record, "update", fn, () => {
    throw new ProviderError(
      `cannot update ${record.label}: it was deleted outside the program. Run \`pulumi refresh\`, then \`pulumi up\` creates it again.`,
    );
  });
}

/** How messages name a workspace: `workspace "name" (ws-...)`, or by id alone. */
export function workspaceLabel(id: string, name?: unknown): string {
  return typeof name === "string" && name !== "" ? `workspace "${name}" (${id})` : `workspace ${id}`;
}

/** A record that a child lives under, read for its organization when state records none. */
export interface Parent {
  kind: "workspace" | "project" | "team" | "variable set" | "agent pool";
  id: unknown;
}

/**
 * The organization a parent shows, or undefined when it cannot be read (gone, or hidden
 * from the token): one read per parent and client at most, none for a workspace the
 * process's listing holds.
 */
async function organizationOfParent(client: WorkspacesClient, parent: Parent): Promise<string | undefined> {
  if (typeof parent.id !== "string" || parent.id === "") return undefined;
  const id = parent.id;
  const held =
    learntOrganization(client, id) ?? (parent.kind === "workspace" ? listedOrganization(client, id) : undefined);
  if (held) return held;
  const read: () => Promise<{ organization?: string | null }> =
    parent.kind === "workspace"
      ? () => client.workspaces.read(id)
      : parent.kind === "project"
        ? () => client.projects.read(id)
        : parent.kind === "team"
          ? () => client.teams.read(id)
          : parent.kind === "agent pool"
            ? () => client.agentPools.read(id)
            : () => client.variableSets.read(id);
  const org = await read().then(
    (p) => (typeof p.organization === "string" && p.organization !== "" ? p.organization : undefined),
    () => undefined,
  );
  if (org) learnOrganization(client, id, org);
  return org;
}

function recordedOrganization(props: Props): string | undefined {
  return typeof props.organization === "string" && props.organization !== "" ? props.organization : undefined;
}

/**
 * The organization of a record that lives under `parents` (a workspace, project, team or
 * variable set), kept in its outputs for the 404 rule: the one state records, else the one
 * the first readable parent shows. Undefined when neither tells.
 */
export async function organizationUnder(
  client: WorkspacesClient,
  props: Props,
  parents: readonly Parent[],
): Promise<string | undefined> {
  const recorded = recordedOrganization(props);
  if (recorded) return recorded;
  for (const parent of parents) {
    const org = await organizationOfParent(client, parent);
    if (org) return org;
  }
  return undefined;
}

/**
 * The 404 rule's record (see confirmGone) for a record that lives under a workspace,
 * project, team or variable set. Its organization is the one its outputs record (every
 * create, read and adoption writes it), so a parent deleted out of band leaves the rule
 * all it needs. State written before the organization was recorded falls back to a parent
 * the token can still read, and when every parent is gone too, to the stack's configured
 * organization (`workspaces:organization`), the one its records are made in.
 */
export async function childRecord(
  client: WorkspacesClient,
  record: Omit<MissingRecord, "organization" | "unknownBecause">,
  props: Props,
  parents: readonly Parent[],
): Promise<MissingRecord> {
  const organization = (await organizationUnder(client, props, parents)) ?? defaultOrganization();
  const recordedAny = Object.keys(props).some((k) => !k.startsWith("__") && props[k] !== undefined);
  const source = recordedAny ? "the state was written by an earlier release" : "the resource was read with `get`";
  const unknownBecause =
    `${source}, which recorded no organization, the records it lives under cannot be read, ` +
    "and the stack sets no workspaces:organization";
  return { ...record, organization, unknownBecause };
}

/** The 404 rule's record for a record under one workspace, e.g. `variable "region" … of workspace ws-…`. */
export function underWorkspace(
  client: WorkspacesClient,
  label: string,
  workspaceId: string,
  props: Props,
): Promise<MissingRecord> {
  return childRecord(client, { label, kind: "workspace" }, props, [{ kind: "workspace", id: workspaceId }]);
}

/** The record behind a workspace's tags, consumers, lock or retention policy: the workspace itself. */
export function dependentRecord(
  client: WorkspacesClient,
  what: string,
  workspaceId: string,
  props: Props,
): Promise<MissingRecord> {
  return underWorkspace(client, `the ${what} of workspace ${workspaceId}`, workspaceId, props);
}
