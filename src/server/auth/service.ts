import { createHash, randomBytes, scrypt, scryptSync } from "node:crypto";
import type { Db } from "../store/db";
import { inTransaction, now, onDuplicate } from "../store/db";
import { newId, newInternalId, newToken } from "../ids";
import { Invalid, NameTaken, NotFound, type Field } from "../errors";
import { PERMISSION_NAMES, type PermissionName, type Permissions } from "../../api/workspaces";
import * as store from "./store";
import type { TeamProjectRecord, TeamRecord, TeamWorkspaceAccess, TeamWorkspaceRecord, UserRecord } from "./store";

export type { Permissions };

/**
 * Who is calling. Every token resolves to a principal user id (a service account for
 * organization and team tokens, as the hosted service does), which is what a lock
 * records as `locked-by`.
 */
export interface Caller {
  tokenId: string;
  kind: "organization" | "team" | "user";
  principalId: string;
  /** Organization of an organization or team token; null for a user token. */
  organization: string | null;
  teamId: string | null;
  userId: string | null;
  /** The bootstrap token of a local server: owner of every organization on it. */
  siteAdmin: boolean;
  roles: Map<string, OrgRole>;
}

export interface OrgRole {
  member: boolean;
  owner: boolean;
  manageWorkspaces: boolean;
  manageProjects: boolean;
  /** The caller's teams in this organization. */
  teamIds: string[];
  /** The organization lets workspace admins force delete (spec 5, item 7). */
  adminsMayForceDelete: boolean;
  /** Permissions on any workspace, for callers that manage them all (memoized per request). */
  everyWorkspace?: Permissions;
}

const NO_ROLE: OrgRole = {
  member: false,
  owner: false,
  manageWorkspaces: false,
  manageProjects: false,
  teamIds: [],
  adminsMayForceDelete: false,
};

/**
 * How tokens are stored. A token this server generates (81 characters, 475 random bits)
 * is stored as its SHA-256 digest: nothing can guess it, and one indexed lookup finds
 * it. A token an operator chose (`--token`) may be short or a word, so its digest is
 * scrypt's (`scrypt$<salt>$<hash>`), salted with a random salt of the database that
 * every chosen token's digest shares: a copy of the database does not give the token
 * away to a dictionary. One salt per database rather than per token keeps the digest a
 * lookup key (a token is hashed once, not once per stored token); the digests of recently presented tokens
 * are kept in memory, so a chosen token costs one scrypt per process, not per request.
 */
export function tokenDigest(token: string): string {
  return createHash("sha256").update(token).digest("hex");
}

/** The shape of the tokens `newToken` generates; anything else is treated as chosen by a person. */
const GENERATED_TOKEN = /^[1-9A-HJ-NP-Za-km-z]{14}\.atlasv1\.[1-9A-HJ-NP-Za-km-z]{67}$/;

/** Whether `token` has the shape of a generated token (a valid one is unguessable). */
export function isGeneratedToken(token: string): boolean {
  return GENERATED_TOKEN.test(token);
}
const SCRYPT_PREFIX = "scrypt$";
/** scrypt cost: 2^15 iterations of 1 KiB blocks, 32 MiB and about 0.1 s per digest. */
const SCRYPT = { N: 2 ** 15, r: 8, p: 1, maxmem: 64 * 1024 * 1024 };
const SCRYPT_CONCURRENCY = 2;
const DIGEST_CACHE_SIZE = 1024;

function scryptDigest(salt: string, hash: Buffer): string {
  return `${SCRYPT_PREFIX}${salt}$${hash.toString("hex")}`;
}

/** The salt of the database's chosen tokens (each scrypt digest carries it), or a new one when there is none yet. */
function chosenTokenSalt(db: Db): string | undefined {
  return store.anyScryptDigest(db)?.slice(SCRYPT_PREFIX.length).split("$")[0];
}

function chosenTokenDigestSync(db: Db, token: string): string {
  const salt = chosenTokenSalt(db) ?? randomBytes(16).toString("hex");
  return scryptDigest(salt, scryptSync(token, salt, 32, SCRYPT));
}

