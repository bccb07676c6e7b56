/**
 * The client's variables and variable sets against the local server: typed results, the
 * wire's `terraform` read as `engine`, a sensitive value never read back (but stored
 * intact, opened from the database file with the server's key), 422s as
 * ValidationError, paged set lists, and effective variables with their sources.
 */
import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { NotFoundError, ValidationError } from "../../src/client";
import { storedVariables } from "../server/sealed";
import { failure, uniqueName, useServer } from "./helpers";

const t = useServer();

describe("workspace variables", () => {
  it("creates, reads, updates, lists and deletes", async () => {
    const ws = await t.client.workspaces.create(t.org, { name: uniqueName("vars") });
    const v = await t.client.variables.create(ws.id, {
      key: "region",
      value: "eu",
      category: "engine",
      description: "d",
    });
    expect(v).toMatchObject({
      key: "region",
      value: "eu",
      category: "engine",
      hcl: false,
      sensitive: false,
      workspaceId: ws.id,
    });
    expect(v.versionId).toBeTruthy();
    const u = await t.client.variables.update(ws.id, v.id, { value: "us", hcl: true });
    expect(u).toMatchObject({ value: "us", hcl: true, description: "d" });
    expect(u.versionId).not.toBe(v.versionId);
    expect(await t.client.variables.read(ws.id, v.id)).toEqual(u);
    expect(await t.client.variables.list(ws.id)).toEqual([u]);
    await t.client.variables.delete(ws.id, v.id);
    expect(await failure(t.client.variables.read(ws.id, v.id))).toBeInstanceOf(NotFoundError);
  });

  it("never reads a sensitive value back, and reports a taken key as a ValidationError", async () => {
    const ws = await t.client.workspaces.create(t.org, { name: uniqueName("secret") });
    const v = await t.client.variables.create(ws.id, {
      key: "TOKEN",
      value: "hunter2",
      category: "env",
      sensitive: true,
    });
    expect(v.value).toBeNull();
    expect(JSON.stringify(await t.client.variables.list(ws.id))).not.toContain("hunter2");
    const err = await failure(t.client.variables.create(ws.id, { key: "TOKEN", category: "env" }));
    expect(err).toBeInstanceOf(ValidationError);
    expect((err as ValidationError).problems).toEqual([
      { pointer: "/data/attributes/key", detail: "Key has already been taken" },
    ]);
    const bad = await failure(t.client.variables.create(ws.id, { key: "no spaces", category: "env" }));
    expect((bad as ValidationError).problems[0].pointer).toBe("/data/attributes/key");
  });
});

describe("a sensitive value reaches the server intact", () => {
  const dir = mkdtempSync(join(tmpdir(), "ws-client-sealed-"));
  const dbFile = join(dir, "sealed.db");
  const f = useServer({ db: dbFile });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it("is stored sealed and opens with the server's key to what the client sent, created and updated", async () => {
    const ws = await f.client.workspaces.create(f.org, { name: uniqueName("sealed") });
    const sent = `ws-${randomBytes(8).toString("hex")}`;
    const v = await f.client.variables.create(ws.id, { key: "TOKEN", value: sent, category: "env", sensitive: true });
    expect(storedVariables(dbFile, ws.id)).toMatchObject([{ id: v.id, sensitive: true, value: sent }]);
    const next = `ws-${randomBytes(8).toString("hex")}`;
    await f.client.variables.update(ws.id, v.id, { value: next });
    const [row] = storedVariables(dbFile, ws.id);
    expect(row).toMatchObject({ id: v.id, sensitive: true, value: next });
    expect(row.stored).not.toContain(next);

    const set = await f.client.variableSets.create(f.org, { name: uniqueName("sealed-set") });
    const inSet = `set-${randomBytes(8).toString("hex")}`;
    const sv = await f.client.variableSets.createVariable(set.id, {
      key: "AWS_KEY",
      value: inSet,
      category: "env",
      sensitive: true,
    });
    expect(storedVariables(dbFile, set.id, "varset_vars")).toMatchObject([
      { id: sv.id, sensitive: true, value: inSet },
    ]);
  });
});

describe("variable sets", () => {
  it("pages through an organization's sets and filters by name", async () => {
    const prefix = uniqueName("many");
    for (let i = 0; i < 105; i++) await t.client.variableSets.create(t.org, { name: `${prefix}-${i}` });
    const route = "GET /api/v2/organizations/:organization_name/varsets";
    const before = t.server.stats().byRoute[route] ?? 0;
    const listed = await t.client.variableSets.list(t.org, { query: prefix }).all();
    expect(listed).toHaveLength(105);
    expect((t.server.stats().byRoute[route] ?? 0) - before).toBe(2);
    const taken = await failure(t.client.variableSets.create(t.org, { name: `${prefix}-0` }));
    expect(taken).toBeInstanceOf(ValidationError);
  });

  it("tells a workspace's effective variables and where each comes from", async () => {
    const project = await t.client.projects.list(t.org).all();
    const ws = await t.client.workspaces.create(t.org, { name: uniqueName("eff"), projectId: project[0].id });
    const creds = await t.client.variableSets.create(t.org, { name: uniqueName("creds"), projectIds: [project[0].id] });
    await t.client.variableSets.createVariable(creds.id, { key: "region", value: "from-set", category: "engine" });
    await t.client.variableSets.createVariable(creds.id, {
      key: "AWS_KEY",
      value: "k",
      category: "env",
      sensitive: true,
    });
    const forced = await t.client.variableSets.create(t.org, { name: uniqueName("forced"), priority: true });
    await t.client.variableSets.applyToWorkspaces(forced.id, [ws.id]);
    await t.client.variableSets.createVariable(forced.id, { key: "size", value: "small", category: "engine" });
    await t.client.variables.create(ws.id, { key: "region", value: "own", category: "engine" });
    await t.client.variables.create(ws.id, { key: "size", value: "large", category: "engine" });
    const eff = await t.client.variableSets.effectiveVariables(ws.id);
    const byKey = Object.fromEntries(eff.variables.map((e) => [`${e.variable.category}:${e.variable.key}`, e]));
    expect(byKey["engine:region"]).toMatchObject({ variable: { value: "own" }, source: { kind: "workspace" } });
    expect(byKey["engine:region"].overridden[0].source).toMatchObject({
      kind: "variable-set",
      id: creds.id,
      scope: "project",
    });
    expect(byKey["engine:size"]).toMatchObject({
      variable: { value: "small" },
      source: { id: forced.id, priority: true },
    });
    expect(byKey["env:AWS_KEY"]).toMatchObject({ variable: { value: null, sensitive: true } });
    // The service's own list agrees with the client's rule.
    const all = await t.client.variables.listAll(ws.id);
    expect(Object.fromEntries(all.map((v) => [`${v.category}:${v.key}`, v.value]))).toEqual(
      Object.fromEntries(eff.variables.map((e) => [`${e.variable.category}:${e.variable.key}`, e.variable.value])),
    );
    await t.client.variableSets.removeFromWorkspaces(forced.id, [ws.id]);
    expect((await t.client.variableSets.listForWorkspace(ws.id).all()).map((s) => s.id)).toEqual([creds.id]);
    await t.client.variableSets.delete(forced.id);
    expect(await failure(t.client.variableSets.read(forced.id))).toBeInstanceOf(NotFoundError);
  });
});
