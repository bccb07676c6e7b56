/**
 * fast-check arbitraries for hostile requests: ids, query strings, bodies and headers
 * that are sometimes right, often nearly right, and sometimes nonsense.
 */
import fc from "fast-check";
import type { Route } from "./routes";
import type { World } from "./world";
import { OTHER_ORG, VICTIM_ORG } from "./world";

/** A path parameter, resolved against the live fixtures when the request is sent. */
export type ParamValue = { kind: "fixture"; index: number } | { kind: "other"; index: number } | { kind: "live"; pick: number } | { kind: "raw"; text: string };

export type TokenChoice = "owner" | "org" | "teamRead" | "teamWrite" | "user" | "otherOrg" | "garbage" | "malformed" | "none";

export interface GeneratedRequest {
  route: Route;
  /** Sometimes a method the route does not have, to reach the not-found paths. */
  method: string;
  params: ParamValue[];
  query: string;
  body: string | undefined;
  contentType: string | undefined;
  token: TokenChoice;
}

const nasty = fc.constantFrom(
  "",
  " ",
  "..",
  "%",
  "%00",
  "null",
  "undefined",
  "0",
  "-1",
  "1e309",
  "NaN",
  "ws-",
  "ws-../../etc",
  "'; DROP TABLE workspaces; --",
  "\u0000",
  "\ud800",
  "😀",
  "a".repeat(5000),
  "__proto__",
  "constructor",
  "[object Object]",
);

const text = fc.oneof(
  { weight: 3, arbitrary: fc.string({ maxLength: 40 }) },
  { weight: 2, arbitrary: fc.string({ unit: "grapheme", maxLength: 20 }) },
  { weight: 2, arbitrary: nasty },
  { weight: 2, arbitrary: fc.stringMatching(/^[A-Za-z0-9_-]{1,30}$/) },
  { weight: 1, arbitrary: fc.constantFrom("ws-", "prj-", "sshkey-", "apool-", "tag-", "run-", "sv-", "user-", "team-", "nocode-", "mod-", "ot-").chain((p) => fc.string({ maxLength: 20 }).map((s) => p + s)) },
);

const paramValue: fc.Arbitrary<ParamValue> = fc.oneof(
  { weight: 12, arbitrary: fc.nat(7).map((index) => ({ kind: "fixture" as const, index })) },
  { weight: 1, arbitrary: fc.nat(3).map((index) => ({ kind: "other" as const, index })) },
  { weight: 2, arbitrary: fc.nat().map((pick) => ({ kind: "live" as const, pick })) },
  { weight: 2, arbitrary: text.map((t) => ({ kind: "raw" as const, text: t })) },
);

const QUERY_KEYS = [
  "page[number]",
  "page[size]",
  "search[name]",
  "search[tags]",
  "search[exclude-tags]",
  "search[wildcard-name]",
  "sort",
  "filter[project][id]",
  "filter[current-run][status]",
  "filter[tagged][0][key]",
  "filter[tagged][0][value]",
  "filter[tagged][1][key]",
  "filter[tagged][99999999999][value]",
  "include",
  "q",
  "page",
  "filter",
  "filter[tagged]",
  "page[number][x]",
];

const queryValue = fc.oneof(
  text,
  fc.integer().map(String),
  fc.constantFrom("0", "-1", "1", "20", "100", "101", "1e3", "9007199254740993", "1.5", "name", "-name", "latest-change-at", "-current-run.created-at", "*", "*a*", "a,b,,", "locked_by,organization", "variable_options", "outputs,readme,project", "current_run.plan"),
);

const query = fc
  .array(fc.tuple(fc.oneof({ weight: 4, arbitrary: fc.constantFrom(...QUERY_KEYS) }, { weight: 1, arbitrary: text }), queryValue), { maxLength: 5 })
  .chain((pairs) =>
    fc.boolean().map((raw) => {
      if (pairs.length === 0) return "";
      // Raw brackets as some clients send them, or percent-encoded as the spec asks.
      if (raw) return "?" + pairs.map(([k, v]) => `${k.replace(/[#&?%\s]/g, "")}=${encodeSegment(v)}`).join("&");
      const q = new URLSearchParams();
      for (const [k, v] of pairs) q.append(k, v);
      return "?" + q.toString();
    }),
  );