/** The digest a token is stored under when it is issued: scrypt for a chosen token, SHA-256 for a generated one. */
function storedDigest(db: Db, token: string, chosen: boolean): string {
  return chosen && !GENERATED_TOKEN.test(token) ? chosenTokenDigestSync(db, token) : tokenDigest(token);
}

/**
 * SHA-256 digest of a presented token to its scrypt digest (a promise while it is being
 * computed, so concurrent first requests with one token hash it once), per database,
 * most recently used last.
 */
const digestCaches = new WeakMap<Db, Map<string, Promise<string>>>();
let scryptRunning = 0;
const scryptWaiting: Array<() => void> = [];

/** scrypt on the thread pool, at most SCRYPT_CONCURRENCY at once, so a burst of unknown tokens cannot take all memory. */
async function boundedScrypt(token: string, salt: string): Promise<Buffer> {
  while (scryptRunning >= SCRYPT_CONCURRENCY) await new Promise<void>((resolve) => scryptWaiting.push(resolve));
  scryptRunning++;
  try {
    return await new Promise<Buffer>((resolve, reject) =>
      scrypt(token, salt, 32, SCRYPT, (err, key) => (err ? reject(err) : resolve(key))),
    );
  } finally {
    scryptRunning--;
    scryptWaiting.shift()?.();
  }
}

/** The scrypt digest of a presented token that is not of the generated shape, or null when no chosen token was ever stored. */
async function chosenTokenDigest(db: Db, token: string, fast: string): Promise<string | null> {
  const salt = chosenTokenSalt(db);
  if (salt === undefined) return null;
  let cache = digestCaches.get(db);
  if (!cache) digestCaches.set(db, (cache = new Map<string, Promise<string>>()));
  const key = `${salt}:${fast}`;
  let digest = cache.get(key);
  if (digest !== undefined) cache.delete(key);
  else {
    digest = boundedScrypt(token, salt).then((hash) => scryptDigest(salt, hash));
    digest.catch(() => cache.delete(key));
  }
  cache.set(key, digest);
  if (cache.size > DIGEST_CACHE_SIZE) cache.delete(cache.keys().next().value!);
  return digest;
}

async function findToken(db: Db, token: string): Promise<store.TokenRow | undefined> {
  const fast = tokenDigest(token);
  const row = store.findTokenByDigest(db, fast);
  if (row || GENERATED_TOKEN.test(token)) return row;
  const digest = await chosenTokenDigest(db, token, fast);
  return digest === null || !db.open ? undefined : store.findTokenByDigest(db, digest);
}

export async function authenticate(db: Db, token: string): Promise<Caller | null> {
  const row = await findToken(db, token);
  if (!row) return null;
  return {
    tokenId: row.id,
    kind: row.kind,
    principalId: row.principal,
    organization: row.kind === "user" ? null : row.organization,
    teamId: row.team_id,
    userId: row.user_id,
    siteAdmin: row.site_admin === 1,
    roles: new Map(),
  };
}

/** The caller's standing in an organization, cached for the request. */
export function orgRole(db: Db, caller: Caller, organization: string): OrgRole {
  const cached = caller.roles.get(organization);
  if (cached) return cached;
  const org = store.organizationAccessFlags(db, organization);
  const adminsMayForceDelete = org?.allow_force_delete_workspaces === 1;
  let role: OrgRole = NO_ROLE;
  if (!org) {
    role = NO_ROLE;
  } else if (caller.siteAdmin) {
    role = {
      member: true,
      owner: true,
      manageWorkspaces: true,
      manageProjects: true,
      teamIds: [],
      adminsMayForceDelete,
    };
  } else if (caller.kind === "organization") {
    if (caller.organization === organization)
      role = {
        member: true,
        owner: false,
        manageWorkspaces: true,
        manageProjects: true,
        teamIds: [],
        adminsMayForceDelete,
      };
  } else {
    const teams =
      caller.kind === "team"
        ? store.teamFlagsOfTeam(db, caller.teamId, organization)
        : store.teamFlagsOfUser(db, caller.userId, organization);
    if (teams.length) {
      const owner = teams.some((t) => t.is_owners === 1);
      role = {
        member: true,
        owner,
        manageWorkspaces: owner || teams.some((t) => t.manage_workspaces === 1),
        manageProjects: owner || teams.some((t) => t.manage_projects === 1),
        teamIds: teams.map((t) => t.id),
        adminsMayForceDelete,
      };
    }
  }
  caller.roles.set(organization, role);
  return role;
}

