/**
 * The server and the workspace field table (src/api/workspace-fields.ts) name the same
 * attributes: every table line with a request schema is stored (in the `settings` JSON
 * of the row, or where the server's OUTSIDE_SETTINGS says), updated and rendered, and
 * the server stores and renders no attribute the table lacks. Checked on a real server
 * over HTTP, with its SQLite file read back.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import Database from "better-sqlite3";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { workspaceFieldEntries, type FieldDef } from "../../src/api/workspace-fields";
import { OUTSIDE_SETTINGS } from "../../src/server/workspace/stored-fields";
import { createWorkspace, start, type TestServer } from "./helpers";

const lines = workspaceFieldEntries as ReadonlyArray<[string, FieldDef]>;
const settable = lines.filter(([, f]) => f.write !== undefined);
/** Every attribute name the table knows: wire names and neutral spellings. */
const tableNames = new Set(lines.flatMap(([, f]) => [f.wire, f.alias].filter((n): n is string => !!n)));

/** Settable lines whose values are objects, checked by their own tests (workspaces.test.ts, compat-*.test.ts). */
const OBJECT_LINES = ["vcsRepo", "settingOverwrites"];
/** Lines whose value is a reference to another record, checked by the agent-pool tests. */
const REFERENCE_LINES = ["agentPoolId"];

const SAMPLES: unknown[] = [false, true, ["a/", "b/"], "local", "1.5.0", "14d", "2031-01-02T03:04:05Z", "renamed-ws"];

/** Values to try for a line, in order: those its request schema takes that differ from `current`. The first the server accepts must come back as sent. */
function candidates(line: FieldDef, current: unknown): unknown[] {
  const schema = line.write === "read" ? line.read! : line.write!;
  return SAMPLES.filter((v) => schema.safeParse(v).success && JSON.stringify(v) !== JSON.stringify(current));
}

describe("the server against the workspace field table", () => {
  let t: TestServer;
  let dir: string;
  let file: string;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), "ws-fields-"));
    file = join(dir, "server.db");
    t = await start({ db: file });
  });
  afterAll(async () => {
    await t.server.close();
    rmSync(dir, { recursive: true, force: true });
  });

  function storedSettings(id: string): Record<string, unknown> {
    const db = new Database(file, { readonly: true });
    try {
      const row = db.prepare(`SELECT settings FROM workspaces WHERE id = ?`).get(id) as { settings: string };
      return JSON.parse(row.settings) as Record<string, unknown>;
    } finally {
      db.close();
    }
  }

  it("stores every settable line, and nothing the table lacks", async () => {
    const ws = await createWorkspace(t.api, t.org, "stored");
    const stored = storedSettings(ws.id);
    for (const [key, line] of settable) {
      if (key in OUTSIDE_SETTINGS) continue;
      expect(Object.keys(stored), `line ${key} is not stored`).toContain(line.alias ?? line.wire);
    }
    for (const name of Object.keys(stored)) expect(tableNames, `stored ${name} is not in the table`).toContain(name);
    // The declared exceptions are table lines with a request schema.
    for (const key of Object.keys(OUTSIDE_SETTINGS)) expect(settable.map(([k]) => k)).toContain(key);
  });

  it("renders every settable line, and no attribute the table lacks", async () => {
    const ws = await createWorkspace(t.api, t.org, "rendered");
    for (const [key, line] of settable) {
      const shown = line.wire! in ws.attributes || (line.rel !== undefined && line.rel in ws.relationships);
      expect(shown, `line ${key} is not rendered`).toBe(true);
    }
    for (const name of Object.keys(ws.attributes)) expect(tableNames, `${name} is not in the table`).toContain(name);
    const listed = await t.api.get(`/organizations/${t.org}/workspaces`);
    for (const doc of listed.body.data as { attributes: Record<string, unknown> }[])
      for (const name of Object.keys(doc.attributes)) expect(tableNames).toContain(name);
  });

  it("creates a new workspace with each line's default where the request leaves it out", async () => {
    const ws = await createWorkspace(t.api, t.org, "defaults");
    for (const [key, line] of settable) {
      if (line.absent === undefined || key in OUTSIDE_SETTINGS || key === "engineVersion") continue;
      expect(ws.attributes[line.wire!], `default of ${key}`).toEqual(line.absent);
    }
    // The server's own default (fields.ts SERVER_DEFAULTS): the latest engine release.
    expect(ws.attributes["terraform-version"]).toMatch(/^\d+\.\d+\.\d+$/);
  });

  it("updates every plain settable line and renders the value back", async () => {
    const ws = await createWorkspace(t.api, t.org, "updated");
    const untried: string[] = [];
    for (const [key, line] of settable) {
      if (OBJECT_LINES.includes(key) || REFERENCE_LINES.includes(key)) {
        untried.push(key);
        continue;
      }
      let accepted = false;
      const before = (await t.api.get(`/workspaces/${ws.id}`)).body.data.attributes;
      for (const value of candidates(line, before[line.wire!])) {
        const r = await t.api.patch(`/workspaces/${ws.id}`, {
          data: { type: "workspaces", attributes: { [line.wire!]: value } },
        });
        if (r.status !== 200) continue;
        accepted = true;
        const shown = (await t.api.get(`/workspaces/${ws.id}`)).body.data.attributes;
        expect(shown[line.wire!], `${key} after an update`).toEqual(value);
        if (line.alias) expect(shown[line.alias], `${key} under ${line.alias}`).toEqual(value);
        if (!(key in OUTSIDE_SETTINGS)) expect(storedSettings(ws.id)[line.alias ?? line.wire!]).toEqual(value);
        break;
      }
      expect(accepted, `no value of ${key} was accepted`).toBe(true);
    }
    expect(untried.sort()).toEqual([...OBJECT_LINES, ...REFERENCE_LINES].sort());
  });

  it("takes the neutral spelling of a line as well as its wire name", async () => {
    const withAlias = settable.filter(([, f]) => f.alias);
    expect(withAlias.length).toBeGreaterThan(0);
    for (const [key, line] of withAlias) {
      const ws = await createWorkspace(t.api, t.org, `alias-${key}`, { [line.alias!]: "1.6.0" });
      expect(ws.attributes[line.wire!]).toBe("1.6.0");
      expect(ws.attributes[line.alias!]).toBe("1.6.0");
    }
  });
});
