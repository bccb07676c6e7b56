/**
 * `WorkspaceVariable`, `WorkspaceVariables`, `VariableSet`, `VariableSetApplication` and
 * `getEffectiveVariables` against the real local server, through the entry point as the
 * engine calls them: check failures with their property paths, create, drift read back and
 * restored, sensitive values compared with the recorded ones only (and read back sealed
 * from the server's database file, equal to what the program sent), the replacements the
 * service's refusals call for, adoption with no write, the take-over of an interrupted
 * create by its origin, additive ownership, and deletes that leave alone what the
 * resource does not own.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { dispatch, PROTOCOL } from "../../src/resources/entry";
import { UNKNOWN } from "../../src/resources/providers/unknowns";
import { originFor } from "../../src/resources/providers/origin";
import { getEffectiveVariables, lookupSettingsFrom } from "../../src/resources/lookups";
import { NotFoundError } from "../../src/client";
import { storedVariables } from "../server/sealed";
import { api, startHarness, uniqueName, type Harness } from "./helpers";

type Props = Record<string, any>;
type Failure = { property: string; reason: string };

let h: Harness;
let dir: string;
/** The server's database file: what a sensitive value became on the server is read back from it. */
let dbFile: string;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "ws-provider-vars-"));
  dbFile = join(dir, "vars.db");
  h = await startHarness({ db: dbFile });
  lookupSettingsFrom(() => ({ address: h.server.url, token: h.server.token, organization: h.org }));
});
afterAll(async () => {
  await h?.close();
  rmSync(dir, { recursive: true, force: true });
});

const call = (kind: string, method: string, ...args: unknown[]) =>
  dispatch(PROTOCOL, kind, method, args) as Promise<any>;

async function check(kind: string, news: Props, olds: Props = {}): Promise<{ inputs: Props; failures: Failure[] }> {
  return call(kind, "check", olds, news);
}

/** check, then create with the checked inputs (what the engine does for a new resource). */
async function create(kind: string, news: Props): Promise<{ id: string; outs: Props }> {
  const checked = await check(kind, news);
  expect(checked.failures).toEqual([]);
  return call(kind, "create", checked.inputs);
}

async function update(kind: string, id: string, olds: Props, news: Props): Promise<Props> {
  const checked = await check(kind, news, olds);
  expect(checked.failures).toEqual([]);
  return (await call(kind, "update", id, olds, checked.inputs)).outs;
}

async function diff(kind: string, id: string, olds: Props, news: Props) {
  const checked = await check(kind, news, olds);
  return call(kind, "diff", id, olds, checked.inputs);
}

/** Writes the server has answered so far (POST, PATCH, DELETE). */
function writes(): number {
  return Object.entries(h.server.stats().byRoute)
    .filter(([route]) => /^(POST|PATCH|DELETE) /.test(route))
    .reduce((n, [, count]) => n + count, 0);
}

async function newWorkspace(): Promise<string> {
  return (await h.client.workspaces.create(h.org, { name: uniqueName("vars") })).id;
}

const origin = (name: string, kind = "WorkspaceVariable") =>
  originFor("0123456789abcdef0123456789abcdef", "proj", "dev", kind, name);

