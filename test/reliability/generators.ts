/**
 * fast-check arbitraries for hostile requests: ids, query strings, bodies and headers
 * that are sometimes right, often nearly right, and sometimes nonsense.
 */
import fc from "fast-check";
import { BODY_LIMIT } from "../../src/server/app";
import { MAX_JSON_DEPTH } from "../../src/server/http/json";
import { MAX_LIST_VALUES } from "../../src/server/http/jsonapi";
import type { Route } from "./routes";
import type { World } from "./world";
import { OTHER_ORG, VICTIM_ORG } from "./world";

/** A path parameter, resolved against the live fixtures when the request is sent. */
type ParamValue =
  | { kind: "fixture"; index: number }
  | { kind: "other"; index: number }
  | { kind: "live"; pick: number }
  | { kind: "raw"; text: string };

export type TokenChoice =
  "owner" | "org" | "teamRead" | "teamWrite" | "user" | "otherOrg" | "garbage" | "malformed" | "none";

/**
 * Kinds of hostile request the suite counts separately: any header value (`Host`
 * and others), bodies nested past the depth bound, list filters with more values than
 * the limit, bodies over the size limit (sent with and without `Expect: 100-continue`),
 * repeated query parameters, control characters in the query, and a read-only caller
 * sending invalid bodies to write routes.
 */
export const HOSTILE_CLASSES = [
  "headers",
  "depth",
  "listLength",
  "oversized",
  "oversizedExpect",
  "repeated",
  "control",
  "readOnlyWrite",
] as const;
export type HostileClass = (typeof HOSTILE_CLASSES)[number];

export interface GeneratedRequest {
  route: Route;
  /** Sometimes a method the route does not have, to reach the not-found paths. */
  method: string;
  params: ParamValue[];
  query: string;
  body: string | undefined;
  contentType: string | undefined;
  token: TokenChoice;
  /** Extra request headers, any value a client can send (a `Host` of any text included). */
  headers: Record<string, string>;
  /** A body over the size limit, built when sent: this many bytes, announced with `Expect: 100-continue` or not. */
  oversized?: { bytes: number; expect: boolean };
  /** An `Authorization` header sent as is, in place of the one `token` names. */
  authorization?: string;
  classes: HostileClass[];
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
  {
    weight: 1,
    arbitrary: fc
      .constantFrom(
        "ws-",
        "prj-",
        "sshkey-",
        "apool-",
        "tag-",
        "run-",
        "sv-",
        "user-",
        "team-",
        "nocode-",
        "mod-",
        "ot-",
      )
      .chain((p) => fc.string({ maxLength: 20 }).map((s) => p + s)),
  },
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
  fc.constantFrom(
    "0",
    "-1",
    "1",
    "20",
    "100",
    "101",
    "1e3",
    "9007199254740993",
    "1.5",
    "name",
    "-name",
    "latest-change-at",
    "-current-run.created-at",
    "*",
    "*a*",
    "a,b,,",
    "locked_by,organization",
    "variable_options",
    "outputs,readme,project",
    "current_run.plan",
  ),
);

/** Control characters (C0, DEL and C1), alone or inside ordinary text. */
const controlText = fc
  .tuple(
    fc.string({ maxLength: 6 }),
    fc.array(fc.oneof(fc.integer({ min: 0, max: 0x1f }), fc.constant(0x7f), fc.integer({ min: 0x80, max: 0x9f })), {
      minLength: 1,
      maxLength: 4,
    }),
    fc.string({ maxLength: 6 }),
  )
  .map(([a, codes, b]) => a + String.fromCharCode(...codes) + b);

const LIST_KEYS = ["search[tags]", "search[exclude-tags]", "filter[current-run][status]", "include"];

