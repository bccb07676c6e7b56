// CI: also on Node 22 (.ci/node22): better-sqlite3, a native module built per Node version, on disk.
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import Database from "better-sqlite3";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startServer } from "../../src/server";
import { DOMAINS } from "../../src/server/domains";
import { migrate, openDatabase } from "../../src/server/store/db";
import { MIGRATIONS, type Migration } from "../../src/server/store/schema";
import { Api, createWorkspace, expectStatus, manageResources, makeTeam, grant } from "./helpers";
import { createFromModule, enableModule, publishModule } from "./no-code-support";

/**
 * Database files across releases: a file written before schema versions were recorded
 * (user_version 0, tables present) opens with every record intact and is brought to the
 * newest version; a file from a newer build is refused untouched.
 */
const TOKEN = "migration-test-owners-token";
const PUBLIC_URL = "http://workspaces.test";
const LATEST = MIGRATIONS[MIGRATIONS.length - 1].version;

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), "ws-migrations-"));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const serve = (file: string) =>
  startServer({ port: 0, db: file, token: TOKEN, rateLimit: false, publicUrl: PUBLIC_URL, runSpeed: 1000 });

/** Writes one record of every kind over HTTP; returns the paths that read them back. */
async function writeRecords(api: Api, org: string): Promise<string[]> {
  const bindings = { data: [{ type: "tag-bindings", attributes: { key: "env", value: "prod" } }] };
  const project = await expectStatus(
    api.post(`/organizations/${org}/projects`, {
      data: { type: "projects", attributes: { name: "payments" }, relationships: { "tag-bindings": bindings } },
    }),
    201,
  );
  const projectId = project.body.data.id as string;
  const key = await expectStatus(
    api.post(`/organizations/${org}/ssh-keys`, {
      data: { type: "ssh-keys", attributes: { name: "deploy", value: "-----BEGIN KEY-----" } },
    }),
    201,
  );
  const ws = await createWorkspace(
    api,
    org,
    "api",
    { "tag-names": ["blue", "edge"], description: "the api", "execution-mode": "local" },
    { project: { data: { type: "projects", id: projectId } }, "tag-bindings": bindings },
  );
  const reader = await createWorkspace(api, org, "reader");
  await expectStatus(
    api.patch(`/workspaces/${ws.id}/relationships/ssh-key`, {
      data: { type: "workspaces", attributes: { id: key.body.data.id } },
    }),
    200,
  );
  await expectStatus(
    api.post(`/workspaces/${ws.id}/relationships/remote-state-consumers`, {
      data: [{ type: "workspaces", id: reader.id }],
    }),
    204,
  );
  await manageResources(api, ws.id, 3);
  const team = await makeTeam(api, org, "platform");
  const access = await grant(api, team.id, ws.id, "write");
  const moduleId = await publishModule(api, org, "network", ["1.0.0"]);
  const noCode = await enableModule(api, org, moduleId, {}, [{ name: "region", options: ["eu", "us"] }]);
  const fromModule = await createFromModule(api, noCode.id, "net-eu", [
    { key: "region", value: "eu" },
    { key: "secret", value: "s3cr3t", sensitive: true },
  ]);
  return [
    `/organizations/${org}`,
    `/organizations/${org}/projects`,
    `/organizations/${org}/workspaces`,
    `/organizations/${org}/ssh-keys`,
    `/organizations/${org}/tags`,
    `/organizations/${org}/teams`,
    `/organizations/${org}/registry-modules`,
    `/projects/${projectId}/tag-bindings`,
    `/workspaces/${ws.id}`,
    `/workspaces/${ws.id}/tag-bindings`,
    `/workspaces/${ws.id}/relationships/remote-state-consumers`,
    `/workspaces/${ws.id}/current-state-version`,
    `/team-workspaces/${access.body.data.id}`,
    `/no-code-modules/${noCode.id}`,
    `/workspaces/${fromModule.id}`,
    `/workspaces/${fromModule.id}/vars`,
  ];
}

async function readAll(api: Api, paths: string[]): Promise<Record<string, unknown>> {
  const docs: Record<string, unknown> = {};
  for (const path of paths) docs[path] = (await expectStatus(api.get(path), 200)).body;
  return docs;
}

function userVersion(file: string): number {
  const db = new Database(file);
  try {
    return db.pragma("user_version", { simple: true }) as number;
  } finally {
    db.close();
  }
}

/** Runs `sql` on the closed file, as another build would have left it. */
function rewrite(file: string, sql: string): void {
  const db = new Database(file);
  try {
    db.exec(sql);
  } finally {
    db.close();
  }
}

function rowCount(file: string, table: string): number {
  const db = new Database(file, { readonly: true });
  try {
    return (db.prepare(`SELECT count(*) AS n FROM "${table}"`).get() as { n: number }).n;
  } finally {
    db.close();
  }
}

/** Every table and index definition, as SQLite keeps it, one statement per paragraph. */
function schemaText(db: Database.Database): string {
  const rows = db.prepare(`SELECT sql FROM sqlite_master WHERE sql IS NOT NULL ORDER BY type DESC, name`).all() as {
    sql: string;
  }[];
  return rows.map((r) => `${r.sql};\n`).join("\n");
}