/** Organization-level visibility: members see the organization, everybody else gets 404. */
export function assertMember(db: Db, caller: Caller, organization: string): OrgRole {
  const exists = store.organizationAccessFlags(db, organization) !== undefined;
  const role = exists ? orgRole(db, caller, organization) : NO_ROLE;
  if (!role.member) throw new NotFound(`organization "${organization}" not found`);
  return role;
}

export function assertOwner(db: Db, caller: Caller, organization: string): OrgRole {
  const role = assertMember(db, caller, organization);
  if (!role.owner) throw new NotFound(`organization "${organization}" not found`);
  return role;
}

/** The organizations a team or user token reaches through its teams, by name (users' in name order). */
export function organizationsThroughTeams(db: Db, caller: Caller): string[] {
  return caller.kind === "team"
    ? store.organizationOfTeam(db, caller.teamId)
    : store.organizationsOfUser(db, caller.userId);
}

// ---- workspace permissions (spec 2.3 and 5) ----

export type AccessLevel = TeamWorkspaceAccess["access"];
export const ACCESS_LEVELS: ReadonlyArray<AccessLevel> = ["read", "plan", "write", "admin", "custom"];

const READ: PermissionName[] = [
  "can-read-run",
  "can-read-variable",
  "can-read-state-versions",
  "can-read-state-outputs",
  "can-read-settings",
  "can-read-assessment-results",
];
const PLAN: PermissionName[] = [...READ, "can-queue-run"];
const WRITE: PermissionName[] = [
  ...PLAN,
  "can-queue-apply",
  "can-queue-destroy",
  "can-lock",
  "can-unlock",
  "can-update-variable",
  "can-create-state-versions",
];
const ADMIN: PermissionName[] = [
  ...WRITE,
  "can-update",
  "can-destroy",
  "can-force-unlock",
  "can-manage-tags",
  "can-manage-run-tasks",
  "can-manage-assessments",
  "can-manage-ephemeral-workspaces",
];
const LEVEL_PERMISSIONS: Record<Exclude<AccessLevel, "custom">, PermissionName[]> = {
  read: READ,
  plan: PLAN,
  write: WRITE,
  admin: ADMIN,
};

function customPermissions(a: TeamWorkspaceAccess): PermissionName[] {
  const out: PermissionName[] = ["can-read-settings", "can-read-assessment-results"];
  if (["read", "plan", "apply"].includes(a.runs)) out.push("can-read-run");
  if (["plan", "apply"].includes(a.runs)) out.push("can-queue-run");
  if (a.runs === "apply") out.push("can-queue-apply", "can-queue-destroy");
  if (["read", "write"].includes(a.variables)) out.push("can-read-variable");
  if (a.variables === "write") out.push("can-update-variable");
  if (["read-outputs", "read", "write"].includes(a.state_versions)) out.push("can-read-state-outputs");
  if (["read", "write"].includes(a.state_versions)) out.push("can-read-state-versions");
  if (a.state_versions === "write") out.push("can-create-state-versions");
  if (a.workspace_locking) out.push("can-lock", "can-unlock");
  if (a.run_tasks) out.push("can-manage-run-tasks");
  return out;
}

/** Project-level team access gives the matching access on every workspace of the project. */
const PROJECT_TO_WORKSPACE: Record<string, Exclude<AccessLevel, "custom">> = {
  read: "read",
  write: "write",
  maintain: "admin",
  admin: "admin",
};

export interface WorkspaceKey {
  id: string;
  organization: string;
  project_id: string;
}

function emptyPermissions(): Permissions {
  return Object.fromEntries(PERMISSION_NAMES.map((p) => [p, false])) as Permissions;
}

