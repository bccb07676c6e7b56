import { createHash, randomBytes, scrypt, scryptSync } from "node:crypto";
import type { Db } from "../../store/db";
import * as store from "../store/tokens";
import type { Caller } from "./caller";

/** Authentication: which stored token a presented one is, and the Caller it acts as. */

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
export function storedDigest(db: Db, token: string, chosen: boolean): string {
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

/**
 * Tokens' last uses (`last-used-at`), by token id: kept in memory, because recording them in
 * the database would make every read a write (and a refused request a change); a restart
 * forgets them. Token ids are unique, so one map serves every server of the process.
 */
const lastUses = new Map<string, string>();

/** When the token was last presented to this server process, if it was. */
export function lastUseOf(tokenId: string): string | undefined {
  return lastUses.get(tokenId);
}

/**
 * The Caller a presented token acts as; null (a 401) for an unknown token and for one
 * past its expiry. An audit-trail token reads audit trails only, which the local server
 * does not serve: it acts as nobody, so every record answers 404.
 */
export async function authenticate(db: Db, token: string): Promise<Caller | null> {
  const row = await findToken(db, token);
  if (!row || !db.open) return null;
  const at = Date.now();
  if (row.expired_at !== null && Date.parse(row.expired_at) <= at) return null;
  lastUses.set(row.id, new Date(at).toISOString());
  if (row.audit_trails === 1)
    return {
      tokenId: row.id,
      kind: "user",
      principalId: row.principal,
      organization: null,
      teamId: null,
      userId: null,
      siteAdmin: false,
      roles: new Map(),
    };
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

/**
 * Whether a chosen token is stored, under either digest. One stored under SHA-256 by a
 * release before chosen tokens were salted is moved to its scrypt digest here.
 */
export function chosenTokenExists(db: Db, token: string): boolean {
  const digest = storedDigest(db, token, true);
  if (store.tokenDigestExists(db, digest)) return true;
  return digest !== tokenDigest(token) && store.replaceTokenDigest(db, tokenDigest(token), digest);
}
