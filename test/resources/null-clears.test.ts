/**
 * `null` for a nullable setting clears it on the service and stays in state as `null`, so
 * that a refresh which finds the setting set out of band shows a diff that puts it back;
 * an omitted setting stays unmanaged. Every call goes through the entry point the engine
 * calls (`dispatch`), so the inputs a refresh reconstructs are the ones the engine keeps.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { dispatch, PROTOCOL } from "../../src/resources/entry";
import { resetClients } from "../../src/resources/providers/client";
import { api, createProject, registryModuleWith, startHarness, uniqueName, type Harness } from "./helpers";

type Props = Record<string, any>;

let h: Harness;
let oauthTokenId: string;
let sshKeyId: string;
let agentPoolId: string;
beforeAll(async () => {
  h = await startHarness();
  const oc = await api(h, "POST", `/organizations/${h.org}/oauth-clients`, {
    data: {
      type: "oauth-clients",
      attributes: {
        "service-provider": "github",
        "http-url": "https://github.com",
        "api-url": "https://api.github.com",
      },
    },
  });
  expect(oc.status).toBe(201);
  oauthTokenId = oc.json.data.relationships["oauth-tokens"].data[0].id;
  const key = await api(h, "POST", `/organizations/${h.org}/ssh-keys`, {
    data: { type: "ssh-keys", attributes: { name: uniqueName("key"), value: "-----BEGIN KEY-----" } },
  });
  expect(key.status).toBe(201);
  sshKeyId = key.json.data.id;
  const pool = await api(h, "POST", `/organizations/${h.org}/agent-pools`, {
    data: { type: "agent-pools", attributes: { name: uniqueName("pool") } },
  });
  expect(pool.status).toBe(201);
  agentPoolId = pool.json.data.id;
});
afterAll(async () => {
  await h.close();
});

const call = (kind: string, method: string, args: unknown[]) => dispatch(PROTOCOL, kind, method, args) as Promise<any>;

/** What the engine keeps after check: the checked inputs (which the engine stores as the resource's inputs). */
async function checked(kind: string, olds: Props, news: Props): Promise<Props> {
  const r = await call(kind, "check", [olds, news]);
  expect(r.failures).toEqual([]);
  return r.inputs;
}

/** A resource as the engine holds it: its id, inputs and outputs. */
interface Held {
  id: string;
  inputs: Props;
  outs: Props;
}

async function createVia(kind: string, news: Props): Promise<Held> {
  const inputs = await checked(kind, {}, news);
  const r = await call(kind, "create", [inputs]);
  return { id: r.id, inputs, outs: r.outs };
}

/** check, diff and (when it says so) update, as `pulumi up` does; returns whether diff saw a change. */
async function upVia(kind: string, held: Held, news: Props): Promise<{ changed: boolean; held: Held }> {
  const inputs = await checked(kind, held.inputs, news);
  const d = await call(kind, "diff", [held.id, held.outs, inputs]);
  if (!d.changes) return { changed: false, held: { ...held, inputs } };
  expect(d.replaces).toEqual([]);
  const r = await call(kind, "update", [held.id, held.outs, inputs]);
  return { changed: true, held: { id: held.id, inputs, outs: r.outs } };
}

/** `pulumi refresh`: read, then keep the outputs and the reconstructed inputs. */
async function refreshVia(kind: string, held: Held): Promise<Held> {
  // A refresh is an operation of its own, in a provider process of its own: nothing read
  // before it (the organization's listing included) answers its reads.
  resetClients();
  const r = await call(kind, "read", [held.id, held.outs]);
  expect(r.id).toBe(held.id);
  return { id: held.id, inputs: r.inputs ?? held.inputs, outs: r.props };
}

/** A PATCH of the workspace over plain HTTP, as someone editing it by hand would send it. */
async function patchByHand(id: string, attributes: Props): Promise<void> {
  const r = await api(h, "PATCH", `/workspaces/${id}`, { data: { type: "workspaces", attributes } });
  expect(r.status, JSON.stringify(r.json)).toBe(200);
}

