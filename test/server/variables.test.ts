/**
 * Workspace variables and variable sets over real HTTP: the service's documents, a key
 * unique per owner and category, write-only sensitive values (never answered, never
 * logged, sealed in the database file), `version-id`, the 422s of bad input, lists and
 * their pages, and the precedence of `GET /workspaces/:id/all-vars`.
 */
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startServer, type RunningServer } from "../../src/server";
import { Api, createWorkspace, expectStatus, grant, makeTeam } from "./helpers";
import { storedVariables } from "./sealed";

const SECRET = "s3cr3t-value-that-must-never-leave-1f9a";
const vars = (attributes: Record<string, unknown>) => ({ data: { type: "vars", attributes } });
const varset = (attributes: Record<string, unknown>, relationships?: Record<string, unknown>) => ({
  data: { type: "varsets", attributes, ...(relationships ? { relationships } : {}) },
});

/** A file's bytes, or none when SQLite has not made it (a WAL already checkpointed). */
function readIfThere(file: string): Buffer {
  try {
    return readFileSync(file);
  } catch {
    return Buffer.alloc(0);
  }
}

let dir: string;
let server: RunningServer;
let api: Api;
let org: string;
let log = "";
let dbFile: string;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "ws-vars-"));
  dbFile = join(dir, "vars.db");
  server = await startServer({
    port: 0,
    db: dbFile,
    rateLimit: false,
    logLevel: "trace",
    logDestination: { write: (l) => (log += l) },
  });
  api = new Api(server.url, server.token);
  org = server.organization;
});
afterAll(async () => {
  await server.close();
  rmSync(dir, { recursive: true, force: true });
});