/** A list filter with any number of values: mostly few, often around the limit, sometimes far past it. */
const listPairs: fc.Arbitrary<Array<[string, string]>> = fc
  .tuple(
    fc.constantFrom(...LIST_KEYS, "filter[tagged]"),
    fc.oneof(
      { weight: 2, arbitrary: fc.integer({ min: 0, max: 10 }) },
      { weight: 3, arbitrary: fc.integer({ min: MAX_LIST_VALUES - 2, max: MAX_LIST_VALUES + 2 }) },
      { weight: 2, arbitrary: fc.integer({ min: MAX_LIST_VALUES, max: 1500 }) },
    ),
    fc.constantFrom("v", "prod", "applied", "project", "fixture-tag"),
  )
  .map(([key, n, stem]) => {
    // filter[tagged] takes one pair of parameters per entry; the URL stays under Node's header size limit.
    if (key === "filter[tagged]")
      return Array.from(
        { length: Math.min(n, 400) },
        (_, i) => [`filter[tagged][${i}][key]`, `${stem}${i}`] as [string, string],
      );
    return [[key, Array.from({ length: n }, (_, i) => (i % 7 === 0 ? stem : `${stem}${i}`)).join(",")]];
  });

interface QueryParts {
  pairs: Array<[string, string]>;
  list: Array<[string, string]>;
  repeat: boolean;
  control: Array<[string, string]>;
  raw: boolean;
}

const query: fc.Arbitrary<{ text: string; classes: HostileClass[] }> = fc
  .record({
    pairs: fc.array(
      fc.tuple(
        fc.oneof({ weight: 4, arbitrary: fc.constantFrom(...QUERY_KEYS) }, { weight: 1, arbitrary: text }),
        queryValue,
      ),
      { maxLength: 5 },
    ),
    list: fc.oneof(
      { weight: 6, arbitrary: fc.constant<Array<[string, string]>>([]) },
      { weight: 1, arbitrary: listPairs },
    ),
    repeat: fc.oneof({ weight: 6, arbitrary: fc.constant(false) }, { weight: 1, arbitrary: fc.constant(true) }),
    control: fc.oneof(
      { weight: 6, arbitrary: fc.constant<Array<[string, string]>>([]) },
      {
        weight: 1,
        arbitrary: fc.array(
          fc.tuple(
            fc.constantFrom(
              "search[name]",
              "search[wildcard-name]",
              "q",
              "search[tags]",
              "filter[project][id]",
              "sort",
              "page[number]",
            ),
            controlText,
          ),
          {
            minLength: 1,
            maxLength: 2,
          },
        ),
      },
    ),
    raw: fc.boolean(),
  })
  .map(({ pairs, list, repeat, control, raw }: QueryParts) => {
    const all = [...pairs, ...list, ...control];
    // A repeated parameter: the first pair's key again, with another value.
    if (repeat && all.length) all.push([all[0][0], all[all.length - 1][1]]);
    const classes: HostileClass[] = [];
    if (list.length > MAX_LIST_VALUES || list.some(([, v]) => v.split(",").length > MAX_LIST_VALUES))
      classes.push("listLength");
    if (repeat && all.length) classes.push("repeated");
    if (control.length) classes.push("control");
    if (all.length === 0) return { text: "", classes };
    // Raw brackets as some clients send them, or percent-encoded as the spec asks.
    if (raw)
      return {
        text: "?" + all.map(([k, v]) => `${k.replace(/[#&?%\s]/g, "")}=${encodeSegment(v)}`).join("&"),
        classes,
      };
    const q = new URLSearchParams();
    for (const [k, v] of all) q.append(k, v);
    return { text: "?" + q.toString(), classes };
  });

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
  {
    weight: 2,
    arbitrary: fc.constantFrom(
      "remote",
      "local",
      "agent",
      "1h",
      "0d",
      "10000d",
      "9999h",
      "1.5.0",
      "~> 1.5",
      ">= 1.0, < 2.0",
      "read",
      "write",
      "admin",
      "plan",
      "custom",
      "none",
      "apply",
      "engine",
      "terraform",
      "env",
      "github",
      "http://example.com",
      "2020-01-01T00:00:00Z",
      "org/repo",
    ),
  },
  { weight: 2, arbitrary: fc.boolean() },
  { weight: 1, arbitrary: fc.integer() },
  { weight: 1, arbitrary: fc.double() },
  { weight: 1, arbitrary: fc.constant(null) },
  { weight: 1, arbitrary: fc.array(text, { maxLength: 4 }) },
  { weight: 1, arbitrary: fc.jsonValue({ maxDepth: 3 }) },
);