/**
 * What the caller may do on one workspace, or null when it may not even read it (which
 * every endpoint answers with 404). The same computation fills the `permissions`
 * attribute, so the document always tells the truth about the token that asked.
 */
export function workspacePermissions(db: Db, caller: Caller, ws: WorkspaceKey): Permissions | null {
  const role = orgRole(db, caller, ws.organization);
  if (!role.member) return null;
  // Teams that manage every workspace get the same answer everywhere in the organization: compute it once.
  if (role.manageWorkspaces) {
    role.everyWorkspace ??= permissionsFrom(new Set(ADMIN), role);
    return { ...role.everyWorkspace };
  }
  const granted = new Set<PermissionName>();
  if (role.teamIds.length) {
    for (const r of store.teamWorkspaceGrants(db, ws.id, role.teamIds))
      (r.access === "custom" ? customPermissions(r) : LEVEL_PERMISSIONS[r.access]).forEach((p) => granted.add(p));
    for (const access of store.teamProjectGrants(db, ws.project_id, role.teamIds)) {
      const level = PROJECT_TO_WORKSPACE[access];
      if (level) LEVEL_PERMISSIONS[level].forEach((p) => granted.add(p));
    }
  }
  if (granted.size === 0) return null;
  return permissionsFrom(granted, role);
}

function permissionsFrom(granted: Set<PermissionName>, role: OrgRole): Permissions {
  const perms = emptyPermissions();
  for (const p of granted) perms[p] = true;
  perms["can-force-delete"] = role.owner || (role.adminsMayForceDelete && perms["can-update"]);
  return perms;
}

/** Admin on a project: owners, teams that manage projects, organization tokens, or project admins. */
export function isProjectAdmin(db: Db, caller: Caller, organization: string, projectId: string): boolean {
  const role = orgRole(db, caller, organization);
  if (role.manageProjects) return true;
  if (!role.teamIds.length) return false;
  return store.holdsProjectAdmin(db, projectId, role.teamIds);
}

/** May create workspaces in the project: teams managing all workspaces, organization tokens, or project maintainers. */
export function mayCreateWorkspaceIn(db: Db, caller: Caller, organization: string, projectId: string): boolean {
  const role = orgRole(db, caller, organization);
  if (role.manageWorkspaces) return true;
  if (!role.teamIds.length) return false;
  return store.maintainsProject(db, projectId, role.teamIds);
}

/** May create workspaces in at least one project of the organization; checked before a create's body is read. */
export function mayCreateWorkspaces(db: Db, caller: Caller, organization: string): boolean {
  const role = orgRole(db, caller, organization);
  if (role.manageWorkspaces) return true;
  if (!role.teamIds.length) return false;
  return store.maintainsAnyProject(db, organization, role.teamIds);
}

/** SQL condition (on alias `w`) restricting a list to the workspaces the caller may read, with its parameters. */
export function readableWorkspacesFilter(
  db: Db,
  caller: Caller,
  organization: string,
): { sql: string; params: unknown[] } {
  const role = orgRole(db, caller, organization);
  if (role.manageWorkspaces) return { sql: "1", params: [] };
  if (!role.teamIds.length) return { sql: "0", params: [] };
  return store.teamsReachCondition(role.teamIds);
}

// ---- issuing principals and tokens ----

export function createServiceUser(db: Db, username: string): string {
  const id = newId("user");
  store.insertUser(db, {
    id,
    username: `${username}-${id.slice(5, 13)}`,
    email: null,
    serviceAccount: true,
    createdAt: now(),
  });
  return id;
}

export interface IssuedToken {
  id: string;
  token: string;
  createdAt: string;
}

/**
 * Stores only the digest: the token itself is shown once, in the response that creates
 * it. `chosen` is a token a person picked (the bootstrap `--token`), stored under its
 * slow salted digest.
 */
