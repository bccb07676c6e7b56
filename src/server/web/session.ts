import { randomBytes } from "node:crypto";

/**
 * The web view's sign-in: one-time codes and sessions, in memory only (a restart signs
 * everybody out). A code or a session id is 32 random bytes; a session keeps the token it
 * was opened with, and each request through it authenticates that token again, so a
 * token deleted or expired ends its sessions.
 */

/** The name of the view's session cookie. */
const SESSION_COOKIE = "workspaces-view";

const CODE_LIFETIME_MS = 10 * 60_000;

/** Bounds on what is kept: past them, the oldest code or session is forgotten first. */
const MAX_CODES = 100;
const MAX_SESSIONS = 1000;

const randomId = () => randomBytes(32).toString("base64url");

/** Whether a socket's remote address is this machine: 127.0.0.0/8 (also IPv4-mapped) or ::1. */
export function isLoopbackAddress(address: string | undefined): boolean {
  if (address === undefined) return false;
  if (address === "::1" || address === "0:0:0:0:0:0:0:1") return true;
  const v4 = address.toLowerCase().startsWith("::ffff:") ? address.slice("::ffff:".length) : address;
  const parts = v4.split(".");
  return parts.length === 4 && parts[0] === "127" && parts.every((p) => /^\d{1,3}$/.test(p) && Number(p) <= 255);
}

/**
 * Whether a request's `Host` header names this machine at the server's port: a page of
 * another site whose name resolves to 127.0.0.1 (DNS rebinding) sends its own name.
 */
export function isLoopbackHost(host: string | undefined, port: number): boolean {
  const h = host?.toLowerCase();
  return h === `127.0.0.1:${port}` || h === `localhost:${port}` || h === `[::1]:${port}`;
}

/** The session id a `Cookie` header carries, if it carries the view's cookie. */
export function sessionIdOf(cookieHeader: string | undefined): string | undefined {
  if (!cookieHeader) return undefined;
  for (const pair of cookieHeader.split(";")) {
    const eq = pair.indexOf("=");
    if (eq > 0 && pair.slice(0, eq).trim() === SESSION_COOKIE) return pair.slice(eq + 1).trim() || undefined;
  }
  return undefined;
}

/** `Set-Cookie` that opens a session, or with no id, that ends it in the browser. */
export function sessionCookie(id?: string): string {
  const attributes = "HttpOnly; SameSite=Strict; Path=/";
  return id === undefined ? `${SESSION_COOKIE}=; ${attributes}; Max-Age=0` : `${SESSION_COOKIE}=${id}; ${attributes}`;
}

function remember<V>(map: Map<string, V>, key: string, value: V, max: number): void {
  map.set(key, value);
  if (map.size > max) map.delete(map.keys().next().value!);
}

/** One server's codes and sessions. */
export class ViewSessions {
  private readonly codes = new Map<string, { token: string; expires: number }>();
  private readonly sessions = new Map<string, string>();

  constructor(private readonly clock: () => number = Date.now) {}

  /** A code that opens one session for `token`, within ten minutes. */
  mintCode(token: string): string {
    const code = randomId();
    remember(this.codes, code, { token, expires: this.clock() + CODE_LIFETIME_MS }, MAX_CODES);
    return code;
  }

  /** The token a code was minted for, once: a used or expired code gives nothing. */
  redeemCode(code: string): string | undefined {
    const entry = this.codes.get(code);
    this.codes.delete(code);
    return entry && entry.expires > this.clock() ? entry.token : undefined;
  }

  /** Opens a session for `token`; its id goes in the cookie. */
  open(token: string): string {
    const id = randomId();
    remember(this.sessions, id, token, MAX_SESSIONS);
    return id;
  }

  tokenOf(id: string): string | undefined {
    return this.sessions.get(id);
  }

  close(id: string): void {
    this.sessions.delete(id);
  }
}