const attributes = fc.dictionary(
  fc.oneof({ weight: 5, arbitrary: fc.constantFrom(...ATTRIBUTE_KEYS) }, { weight: 1, arbitrary: text }),
  attributeValue,
  { maxKeys: 6 },
);

const identifier = fc.record(
  { type: fc.oneof(fc.constantFrom(...TYPES), text), id: fc.oneof(text, fc.constant("$live")), attributes: attributes },
  { requiredKeys: ["type"] },
);

const relationship = fc.record(
  {
    data: fc.oneof(
      fc.constant(null),
      identifier,
      fc.array(identifier, { maxLength: 4 }),
      fc.jsonValue({ maxDepth: 2 }),
    ),
  },
  { requiredKeys: [] },
);

const relationships = fc.dictionary(
  fc.constantFrom(
    "project",
    "tag-bindings",
    "workspace",
    "team",
    "registry-module",
    "variable-options",
    "vars",
    "ssh-key",
    "organization",
    "users",
  ),
  relationship,
  { maxKeys: 3 },
);

const resourceBody = fc.record(
  {
    data: fc.record(
      {
        type: fc.oneof({ weight: 4, arbitrary: fc.constantFrom(...TYPES) }, { weight: 1, arbitrary: text }),
        id: text,
        attributes,
        relationships,
      },
      { requiredKeys: [] },
    ),
  },
  { requiredKeys: [] },
);

const listBody = fc.record({ data: fc.array(identifier, { maxLength: 5 }) });

/** A resource body with one attribute nested to any depth (arrays, objects, or both), around and far past the bound. */
const deepBody: fc.Arbitrary<string> = fc
  .record({
    depth: fc.oneof(
      { weight: 2, arbitrary: fc.integer({ min: MAX_JSON_DEPTH - 5, max: MAX_JSON_DEPTH + 2 }) },
      { weight: 2, arbitrary: fc.integer({ min: 1, max: 20_000 }) },
    ),
    kind: fc.constantFrom("array", "object", "mixed"),
    key: fc.constantFrom(...ATTRIBUTE_KEYS),
    type: fc.constantFrom(...TYPES),
  })
  .map(({ depth, kind, key, type }) => {
    const { open, close } = nesting(depth, kind);
    return `{"data":{"type":${JSON.stringify(type)},"attributes":{${JSON.stringify(key)}:${open}1${close}}}}`;
  });

/** The opening and closing text of `depth` nested containers: arrays, objects (keys `k0` to `k9`), or both in turn. */
export function nesting(depth: number, kind: "array" | "object" | "mixed"): { open: string; close: string } {
  const open: string[] = [];
  const close: string[] = [];
  for (let i = 0; i < depth; i++) {
    const array = kind === "array" || (kind === "mixed" && i % 2 === 0);
    open.push(array ? "[" : `{"k${i % 10}":`);
    close.push(array ? "]" : "}");
  }
  return { open: open.join(""), close: close.reverse().join("") };
}

/** The container depth of a JSON text (brackets inside strings not counted); enough for the classes tally. */
function depthOf(text: string): number {
  let depth = 0;
  let max = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (inString) {
      if (c === "\\") i++;
      else if (c === '"') inString = false;
    } else if (c === '"') inString = true;
    else if (c === "[" || c === "{") max = Math.max(max, ++depth);
    else if (c === "]" || c === "}") depth--;
  }
  return max;
}