export function issueToken(
  db: Db,
  spec: {
    kind: Caller["kind"];
    organization?: string | null;
    teamId?: string | null;
    userId?: string | null;
    siteAdmin?: boolean;
    description?: string | null;
  },
  chosen?: string,
): IssuedToken {
  const token = chosen ?? newToken();
  const id = newId("authenticationToken");
  const createdAt = now();
  store.insertToken(db, {
    id,
    digest: storedDigest(db, token, chosen !== undefined),
    kind: spec.kind,
    organization: spec.organization ?? null,
    teamId: spec.teamId ?? null,
    userId: spec.userId ?? null,
    siteAdmin: spec.siteAdmin ?? false,
    description: spec.description ?? null,
    createdAt,
  });
  return { id, token, createdAt };
}

/**
 * Whether a chosen token is stored, under either digest. One stored under SHA-256 by a
 * release before chosen tokens were salted is moved to its scrypt digest here.
 */
export function chosenTokenExists(db: Db, token: string): boolean {
  const digest = storedDigest(db, token, true);
  if (store.tokenDigestExists(db, digest)) return true;
  return digest !== tokenDigest(token) && store.replaceTokenDigest(db, tokenDigest(token), digest);
}

/** Revokes every token of the organization and of its teams (the organization is being deleted). */
export function revokeOrganizationTokens(db: Db, organization: string): void {
  store.deleteTokensOfOrganization(db, organization);
}

/** Turns a lost race on a unique key into the duplicate-name failure of `field`. */
function unique<T>(fn: () => T, field?: Field): T {
  return onDuplicate(fn, () => new NameTaken(field));
}

// ---- users ----

export type { UserRecord };

export function findUser(db: Db, id: string): UserRecord | undefined {
  return store.findUser(db, id);
}

/** A local server's site administrator only; anybody else is told there is nothing here. */
export function assertSiteAdmin(caller: Caller): void {
  if (!caller.siteAdmin) throw new NotFound("not found");
}

export function createUser(db: Db, caller: Caller, input: { username: string; email: string | null }): { id: string } {
  assertSiteAdmin(caller);
  const id = newId("user");
  unique(
    () =>
      inTransaction(db, () =>
        store.insertUser(db, {
          id,
          username: input.username,
          email: input.email,
          serviceAccount: false,
          createdAt: now(),
        }),
      ),
    {
      attribute: "username",
    },
  );
  return { id };
}

/** A token for a person, issued by the person or the site administrator. */
export function issueUserToken(db: Db, caller: Caller, userId: string): IssuedToken {
  if (!caller.siteAdmin && caller.userId !== userId) throw new NotFound("user not found");
  if (!store.personExists(db, userId)) throw new NotFound("user not found");
  return inTransaction(db, () => issueToken(db, { kind: "user", userId }));
}

// ---- teams ----

export type { TeamRecord };

export function createTeamRecord(
  db: Db,
  organization: string,
  name: string,
  flags: { owners?: boolean; manageWorkspaces?: boolean; manageProjects?: boolean },
): string {
  const id = newId("team");
  const serviceUserId = createServiceUser(db, `api-team-${name}`);
  store.insertTeam(db, {
    id,
    organization,
    name,
    owners: flags.owners ?? false,
    manageWorkspaces: flags.manageWorkspaces ?? false,
    manageProjects: flags.manageProjects ?? false,
    serviceUserId,
    createdAt: now(),
  });
  return id;
}

/** The owners team of the organization (every organization has one). */
export function ownersTeamId(db: Db, organization: string): string {
  return store.ownersTeamIdOf(db, organization);
}

export function addOwner(db: Db, teamId: string, userId: string): void {
  store.addTeamMember(db, teamId, userId);
}

/** A team the caller may see (members of its organization), or manage when `owner` is set (owners); otherwise 404. */
export function loadTeam(db: Db, caller: Caller, id: string, owner: boolean): TeamRecord {
  const t = store.findTeam(db, id);
  if (!t) throw new NotFound("team not found");
  (owner ? assertOwner : assertMember)(db, caller, t.organization);
  return t;
}

export function teamMemberIds(db: Db, teamId: string): string[] {
  return store.teamMemberIds(db, teamId);
}

export interface TeamInput {
  name?: string;
  manageWorkspaces?: boolean;
  manageProjects?: boolean;
}

