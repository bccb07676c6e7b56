import type { Db } from "../../store/db";
import { inTransaction, now, type Page } from "../../store/db";
import { Invalid, NotFound, RecordInvalid, visible } from "../../domain-errors";
import * as store from "../store/tokens";
import type { AuthTokenRecord, TeamTokenQuery } from "../store/tokens";
import * as records from "../store/records";
import { assertMember, assertOwner, orgRole } from "./authz";
import type { Caller } from "./caller";
import { holdsOrganizationFlag } from "./memberships";
import type { TeamRecord } from "./teams";
import { issueToken } from "./tokens";

export type { AuthTokenRecord, TeamTokenQuery };

/**
 * Team and organization tokens, as the service mints them: a team's legacy token (one,
 * without a description: a new one replaces it) and its described tokens (any number,
 * each description once); an organization's token and its audit-trail token (one of
 * each). Every one expires, two years after its create unless the create says when;
 * past that it is refused like an unknown token. The secret is answered once.
 */

/** How long a token lives when its create names no expiry, as the service's default. */
const DEFAULT_LIFETIME_YEARS = 2;

function expiryOf(given: string | null | undefined, createdAt: string): string {
  if (given) {
    if (Date.parse(given) <= Date.now())
      throw new Invalid("Expired at must be in the future", { attribute: "expired-at" });
    return given;
  }
  const at = new Date(createdAt);
  at.setUTCFullYear(at.getUTCFullYear() + DEFAULT_LIFETIME_YEARS);
  return at.toISOString().replace(/\.\d{3}Z$/, "Z");
}

/** A minted token: its record and, once, its secret. */
export interface MintedToken {
  record: AuthTokenRecord;
  token: string;
}

/**
 * Whether the caller manages the team's tokens: owners, `manage-teams`, and the team's
 * own people where the team lets its members manage its token.
 */
function managesTeamTokens(db: Db, caller: Caller, t: TeamRecord): boolean {
  if (holdsOrganizationFlag(db, caller, t.organization, "manage-teams")) return true;
  return (
    caller.kind === "user" &&
    t.allow_member_token_management === 1 &&
    orgRole(db, caller, t.organization).teamIds.includes(t.id)
  );
}

/** A team whose tokens the caller manages; anybody else gets what an unknown team gets. */
function tokenTeam(db: Db, caller: Caller, id: string): TeamRecord {
  return visible("team", records.findTeam(db, id), (t) => {
    assertMember(db, caller, t.organization);
    return managesTeamTokens(db, caller, t);
  });
}

function mint(
  db: Db,
  caller: Caller,
  spec: { kind: "team" | "organization"; organization: string; teamId?: string; description?: string | null },
  expiredAt: string | null | undefined,
  auditTrails = false,
): MintedToken {
  const createdAt = now();
  const issued = issueToken(db, {
    ...spec,
    expiredAt: expiryOf(expiredAt, createdAt),
    createdBy: caller.principalId,
    auditTrails,
  });
  const record = spec.teamId
    ? store.findTeamToken(db, issued.id)!
    : store.organizationToken(db, spec.organization, auditTrails)!;
  return { record, token: issued.token };
}

/**
 * Mints a team token: with a description, one more of the team's described tokens (a
 * description the team's tokens already carry is a 422, as on the service); without,
 * the team's legacy token, replacing the previous one.
 */
export function createTeamToken(
  db: Db,
  caller: Caller,
  teamId: string,
  read: () => { description?: string | null; expiredAt?: string | null; described: boolean },
): MintedToken {
  const t = tokenTeam(db, caller, teamId);
  const input = read();
  return inTransaction(db, () => {
    if (input.described) {
      const description = input.description ?? "";
      if (store.teamTokenDescriptionTaken(db, t.id, description))
        throw new RecordInvalid("Validation failed: Description has already been taken", { attribute: "description" });
      return mint(
        db,
        caller,
        { kind: "team", organization: t.organization, teamId: t.id, description },
        input.expiredAt,
      );
    }
    const previous = store.legacyTeamToken(db, t.id);
    if (previous) store.deleteTokenRow(db, previous.id);
    return mint(db, caller, { kind: "team", organization: t.organization, teamId: t.id }, input.expiredAt);
  });
}

