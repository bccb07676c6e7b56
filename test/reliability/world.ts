/**
 * A populated server on a file database, plus a second read-only connection to that file
 * so a test can dump the whole database between requests without going through the API.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import Database from "better-sqlite3";
import { tokenDigest } from "../../src/server/auth/service/authn";
import type { ServerOptions } from "../../src/server/context";
import { loadKey, secretBox, type SecretBox } from "../../src/server/secrets";
import { expect } from "vitest";
import { createFromModule, enableModule, publishModule, upgradePath } from "../server/no-code-support";
import {
  type Api,
  createWorkspace,
  expectStatus,
  makeTeam,
  makeUser,
  grant,
  start,
  type TestServer,
} from "../server/helpers";

export const OTHER_ORG = "other-org";
export const VICTIM_ORG = "victim-org";

/** Every kind of token the service knows, in the organization under test and outside it. */
export interface Tokens {
  owner: string;
  org: string;
  teamRead: string;
  teamWrite: string;
  user: string;
  otherOrg: string;
}

export interface Fixtures {
  workspaces: string[];
  otherWorkspaces: string[];
  projects: string[];
  teams: string[];
  users: string[];
  noCodeModules: string[];
  upgradeRuns: string[];
}

export class World {
  readonly read: Database.Database;
  private readonly tableStatements = new Map<string, Database.Statement>();
  private idTables: string[] = [];

  constructor(
    readonly test: TestServer,
    readonly dir: string,
    readonly file: string,
    readonly tokens: Tokens,
    readonly fixtures: Fixtures,
  ) {
    this.read = new Database(file, { readonly: true, fileMustExist: true });
    this.idTables = (
      this.read.prepare(`SELECT m.name FROM sqlite_master m WHERE m.type = 'table'`).all() as { name: string }[]
    )
      .map((r) => r.name)
      .filter(
        (t) => (this.read.prepare(`SELECT 1 FROM pragma_table_info(?) WHERE name = 'id'`).get(t) ?? null) !== null,
      );
  }

  /** The server's key, read from beside the database file as the server left it there. */
  get secrets(): SecretBox {
    return secretBox(loadKey({ db: this.file }));
  }

  get api(): Api {
    return this.test.api;
  }

  get org(): string {
    return this.test.org;
  }

  /**
   * The whole database as one string: the schema, then every table's rows in a stable
   * order. Two equal dumps mean no row, column or table changed.
   */
  dump(): string {
    const tables = this.read.prepare(`SELECT type, name, sql FROM sqlite_master ORDER BY type, name`).all() as {
      type: string;
      name: string;
      sql: string;
    }[];
    const parts: string[] = [JSON.stringify(tables)];
    for (const t of tables) {
      if (t.type !== "table") continue;
      let stmt = this.tableStatements.get(t.name);
      if (!stmt) {
        stmt = this.read.prepare(`SELECT * FROM "${t.name.replace(/"/g, '""')}"`).raw(true);
        this.tableStatements.set(t.name, stmt);
      }
      const rows = (stmt.all() as unknown[][]).map((r) => JSON.stringify(r)).sort();
      parts.push(`${t.name}:${rows.join("\n")}`);
    }
    return parts.join("\n\n");
  }

  /**
   * SQLite's counter of commits made by other connections: unchanged means nobody (the
   * server) committed anything since the last look, a cheaper proof than a dump.
   */
  dataVersion(): number {
    return this.read.pragma("data_version", { simple: true }) as number;
  }

  /**
   * Waits until background work a request started (a simulated run finishing) has
   * committed, so the next snapshot is not overtaken by it.
   */
  async settle(): Promise<void> {
    let last = this.dataVersion();
    for (let i = 0; i < 40; i++) {
      await new Promise((r) => setTimeout(r, 10));
      const v = this.dataVersion();
      if (v === last && i >= 1) return;
      last = v;
    }
  }

  /** Some id that exists right now in some table (workspace, team, key, tag, run, ...). */
  liveId(pick: number): string | null {
    const table = this.idTables[pick % this.idTables.length];
    const n = (this.read.prepare(`SELECT COUNT(*) AS n FROM "${table}"`).get() as { n: number }).n;
    if (n === 0) return null;
    const row = this.read.prepare(`SELECT id FROM "${table}" LIMIT 1 OFFSET ?`).get(pick % n) as
      { id: string } | undefined;
    return row ? String(row.id) : null;
  }

  workspaceName(id: string): string | null {
    const row = this.read.prepare(`SELECT name FROM workspaces WHERE id = ?`).get(id) as { name: string } | undefined;
    return row?.name ?? null;
  }

  tokenValid(token: string): boolean {
    return !!this.read.prepare(`SELECT 1 FROM tokens WHERE digest = ?`).get(tokenDigest(token));
  }