describe("workspace variables", () => {
  it("creates, reads, updates and deletes, in the service's shape", async () => {
    const ws = await createWorkspace(api, org, "vars-crud");
    const created = await expectStatus(
      api.post(
        `/workspaces/${ws.id}/vars`,
        vars({ key: "region", value: "eu-west-1", category: "terraform", description: "where" }),
      ),
      201,
    );
    const v = created.body.data;
    expect(v.id).toMatch(/^var-/);
    expect(v.attributes).toMatchObject({
      key: "region",
      value: "eu-west-1",
      category: "terraform",
      hcl: false,
      sensitive: false,
      description: "where",
    });
    expect(v.attributes["version-id"]).toMatch(/^[0-9a-f]{40}$/);
    expect(v.relationships.configurable.data).toEqual({ id: ws.id, type: "workspaces" });
    const read = await expectStatus(api.get(`/workspaces/${ws.id}/vars/${v.id}`), 200);
    expect(read.body.data).toEqual(v);
    const wsDoc = await expectStatus(api.get(`/workspaces/${ws.id}`), 200);
    expect(wsDoc.body.data.relationships.vars.data).toEqual([{ id: v.id, type: "vars" }]);

    const same = await expectStatus(api.patch(`/workspaces/${ws.id}/vars/${v.id}`, vars({})), 200);
    expect(same.body.data.attributes["version-id"]).not.toBe(v.attributes["version-id"]);
    const updated = await expectStatus(
      api.patch(`/workspaces/${ws.id}/vars/${v.id}`, vars({ key: "zone", value: "b", hcl: true, category: "env" })),
      200,
    );
    expect(updated.body.data.attributes).toMatchObject({
      key: "zone",
      value: "b",
      hcl: true,
      category: "env",
      description: "where",
    });

    await expectStatus(api.delete(`/workspaces/${ws.id}/vars/${v.id}`), 204);
    await expectStatus(api.get(`/workspaces/${ws.id}/vars/${v.id}`), 404);
    await expectStatus(api.delete(`/workspaces/${ws.id}/vars/${v.id}`), 404);
  });

  it("accepts engine and terraform, answering in the writer's spelling", async () => {
    const ws = await createWorkspace(api, org, "vars-spelling");
    const a = await expectStatus(api.post(`/workspaces/${ws.id}/vars`, vars({ key: "a", category: "engine" })), 201);
    expect(a.body.data.attributes).toMatchObject({ category: "engine", value: "" });
    // One key per category: `terraform` is the same category as `engine`, `env` another.
    const dup = await expectStatus(
      api.post(`/workspaces/${ws.id}/vars`, vars({ key: "a", category: "terraform" })),
      422,
    );
    expect(dup.body.errors[0]).toMatchObject({
      status: "422",
      detail: "Key has already been taken",
      source: { pointer: "/data/attributes/key" },
    });
    await expectStatus(api.post(`/workspaces/${ws.id}/vars`, vars({ key: "a", category: "env" })), 201);
  });

  it("answers bad input with the service's 422, naming the attribute", async () => {
    const ws = await createWorkspace(api, org, "vars-bad");
    const cases: [Record<string, unknown>, string][] = [
      [{ key: "", category: "env" }, "/data/attributes/key"],
      [{ key: "has space", category: "env" }, "/data/attributes/key"],
      [{ key: "A=B", category: "env" }, "/data/attributes/key"],
      [{ key: "ok", category: "policy-set" }, "/data/attributes/category"],
      [{ key: "ok" }, "/data/attributes/category"],
      [{ key: "ok", category: "env", description: "x".repeat(513) }, "/data/attributes/description"],
      [{ key: "ok", category: "env", hcl: "yes" }, "/data/attributes/hcl"],
    ];
    for (const [attributes, pointer] of cases) {
      const r = await expectStatus(api.post(`/workspaces/${ws.id}/vars`, vars(attributes)), 422);
      expect(r.body.errors.map((e: { source: { pointer: string } }) => e.source.pointer)).toContain(pointer);
    }
    const ok = await expectStatus(api.post(`/workspaces/${ws.id}/vars`, vars({ key: "k", category: "env" })), 201);
    await expectStatus(api.patch(`/workspaces/${ws.id}/vars/${ok.body.data.id}`, vars({ category: "nope" })), 422);
    await expectStatus(api.patch(`/workspaces/${ws.id}/vars/${ok.body.data.id}`, vars({ key: "" })), 422);
    await expectStatus(api.post(`/workspaces/${ws.id}/vars`, "{not json"), 400);
    expect((await api.get(`/workspaces/${ws.id}/vars`)).body.data).toHaveLength(1);
  });

  it("never answers, logs or stores in clear a sensitive value, and keeps it sensitive", async () => {
    const ws = await createWorkspace(api, org, "vars-sensitive");
    const bodies: string[] = [];
    const c = await expectStatus(
      api.post(`/workspaces/${ws.id}/vars`, vars({ key: "token", value: SECRET, category: "env", sensitive: true })),
      201,
    );
    bodies.push(c.text);
    const id = c.body.data.id;
    expect(c.body.data.attributes).toMatchObject({ value: null, sensitive: true });
    bodies.push((await api.get(`/workspaces/${ws.id}/vars/${id}`)).text);
    bodies.push((await api.get(`/workspaces/${ws.id}/vars`)).text);
    bodies.push((await api.get(`/workspaces/${ws.id}/all-vars`)).text);
    const renamed = await expectStatus(api.patch(`/workspaces/${ws.id}/vars/${id}`, vars({ description: "d" })), 200);
    bodies.push(renamed.text);
    const back = await expectStatus(api.patch(`/workspaces/${ws.id}/vars/${id}`, vars({ sensitive: false })), 422);
    expect(back.body.errors[0].source.pointer).toBe("/data/attributes/sensitive");
    // A readable variable made sensitive has its value sealed too.
    const plain = await expectStatus(
      api.post(`/workspaces/${ws.id}/vars`, vars({ key: "p", value: `${SECRET}-2`, category: "env" })),
      201,
    );
    const hidden = await expectStatus(
      api.patch(`/workspaces/${ws.id}/vars/${plain.body.data.id}`, vars({ sensitive: true })),
      200,
    );
    expect(hidden.body.data.attributes.value).toBeNull();
    bodies.push(hidden.text);
    for (const b of bodies) expect(b).not.toContain(SECRET);
    // The log searched holds the requests that carried the value, so its silence means something.
    const logged = log
      .split("\n")
      .filter(Boolean)
      .map((l) => JSON.parse(l) as { msg?: string; method?: string; path?: string; status?: number })
      .filter((l) => l.msg === "request" && l.path === `/api/v2/workspaces/${ws.id}/vars`);
    expect(logged.map((l) => [l.method, l.status])).toEqual(
      expect.arrayContaining([
        ["POST", 201],
        ["GET", 200],
      ]),
    );
    expect(log).not.toContain(SECRET);
    // The file searched holds the rows, sealed: the server opens them back to what was sent.
    const rows = storedVariables(dbFile, ws.id);
    expect(rows.map((r) => [r.id, r.sensitive, r.value])).toEqual([
      [plain.body.data.id, true, `${SECRET}-2`],
      [id, true, SECRET],
    ]);
    const bytes = Buffer.concat([readFileSync(dbFile), readIfThere(`${dbFile}-wal`)]);
    for (const r of rows)
      expect(bytes.includes(Buffer.from(r.stored)), `the database files hold row ${r.id}`).toBe(true);
    expect(bytes.includes(Buffer.from(SECRET))).toBe(false);
  });

  it("lists every variable, or a page when one is asked for", async () => {
    const ws = await createWorkspace(api, org, "vars-pages");
    for (let i = 0; i < 25; i++)
      await expectStatus(
        api.post(`/workspaces/${ws.id}/vars`, vars({ key: `k${String(i).padStart(2, "0")}`, category: "env" })),
        201,
      );
    const all = await expectStatus(api.get(`/workspaces/${ws.id}/vars`), 200);
    expect(all.body.data).toHaveLength(25);
    const p2 = await expectStatus(api.get(`/workspaces/${ws.id}/vars?page[number]=2&page[size]=10`), 200);
    expect(p2.body.data.map((v: { attributes: { key: string } }) => v.attributes.key)).toEqual(
      Array.from({ length: 10 }, (_, i) => `k${i + 10}`),
    );
    expect(p2.body.meta.pagination).toMatchObject({ "current-page": 2, "total-count": 25, "total-pages": 3 });
  });

  it("follows the team model: can-read-variable to read, can-update-variable to change", async () => {
    const ws = await createWorkspace(api, org, "vars-perms");
    const v = await expectStatus(
      api.post(`/workspaces/${ws.id}/vars`, vars({ key: "x", value: "1", category: "env" })),
      201,
    );
    const reader = await makeTeam(api, org, "var-readers");
    await grant(api, reader.id, ws.id, "read");
    const asReader = api.as(reader.token);
    await expectStatus(asReader.get(`/workspaces/${ws.id}/vars`), 200);
    await expectStatus(asReader.post(`/workspaces/${ws.id}/vars`, vars({ key: "y", category: "env" })), 403);
    await expectStatus(asReader.patch(`/workspaces/${ws.id}/vars/${v.body.data.id}`, vars({ value: "2" })), 403);
    const stranger = await makeTeam(api, org, "var-strangers");
    await expectStatus(api.as(stranger.token).get(`/workspaces/${ws.id}/vars`), 404);
  });
});