export function createTeam(
  db: Db,
  caller: Caller,
  organization: string,
  input: TeamInput & { name: string },
): TeamRecord {
  assertOwner(db, caller, organization);
  const id = unique(() =>
    inTransaction(db, () =>
      createTeamRecord(db, organization, input.name, {
        manageWorkspaces: input.manageWorkspaces,
        manageProjects: input.manageProjects,
      }),
    ),
  );
  return loadTeam(db, caller, id, true);
}

export function listTeams(db: Db, caller: Caller, organization: string): TeamRecord[] {
  assertMember(db, caller, organization);
  return store.teamsOf(db, organization);
}

/** The owners team keeps its name and its organization-wide rights. */
export function updateTeam(db: Db, caller: Caller, id: string, input: TeamInput): TeamRecord {
  const t = loadTeam(db, caller, id, true);
  const owners = t.is_owners === 1;
  if (owners && input.name !== undefined && input.name !== t.name)
    throw new Invalid("the owners team cannot be renamed", { attribute: "name" });
  unique(() =>
    inTransaction(db, () =>
      store.updateTeamRow(
        db,
        t.id,
        input.name ?? t.name,
        owners || (input.manageWorkspaces ?? t.manage_workspaces === 1),
        owners || (input.manageProjects ?? t.manage_projects === 1),
      ),
    ),
  );
  return loadTeam(db, caller, t.id, true);
}

/** Deleting a team revokes its token and its access; its locks stay until an admin force-unlocks. */
export function deleteTeam(db: Db, caller: Caller, id: string): void {
  const t = loadTeam(db, caller, id, true);
  if (t.is_owners === 1) throw new Invalid("the owners team cannot be deleted");
  inTransaction(db, () => store.deleteTeamRow(db, t.id));
}

export function revokeTeamToken(db: Db, caller: Caller, id: string): void {
  const t = loadTeam(db, caller, id, true);
  if (inTransaction(db, () => store.deleteTeamTokens(db, t.id)) === 0) throw new NotFound("the team has no token");
}

/** A team has one token: issuing a new one revokes the previous (the bootstrap token excepted). */
export function issueTeamToken(db: Db, caller: Caller, id: string): IssuedToken {
  const t = loadTeam(db, caller, id, true);
  return inTransaction(db, () => {
    store.deleteTeamTokens(db, t.id);
    return issueToken(db, { kind: "team", organization: t.organization, teamId: t.id });
  });
}

/** An organization has one token: issuing a new one revokes the previous. */
export function issueOrganizationToken(db: Db, caller: Caller, organization: string): IssuedToken {
  assertOwner(db, caller, organization);
  return inTransaction(db, () => {
    store.deleteOrganizationToken(db, organization);
    return issueToken(db, { kind: "organization", organization });
  });
}

/** Adds people (by id or username) to the team; one unknown name adds nobody. */
export function addTeamMembers(db: Db, caller: Caller, id: string, users: ReadonlyArray<string>): void {
  const t = loadTeam(db, caller, id, true);
  inTransaction(db, () => {
    for (const name of users) {
      const userId = store.findPersonId(db, name);
      if (!userId) throw new NotFound(`user "${name}" not found`);
      store.addTeamMember(db, t.id, userId);
    }
  });
}

// ---- team access to workspaces ----

export type { TeamWorkspaceRecord };

/** Granting access to workspaces takes the organization's manage-workspaces permission; 404 otherwise. */
export function assertAccessManager(db: Db, caller: Caller, organization: string): void {
  if (!orgRole(db, caller, organization).manageWorkspaces) throw new NotFound("not found");
}

export interface TeamWorkspaceInput {
  access: AccessLevel;
  runs?: string;
  variables?: string;
  stateVersions?: string;
  workspaceLocking?: boolean;
  runTasks?: boolean;
}