describe("check: one clear failure per bad input, with its property path", () => {
  it("a workspace variable", async () => {
    const f = async (news: Props) => (await check("WorkspaceVariable", news)).failures;
    expect(await f({ workspaceId: "ws-1", key: "region", value: "eu", category: "engine" })).toEqual([]);
    expect(await f({ workspaceId: "ws-1", key: "", category: "env" })).toEqual([
      { property: "key", reason: `"" can't be blank` },
    ]);
    expect((await f({ workspaceId: "ws-1", key: "has space", category: "env" }))[0]).toMatchObject({
      property: "key",
    });
    expect(await f({ workspaceId: "ws-1", key: "k", category: "secret" })).toEqual([
      {
        property: "category",
        reason: 'must be "engine" or "env" (the wire\'s "terraform" is read as "engine"), not "secret"',
      },
    ]);
    expect(await f({ workspaceId: "web", key: "k", category: "env" })).toEqual([
      { property: "workspaceId", reason: "must be a workspace id (ws-...)" },
    ]);
    expect(await f({ workspaceId: "ws-1", key: "k", category: "env", sensitive: "yes" })).toEqual([
      { property: "sensitive", reason: "must be true or false" },
    ]);
    // Unknown until apply: judged by the check that runs when it is known.
    expect(await f({ workspaceId: UNKNOWN, key: UNKNOWN, category: "env" })).toEqual([]);
    // `terraform` is the wire's word for `engine`: the checked input says `engine`.
    const { inputs } = await check("WorkspaceVariable", { workspaceId: "ws-1", key: "k", category: "terraform" });
    expect(inputs).toMatchObject({ category: "engine", value: "", hcl: false, sensitive: false });
  });

  it("a list: each item's path, and a key given twice in one category", async () => {
    const { failures } = await check("WorkspaceVariables", {
      workspaceId: "ws-1",
      variables: [
        { key: "A", value: "1", category: "env" },
        { key: "A", value: "2", category: "engine" },
        { key: "A", value: "3", category: "env" },
        { key: "bad key", category: "env" },
      ],
    });
    expect(failures.map((x) => x.property)).toEqual(["variables[3].key", "variables[2].key"]);
    expect(failures[1].reason).toContain("already declared at variables[0]");
    expect((await check("VariableSet", { name: "", organization: h.org })).failures).toEqual([
      { property: "name", reason: "must be a non-empty string" },
    ]);
  });

  it("an application: exactly one target, and one owner per set and target in the stack", async () => {
    const f = async (news: Props) => (await check("VariableSetApplication", news)).failures;
    expect(await f({ variableSetId: "varset-1", workspaceId: "ws-1", projectId: "prj-1" })).toEqual([
      {
        property: "projectId",
        reason: "give either workspaceId or projectId, not both: one application has one target",
      },
    ]);
    expect(await f({ variableSetId: "varset-1" })).toEqual([
      { property: "workspaceId", reason: "give workspaceId (ws-...) or projectId (prj-...)" },
    ]);
    const set = `varset-${uniqueName("claim")}`;
    expect(await f({ variableSetId: set, workspaceId: "ws-1", __claimant: "a" })).toEqual([]);
    // The same resource checked again (a later step of the same deployment) keeps its claim.
    expect(await f({ variableSetId: set, workspaceId: "ws-1", __claimant: "a" })).toEqual([]);
    const second = await f({ variableSetId: set, workspaceId: "ws-1", __claimant: "b" });
    expect(second).toHaveLength(1);
    expect(second[0].reason).toContain(`by two resources of this stack, this one and "a"`);
    expect(await f({ variableSetId: set, projectId: "prj-1", __claimant: "b" })).toEqual([]);
    // The name is not recorded with the inputs.
    const { inputs } = await check("VariableSetApplication", {
      variableSetId: set,
      workspaceId: "ws-2",
      __claimant: "c",
    });
    expect(inputs).not.toHaveProperty("__claimant");
  });
});

