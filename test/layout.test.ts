import { readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import ts from "typescript";
import { describe, expect, it } from "vitest";

/**
 * The shape of src/, read from its import graph: no import circle anywhere; the client
 * and the resources never import the server, nor the server the client; and the
 * server's three rooms per domain (service, store, routes) keep to their doors.
 */
const ROOT = resolve(__dirname, "..");
const SRC = join(ROOT, "src");

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sourceFiles(path);
    return name.endsWith(".ts") && !name.endsWith(".d.ts") ? [path] : [];
  });
}

/** The file a relative specifier names (`./x` is x.ts or x/index.ts), or null for a package. */
function resolveImport(from: string, specifier: string): string | null {
  // A JSON document (the plugin's derived schema) is data, not a module of the graph.
  if (specifier.endsWith(".json")) return null;
  if (!specifier.startsWith(".")) return null;
  const base = resolve(dirname(from), specifier);
  for (const candidate of [`${base}.ts`, join(base, "index.ts"), base]) {
    try {
      if (statSync(candidate).isFile()) return candidate;
    } catch {
      // not this one
    }
  }
  throw new Error(`${relative(ROOT, from)} imports ${specifier}, which is no file`);
}

interface Module {
  /** Path relative to the repository, with forward slashes. */
  path: string;
  text: string;
  /** Files of src/ it imports (import, import type, export from, require, import()). */
  imports: string[];
  /** Package specifiers it imports. */
  packages: string[];
}

const rel = (abs: string) => relative(ROOT, abs).split("\\").join("/");

function readGraph(): Map<string, Module> {
  const graph = new Map<string, Module>();
  for (const file of sourceFiles(SRC)) {
    const text = readFileSync(file, "utf8");
    const imports: string[] = [];
    const packages: string[] = [];
    for (const ref of ts.preProcessFile(text, true, true).importedFiles) {
      const target = resolveImport(file, ref.fileName);
      if (target) imports.push(rel(target));
      else packages.push(ref.fileName);
    }
    graph.set(rel(file), { path: rel(file), text, imports: [...new Set(imports)], packages });
  }
  return graph;
}

/** Every circle of the graph, as the files of one strongly connected component (Tarjan). */
function circles(graph: Map<string, Module>): string[][] {
  let index = 0;
  const indices = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  const visit = (v: string) => {
    indices.set(v, index);
    low.set(v, index++);
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v)?.imports ?? []) {
      if (!indices.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, indices.get(w)!));
    }
    if (low.get(v) === indices.get(v)) {
      const component: string[] = [];
      let w: string;
      do {
        w = stack.pop()!;
        onStack.delete(w);
        component.push(w);
      } while (w !== v);
      if (component.length > 1 || graph.get(v)!.imports.includes(v)) found.push(component.sort());
    }
  };
  for (const v of [...graph.keys()].sort()) if (!indices.has(v)) visit(v);
  return found;
}

const graph = readGraph();
const SERVER = "src/server/";

/** Shared plumbing every room may use: opening the database, migrations, statement cache. */
const INFRASTRUCTURE = new Set([
  `${SERVER}store/db.ts`,
  `${SERVER}store/schema.ts`,
  `${SERVER}store/schema-v3.ts`,
  `${SERVER}store/schema-v4.ts`,
  `${SERVER}store/schema-v5.ts`,
  `${SERVER}store/schema-v6.ts`,
  `${SERVER}store/schema-v7.ts`,
]);

/**
 * The server domain a file belongs to (`workspace`, `nocode`, ...), or null outside the
 * domains. The shared store folder's remaining files hold tables of several domains and
 * count as a store of their own (`store`).
 */
function domainOf(path: string): string | null {
  if (!path.startsWith(SERVER) || INFRASTRUCTURE.has(path)) return null;
  const parts = path.slice(SERVER.length).split("/");
  if (parts.length < 2 || parts[0] === "http") return null;
  return parts[0];
}

