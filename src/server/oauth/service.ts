import { assertMember } from "../auth/service/authz";
import type { Caller } from "../auth/service/caller";
import { NotFound, visible } from "../domain-errors";
import { newId, newInternalId } from "../ids";
import type { Db } from "../store/db";
import { inTransaction, now } from "../store/db";
import {
  findOAuthClient,
  findOAuthToken,
  insertOAuthClient,
  insertOAuthToken,
  oauthTokenIdsOf,
  type OAuthClientRecord,
  type OAuthTokenRecord,
} from "./store";

export type { OAuthClientRecord, OAuthTokenRecord };

/**
 * VCS connections as records only: creating an OAuth client also issues its OAuth token
 * (`ot-`), which is what a workspace's `vcs-repo.oauth-token-id` refers to. No VCS is
 * ever contacted and the provider token given is not kept.
 */
export interface OAuthClientInput {
  name: string | null;
  serviceProvider: string;
  httpUrl: string;
  apiUrl: string;
}

/** Connecting a VCS takes the organization's manage-workspaces permission; 404 otherwise. */
function assertOAuthClientCreator(db: Db, caller: Caller, organization: string): void {
  if (!assertMember(db, caller, organization).manageWorkspaces)
    throw new NotFound(`organization "${organization}" not found`);
}

export function createOAuthClient(
  db: Db,
  caller: Caller,
  organization: string,
  read: () => OAuthClientInput,
): OAuthClientRecord {
  assertOAuthClientCreator(db, caller, organization);
  const input = read();
  const id = newInternalId("oc-");
  inTransaction(db, () => {
    const t = now();
    insertOAuthClient(db, {
      id,
      organization,
      name: input.name,
      service_provider: input.serviceProvider,
      http_url: input.httpUrl,
      api_url: input.apiUrl,
      created_at: t,
    });
    insertOAuthToken(db, { id: newId("oauthToken"), oauth_client_id: id, organization, created_at: t });
  });
  return findOAuthClient(db, id)!;
}

export function loadOAuthClient(db: Db, caller: Caller, id: string): OAuthClientRecord {
  return visible("OAuth client", findOAuthClient(db, id), (c) => void assertMember(db, caller, c.organization));
}

export function loadOAuthToken(db: Db, caller: Caller, id: string): OAuthTokenRecord {
  return visible("OAuth token", findOAuthToken(db, id), (t) => void assertMember(db, caller, t.organization));
}

/** The ids of the client's OAuth tokens, oldest first. */
export function oauthTokenIds(db: Db, clientId: string): string[] {
  return oauthTokenIdsOf(db, clientId);
}

/** Whether the OAuth token exists in the organization (a workspace's VCS settings may only name its organization's tokens). */
export function oauthTokenInOrganization(db: Db, id: string, organization: string): boolean {
  const t = findOAuthToken(db, id);
  return t !== undefined && t.organization === organization;
}