describe("WorkspaceVariable", () => {
  it("creates, reads drift back, restores it, and deletes only itself", async () => {
    const ws = await newWorkspace();
    const other = await h.client.variables.create(ws, { key: "OTHER", value: "x", category: "env" });
    const news = { workspaceId: ws, key: "region", value: "eu-west-1", category: "engine", description: "where" };
    const { id, outs } = await create("WorkspaceVariable", news);
    expect(id).toBe(`${ws}/${outs.variableId}`);
    expect(outs).toMatchObject({ key: "region", value: "eu-west-1", category: "engine", sensitiveValue: null });
    expect((await diff("WorkspaceVariable", id, outs, news)).changes).toBe(false);

    await h.client.variables.update(ws, outs.variableId, { value: "us-east-1" });
    const read = await call("WorkspaceVariable", "read", id, outs);
    expect(read.props.value).toBe("us-east-1");
    expect(read.inputs.value).toBe("us-east-1");
    expect((await diff("WorkspaceVariable", id, read.props, news)).changes).toBe(true);
    const restored = await update("WorkspaceVariable", id, read.props, news);
    expect(restored.value).toBe("eu-west-1");
    expect((await h.client.variables.read(ws, outs.variableId)).value).toBe("eu-west-1");

    await call("WorkspaceVariable", "delete", id, restored);
    const left = await h.client.variables.list(ws);
    expect(left.map((v) => v.id)).toEqual([other.id]);
    // Deleted outside the program: a refresh drops it.
    expect(await call("WorkspaceVariable", "read", id, restored)).toEqual({});
  });

  it("a sensitive value: written, compared with the recorded one only, replaced where the service refuses", async () => {
    const ws = await newWorkspace();
    const news = { workspaceId: ws, key: "TOKEN", value: "s3cr3t-1", category: "env", sensitive: true };
    const { id, outs } = await create("WorkspaceVariable", news);
    expect(outs).toMatchObject({ value: null, sensitive: true, sensitiveValue: "s3cr3t-1" });
    expect((await h.client.variables.read(ws, outs.variableId)).value).toBeNull();
    expect(storedVariables(dbFile, ws)).toMatchObject([{ key: "TOKEN", sensitive: true, value: "s3cr3t-1" }]);

    // The service never shows it: a refresh keeps the recorded value, and an unchanged one is no change.
    const read = await call("WorkspaceVariable", "read", id, outs);
    expect(read.props.sensitiveValue).toBe("s3cr3t-1");
    expect(await diff("WorkspaceVariable", id, read.props, news)).toMatchObject({ changes: false });
    expect(await diff("WorkspaceVariable", id, read.props, { ...news, value: "s3cr3t-2" })).toMatchObject({
      changes: true,
      replaces: [],
    });
    const before = writes();
    const changed = await update("WorkspaceVariable", id, read.props, { ...news, value: "s3cr3t-2" });
    expect(writes() - before).toBe(1);
    expect(changed.sensitiveValue).toBe("s3cr3t-2");
    expect(storedVariables(dbFile, ws)).toMatchObject([{ key: "TOKEN", sensitive: true, value: "s3cr3t-2" }]);

    // Made non-sensitive: a replacement, the old one deleted first (same key and category).
    expect(await diff("WorkspaceVariable", id, changed, { ...news, sensitive: false })).toMatchObject({
      changes: true,
      replaces: ["sensitive"],
      deleteBeforeReplace: true,
    });
    // Renamed while sensitive: a replacement, the new one first.
    expect(await diff("WorkspaceVariable", id, changed, { ...news, value: "s3cr3t-2", key: "TOKEN2" })).toMatchObject({
      changes: true,
      replaces: ["key"],
      deleteBeforeReplace: false,
    });
    // Made sensitive: in place.
    const plain = await create("WorkspaceVariable", { ...news, key: "PLAIN", sensitive: false });
    expect(
      await diff("WorkspaceVariable", plain.id, plain.outs, { ...news, key: "PLAIN", sensitive: true }),
    ).toMatchObject({ changes: true, replaces: [] });
  });

  it("a key taken: the adopt: true error, no write; with adopt: taken over with no write when all matches", async () => {
    const ws = await newWorkspace();
    const existing = await h.client.variables.create(ws, { key: "region", value: "eu", category: "engine" });
    const news = { workspaceId: ws, key: "region", value: "eu", category: "engine" };
    const checked = await check("WorkspaceVariable", news);
    const refused = await call("WorkspaceVariable", "create", checked.inputs).catch((e: Error) => e);
    expect(refused.message).toContain(`variable "region" (engine) (${existing.id}) of workspace ${ws} already exists`);
    expect(refused.message).toContain("adopt: true");

    const before = writes();
    const adopted = await create("WorkspaceVariable", { ...news, adopt: true });
    expect(writes() - before).toBe(0);
    expect(adopted.id).toBe(`${ws}/${existing.id}`);
    expect(adopted.outs.adopt).toBe(true);
  });

  it("an interrupted create is taken over by its origin; another origin's is not", async () => {
    const ws = await newWorkspace();
    const news = { workspaceId: ws, key: "LOG", value: "info", category: "env", __origin: origin("log") };
    const first = await create("WorkspaceVariable", news);
    expect((await h.client.variables.read(ws, first.outs.variableId)).description).toContain("interrupted-updates");
    // The engine never recorded `first`: the next up creates again.
    const again = await create("WorkspaceVariable", news);
    expect(again.id).toBe(first.id);
    expect(await h.client.variables.list(ws)).toHaveLength(1);
    // Another resource of the same key is not this one.
    const checked = await check("WorkspaceVariable", { ...news, __origin: origin("other") });
    await expect(call("WorkspaceVariable", "create", checked.inputs)).rejects.toThrow(/adopt: true/);
    // A declared description replaces the origin: no origin is written.
    const described = await create("WorkspaceVariable", {
      ...news,
      key: "DESCRIBED",
      description: "mine",
      __origin: origin("described"),
    });
    expect(described.outs.description).toBe("mine");
  });

  it("imports by <ws-id>/<var-id>, a sensitive one without its value", async () => {
    const ws = await newWorkspace();
    const v = await h.client.variables.create(ws, { key: "K", value: "v", category: "env", sensitive: true });
    const read = await call("WorkspaceVariable", "read", `${ws}/${v.id}`, {});
    expect(read.props).toMatchObject({ workspaceId: ws, key: "K", value: null, sensitive: true, sensitiveValue: null });
    await expect(call("WorkspaceVariable", "read", "ws-1", {})).rejects.toThrow(/<ws-id>\/<var-id>/);
  });
});