const body: fc.Arbitrary<string | undefined> = fc.oneof(
  { weight: 1, arbitrary: deepBody },
  { weight: 2, arbitrary: fc.constant(undefined) },
  { weight: 6, arbitrary: resourceBody.map((b) => JSON.stringify(b)) },
  { weight: 3, arbitrary: listBody.map((b) => JSON.stringify(b)) },
  { weight: 2, arbitrary: fc.jsonValue({ maxDepth: 4 }).map((v) => JSON.stringify(v)) },
  { weight: 1, arbitrary: fc.string({ maxLength: 60 }) },
  {
    weight: 1,
    arbitrary: fc.constantFrom(
      "",
      "{",
      "[",
      '{"data":',
      "null",
      '""',
      '{"data":{"type":"workspaces","attributes":{"name":"x"}}}}',
      '{"__proto__":{"polluted":1}}',
      '{"data":{"__proto__":{"type":"workspaces"}}}',
    ),
  },
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

const token = fc.constantFrom<TokenChoice>(
  "owner",
  "owner",
  "owner",
  "owner",
  "owner",
  "owner",
  "owner",
  "owner",
  "org",
  "teamRead",
  "teamWrite",
  "user",
  "otherOrg",
  "garbage",
  "malformed",
  "none",
);

const METHODS = ["GET", "POST", "PATCH", "DELETE", "PUT"];

/**
 * Any value a client can put in a header (Node's client refuses control characters
 * other than tab, as HTTP does). Connection-management headers (`connection`,
 * `content-length`, `transfer-encoding`, `upgrade`) are the client's own business and
 * left out; `expect` is in, with any value.
 */
const headerValue = fc.oneof(
  {
    weight: 3,
    arbitrary: fc.string({
      unit: fc
        .oneof(fc.integer({ min: 0x20, max: 0x7e }), fc.integer({ min: 0x80, max: 0xff }), fc.constant(0x09))
        .map((c) => String.fromCharCode(c)),
      maxLength: 60,
    }),
  },
  {
    weight: 2,
    arbitrary: fc.constantFrom(
      "a b",
      "evil.example",
      "",
      "[::1",
      "x:99999",
      "127.0.0.1:1",
      "localhost",
      "%00",
      "évil.example",
      "a".repeat(2000),
      "100-continue",
      "https",
      "for=1.2.3.4;proto=https;host=evil.example",
    ),
  },
);
const HEADER_NAMES = [
  "host",
  "host",
  "host",
  "x-forwarded-host",
  "x-forwarded-proto",
  "x-forwarded-for",
  "forwarded",
  "accept",
  "accept-encoding",
  "accept-language",
  "user-agent",
  "origin",
  "referer",
  "x-request-id",
  "if-none-match",
  "cookie",
  "expect",
  "range",
];
const headers = fc.oneof(
  { weight: 3, arbitrary: fc.constant({}) },
  { weight: 1, arbitrary: fc.dictionary(fc.constantFrom(...HEADER_NAMES), headerValue, { minKeys: 1, maxKeys: 3 }) },
);

/** Sizes past the body limit, kept under the server's discard bound (4 × the limit). */
const oversized = fc.oneof(
  { weight: 60, arbitrary: fc.constant(undefined) },
  {
    weight: 1,
    arbitrary: fc.record({ bytes: fc.integer({ min: BODY_LIMIT + 1, max: 2 * BODY_LIMIT }), expect: fc.boolean() }),
  },
);

export const WRITE_METHODS: ReadonlySet<string> = new Set(["POST", "PATCH", "DELETE", "PUT"]);

/** Relationships that name the caller's own readable workspace, project and team, so a body-targeted route finds its target. */
const TARGETS = {
  workspace: { data: { type: "workspaces", id: "$ws0" } },
  project: { data: { type: "projects", id: "$prj0" } },
  team: { data: { type: "teams", id: "$live" } },
  "registry-module": { data: { type: "registry-modules", id: "$live" } },
};

/**
 * A read-only team sending an invalid body to a write route, about the one workspace it
 * may read: it must get the answer it would get for a valid body (a 404 or 403), never a
 * validation error that tells it what it may not write.
 */
function readOnlyWrite(routes: ReadonlyArray<Route>): fc.Arbitrary<GeneratedRequest> {
  const writes = routes.filter((r) => WRITE_METHODS.has(r.method));
  return fc
    .record({
      route: fc.constantFrom(...writes),
      type: fc.oneof(fc.constantFrom(...TYPES), text),
      attributes,
      extra: relationships,
    })
    .map(({ route, type, attributes, extra }) => ({
      route,
      method: route.method,
      params: [0, 0, 0].map((index) => ({ kind: "fixture" as const, index })),
      query: "",
      body: JSON.stringify({ data: { type, attributes, relationships: { ...extra, ...TARGETS } } }),
      contentType: "application/vnd.api+json",
      token: "teamRead" as const,
      headers: {},
      classes: ["readOnlyWrite" as const],
    }));
}

/**
 * `Authorization` headers that name no valid token: bearer tokens of any form, other
 * schemes, a scheme alone, any header text.
 */
export const wrongAuthorization: fc.Arbitrary<string> = fc.oneof(
  { weight: 4, arbitrary: fc.stringMatching(/^[A-Za-z0-9._~+/=-]{1,80}$/).map((t) => `Bearer ${t}`) },
  {
    weight: 1,
    arbitrary: fc.constantFrom(
      "Bearer",
      "Bearer ",
      "bearer x",
      "BEARER  y",
      "Basic dXNlcjpwYXNz",
      "Token abc",
      " ",
      "Bearer a b",
    ),
  },
  { weight: 2, arbitrary: headerValue.filter((v) => v.trim() !== "") },
  // Of the generated tokens' shape, so only the lookup can tell them wrong.
  {
    weight: 2,
    arbitrary: fc
      .tuple(fc.stringMatching(/^[1-9A-HJ-NP-Za-km-z]{14}$/), fc.stringMatching(/^[1-9A-HJ-NP-Za-km-z]{67}$/))
      .map(([a, b]) => `Bearer ${a}.atlasv1.${b}`),
  },
);

/**
 * Any generated request, sent with a wrong token: what a client guessing tokens sends.
 * With the server's rate limit on, the address's failed authentications are bounded.
 */
export function wrongTokenArbitrary(routes: ReadonlyArray<Route>): fc.Arbitrary<GeneratedRequest> {
  return fc.tuple(requestArbitrary(routes), wrongAuthorization).map(([req, authorization]) => ({
    ...req,
    authorization,
    // A read-only caller's request is no longer one: it carries no valid token.
    classes: req.classes.filter((c) => c !== "readOnlyWrite"),
  }));
}

export function requestArbitrary(routes: ReadonlyArray<Route>): fc.Arbitrary<GeneratedRequest> {
  const general = fc
    .record({
      route: fc.constantFrom(...routes),
      // One request in ten uses some other method, to reach the not-found paths.
      wrongMethod: fc.oneof(
        { weight: 9, arbitrary: fc.constant(null) },
        { weight: 1, arbitrary: fc.constantFrom(...METHODS) },
      ),
      params: fc.array(paramValue, { minLength: 3, maxLength: 3 }),
      query,
      body,
      contentType,
      token,
      headers,
      oversized,
    })
    .map(({ route, wrongMethod, params, query, body, contentType, token, headers, oversized }): GeneratedRequest => {
      const classes = [...query.classes];
      if (Object.keys(headers).length) classes.push("headers");
      if (body !== undefined && depthOf(body) > MAX_JSON_DEPTH) classes.push("depth");
      if (oversized) classes.push(oversized.expect ? "oversizedExpect" : "oversized");
      return {
        route,
        method: wrongMethod ?? route.method,
        params,
        query: query.text,
        body,
        contentType,
        token,
        headers,
        oversized,
        classes,
      };
    });
  return fc.oneof({ weight: 11, arbitrary: general }, { weight: 1, arbitrary: readOnlyWrite(routes) });
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
    return (
      encodeURIComponent(s.replace(/[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g, "")) +
      "%ED%A0%80"
    );
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
      if (req.method === "DELETE" && req.route.url === "/organizations/:organization_name")
        return own ? VICTIM_ORG : OTHER_ORG;
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
      if (req.route.url.startsWith("/no-code-modules/") && req.route.url.includes("/workspaces/:id"))
        return f.workspaces[f.workspaces.length - 1];
      return world.liveId(v.index) ?? "missing";
    default:
      return world.liveId(v.index) ?? "missing";
  }
}

/** Replaces `$live` placeholders in a generated body with ids that exist, `$ws0` and `$prj0` with the first fixtures. */
export function resolveBody(world: World, body: string | undefined, seed: number): string | undefined {
  if (body === undefined || !body.includes("$")) return body;
  let n = seed;
  return body
    .replace(/\$live/g, () => world.liveId(n++) ?? "missing")
    .replace(/\$ws0/g, () => world.fixtures.workspaces[0])
    .replace(/\$prj0/g, () => world.fixtures.projects[0]);
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