const ATTRIBUTE_KEYS = [
  "name",
  "description",
  "execution-mode",
  "agent-pool-id",
  "auto-apply",
  "auto_apply",
  "auto-apply-run-trigger",
  "allow-destroy-plan",
  "assessments-enabled",
  "auto-destroy-at",
  "auto-destroy-activity-duration",
  "engine-version",
  "terraform-version",
  "operations",
  "tag-names",
  "trigger-prefixes",
  "trigger-patterns",
  "vcs-repo",
  "working-directory",
  "setting-overwrites",
  "source-name",
  "source-url",
  "global-remote-state",
  "queue-all-runs",
  "speculative-enabled",
  "file-triggers-enabled",
  "reason",
  "value",
  "key",
  "id",
  "access",
  "runs",
  "variables",
  "state-versions",
  "workspace-locking",
  "username",
  "email",
  "service-provider",
  "http-url",
  "api-url",
  "oauth-token-string",
  "organization-scoped",
  "version-pin",
  "enabled",
  "category",
  "sensitive",
  "hcl",
  "serial",
  "md5",
  "lineage",
  "state",
  "message",
  "is-destroy",
  "delete-older-than-n-days",
  "organization-access",
  "allow-force-delete-workspaces",
  "variable-name",
  "variable-type",
  "options",
];

const TYPES = [
  "workspaces",
  "projects",
  "tags",
  "tag-bindings",
  "vars",
  "teams",
  "team-workspaces",
  "team-projects",
  "users",
  "ssh-keys",
  "agent-pools",
  "oauth-clients",
  "organizations",
  "runs",
  "state-versions",
  "no-code-modules",
  "registry-modules",
  "registry-module",
  "variable-options",
  "data-retention-policies",
  "data-retention-policy-delete-olders",
  "authentication-tokens",
];

const attributeValue: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 3, arbitrary: text },
  { weight: 2, arbitrary: fc.constantFrom("remote", "local", "agent", "1h", "0d", "10000d", "9999h", "1.5.0", "~> 1.5", ">= 1.0, < 2.0", "read", "write", "admin", "plan", "custom", "none", "apply", "engine", "terraform", "env", "github", "http://example.com", "2020-01-01T00:00:00Z", "org/repo") },
  { weight: 2, arbitrary: fc.boolean() },
  { weight: 1, arbitrary: fc.integer() },
  { weight: 1, arbitrary: fc.double() },
  { weight: 1, arbitrary: fc.constant(null) },
  { weight: 1, arbitrary: fc.array(text, { maxLength: 4 }) },
  { weight: 1, arbitrary: fc.jsonValue({ maxDepth: 3 }) },
);

const attributes = fc.dictionary(fc.oneof({ weight: 5, arbitrary: fc.constantFrom(...ATTRIBUTE_KEYS) }, { weight: 1, arbitrary: text }), attributeValue, { maxKeys: 6 });

const identifier = fc.record(
  { type: fc.oneof(fc.constantFrom(...TYPES), text), id: fc.oneof(text, fc.constant("$live")), attributes: attributes },
  { requiredKeys: ["type"] },
);

const relationship = fc.record({ data: fc.oneof(fc.constant(null), identifier, fc.array(identifier, { maxLength: 4 }), fc.jsonValue({ maxDepth: 2 })) }, { requiredKeys: [] });

const relationships = fc.dictionary(
  fc.constantFrom("project", "tag-bindings", "workspace", "team", "registry-module", "variable-options", "vars", "ssh-key", "organization", "users"),
  relationship,
  { maxKeys: 3 },
);

const resourceBody = fc.record(
  { data: fc.record({ type: fc.oneof({ weight: 4, arbitrary: fc.constantFrom(...TYPES) }, { weight: 1, arbitrary: text }), id: text, attributes, relationships }, { requiredKeys: [] }) },
  { requiredKeys: [] },
);

const listBody = fc.record({ data: fc.array(identifier, { maxLength: 5 }) });

const body: fc.Arbitrary<string | undefined> = fc.oneof(
  { weight: 2, arbitrary: fc.constant(undefined) },
  { weight: 6, arbitrary: resourceBody.map((b) => JSON.stringify(b)) },
  { weight: 3, arbitrary: listBody.map((b) => JSON.stringify(b)) },
  { weight: 2, arbitrary: fc.jsonValue({ maxDepth: 4 }).map((v) => JSON.stringify(v)) },
  { weight: 1, arbitrary: fc.string({ maxLength: 60 }) },
  { weight: 1, arbitrary: fc.constantFrom("", "{", "[", "{\"data\":", "null", "\"\"", "{\"data\":{\"type\":\"workspaces\",\"attributes\":{\"name\":\"x\"}}}}", "{\"__proto__\":{\"polluted\":1}}", "{\"data\":{\"__proto__\":{\"type\":\"workspaces\"}}}") },
);