describe("WorkspaceVariables: additive", () => {
  it("never changes or removes a variable it did not create; restores its own; deletes only its own", async () => {
    const ws = await newWorkspace();
    const theirs = await h.client.variables.create(ws, { key: "THEIRS", value: "t", category: "env" });
    const news = {
      workspaceId: ws,
      variables: [
        { key: "region", value: "eu-west-1", category: "engine" },
        { key: "TOKEN", value: "s3cr3t", category: "env", sensitive: true },
      ],
    };
    const { id, outs } = await create("WorkspaceVariables", news);
    expect(id).toBe(`${ws}/variables`);
    expect(outs.variables.map((v: Props) => v.key)).toEqual(["region", "TOKEN"]);
    expect(outs.variables[1]).not.toHaveProperty("value");
    expect(outs.sensitiveValues).toEqual({ "env/TOKEN": "s3cr3t" });
    expect(storedVariables(dbFile, ws).find((v) => v.key === "TOKEN")).toMatchObject({
      sensitive: true,
      value: "s3cr3t",
    });
    expect((await diff("WorkspaceVariables", id, outs, news)).changes).toBe(false);

    // A key the workspace has from elsewhere: refused, nothing written.
    const before = writes();
    const clash = await check("WorkspaceVariables", {
      ...news,
      variables: [...news.variables, { key: "THEIRS", value: "mine", category: "env" }],
    });
    const refused = await call("WorkspaceVariables", "update", id, outs, clash.inputs).catch((e: Error) => e);
    expect(refused.message).toContain(`variables[2]: the workspace already has variable "THEIRS" (env) (${theirs.id})`);
    expect(writes()).toBe(before);

    // Drift: a value changed and a variable deleted outside the program.
    const region = outs.variables[0].id;
    await h.client.variables.update(ws, region, { value: "drifted" });
    await h.client.variables.delete(ws, outs.variables[1].id);
    const read = await call("WorkspaceVariables", "read", id, outs);
    expect(read.props.variables.map((v: Props) => [v.key, v.value])).toEqual([["region", "drifted"]]);
    expect(read.inputs.variables).toEqual([
      { key: "region", value: "drifted", category: "engine", hcl: false, sensitive: false },
    ]);
    expect((await diff("WorkspaceVariables", id, read.props, news)).changes).toBe(true);
    const restored = await update("WorkspaceVariables", id, read.props, news);
    expect(restored.variables.map((v: Props) => v.key)).toEqual(["region", "TOKEN"]);
    expect((await h.client.variables.read(ws, region)).value).toBe("eu-west-1");

    // An item dropped from the list is deleted; THEIRS stays through delete too.
    const fewer = await update("WorkspaceVariables", id, restored, { ...news, variables: [news.variables[0]] });
    expect(fewer.variables).toHaveLength(1);
    await call("WorkspaceVariables", "delete", id, fewer);
    expect((await h.client.variables.list(ws)).map((v) => v.key)).toEqual(["THEIRS"]);
  });

  it("adopt: true takes over the listed keys with no write when they match", async () => {
    const ws = await newWorkspace();
    await h.client.variables.create(ws, { key: "A", value: "1", category: "env" });
    await h.client.variables.create(ws, { key: "B", value: "x", category: "env", sensitive: true });
    const before = writes();
    const { outs } = await create("WorkspaceVariables", {
      workspaceId: ws,
      adopt: true,
      variables: [
        { key: "A", value: "1", category: "env" },
        { key: "B", value: "x", category: "env", sensitive: true },
      ],
    });
    expect(writes() - before).toBe(0);
    expect(outs.variables.map((v: Props) => v.key)).toEqual(["A", "B"]);
  });

  it("an interrupted create is taken over by the origin its variables carry", async () => {
    const ws = await newWorkspace();
    const news = {
      workspaceId: ws,
      __origin: origin("web-vars", "WorkspaceVariables"),
      variables: [{ key: "A", value: "1", category: "env" }],
    };
    await create("WorkspaceVariables", news);
    const again = await create("WorkspaceVariables", {
      ...news,
      variables: [...news.variables, { key: "B", category: "env" }],
    });
    expect(again.outs.variables.map((v: Props) => v.key)).toEqual(["A", "B"]);
    expect(await h.client.variables.list(ws)).toHaveLength(2);
  });
});