/** A file that registers HTTP handlers (`app.get(...)`, `app.post(...)`, ...), wherever it sits. */
function isRoutes(m: Module): boolean {
  return m.path.startsWith(SERVER) && /\bapp\.(get|post|put|patch|delete|route)\s*[<(]/.test(m.text);
}

/**
 * Whether the file is one of a domain's `service` or `store` rooms: `<domain>/store.ts`, or
 * a file of a `<domain>/store/` folder, which divides a large room by concern (auth's
 * `store/tokens.ts`, `store/grants.ts`, ...). Every rule of the room applies to each file.
 */
function inRoom(path: string, room: "service" | "store"): boolean {
  if (domainOf(path) === null) return false;
  return path.endsWith(`/${room}.ts`) || new RegExp(`^${SERVER}[^/]+/${room}/[^/]+\\.ts$`).test(path);
}

function isStore(path: string): boolean {
  return inRoom(path, "store") || (domainOf(path) !== null && path.startsWith(`${SERVER}store/`));
}

function isService(path: string): boolean {
  return inRoom(path, "service");
}

/** HTTP code: Fastify, the JSON:API helpers, the app, and every file that registers routes. */
function isHttp(path: string): boolean {
  const m = graph.get(path);
  return path.startsWith(`${SERVER}http/`) || path === `${SERVER}app.ts` || (m !== undefined && isRoutes(m));
}

/** Each broken rule of the server's rooms, as "importer -> imported: rule". */
function roomViolations(): string[] {
  const found: string[] = [];
  for (const m of graph.values()) {
    const domain = domainOf(m.path);
    if (domain === null) continue;
    if (isService(m.path)) {
      if (m.packages.some((p) => p === "fastify" || p.startsWith("fastify/")))
        found.push(`${m.path} -> fastify: a service imports no HTTP code`);
      for (const target of m.imports)
        if (isHttp(target)) found.push(`${m.path} -> ${target}: a service imports no HTTP code`);
    }
    if (isRoutes(m) || isStore(m.path)) {
      for (const target of m.imports) {
        const other = domainOf(target);
        if (other === null || other === domain) continue;
        const targetModule = graph.get(target)!;
        if (isStore(target) || isRoutes(targetModule))
          found.push(`${m.path} -> ${target}: a route or store imports no other domain's store or routes`);
      }
    }
  }
  return found.sort();
}

/** SQL reaching the database: `prepare(`, a `.pragma(` or a connection's `.exec(` (`db.exec(`, not a regular expression's). */
const SQL_CALL = /\bprepare\s*\(|\.pragma\s*\(|\b(?:db|database|declared)\.exec\s*\(/;

/** Files of the server that run SQL but are not a store.ts (nor the database plumbing). */
function sqlOutsideStores(modules: Iterable<Module>): string[] {
  return [...modules]
    .filter(
      (m) => m.path.startsWith(SERVER) && !INFRASTRUCTURE.has(m.path) && !isStore(m.path) && SQL_CALL.test(m.text),
    )
    .map((m) => `${m.path}: SQL belongs in the domain's store.ts`)
    .sort();
}

/** The most lines a file of src/ may have. */
const MAX_LINES = 400;

const PROVIDERS = "src/resources/providers/";

/**
 * State a provider module keeps between calls: a top-level `let` or `var`, or a top-level
 * collection made with `new Map`, `new Set`, `new WeakMap` or `new WeakSet` (a constant
 * typed `ReadonlySet`/`ReadonlyMap` is a table, not state). What the provider process
 * shares on purpose lives in src/resources/process/.
 */
const MODULE_STATE = /^(?:export\s+)?(?:(?:let|var)\s|const\s+\w+\s*=\s*new\s+(?:Weak)?(?:Map|Set)\b)/m;

/** Provider modules that keep state at module level. */
function stateInProviders(modules: Iterable<Module>): string[] {
  return [...modules]
    .filter((m) => m.path.startsWith(PROVIDERS) && MODULE_STATE.test(m.text))
    .map((m) => `${m.path}: module-level state belongs in src/resources/process/`)
    .sort();
}

/** Whether the domain has the room: `<room>.ts`, or for a service or store a folder of that name. */
function hasRoom(all: ReadonlySet<string>, domain: string, room: "service" | "store" | "routes"): boolean {
  const base = `${SERVER}${domain}/${room}`;
  return all.has(`${base}.ts`) || (room !== "routes" && [...all].some((p) => p.startsWith(`${base}/`)));
}

/** Domain folders (those with a store, i.e. tables) missing one of the three rooms. */
function missingRooms(paths: Iterable<string>): string[] {
  const all = new Set(paths);
  const domains = new Set([...all].map(domainOf).filter((d): d is string => d !== null && hasRoom(all, d, "store")));
  return [...domains]
    .flatMap((d) =>
      (["service", "store", "routes"] as const)
        .filter((room) => !hasRoom(all, d, room))
        .map((room) => `${SERVER}${d}/${room}.ts is missing`),
    )
    .sort();
}

/** A zod object schema built in place: `z.object(`, `z .object(` or `z\n  .object(`. */
const ZOD_OBJECT = /\bz\s*\.\s*(?:strictObject|looseObject|object)\s*\(/;

/** Route files (those that register handlers, or named routes.ts) that build request schemas, which belong in src/api/. */
function schemasInRoutes(modules: Iterable<Module>): string[] {
  return [...modules]
    .filter(
      (m) => (isRoutes(m) || (m.path.startsWith(SERVER) && m.path.endsWith("/routes.ts"))) && ZOD_OBJECT.test(m.text),
    )
    .map((m) => `${m.path}: request schemas belong in src/api/`)
    .sort();
}

/** The authorization module: roles, permissions, the readable-workspaces filter. */
const AUTHZ = `${SERVER}auth/service/authz.ts`;

/** A file that renders documents (`render.ts`, `render-*.ts`, in a `render/` folder, or `include.ts`, the included ones). */
function isRenderer(path: string): boolean {
  return path.startsWith(SERVER) && /\/render(?:[-.][^/]*)?\.ts$|\/render\/[^/]+\.ts$|\/include\.ts$/.test(path);
}

/**
 * Routes and renderers that import the authorization module. Services decide each request
 * once: routes authenticate and call a service, renderers show the permissions the service
 * computed, so neither asks the authorization module again.
 */
function authorizationOutsideServices(modules: Iterable<Module>): string[] {
  return [...modules]
    .filter((m) => (isRoutes(m) || isRenderer(m.path)) && m.imports.includes(AUTHZ))
    .map((m) => `${m.path} -> ${AUTHZ}: authorization happens in services only`)
    .sort();
}

/**
 * Breaches of the room rules tolerated for now, each to be removed by moving the code to
 * its room. None is left; the list may only shrink: a breach not listed fails, and so
 * does a listed one that no longer occurs.
 */
const ALLOWED_ROOM_VIOLATIONS: string[] = [];

/**
 * Which domain owns each table: only its store reads or writes it; other domains reach
 * its records through that domain's service. A table missing here fails the check.
 */
const TABLE_OWNERS: Record<string, string> = {
  agent_pools: "agent-pool",
  agent_pool_workspaces: "agent-pool",
  agent_pool_projects: "agent-pool",
  agent_tokens: "agent-token",
  users: "auth",
  teams: "auth",
  team_members: "auth",
  tokens: "auth",
  team_workspaces: "auth",
  team_projects: "auth",
  organization_memberships: "auth",
  run_triggers: "run-trigger",
  notification_configurations: "notification",
  state_version_output_ids: "state-version",
  remote_state_consumers: "consumers",
  no_code_modules: "no-code",
  no_code_variable_options: "no-code",
  no_code_module_versions: "no-code",
  no_code_workspaces: "no-code",
  no_code_upgrades: "no-code",
  oauth_clients: "oauth",
  oauth_tokens: "oauth",
  organizations: "organization",
  projects: "project",
  registry_modules: "registry",
  registry_module_versions: "registry",
  data_retention_policies: "retention",
  runs: "run",
  ssh_keys: "ssh-key",
  state_versions: "state-version",
  tags: "tags",
  workspace_tags: "tags",
  workspace_tag_bindings: "tags",
  project_tag_bindings: "tags",
  workspaces: "workspace",
  vars: "variable",
  varsets: "variable",
  varset_workspaces: "variable",
  varset_projects: "variable",
  varset_vars: "variable",
  policy_set_params: "variable",
  policies: "policy",
  policy_sets: "policy",
  policy_set_policies: "policy",
  policy_set_workspaces: "policy",
  policy_set_projects: "policy",
  policy_set_versions: "policy",
  subscriptions: "site-admin",
  tool_versions: "site-admin",
};

/** SQL functions and SQLite's own tables, which no domain owns. */
const NOT_TABLES = new Set(["json_each", "sqlite_master", "pragma_table_info"]);

/** Each table a store names in its SQL (after FROM, JOIN, INTO, UPDATE, TABLE) that its domain does not own, as "store -> table (owner)". */
function foreignTables(modules: Iterable<Module>): string[] {
  const found = new Set<string>();
  for (const m of modules) {
    const domain = domainOf(m.path);
    if (domain === null || !isStore(m.path)) continue;
    for (const match of m.text.matchAll(/\b(?:FROM|JOIN|INTO|UPDATE|TABLE(?: IF NOT EXISTS)?)\s+([a-z_]+)\b/g)) {
      const table = match[1];
      if (NOT_TABLES.has(table)) continue;
      const owner = TABLE_OWNERS[table] ?? "no domain: add it to TABLE_OWNERS";
      if (owner !== domain) found.add(`${m.path} -> ${table} (${owner})`);
    }
  }
  return [...found].sort();
}

/**
 * Reads of other domains' tables that remain, each a join for a permission check, a
 * count or a rendering whose service call would close an import circle today. The list
 * may only shrink: a new one fails, and so does a listed one that no longer occurs.
 */
const ALLOWED_FOREIGN_TABLES: string[] = [
  "src/server/agent-pool/store.ts -> organizations (organization)",
  // A pool's allowed projects are checked and filtered by name; the project service checks pools through this domain.
  "src/server/agent-pool/store.ts -> projects (project)",
  "src/server/agent-pool/store.ts -> workspaces (workspace)",
  "src/server/auth/store/grants.ts -> organizations (organization)",
  "src/server/auth/store/grants.ts -> projects (project)",
  "src/server/auth/store/records.ts -> projects (project)",
  "src/server/auth/store/records.ts -> workspaces (workspace)",
  "src/server/auth/store/tokens.ts -> organizations (organization)",
  "src/server/organization/store.ts -> projects (project)",
  "src/server/organization/store.ts -> workspaces (workspace)",
  "src/server/project/store.ts -> workspaces (workspace)",
  "src/server/workspace/store.ts -> oauth_clients (oauth)",
  "src/server/workspace/store.ts -> oauth_tokens (oauth)",
  "src/server/workspace/store.ts -> organizations (organization)",
  "src/server/workspace/store.ts -> runs (run)",
  "src/server/workspace/store.ts -> teams (auth)",
  "src/server/workspace/store.ts -> users (auth)",
  "src/server/workspace/store.ts -> vars (variable)",
];

/**
 * Routes and renderers that still ask the authorization module themselves, each to be
 * removed by moving the check into the service. None is left; the list may only shrink.
 */
const ALLOWED_AUTHORIZATION_OUTSIDE_SERVICES: string[] = [];

describe("import graph of src/", () => {
  it("reads every file and resolves every relative import", () => {
    expect(graph.size).toBeGreaterThan(50);
    for (const m of graph.values())
      for (const target of m.imports) expect(graph.has(target), `${m.path} -> ${target}`).toBe(true);
  });

  it("has no circle", () => {
    expect(circles(graph).map((c) => `files importing each other in a circle: ${c.join(", ")}`)).toEqual([]);
  });

  it("the client and the resources never import the server, nor the server the client", () => {
    const crossings = [...graph.values()].flatMap((m) =>
      m.imports
        .filter((t) =>
          m.path.startsWith("src/client/") || m.path.startsWith("src/resources/")
            ? t.startsWith(SERVER)
            : m.path.startsWith(SERVER) && t.startsWith("src/client/"),
        )
        .map((t) => `${m.path} -> ${t}`),
    );
    expect(crossings).toEqual([]);
  });

  it("server rooms: services import no HTTP code; routes and stores import no other domain's store or routes (allowlist only shrinks)", () => {
    const found = roomViolations();
    expect(
      found.filter((v) => !ALLOWED_ROOM_VIOLATIONS.includes(v)),
      "new breach of the room rules: move the code to its room",
    ).toEqual([]);
    expect(
      ALLOWED_ROOM_VIOLATIONS.filter((v) => !found.includes(v)),
      "allowlisted breach no longer occurs: remove it from ALLOWED_ROOM_VIOLATIONS",
    ).toEqual([]);
  });
});

describe("the server's domains", () => {
  it("run SQL only in their store.ts files", () => {
    expect(sqlOutsideStores(graph.values())).toEqual([]);
  });

  it("each store touches only its own domain's tables (allowlist only shrinks)", () => {
    const found = foreignTables(graph.values());
    expect(found.length).toBeGreaterThan(0);
    expect(
      found.filter((v) => !ALLOWED_FOREIGN_TABLES.includes(v)),
      "a store reaches another domain's table: call that domain's service",
    ).toEqual([]);
    expect(
      ALLOWED_FOREIGN_TABLES.filter((v) => !found.includes(v)),
      "allowlisted read no longer occurs: remove it from ALLOWED_FOREIGN_TABLES",
    ).toEqual([]);
    // Every table created anywhere has an owner.
    for (const m of graph.values()) {
      for (const match of m.text.matchAll(/CREATE TABLE IF NOT EXISTS ([a-z_]+)/g))
        expect(TABLE_OWNERS[match[1]], match[1]).toBeDefined();
    }
  });

  it("each domain with tables has its service, store and routes", () => {
    expect(missingRooms(graph.keys())).toEqual([]);
    // The domains this layout was written for are all found as domains with tables.
    for (const d of [
      "workspace",
      "tags",
      "consumers",
      "state-version",
      "run",
      "no-code",
      "registry",
      "project",
      "organization",
      "auth",
    ]) {
      expect(hasRoom(new Set(graph.keys()), d, "store"), d).toBe(true);
    }
  });

  it("authorize only in services: routes and renderers never import the authorization module (allowlist only shrinks)", () => {
    expect(graph.has(AUTHZ)).toBe(true);
    const found = authorizationOutsideServices(graph.values());
    expect(
      found.filter((v) => !ALLOWED_AUTHORIZATION_OUTSIDE_SERVICES.includes(v)),
      "a route or renderer authorizes: let the service decide, and hand its result to the renderer",
    ).toEqual([]);
    expect(
      ALLOWED_AUTHORIZATION_OUTSIDE_SERVICES.filter((v) => !found.includes(v)),
      "allowlisted breach no longer occurs: remove it from ALLOWED_AUTHORIZATION_OUTSIDE_SERVICES",
    ).toEqual([]);
  });
});

describe("request schemas", () => {
  it("live in src/api/, the one source of the wire: no route file builds a zod object", () => {
    expect(schemasInRoutes(graph.values())).toEqual([]);
  });
});

describe("src/ files", () => {
  it(`are at most ${MAX_LINES} lines each: a file a reader takes in whole`, () => {
    const long = [...graph.values()]
      .map((m) => ({ path: m.path, lines: m.text.split("\n").length - (m.text.endsWith("\n") ? 1 : 0) }))
      .filter((f) => f.lines > MAX_LINES)
      .map((f) => `${f.path}: ${f.lines} lines`);
    expect(long).toEqual([]);
  });
});

describe("the resources", () => {
  it("providers keep no module-level state: what the process shares lives in src/resources/process/", () => {
    expect(stateInProviders(graph.values())).toEqual([]);
  });
});

describe("the layout checks themselves", () => {
  it("find a circle and a breach in a made-up graph", () => {
    const fake = new Map<string, Module>([
      ["a.ts", { path: "a.ts", text: "", imports: ["b.ts"], packages: [] }],
      ["b.ts", { path: "b.ts", text: "", imports: ["c.ts"], packages: [] }],
      ["c.ts", { path: "c.ts", text: "", imports: ["a.ts"], packages: [] }],
      ["d.ts", { path: "d.ts", text: "", imports: ["a.ts"], packages: [] }],
    ]);
    expect(circles(fake)).toEqual([["a.ts", "b.ts", "c.ts"]]);
    expect(isRoutes({ path: `${SERVER}x/index.ts`, text: "app.get<{ Params: {} }>(", imports: [], packages: [] })).toBe(
      true,
    );
    expect(
      isStore(`${SERVER}no-code/store.ts`) &&
        isService(`${SERVER}no-code/service.ts`) &&
        !isService(`${SERVER}no-code/store.ts`),
    ).toBe(true);
  });

  it("find a store reaching another domain's table", () => {
    const mod = (path: string, text: string): Module => ({ path, text, imports: [], packages: [] });
    expect(
      foreignTables([
        mod(
          `${SERVER}project/store.ts`,
          "SELECT p.id FROM projects p JOIN workspaces w ON w.project_id = p.id, json_each(x)",
        ),
        mod(`${SERVER}tags/store.ts`, "INSERT INTO workspace_tags (a) VALUES (1); UPDATE tags SET n = 1"),
        mod(`${SERVER}run/store.ts`, "DELETE FROM mystery"),
        mod(`${SERVER}run/service.ts`, "FROM workspaces"),
      ]),
    ).toEqual([
      `${SERVER}project/store.ts -> workspaces (workspace)`,
      `${SERVER}run/store.ts -> mystery (no domain: add it to TABLE_OWNERS)`,
    ]);
  });

  it("find SQL outside a store and a domain missing a room", () => {
    const mod = (path: string, text: string): Module => ({ path, text, imports: [], packages: [] });
    expect(
      sqlOutsideStores([
        mod(`${SERVER}x/service.ts`, "prepare(db, `SELECT 1`)"),
        mod(`${SERVER}x/routes.ts`, 'ctx.db.pragma("data_version")'),
        mod(`${SERVER}x/render.ts`, "db.exec(sql)"),
        mod(`${SERVER}x/list.ts`, "/^a$/.exec(text)"),
        mod(`${SERVER}x/store.ts`, "prepare(db, `SELECT 1`)"),
        mod(`${SERVER}store/db.ts`, 'db.pragma("foreign_keys = ON")'),
      ]),
    ).toEqual([
      `${SERVER}x/render.ts: SQL belongs in the domain's store.ts`,
      `${SERVER}x/routes.ts: SQL belongs in the domain's store.ts`,
      `${SERVER}x/service.ts: SQL belongs in the domain's store.ts`,
    ]);
    expect(
      missingRooms([`${SERVER}x/store.ts`, `${SERVER}x/routes.ts`, `${SERVER}y/index.ts`, `${SERVER}y/routes.ts`]),
    ).toEqual([`${SERVER}x/service.ts is missing`]);
    // A room divided into a folder counts as the room, and its files follow the room's rules.
    expect(
      missingRooms([
        `${SERVER}z/store/a.ts`,
        `${SERVER}z/service/b.ts`,
        `${SERVER}z/routes.ts`,
        `${SERVER}w/store/c.ts`,
      ]),
    ).toEqual([`${SERVER}w/routes.ts is missing`, `${SERVER}w/service.ts is missing`]);
    expect(sqlOutsideStores([mod(`${SERVER}z/store/a.ts`, "prepare(db, `SELECT 1`)")])).toEqual([]);
    expect(isService(`${SERVER}z/service/b.ts`) && !isService(`${SERVER}z/service/deep/c.ts`)).toBe(true);
  });

  it("find a route or a renderer that authorizes", () => {
    const mod = (path: string, text: string, imports: string[]): Module => ({ path, text, imports, packages: [] });
    expect(
      authorizationOutsideServices([
        mod(`${SERVER}x/routes.ts`, "app.get(", [AUTHZ]),
        mod(`${SERVER}x/render.ts`, "", [AUTHZ]),
        mod(`${SERVER}x/render-list.ts`, "", [AUTHZ]),
        mod(`${SERVER}x/include.ts`, "", [AUTHZ]),
        mod(`${SERVER}x/index.ts`, "app.post<{ Body: unknown }>(", [AUTHZ]),
        mod(`${SERVER}x/service.ts`, "", [AUTHZ]),
        mod(`${SERVER}x/routes.ts`, "app.get(", [`${SERVER}auth/service/caller.ts`]),
        mod(`${SERVER}x/renderer-notes.ts`, "", [AUTHZ]),
      ]),
    ).toEqual([
      `${SERVER}x/include.ts -> ${AUTHZ}: authorization happens in services only`,
      `${SERVER}x/index.ts -> ${AUTHZ}: authorization happens in services only`,
      `${SERVER}x/render-list.ts -> ${AUTHZ}: authorization happens in services only`,
      `${SERVER}x/render.ts -> ${AUTHZ}: authorization happens in services only`,
      `${SERVER}x/routes.ts -> ${AUTHZ}: authorization happens in services only`,
    ]);
  });

  it("find a request schema built in a route file", () => {
    const mod = (path: string, text: string): Module => ({ path, text, imports: [], packages: [] });
    expect(
      schemasInRoutes([
        mod(`${SERVER}x/routes.ts`, "const body = z\n  .object({ name: z.string() });"),
        mod(`${SERVER}x/index.ts`, "app.post('/x', h);\nconst b = z.looseObject({});"),
        mod(`${SERVER}x/service.ts`, "const b = z.object({});"),
        mod(`${SERVER}x/routes.ts`.replace("x/", "y/"), "import { bodySchema } from '../../api/x';\napp.get('/y', h);"),
        mod("src/api/x.ts", "export const bodySchema = z.object({});"),
      ]),
    ).toEqual([
      `${SERVER}x/index.ts: request schemas belong in src/api/`,
      `${SERVER}x/routes.ts: request schemas belong in src/api/`,
    ]);
  });

  it("find a provider that keeps state at module level", () => {
    const mod = (path: string, text: string): Module => ({ path, text, imports: [], packages: [] });
    expect(
      stateInProviders([
        mod(`${PROVIDERS}a.ts`, "import x from 'y';\nconst held = new Map<string, number>();"),
        mod(`${PROVIDERS}b.ts`, "export let count = 0;"),
        mod(`${PROVIDERS}c.ts`, "const seen = new WeakSet();"),
        mod(`${PROVIDERS}d.ts`, "const NAMES: ReadonlySet<string> = new Set(['a']);\nfunction f() {\n  let n = 0;\n}"),
        mod(`src/resources/process/e.ts`, "const held = new Map();"),
      ]),
    ).toEqual([
      `${PROVIDERS}a.ts: module-level state belongs in src/resources/process/`,
      `${PROVIDERS}b.ts: module-level state belongs in src/resources/process/`,
      `${PROVIDERS}c.ts: module-level state belongs in src/resources/process/`,
    ]);
  });
});