async function attributesOf(id: string): Promise<Props> {
  const r = await api(h, "GET", `/workspaces/${id}`);
  expect(r.status).toBe(200);
  return r.json.data;
}

interface Case {
  /** The input under test. */
  input: string;
  /** Inputs the workspace needs besides the one under test. */
  base?: () => Props;
  /** The setting's value, as the program gives it and as the output reports it. */
  value: () => unknown;
  /** The input value that clears it (`null` unless a whole object carries it). */
  cleared?: () => unknown;
  /** The value read back from the workspace document, or from the output. */
  onServer: (doc: Props) => unknown;
  fromOutputs: (outs: Props) => unknown;
  /** Sets it out of band over plain HTTP. */
  setByHand: (id: string) => Promise<void>;
}

const future = "2031-01-02T03:04:05.000Z";
const attr = (name: string) => (doc: Props) => doc.attributes[name] ?? null;
const out = (name: string) => (outs: Props) => outs[name] ?? null;

const CASES: Case[] = [
  {
    input: "autoDestroyAt",
    value: () => future,
    onServer: (doc) => (doc.attributes["auto-destroy-at"] ? Date.parse(doc.attributes["auto-destroy-at"]) : null),
    fromOutputs: (outs) => (outs.autoDestroyAt ? Date.parse(outs.autoDestroyAt) : null),
    setByHand: (id) => patchByHand(id, { "auto-destroy-at": "2032-05-06T07:08:09Z" }),
  },
  {
    input: "autoDestroyActivityDuration",
    value: () => "14d",
    onServer: attr("auto-destroy-activity-duration"),
    fromOutputs: out("autoDestroyActivityDuration"),
    setByHand: (id) => patchByHand(id, { "auto-destroy-activity-duration": "3h" }),
  },
  {
    input: "workingDirectory",
    value: () => "infra/live",
    onServer: attr("working-directory"),
    fromOutputs: out("workingDirectory"),
    setByHand: (id) => patchByHand(id, { "working-directory": "elsewhere" }),
  },
  {
    input: "description",
    value: () => "owned by platform",
    onServer: attr("description"),
    fromOutputs: out("description"),
    setByHand: (id) => patchByHand(id, { description: "edited by hand" }),
  },
  {
    input: "agentPoolId",
    base: () => ({ executionMode: "remote" }),
    value: () => agentPoolId,
    onServer: (doc) => doc.relationships["agent-pool"]?.data?.id ?? null,
    fromOutputs: out("agentPoolId"),
    setByHand: (id) => patchByHand(id, { "execution-mode": "agent", "agent-pool-id": agentPoolId }),
  },
  {
    input: "sshKeyId",
    value: () => sshKeyId,
    onServer: (doc) => doc.relationships["ssh-key"]?.data?.id ?? null,
    fromOutputs: out("sshKeyId"),
    setByHand: async (id) => {
      const r = await api(h, "PATCH", `/workspaces/${id}/relationships/ssh-key`, {
        data: { type: "workspaces", attributes: { id: sshKeyId } },
      });
      expect(r.status).toBe(200);
    },
  },
  {
    input: "vcsRepo",
    value: () => ({ identifier: "acme/web", oauthTokenId, branch: "main" }),
    onServer: (doc) => doc.attributes["vcs-repo"]?.identifier ?? null,
    fromOutputs: (outs) => outs.vcsRepo?.identifier ?? null,
    setByHand: (id) => patchByHand(id, { "vcs-repo": { identifier: "acme/other", "oauth-token-id": oauthTokenId } }),
  },
  {
    input: "vcsRepo.tagsRegex",
    value: () => "^v\\d+",
    cleared: () => ({ identifier: "acme/web", oauthTokenId, tagsRegex: null }),
    onServer: (doc) => doc.attributes["vcs-repo"]?.["tags-regex"] ?? null,
    fromOutputs: (outs) => outs.vcsRepo?.tagsRegex ?? null,
    setByHand: (id) => patchByHand(id, { "vcs-repo": { "tags-regex": "^release-" } }),
  },
];