/** Gives the team access to the workspace (found by the caller through the workspace domain). */
export function createTeamWorkspace(
  db: Db,
  caller: Caller,
  ws: { id: string; organization: string },
  teamId: string,
  input: TeamWorkspaceInput,
): TeamWorkspaceRecord {
  assertAccessManager(db, caller, ws.organization);
  if (!store.teamInOrganization(db, teamId, ws.organization)) throw new NotFound("team not found");
  const record: TeamWorkspaceRecord = {
    id: newInternalId("tws-"),
    team_id: teamId,
    workspace_id: ws.id,
    access: input.access,
    runs: input.runs ?? "read",
    variables: input.variables ?? "none",
    state_versions: input.stateVersions ?? "none",
    workspace_locking: input.workspaceLocking ? 1 : 0,
    run_tasks: input.runTasks ? 1 : 0,
  };
  unique(() => inTransaction(db, () => store.insertTeamWorkspace(db, record)), { relationship: "team" });
  return store.findTeamWorkspace(db, record.id)!;
}

export function loadTeamWorkspace(db: Db, caller: Caller, id: string): TeamWorkspaceRecord {
  const r = store.teamWorkspaceOrganization(db, id);
  if (!r) throw new NotFound("team access not found");
  assertAccessManager(db, caller, r.organization);
  return store.findTeamWorkspace(db, r.id)!;
}

/** Sets the access level; the custom settings not given keep their values. */
export function updateTeamWorkspace(
  db: Db,
  caller: Caller,
  id: string,
  input: TeamWorkspaceInput,
): TeamWorkspaceRecord {
  const r = loadTeamWorkspace(db, caller, id);
  inTransaction(db, () => {
    const cur = store.findTeamWorkspace(db, r.id)!;
    store.updateTeamWorkspaceRow(db, {
      id: r.id,
      access: input.access,
      runs: input.runs ?? cur.runs,
      variables: input.variables ?? cur.variables,
      state_versions: input.stateVersions ?? cur.state_versions,
      workspace_locking: input.workspaceLocking === undefined ? cur.workspace_locking : input.workspaceLocking ? 1 : 0,
      run_tasks: input.runTasks === undefined ? cur.run_tasks : input.runTasks ? 1 : 0,
    });
  });
  return store.findTeamWorkspace(db, r.id)!;
}

export function deleteTeamWorkspace(db: Db, caller: Caller, id: string): void {
  const r = loadTeamWorkspace(db, caller, id);
  inTransaction(db, () => store.deleteTeamWorkspaceRow(db, r.id));
}

// ---- team access to projects ----

export type { TeamProjectRecord };

/** Granting access to projects takes the organization's manage-projects permission; the project is not found otherwise. */
export function assertProjectAccessManager(
  db: Db,
  caller: Caller,
  project: { organization: string } | undefined,
): void {
  if (!project || !orgRole(db, caller, project.organization).manageProjects) throw new NotFound("project not found");
}

/** Gives the team access to the project (found by the caller through the project domain). */
export function createTeamProject(
  db: Db,
  caller: Caller,
  project: { id: string; organization: string },
  teamId: string,
  access: string,
): TeamProjectRecord {
  assertProjectAccessManager(db, caller, project);
  if (!store.teamInOrganization(db, teamId, project.organization)) throw new NotFound("team not found");
  const record: TeamProjectRecord = { id: newInternalId("tprj-"), team_id: teamId, project_id: project.id, access };
  unique(() => inTransaction(db, () => store.insertTeamProject(db, record)), { relationship: "team" });
  return record;
}

export function loadTeamProject(db: Db, caller: Caller, id: string): TeamProjectRecord {
  const r = store.findTeamProject(db, id);
  if (!r || !orgRole(db, caller, r.organization).manageProjects) throw new NotFound("team project access not found");
  return r;
}

export function updateTeamProject(db: Db, caller: Caller, id: string, access: string | undefined): TeamProjectRecord {
  const r = loadTeamProject(db, caller, id);
  if (access !== undefined) inTransaction(db, () => store.updateTeamProjectAccess(db, r.id, access));
  return { ...r, access: access ?? r.access };
}

export function deleteTeamProject(db: Db, caller: Caller, id: string): void {
  const r = loadTeamProject(db, caller, id);
  inTransaction(db, () => store.deleteTeamProjectRow(db, r.id));
}