  /**
   * Puts back whatever a successful request took away (a deleted workspace, a revoked
   * token), so the next generated requests still find real targets.
   */
  async repair(): Promise<void> {
    const owner = this.api;
    const exists = (table: string, id: string) => !!this.read.prepare(`SELECT 1 FROM "${table}" WHERE id = ?`).get(id);
    if (!this.read.prepare(`SELECT 1 FROM organizations WHERE name = ?`).get(OTHER_ORG)) {
      await expectStatus(
        owner.post(`/organizations`, { data: { type: "organizations", attributes: { name: OTHER_ORG } } }),
        201,
      );
      this.fixtures.otherWorkspaces.length = 0;
    }
    if (!this.read.prepare(`SELECT 1 FROM organizations WHERE name = ?`).get(VICTIM_ORG)) {
      await expectStatus(
        owner.post(`/organizations`, { data: { type: "organizations", attributes: { name: VICTIM_ORG } } }),
        201,
      );
    }
    for (const [list, org] of [
      [this.fixtures.workspaces, this.org],
      [this.fixtures.otherWorkspaces, OTHER_ORG],
    ] as const) {
      for (let i = 0; i < 3; i++) {
        if (list[i] && exists("workspaces", list[i])) continue;
        list[i] = (
          await createWorkspace(
            owner,
            org,
            `fixture-${i}-${Date.now().toString(36)}-${Math.floor(Math.random() * 1e6)}`,
          )
        ).id;
      }
    }
    if (!this.fixtures.projects[0] || !exists("projects", this.fixtures.projects[0])) {
      const p = await expectStatus(
        owner.post(`/organizations/${this.org}/projects`, {
          data: { type: "projects", attributes: { name: `fixture-${Date.now()}-${Math.floor(Math.random() * 1e6)}` } },
        }),
        201,
      );
      this.fixtures.projects[0] = p.body.data.id;
    }
    if (!this.tokenValid(this.tokens.org)) this.tokens.org = await orgToken(owner, this.org);
    if (!this.tokenValid(this.tokens.otherOrg)) this.tokens.otherOrg = await orgToken(owner, OTHER_ORG);
    for (const [key, access] of [
      ["teamRead", "read"],
      ["teamWrite", "write"],
    ] as const) {
      if (this.tokenValid(this.tokens[key])) continue;
      const team = await makeTeam(owner, this.org, `${key}-${Date.now()}-${Math.floor(Math.random() * 1e6)}`);
      await grant(owner, team.id, this.fixtures.workspaces[0], access);
      this.fixtures.teams.push(team.id);
      this.tokens[key] = team.token;
    }
    if (!this.tokenValid(this.tokens.user)) {
      const u = await makeUser(owner, `user-${Date.now()}-${Math.floor(Math.random() * 1e6)}`);
      this.fixtures.users.push(u.id);
      this.tokens.user = u.token;
    }
  }

  async close(): Promise<void> {
    this.read.close();
    await this.test.server.close();
    rmSync(this.dir, { recursive: true, force: true });
  }
}

async function orgToken(api: Api, org: string): Promise<string> {
  const r = await expectStatus(api.post(`/organizations/${org}/authentication-token`), 201);
  return r.body.data.attributes.token as string;
}

/** Starts a server on a fresh file database and fills it with a bit of everything. */
export async function startWorld(options: ServerOptions = {}): Promise<World> {
  const dir = mkdtempSync(join(tmpdir(), "ws-reliability-"));
  const file = join(dir, "workspaces.db");
  // Simulated runs finish at once, so no background step commits long after a request.
  const test = await start({
    db: file,
    rateLimit: false,
    selfManaged: true,
    runSpeed: Number.POSITIVE_INFINITY,
    ...options,
  });
  const tokens: Tokens = { owner: test.server.token, org: "", teamRead: "", teamWrite: "", user: "", otherOrg: "" };
  const fixtures: Fixtures = {
    workspaces: [],
    otherWorkspaces: [],
    projects: [],
    teams: [],
    users: [],
    noCodeModules: [],
    upgradeRuns: [],
  };
  const world = new World(test, dir, file, tokens, fixtures);
  await world.repair();
  const api = test.api;
  const [w0, w1, w2] = fixtures.workspaces;
  // A spread of state, so requests meet locks, tags, bindings, consumers, keys and runs.
  await expectStatus(api.post(`/workspaces/${w1}/actions/lock`, { reason: "fixture" }), 200);
  await expectStatus(
    api.post(`/workspaces/${w2}/relationships/tags`, { data: [{ type: "tags", attributes: { name: "fixture-tag" } }] }),
    204,
  );
  await expectStatus(
    api.patch(`/workspaces/${w2}`, {
      data: {
        type: "workspaces",
        relationships: {
          "tag-bindings": { data: [{ type: "tag-bindings", attributes: { key: "env", value: "test" } }] },
        },
      },
    }),
    200,
  );
  await expectStatus(
    api.post(`/workspaces/${w2}/relationships/remote-state-consumers`, { data: [{ type: "workspaces", id: w0 }] }),
    204,
  );
  await expectStatus(
    api.post(`/organizations/${test.org}/ssh-keys`, {
      data: { type: "ssh-keys", attributes: { name: "fixture-key", value: "-----BEGIN KEY-----" } },
    }),
    201,
  );
  await expectStatus(
    api.post(`/organizations/${test.org}/agent-pools`, {
      data: { type: "agent-pools", attributes: { name: "fixture-pool" } },
    }),
    201,
  );
  await expectStatus(
    api.post(`/runs`, {
      data: { type: "runs", relationships: { workspace: { data: { type: "workspaces", id: w0 } } } },
    }),
    201,
  );
  const moduleId = await publishModule(api, test.org, "fixture-module", ["1.0.0", "1.1.0"]);
  const noCode = await enableModule(api, test.org, moduleId, { "version-pin": "1.0.0" }, [
    { name: "region", options: ["eu", "us"] },
  ]);
  const fromModule = await createFromModule(api, noCode.id, "fixture-from-module", [{ key: "region", value: "eu" }]);
  fixtures.workspaces.push(fromModule.id);
  const upgrade = await expectStatus(
    api.post(upgradePath(noCode.id, fromModule.id), {
      data: { type: "workspaces", relationships: { vars: { data: [] } } },
    }),
    200,
  );
  expect(upgrade.body.data.id).toMatch(/^run-/);
  fixtures.noCodeModules.push(noCode.id);
  fixtures.upgradeRuns.push(upgrade.body.data.id);
  await world.settle();
  return world;
}