/**
 * How a program clears a setting: `null` (TypeScript), or the form every language can
 * send, `""` for a string and `{}` for the VCS connection, which check makes `null`.
 */
type Form = "null" | "empty";
const FORMS: Form[] = ["null", "empty"];

/** The value that clears the setting under test in `form`: null, or its empty form. */
function clearing(c: Case, form: Form): unknown {
  if (form === "null") return null;
  return c.input === "vcsRepo" ? {} : "";
}

/** The inputs with the setting under test at `value` (a nested one inside its object). */
function withSetting(c: Case, value: unknown): Props {
  if (c.input === "vcsRepo.tagsRegex")
    return {
      vcsRepo: value === null && c.cleared ? c.cleared() : { identifier: "acme/web", oauthTokenId, tagsRegex: value },
    };
  const cleared = value === null || value === "" || (typeof value === "object" && Object.keys(value).length === 0);
  const extra: Props = c.input === "agentPoolId" && !cleared ? { executionMode: "agent" } : {};
  return { [c.input]: value, ...extra };
}

const top = (c: Case) => c.input.split(".")[0];

/**
 * The round trip every nullable setting makes: created set; cleared with null (diff sees
 * it, the service clears it, state keeps null); refreshed with nothing set (null kept, no
 * change); set by hand over plain HTTP and refreshed (the next diff clears it again).
 */
async function setClearDriftPutBack(kind: string, c: Case, required: Props, form: Form = "null"): Promise<void> {
  const base = { ...required, ...(c.base?.() ?? {}) };
  let held = await createVia(kind, { ...base, ...withSetting(c, c.value()) });
  expect(c.onServer(await attributesOf(held.id))).not.toBeNull();

  const clearedInputs: Props = { ...base, ...withSetting(c, clearing(c, form)) };
  let step = await upVia(kind, held, clearedInputs);
  expect(step.changed).toBe(true);
  held = step.held;
  expect(c.onServer(await attributesOf(held.id))).toBeNull();
  expect(c.fromOutputs(held.outs)).toBeNull();
  // Either form is kept as TypeScript's null.
  expect(held.inputs[top(c)]).toEqual(withSetting(c, null)[top(c)]);
  expect((await upVia(kind, held, clearedInputs)).changed).toBe(false);

  // A refresh that finds nothing set keeps null in the inputs and shows no change.
  held = await refreshVia(kind, held);
  if (c.input === "vcsRepo.tagsRegex") expect(held.inputs.vcsRepo.tagsRegex ?? null).toBeNull();
  else expect(held.inputs[c.input]).toBeNull();
  expect((await upVia(kind, held, clearedInputs)).changed).toBe(false);

  // Set out of band: the refresh reads it, and the next diff wants it cleared again.
  await c.setByHand(held.id);
  held = await refreshVia(kind, held);
  expect(c.fromOutputs(held.outs)).not.toBeNull();
  step = await upVia(kind, held, clearedInputs);
  expect(step.changed).toBe(true);
  expect(c.onServer(await attributesOf(held.id))).toBeNull();
  expect(c.fromOutputs(step.held.outs)).toBeNull();
  held = await refreshVia(kind, step.held);
  expect((await upVia(kind, held, clearedInputs)).changed).toBe(false);
}