/** The team's legacy token; none is a 404. */
export function readLegacyTeamToken(db: Db, caller: Caller, teamId: string): AuthTokenRecord {
  const t = tokenTeam(db, caller, teamId);
  const token = store.legacyTeamToken(db, t.id);
  if (!token) throw new NotFound("the team has no token");
  return token;
}

export function deleteLegacyTeamToken(db: Db, caller: Caller, teamId: string): void {
  const token = readLegacyTeamToken(db, caller, teamId);
  inTransaction(db, () => store.deleteTokenRow(db, token.id));
}

/**
 * A team token by id, for those who manage its team's tokens; undefined both when no
 * team token has the id and when the caller may not see it, so the route answers either
 * as it answers an unknown id.
 */
export function findTeamToken(db: Db, caller: Caller, id: string): AuthTokenRecord | undefined {
  const token = store.findTeamToken(db, id);
  if (!token) return undefined;
  try {
    tokenTeam(db, caller, token.team_id!);
    return token;
  } catch (e) {
    if (e instanceof NotFound) return undefined;
    throw e;
  }
}

/** Revokes a team token found by {@link findTeamToken}. */
export function deleteTeamToken(db: Db, token: AuthTokenRecord): void {
  inTransaction(db, () => store.deleteTokenRow(db, token.id));
}

/** A page of the organization's team tokens the caller manages, filtered and ordered. */
export function listTeamTokens(
  db: Db,
  caller: Caller,
  organization: string,
  read: () => { query: TeamTokenQuery; page: Page },
): { rows: AuthTokenRecord[]; total: number; page: Page } {
  assertMember(db, caller, organization);
  const { query, page } = read();
  if (query.sort && !store.TEAM_TOKEN_SORTS.includes(query.sort.replace(/^-/, "") as never))
    throw new Invalid(`sort must be one of ${store.TEAM_TOKEN_SORTS.join(", ")}, each optionally with "-"`, {
      parameter: "sort",
    });
  const everyTeam = holdsOrganizationFlag(db, caller, organization, "manage-teams");
  const teamIds = everyTeam
    ? undefined
    : records
        .teamsOf(db, organization)
        .filter((t) => managesTeamTokens(db, caller, t))
        .map((t) => t.id);
  const { rows, total } = store.teamTokensOf(
    db,
    organization,
    { ...query, teamIds },
    page.size,
    (page.number - 1) * page.size,
  );
  return { rows, total, page };
}

/** `audit-trails` selects an organization's audit-trail token; anything else but `organization` is a 400. */
export function isAuditTrails(tokenType: string | undefined): boolean {
  if (tokenType === undefined || tokenType === "" || tokenType === "organization") return false;
  if (tokenType === "audit-trails" || tokenType === "audit_trails") return true;
  throw new Invalid(`token must be "organization" or "audit-trails"`, { parameter: "token" });
}

/** Owners mint the organization's token of a type, replacing the previous of that type. */
export function createOrganizationToken(
  db: Db,
  caller: Caller,
  organization: string,
  read: () => { auditTrails: boolean; expiredAt?: string | null },
): MintedToken {
  assertOwner(db, caller, organization);
  const { auditTrails, expiredAt } = read();
  return inTransaction(db, () => {
    store.deleteOrganizationToken(db, organization, auditTrails);
    return mint(db, caller, { kind: "organization", organization }, expiredAt, auditTrails);
  });
}

export function readOrganizationToken(
  db: Db,
  caller: Caller,
  organization: string,
  auditTrails: () => boolean,
): AuthTokenRecord {
  assertOwner(db, caller, organization);
  const token = store.organizationToken(db, organization, auditTrails());
  if (!token) throw new NotFound("the organization has no token of this type");
  return token;
}

export function deleteOrganizationToken(db: Db, caller: Caller, organization: string, auditTrails: () => boolean) {
  const token = readOrganizationToken(db, caller, organization, auditTrails);
  inTransaction(db, () => store.deleteTokenRow(db, token.id));
}