const contentType = fc.constantFrom<string | undefined>(
  "application/vnd.api+json",
  "application/vnd.api+json",
  "application/vnd.api+json",
  "application/json",
  "application/vnd.api+json; charset=utf-8",
  "text/plain",
  "multipart/form-data; boundary=x",
  "application/x-www-form-urlencoded",
  undefined,
);

const token = fc.constantFrom<TokenChoice>("owner", "owner", "owner", "owner", "owner", "owner", "owner", "owner", "org", "teamRead", "teamWrite", "user", "otherOrg", "garbage", "malformed", "none");

const METHODS = ["GET", "POST", "PATCH", "DELETE", "PUT"];

export function requestArbitrary(routes: ReadonlyArray<Route>): fc.Arbitrary<GeneratedRequest> {
  return fc
    .record({
      route: fc.constantFrom(...routes),
      // One request in ten uses some other method, to reach the not-found paths.
      wrongMethod: fc.oneof({ weight: 9, arbitrary: fc.constant(null) }, { weight: 1, arbitrary: fc.constantFrom(...METHODS) }),
      params: fc.array(paramValue, { minLength: 3, maxLength: 3 }),
      query,
      body,
      contentType,
      token,
    })
    .map(({ route, wrongMethod, params, query, body, contentType, token }) => ({ route, method: wrongMethod ?? route.method, params, query, body, contentType, token }));
}

/** Turns a generated request into a concrete path, resolving fixtures against the live database. */
export function resolvePath(world: World, req: GeneratedRequest): string {
  let i = 0;
  return req.route.url.replace(/:([A-Za-z_]+)/g, (_m, name: string) => {
    const v = req.params[i++ % req.params.length];
    return encodeSegment(resolveParam(world, req, name, v));
  });
}

/** Percent-encodes a segment; a lone surrogate goes out as the raw bytes a sloppy client would send. */
function encodeSegment(s: string): string {
  try {
    return encodeURIComponent(s);
  } catch {
    return encodeURIComponent(s.replace(/[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g, "")) + "%ED%A0%80";
  }
}

function resolveParam(world: World, req: GeneratedRequest, name: string, v: ParamValue): string {
  const f = world.fixtures;
  if (v.kind === "raw") return v.text;
  if (v.kind === "live") return world.liveId(v.pick) ?? "missing";
  const own = v.kind === "fixture";
  switch (name) {
    case "organization_name":
      // The organization under test is never deleted: everything else hangs off it.
      if (req.method === "DELETE" && req.route.url === "/organizations/:organization_name") return own ? VICTIM_ORG : OTHER_ORG;
      return own ? (v.index % 4 === 3 ? VICTIM_ORG : world.org) : OTHER_ORG;
    case "name": {
      const ids = own ? f.workspaces : f.otherWorkspaces;
      return world.workspaceName(ids[v.index % ids.length]) ?? "gone";
    }
    case "workspace_id": {
      const ids = own ? f.workspaces : f.otherWorkspaces;
      return ids[v.index % ids.length];
    }
    case "project_id":
      return f.projects[0];
    case "no_code_module_id":
      return f.noCodeModules[0] ?? "missing";
    case "id":
      if (req.route.url.startsWith("/no-code-modules/:id")) return f.noCodeModules[0] ?? "missing";
      if (req.route.url.endsWith("/upgrade/:id")) return f.upgradeRuns[0] ?? "missing";
      if (req.route.url.startsWith("/no-code-modules/") && req.route.url.includes("/workspaces/:id")) return f.workspaces[f.workspaces.length - 1];
      return world.liveId(v.index) ?? "missing";
    default:
      return world.liveId(v.index) ?? "missing";
  }
}

/** Replaces `$live` placeholders in a generated body with ids that exist. */
export function resolveBody(world: World, body: string | undefined, seed: number): string | undefined {
  if (body === undefined || !body.includes("$live")) return body;
  let n = seed;
  return body.replace(/\$live/g, () => world.liveId(n++) ?? "missing");
}

export function tokenHeader(world: World, t: TokenChoice): string | undefined {
  switch (t) {
    case "garbage":
      return "Bearer not-a-token-at-all";
    case "malformed":
      return "Basic dXNlcjpwYXNz";
    case "none":
      return undefined;
    default:
      return `Bearer ${world.tokens[t]}`;
  }
}