describe("variable sets", () => {
  it("creates, reads, updates, lists and deletes; a name is unique in the organization", async () => {
    const c = await expectStatus(
      api.post(`/organizations/${org}/varsets`, varset({ name: "creds", description: "cloud", global: false })),
      201,
    );
    const s = c.body.data;
    expect(s.id).toMatch(/^varset-/);
    expect(s.attributes).toMatchObject({ name: "creds", description: "cloud", global: false, priority: false });
    expect(s.relationships.parent.data).toEqual({ id: org, type: "organizations" });
    expect((await expectStatus(api.get(`/varsets/${s.id}`), 200)).body.data).toEqual(s);
    const taken = await expectStatus(api.post(`/organizations/${org}/varsets`, varset({ name: "creds" })), 422);
    expect(taken.body.errors[0]).toMatchObject({
      detail: "Name has already been taken",
      source: { pointer: "/data/attributes/name" },
    });
    await expectStatus(api.post(`/organizations/${org}/varsets`, varset({ name: "" })), 422);
    await expectStatus(api.post(`/organizations/${org}/varsets`, varset({ name: "x", global: "yes" })), 422);
    const other = await expectStatus(api.post(`/organizations/${org}/varsets`, varset({ name: "other" })), 201);
    await expectStatus(api.patch(`/varsets/${other.body.data.id}`, varset({ name: "creds" })), 422);
    const u = await expectStatus(api.patch(`/varsets/${s.id}`, varset({ priority: true, description: "new" })), 200);
    expect(u.body.data.attributes).toMatchObject({ name: "creds", description: "new", priority: true });
    const q = await expectStatus(api.get(`/organizations/${org}/varsets?q=cred`), 200);
    expect(q.body.data.map((d: { id: string }) => d.id)).toEqual([s.id]);
    const p = await expectStatus(api.get(`/organizations/${org}/varsets?page[number]=999&page[size]=100`), 200);
    expect(p.body.data).toEqual([]);
    expect(p.body.meta.pagination["current-page"]).toBe(999);
    await expectStatus(api.delete(`/varsets/${other.body.data.id}`), 204);
    await expectStatus(api.get(`/varsets/${other.body.data.id}`), 404);
  });

  it("holds variables with the same rules as a workspace's", async () => {
    const s = (await expectStatus(api.post(`/organizations/${org}/varsets`, varset({ name: "set-vars" })), 201)).body
      .data;
    const path = `/varsets/${s.id}/relationships/vars`;
    const v = await expectStatus(
      api.post(path, vars({ key: "pw", value: SECRET, category: "env", sensitive: true })),
      201,
    );
    expect(v.body.data.attributes.value).toBeNull();
    expect(v.body.data.relationships.varset.data).toEqual({ id: s.id, type: "varsets" });
    await expectStatus(api.post(path, vars({ key: "pw", category: "env" })), 422);
    const listed = await expectStatus(api.get(path), 200);
    expect(listed.text).not.toContain(SECRET);
    const upd = await expectStatus(api.patch(`${path}/${v.body.data.id}`, vars({ key: "password" })), 200);
    expect(upd.body.data.attributes["version-id"]).not.toBe(v.body.data.attributes["version-id"]);
    const withVars = await expectStatus(api.get(`/varsets/${s.id}?include=vars`), 200);
    expect(withVars.body.included.map((r: { id: string }) => r.id)).toEqual([v.body.data.id]);
    await expectStatus(api.get(`/varsets/${s.id}?include=nope`), 400);
    await expectStatus(api.delete(`${path}/${v.body.data.id}`), 204);
    expect(log).not.toContain(SECRET);
  });

  it("applies to and is removed from workspaces and projects, listed from each", async () => {
    const project = (
      await expectStatus(
        api.post(`/organizations/${org}/projects`, { data: { type: "projects", attributes: { name: "vs-prj" } } }),
        201,
      )
    ).body.data;
    const ws = await createWorkspace(
      api,
      org,
      "vs-target",
      {},
      { project: { data: { type: "projects", id: project.id } } },
    );
    const s = (await expectStatus(api.post(`/organizations/${org}/varsets`, varset({ name: "applied" })), 201)).body
      .data;
    const body = (type: string, id: string) => ({ data: [{ type, id }] });
    await expectStatus(api.post(`/varsets/${s.id}/relationships/workspaces`, body("workspaces", ws.id)), 204);
    await expectStatus(api.post(`/varsets/${s.id}/relationships/workspaces`, body("workspaces", ws.id)), 204);
    await expectStatus(api.post(`/varsets/${s.id}/relationships/projects`, body("projects", project.id)), 204);
    await expectStatus(api.post(`/varsets/${s.id}/relationships/workspaces`, body("workspaces", "ws-nope")), 422);
    const read = (await api.get(`/varsets/${s.id}`)).body.data;
    expect(read.relationships.workspaces.data).toEqual([{ id: ws.id, type: "workspaces" }]);
    expect(read.relationships.projects.data).toEqual([{ id: project.id, type: "projects" }]);
    const forWs = await expectStatus(api.get(`/workspaces/${ws.id}/varsets`), 200);
    expect(forWs.body.data.map((d: { id: string }) => d.id)).toContain(s.id);
    const forPrj = await expectStatus(api.get(`/projects/${project.id}/varsets`), 200);
    expect(forPrj.body.data.map((d: { id: string }) => d.id)).toEqual([s.id]);
    await expectStatus(api.delete(`/varsets/${s.id}/relationships/projects`, body("projects", project.id)), 204);
    await expectStatus(api.delete(`/varsets/${s.id}/relationships/workspaces`, body("workspaces", ws.id)), 204);
    expect((await api.get(`/projects/${project.id}/varsets`)).body.data).toEqual([]);
    expect((await api.get(`/workspaces/${ws.id}/varsets`)).body.data.map((d: { id: string }) => d.id)).not.toContain(
      s.id,
    );
  });

  it("resolves a workspace's effective variables by the service's precedence", async () => {
    const project = (
      await expectStatus(
        api.post(`/organizations/${org}/projects`, { data: { type: "projects", attributes: { name: "prec-prj" } } }),
        201,
      )
    ).body.data;
    const ws = await createWorkspace(api, org, "prec", {}, { project: { data: { type: "projects", id: project.id } } });
    const mkSet = async (name: string, attributes: Record<string, unknown>, values: Record<string, string>) => {
      const s = (await expectStatus(api.post(`/organizations/${org}/varsets`, varset({ name, ...attributes })), 201))
        .body.data;
      for (const [key, value] of Object.entries(values))
        await expectStatus(
          api.post(`/varsets/${s.id}/relationships/vars`, vars({ key, value, category: "terraform" })),
          201,
        );
      return s.id as string;
    };
    await mkSet("prec-global", { global: true }, { a: "global", b: "global", c: "global", d: "global", e: "global" });
    const onProject = await mkSet("prec-project", {}, { b: "project", c: "project", d: "project" });
    const onWs = await mkSet("prec-ws", {}, { c: "ws-set", d: "ws-set" });
    const first = await mkSet("prec-aa-priority", { priority: true }, { e: "priority" });
    await expectStatus(
      api.post(`/varsets/${onProject}/relationships/projects`, { data: [{ type: "projects", id: project.id }] }),
      204,
    );
    for (const id of [onWs, first])
      await expectStatus(
        api.post(`/varsets/${id}/relationships/workspaces`, { data: [{ type: "workspaces", id: ws.id }] }),
        204,
      );
    await expectStatus(
      api.post(`/workspaces/${ws.id}/vars`, vars({ key: "d", value: "own", category: "terraform" })),
      201,
    );
    await expectStatus(
      api.post(`/workspaces/${ws.id}/vars`, vars({ key: "e", value: "own", category: "terraform" })),
      201,
    );
    await expectStatus(
      api.post(`/workspaces/${ws.id}/vars`, vars({ key: "a", value: "own-env", category: "env" })),
      201,
    );
    const all = await expectStatus(api.get(`/workspaces/${ws.id}/all-vars`), 200);
    const byKey = Object.fromEntries(
      all.body.data.map((v: { attributes: { key: string; category: string; value: string } }) => [
        `${v.attributes.category}:${v.attributes.key}`,
        v.attributes.value,
      ]),
    );
    expect(byKey).toEqual({
      "terraform:a": "global",
      "env:a": "own-env",
      "terraform:b": "project",
      "terraform:c": "ws-set",
      "terraform:d": "own",
      "terraform:e": "priority",
    });
  });
});