describe("VariableSet and VariableSetApplication", () => {
  it("a set with its variables: created, drift restored, a name taken refused, applied to a workspace and a project", async () => {
    const name = uniqueName("creds");
    const news = {
      name,
      organization: h.org,
      description: "cloud credentials",
      variables: [
        { key: "AWS_ACCESS_KEY_ID", value: "AKIA", category: "env" },
        { key: "AWS_SECRET_ACCESS_KEY", value: "s3cr3t", category: "env", sensitive: true },
      ],
    };
    const { id, outs } = await create("VariableSet", news);
    expect(id).toMatch(/^varset-/);
    expect(outs.sensitiveValues).toEqual({ "env/AWS_SECRET_ACCESS_KEY": "s3cr3t" });
    expect(storedVariables(dbFile, id, "varset_vars").find((v) => v.sensitive)).toMatchObject({
      key: "AWS_SECRET_ACCESS_KEY",
      value: "s3cr3t",
    });
    expect((await diff("VariableSet", id, outs, news)).changes).toBe(false);

    const taken = await check("VariableSet", { ...news, description: "again" });
    const refused = await call("VariableSet", "create", taken.inputs).catch((e: Error) => e);
    expect(refused.message).toContain(`variable set "${name}" (${id})`);
    expect(refused.message).toContain("adopt: true");

    // Drift: a variable added to the set outside the program, and a value changed.
    await h.client.variableSets.createVariable(id, { key: "EXTRA", value: "e", category: "env" });
    await h.client.variableSets.updateVariable(id, outs.variables[0].id, { value: "changed" });
    const read = await call("VariableSet", "read", id, outs);
    expect(read.props.variables.map((v: Props) => v.key).sort()).toEqual([
      "AWS_ACCESS_KEY_ID",
      "AWS_SECRET_ACCESS_KEY",
      "EXTRA",
    ]);
    expect((await diff("VariableSet", id, read.props, news)).changes).toBe(true);
    const restored = await update("VariableSet", id, read.props, news);
    expect(restored.variables.map((v: Props) => v.key)).toEqual(["AWS_ACCESS_KEY_ID", "AWS_SECRET_ACCESS_KEY"]);
    expect(restored.variables[0].value).toBe("AKIA");

    // Applied to a workspace and to a project.
    const ws = await newWorkspace();
    const made = await api(h, "POST", `/organizations/${h.org}/projects`, {
      data: { type: "projects", attributes: { name: uniqueName("prj") } },
    });
    expect(made.status).toBe(201);
    const project = { id: String(made.json.data.id) };
    const toWs = await create("VariableSetApplication", { variableSetId: id, workspaceId: ws });
    const toPrj = await create("VariableSetApplication", { variableSetId: id, projectId: project.id });
    expect(toWs.id).toBe(`${id}/${ws}`);
    expect(toPrj.id).toBe(`${id}/${project.id}`);
    const set = await h.client.variableSets.read(id);
    expect(set.workspaceIds).toEqual([ws]);
    expect(set.projectIds).toEqual([project.id]);

    // Already applied: refused without adopt, taken over with no write with it.
    const again = await check("VariableSetApplication", { variableSetId: id, workspaceId: ws });
    await expect(call("VariableSetApplication", "create", again.inputs)).rejects.toThrow(
      /already applied.*adopt: true/s,
    );
    const before = writes();
    await create("VariableSetApplication", { variableSetId: id, workspaceId: ws, adopt: true });
    expect(writes() - before).toBe(0);

    // Delete removes that application alone.
    await call("VariableSetApplication", "delete", toWs.id, toWs.outs);
    const after = await h.client.variableSets.read(id);
    expect(after.workspaceIds).toEqual([]);
    expect(after.projectIds).toEqual([project.id]);
    expect(await call("VariableSetApplication", "read", toWs.id, toWs.outs)).toEqual({});

    await call("VariableSet", "delete", id, restored);
    await expect(h.client.variableSets.read(id)).rejects.toBeInstanceOf(NotFoundError);
  });

  it("an application of this stack's own set that the state lacks is taken over with no write; another stack's is not", async () => {
    const ws = await newWorkspace();
    const { id } = await create("VariableSet", {
      name: uniqueName("owned"),
      organization: h.org,
      __origin: origin("shared", "VariableSet"),
      variables: [{ key: "K", value: "v", category: "env" }],
    });
    // An interrupted update applied it, and the state never heard of the application.
    await h.client.variableSets.applyToWorkspaces(id, [ws]);
    const before = writes();
    const taken = await create("VariableSetApplication", {
      variableSetId: id,
      workspaceId: ws,
      __origin: origin("app-0", "VariableSetApplication"),
    });
    expect(writes() - before).toBe(0);
    expect(taken.id).toBe(`${id}/${ws}`);

    // The same stack names under another origin key: another stack's set, refused.
    const other = originFor("fedcba9876543210fedcba9876543210", "proj", "dev", "VariableSetApplication", "app-0");
    const refused = await call(
      "VariableSetApplication",
      "create",
      (await check("VariableSetApplication", { variableSetId: id, workspaceId: ws, __origin: other })).inputs,
    ).catch((e: Error) => e);
    expect(String(refused)).toMatch(/already applied.*adopt: true/s);
  });

  it("adopts a set by name with no write when its settings and variables match", async () => {
    const name = uniqueName("adopt");
    const set = await h.client.variableSets.create(h.org, { name, description: "d" });
    await h.client.variableSets.createVariable(set.id, { key: "K", value: "v", category: "engine" });
    const before = writes();
    const adopted = await create("VariableSet", {
      name,
      organization: h.org,
      description: "d",
      adopt: true,
      variables: [{ key: "K", value: "v", category: "engine" }],
    });
    expect(writes() - before).toBe(0);
    expect(adopted.id).toBe(set.id);
  });
});

