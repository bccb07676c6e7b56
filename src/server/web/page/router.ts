/**
 * The page's routes, carried in the URL's fragment so that the server serves one page:
 * `#/` (pick an organisation), `#/o/<org>` (its projects and workspaces),
 * `#/o/<org>/workspaces/<id>` (one workspace), `#/o/<org>/map` (the organisation's map).
 * A sign-in link carries `#code=<code>` instead, which the page reads once and removes.
 * No DOM here: the unit tests read it.
 */

/** Where the page is. */
export type Route =
  | { kind: "organizations" }
  | { kind: "home"; org: string }
  | { kind: "workspace"; org: string; id: string }
  | { kind: "map"; org: string }
  | { kind: "unknown"; hash: string };

/** The route a fragment (`location.hash`, with or without `#`) names. */
export function parseRoute(hash: string): Route {
  const path = hash.replace(/^#/, "");
  if (path === "" || path === "/") return { kind: "organizations" };
  const parts = path.replace(/^\//, "").split("/");
  let decoded: string[];
  try {
    decoded = parts.map((p) => decodeURIComponent(p));
  } catch {
    return { kind: "unknown", hash };
  }
  const [o, org, section, id, ...rest] = decoded;
  if (o !== "o" || !org || rest.length) return { kind: "unknown", hash };
  if (section === undefined || (section === "" && id === undefined)) return { kind: "home", org };
  if (section === "map" && id === undefined) return { kind: "map", org };
  if (section === "workspaces" && id) return { kind: "workspace", org, id };
  return { kind: "unknown", hash };
}

/** The fragment of the organisation's home. */
export function homeHash(org: string): string {
  return `#/o/${encodeURIComponent(org)}`;
}

/** The fragment of a workspace's page. */
export function workspaceHash(org: string, id: string): string {
  return `#/o/${encodeURIComponent(org)}/workspaces/${encodeURIComponent(id)}`;
}

/** The fragment of the organisation's map. */
export function mapHash(org: string): string {
  return `#/o/${encodeURIComponent(org)}/map`;
}

/** The one-time sign-in code a fragment `#code=<code>` carries, or null. */
export function codeOf(hash: string): string | null {
  const match = /^#?code=([A-Za-z0-9_-]+)$/.exec(hash);
  return match ? match[1] : null;
}