describe("schema migrations", () => {
  it("migration 1 creates exactly the shipped schema; a change of a table is a new migration", () => {
    const db = new Database(":memory:");
    try {
      migrate(db, DOMAINS, MIGRATIONS.slice(0, 1));
      // When this fails, a table or index of schema version 1 was edited: files at version 1
      // would never get the change. Revert it and append a migration instead.
      expect(schemaText(db)).toBe(readFileSync(join(__dirname, "fixtures/schema-1.sql"), "utf8"));
    } finally {
      db.close();
    }
  });

  it("applies pending migrations in order, in one transaction: a failing step leaves the file as it was", () => {
    const file = join(dir, "steps.db");
    const db = openDatabase(file);
    try {
      migrate(db, DOMAINS);
      const add: Migration = {
        version: LATEST + 1,
        description: "a table",
        up: (d) => d.exec(`CREATE TABLE extra (id TEXT PRIMARY KEY)`),
      };
      const broken: Migration = {
        version: LATEST + 2,
        description: "fails",
        up: () => {
          throw new Error("step failed");
        },
      };
      expect(() => migrate(db, DOMAINS, [...MIGRATIONS, add, broken])).toThrow("step failed");
      expect(db.pragma("user_version", { simple: true })).toBe(LATEST);
      expect(db.prepare(`SELECT name FROM sqlite_master WHERE name = 'extra'`).all()).toEqual([]);
      const column: Migration = {
        version: LATEST + 2,
        description: "a column",
        up: (d) => d.exec(`ALTER TABLE extra ADD COLUMN note TEXT`),
      };
      migrate(db, DOMAINS, [...MIGRATIONS, add, column]);
      expect(db.pragma("user_version", { simple: true })).toBe(LATEST + 2);
      expect(
        (db.prepare(`SELECT name FROM pragma_table_info('extra')`).all() as { name: string }[]).map((c) => c.name),
      ).toEqual(["id", "note"]);
    } finally {
      db.close();
    }
  });

  it("a new file is created at the newest schema version", async () => {
    const file = join(dir, "fresh.db");
    const server = await serve(file);
    await server.close();
    expect(userVersion(file)).toBe(LATEST);
  });

  it("a file written before schema versions were recorded opens with every record, at the newest version", async () => {
    const file = join(dir, "release.db");
    const first = await serve(file);
    const api = new Api(first.url, first.token);
    const paths = await writeRecords(api, first.organization);
    const before = await readAll(api, paths);
    await first.close();
    // The release before migrations wrote migration 1's tables and left user_version at 0.
    rewrite(file, "PRAGMA user_version = 0");
    const workspacesBefore = rowCount(file, "workspaces");

    const second = await serve(file);
    try {
      const after = await readAll(new Api(second.url, second.token), paths);
      for (const path of paths) expect(after[path], path).toEqual(before[path]);
    } finally {
      await second.close();
    }
    expect(userVersion(file)).toBe(LATEST);
    expect(rowCount(file, "workspaces")).toBe(workspacesBefore);
  });

  it("columns that builds before migrations added later are added, rows kept, with their defaults", async () => {
    const file = join(dir, "older.db");
    const first = await serve(file);
    const api = new Api(first.url, first.token);
    const project = await expectStatus(
      api.post(`/organizations/${first.organization}/projects`, {
        data: { type: "projects", attributes: { name: "old" } },
      }),
      201,
    );
    const ws = await createWorkspace(api, first.organization, "old-ws");
    await first.close();
    rewrite(
      file,
      `PRAGMA user_version = 0;
       ALTER TABLE organizations DROP COLUMN default_execution_mode;
       ALTER TABLE organizations DROP COLUMN default_agent_pool_id;
       ALTER TABLE projects DROP COLUMN default_execution_mode;
       ALTER TABLE projects DROP COLUMN default_agent_pool_id;
       ALTER TABLE vars DROP COLUMN category_spelling;`,
    );

    const second = await serve(file);
    try {
      const again = new Api(second.url, second.token);
      const org = await expectStatus(again.get(`/organizations/${second.organization}`), 200);
      expect(org.body.data.attributes["default-execution-mode"]).toBe("remote");
      expect((await expectStatus(again.get(`/projects/${project.body.data.id}`), 200)).body.data.attributes.name).toBe(
        "old",
      );
      expect((await expectStatus(again.get(`/workspaces/${ws.id}`), 200)).body.data.attributes.name).toBe("old-ws");
    } finally {
      await second.close();
    }
    expect(userVersion(file)).toBe(LATEST);
  });

  it("a file from a newer build is refused with the versions named, and left untouched", async () => {
    const file = join(dir, "newer.db");
    const first = await serve(file);
    await createWorkspace(new Api(first.url, first.token), first.organization, "kept");
    await first.close();
    rewrite(file, `PRAGMA user_version = ${LATEST + 1}`);
    const workspaces = rowCount(file, "workspaces");

    await expect(serve(file)).rejects.toThrow(
      `has schema version ${LATEST + 1}, newer than this build knows (${LATEST}); run the release that wrote it, or a newer one`,
    );
    expect(userVersion(file)).toBe(LATEST + 1);
    expect(rowCount(file, "workspaces")).toBe(workspaces);
  });

  it("a file holding other tables is refused, not written to", async () => {
    const file = join(dir, "foreign.db");
    rewrite(file, "CREATE TABLE notes (id INTEGER PRIMARY KEY, body TEXT)");
    await expect(serve(file)).rejects.toThrow(/holds tables this server did not write \(notes\)/);
    const db = new Database(file, { readonly: true });
    try {
      expect(db.prepare(`SELECT name FROM sqlite_master WHERE type = 'table'`).all()).toEqual([{ name: "notes" }]);
    } finally {
      db.close();
    }
  });
});