describe("Workspace: null clears a nullable setting", () => {
  for (const form of FORMS)
    for (const c of CASES) {
      it(`${c.input}: set, cleared with ${form}, drifted by hand, put back`, () =>
        setClearDriftPutBack("Workspace", c, { name: uniqueName("clear") }, form));
    }

  it("an omitted setting stays unmanaged: values set by hand are left alone", async () => {
    const held0 = await createVia("Workspace", { name: uniqueName("unmanaged") });
    for (const c of CASES) await c.setByHand(held0.id);
    const held = await refreshVia("Workspace", held0);
    for (const c of CASES) expect(c.fromOutputs(held.outs), c.input).not.toBeNull();
    const inputs = await checked("Workspace", held.inputs, { name: held0.inputs.name });
    expect(await call("Workspace", "diff", [held.id, held.outs, inputs])).toMatchObject({ changes: false });
  });

  it("null on create: the workspace is made without the setting, and nothing changes after a refresh", async () => {
    const nulls = {
      description: null,
      agentPoolId: null,
      autoDestroyAt: null,
      autoDestroyActivityDuration: null,
      vcsRepo: null,
      workingDirectory: null,
      sshKeyId: null,
    };
    let held = await createVia("Workspace", { name: uniqueName("born-clear"), ...nulls });
    const doc = await attributesOf(held.id);
    for (const c of CASES) expect(c.onServer(doc), c.input).toBeNull();
    expect(held.inputs).toMatchObject(nulls);
    held = await refreshVia("Workspace", held);
    expect(held.inputs).toMatchObject(nulls);
    expect((await upVia("Workspace", held, { name: held.inputs.name, ...nulls })).changed).toBe(false);
  });

  it("check refuses null for a setting that cannot be cleared", async () => {
    const r = await call("Workspace", "check", [
      {},
      {
        name: uniqueName("bad"),
        engineVersion: null,
        autoApply: null,
      },
    ]);
    // The engine prints `property <p> value {<v>} has a problem: <reason>`: each failure carries its property.
    expect(r.failures).toEqual([
      {
        property: "autoApply",
        reason: expect.stringMatching(
          /^cannot be cleared with null .*; omit autoApply to leave the service's value alone$/,
        ),
      },
      {
        property: "engineVersion",
        reason: expect.stringMatching(
          /^cannot be cleared with null \(only description, agentPoolId, .*\); omit engineVersion/,
        ),
      },
    ]);
    const nc = await call("NoCodeWorkspace", "check", [
      {},
      {
        noCodeModuleId: "nocode-x",
        name: uniqueName("bad"),
        project: "prj-x",
        sourceName: null,
        description: null,
        agentPoolId: null,
      },
    ]);
    expect(nc.failures).toEqual([
      {
        property: "sourceName",
        reason: expect.stringMatching(/^cannot be cleared with null \(only description and agentPoolId can\)/),
      },
    ]);
  });
});

describe("NoCodeWorkspace: null clears a nullable setting", () => {
  let moduleId: string;
  let project: string;
  beforeAll(async () => {
    project = await createProject(h, uniqueName("nocode"));
    const registryModuleId = await registryModuleWith(h, ["1.0.0"]);
    const mod = await createVia("NoCodeModule", { registryModuleId, versionPin: "1.0.0" });
    moduleId = mod.id;
  });

  it("null on create: the workspace is made without description or pool", async () => {
    const inputs = {
      noCodeModuleId: moduleId,
      name: uniqueName("nc-born-clear"),
      project,
      description: null,
      agentPoolId: null,
    };
    let held = await createVia("NoCodeWorkspace", inputs);
    const doc = await attributesOf(held.id);
    // The no-code endpoint's default description is empty: no description either way.
    expect(doc.attributes.description || null).toBeNull();
    expect(doc.relationships["agent-pool"]?.data ?? null).toBeNull();
    held = await refreshVia("NoCodeWorkspace", held);
    expect(held.inputs.agentPoolId).toBeNull();
    expect(held.inputs.description || null).toBeNull();
    expect((await upVia("NoCodeWorkspace", held, inputs)).changed).toBe(false);
  });

  const NO_CODE_CASES: Case[] = CASES.filter((c) => c.input === "description" || c.input === "agentPoolId");
  for (const form of FORMS)
    for (const c of NO_CODE_CASES) {
      it(`${c.input}: set, cleared with ${form}, drifted by hand, put back`, () =>
        setClearDriftPutBack(
          "NoCodeWorkspace",
          c,
          { noCodeModuleId: moduleId, name: uniqueName("nc-clear"), project },
          form,
        ));
    }
});
