import type { Db } from "../store/db";
import { prepare } from "../store/db";

export interface OAuthClientRecord {
  id: string;
  organization: string;
  name: string | null;
  service_provider: string;
  http_url: string;
  api_url: string;
  created_at: string;
}

export interface OAuthTokenRecord {
  id: string;
  oauth_client_id: string;
  organization: string;
  created_at: string;
}

export function insertOAuthClient(db: Db, c: OAuthClientRecord): void {
  prepare(
    db,
    `INSERT INTO oauth_clients (id, organization, name, service_provider, http_url, api_url, created_at) VALUES (?, ?, ?, ?, ?, ?, ?)`,
  ).run(c.id, c.organization, c.name, c.service_provider, c.http_url, c.api_url, c.created_at);
}

export function insertOAuthToken(db: Db, t: OAuthTokenRecord): void {
  prepare(db, `INSERT INTO oauth_tokens (id, oauth_client_id, organization, created_at) VALUES (?, ?, ?, ?)`).run(
    t.id,
    t.oauth_client_id,
    t.organization,
    t.created_at,
  );
}

export function findOAuthClient(db: Db, id: string): OAuthClientRecord | undefined {
  return prepare(db, `SELECT * FROM oauth_clients WHERE id = ?`).get(id) as OAuthClientRecord | undefined;
}

export function findOAuthToken(db: Db, id: string): OAuthTokenRecord | undefined {
  return prepare(db, `SELECT id, oauth_client_id, organization, created_at FROM oauth_tokens WHERE id = ?`).get(id) as
    OAuthTokenRecord | undefined;
}

export function oauthTokenIdsOf(db: Db, clientId: string): string[] {
  return (
    prepare(db, `SELECT id FROM oauth_tokens WHERE oauth_client_id = ? ORDER BY created_at`).all(clientId) as {
      id: string;
    }[]
  ).map((r) => r.id);
}