describe("getEffectiveVariables", () => {
  it("a workspace's own variables, then its sets' by the service's precedence, with where each comes from", async () => {
    const ws = await newWorkspace();
    await h.client.variables.create(ws, { key: "region", value: "own", category: "engine" });
    const plain = await h.client.variableSets.create(h.org, { name: uniqueName("plain") });
    await h.client.variableSets.createVariable(plain.id, { key: "region", value: "set", category: "engine" });
    await h.client.variableSets.createVariable(plain.id, {
      key: "TOKEN",
      value: "t",
      category: "env",
      sensitive: true,
    });
    await h.client.variableSets.applyToWorkspaces(plain.id, [ws]);
    const result = await getEffectiveVariables({ workspaceId: ws });
    const region = result.variables.find((v) => v.key === "region")!;
    expect(region).toMatchObject({ value: "own", source: { kind: "workspace" } });
    expect(region.overrides).toEqual([
      {
        kind: "variable-set",
        variableSetId: plain.id,
        variableSetName: plain.name,
        scope: "workspace",
        priority: false,
      },
    ]);
    const token = result.variables.find((v) => v.key === "TOKEN")!;
    expect(token).not.toHaveProperty("value");
    expect(token.source).toMatchObject({ kind: "variable-set", variableSetId: plain.id });
    await expect(getEffectiveVariables({ workspaceId: "web" })).rejects.toThrow(/must be a workspace id/);
  });
});
