/**
 * Origins (src/api/origin.ts) against the real local server, through the entry point the
 * engine calls: every create carries its resource's origin, a create whose name is taken
 * by a record of the same origin takes it over (an interrupted update's record), and a
 * record of another origin, or of none, keeps the `adopt: true` error. The records a
 * create can leave behind without an origin field are either idempotent to create again
 * (tag bindings, consumers, data retention policies) or never taken over.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { dispatch } from "../../src/resources/entry";
import { ORIGIN_SOURCE_NAME, isPackageOrigin, originUrl } from "../../src/api/origin";
import { ORIGIN_KEY } from "../../src/resources/providers/inputs";
import { originFor } from "../../src/resources/providers/origin";
import { startServer } from "../../src/server";
import { resetClients } from "../../src/resources/providers/client";
import { configureFromStack } from "../../src/resources/provider-settings";
import { createProject, registryModuleWith, startHarness, uniqueName, type Harness } from "./helpers";

type Props = Record<string, any>;

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(async () => {
  await h.close();
});

const origin = (resource: string, digest = "0123456789abcdef0123456789abcdef") =>
  originUrl({ project: "proj", stack: "dev", resource, digest });

async function call(kind: string, method: string, ...args: unknown[]): Promise<any> {
  return dispatch(1, kind, method, args);
}

/** `check` then `create`, as the engine runs them. */
async function create(kind: string, news: Props): Promise<{ id: string; outs: Props; inputs: Props }> {
  const checked = await call(kind, "check", {}, news);
  expect(checked.failures).toEqual([]);
  const created = await call(kind, "create", checked.inputs);
  return { ...created, inputs: checked.inputs };
}

async function rejection(p: Promise<unknown>): Promise<Error> {
  return p.then(
    () => {
      throw new Error("expected a rejection");
    },
    (e: Error) => e,
  );
}

async function workspacesNamed(name: string) {
  const found: string[] = [];
  for await (const w of h.client.workspaces.list(h.org)) if (w.name === name) found.push(w.id);
  return found;
}

describe("the origin of a workspace", () => {
  it("is sent on create and stored by the server; a program's own sourceName/sourceUrl win", async () => {
    const name = uniqueName("origin");
    const { id, outs } = await create("Workspace", { name, [ORIGIN_KEY]: origin("app") });
    const ws = await h.client.workspaces.read(id);
    expect(ws.sourceName).toBe(ORIGIN_SOURCE_NAME);
    expect(ws.sourceUrl).toBe(origin("app"));
    expect(isPackageOrigin(ws.sourceName, ws.sourceUrl)).toBe(true);
    // Not an input the program gave: recorded as an output only, and never a change.
    expect(outs[ORIGIN_KEY]).toBe(origin("app"));
    expect(outs.__inputNames).not.toContain("sourceName");
    expect((await call("Workspace", "diff", id, outs, { name, organization: h.org })).changes).toBe(false);

    const own = uniqueName("own-source");
    const mine = await create("Workspace", {
      name: own,
      sourceName: "my tool",
      sourceUrl: "https://example.com/x",
      [ORIGIN_KEY]: origin("mine"),
    });
    const read = await h.client.workspaces.read(mine.id);
    expect([read.sourceName, read.sourceUrl]).toEqual(["my tool", "https://example.com/x"]);
    expect(isPackageOrigin(read.sourceName, read.sourceUrl)).toBe(false);
  });

  it("is no change for a workspace recorded before origins existed", async () => {
    const name = uniqueName("before-origins");
    const { id, outs } = await create("Workspace", { name, description: "d" });
    expect((await h.client.workspaces.read(id)).sourceName).toBeNull();
    const news = { name, organization: h.org, description: "d", [ORIGIN_KEY]: origin("old") };
    expect(await call("Workspace", "diff", id, outs, news)).toMatchObject({ changes: false, replaces: [] });
  });

  it("a taken name of the same origin is taken over: read, declared differences applied, no second workspace", async () => {
    const name = uniqueName("interrupted");
    // The interrupted update's create: acknowledged by the server, never recorded by the engine.
    const first = await create("Workspace", { name, description: "v1", [ORIGIN_KEY]: origin("crash") });
    const again = await create("Workspace", {
      name,
      description: "v2",
      tagNames: ["t"],
      [ORIGIN_KEY]: origin("crash"),
    });
    expect(again.id).toBe(first.id);
    expect(again.outs).toMatchObject({ name, description: "v2", tagNames: ["t"], [ORIGIN_KEY]: origin("crash") });
    const ws = await h.client.workspaces.read(first.id);
    expect([ws.description, ws.tagNames]).toEqual(["v2", ["t"]]);
    expect(await workspacesNamed(name)).toHaveLength(1);
    expect((await call("Workspace", "diff", again.id, again.outs, again.inputs)).changes).toBe(false);
  });

  it("a taken name of another origin, of none, or of a program-set source keeps the adopt: true error", async () => {
    const name = uniqueName("someone-elses");
    const theirs = await create("Workspace", { name, [ORIGIN_KEY]: origin("crash", "f".repeat(32)) });
    const err = await rejection(create("Workspace", { name, description: "mine", [ORIGIN_KEY]: origin("crash") }));
    expect(err.message).toContain(`workspace "${name}" (${theirs.id})`);
    expect(err.message).toContain("set adopt: true");
    expect((await h.client.workspaces.read(theirs.id)).description).not.toBe("mine");

    const plain = uniqueName("no-origin");
    await create("Workspace", { name: plain });
    expect((await rejection(create("Workspace", { name: plain, [ORIGIN_KEY]: origin("x") }))).message).toContain(
      "set adopt: true",
    );

    // Same package origin on the record, but this program sets its own source: no recovery.
    const set = uniqueName("program-source");
    await create("Workspace", { name: set, [ORIGIN_KEY]: origin("y") });
    const own = await rejection(
      create("Workspace", {
        name: set,
        sourceName: "my tool",
        sourceUrl: "https://example.com/y",
        [ORIGIN_KEY]: origin("y"),
      }),
    );
    expect(own.message).toContain("set adopt: true");
    for (const n of [name, plain, set]) expect(await workspacesNamed(n)).toHaveLength(1);
  });
});

describe("the origin of a create while the engine skips its checkpoints", () => {
  const KEY_A = "a".repeat(32);
  const KEY_B = "b".repeat(32);
  const HERE = "file://host/state organization";
  const withSkip = async <T>(value: string | undefined, run: () => Promise<T>): Promise<T> => {
    const before = process.env.PULUMI_SKIP_CHECKPOINTS;
    if (value === undefined) delete process.env.PULUMI_SKIP_CHECKPOINTS;
    else process.env.PULUMI_SKIP_CHECKPOINTS = value;
    try {
      return await run();
    } finally {
      if (before === undefined) delete process.env.PULUMI_SKIP_CHECKPOINTS;
      else process.env.PULUMI_SKIP_CHECKPOINTS = before;
    }
  };
  const originOf = (key: string, name: string, backend: string) =>
    originFor(key, "proj", "dev", "Workspace", name, backend)!;

  it("carries the backend's digest only while checkpoints are skipped", async () => {
    const skipped = uniqueName("skipped");
    const kept = uniqueName("kept");
    await withSkip("true", () => create("Workspace", { name: skipped, [ORIGIN_KEY]: originOf(KEY_A, skipped, HERE) }));
    await withSkip(undefined, () => create("Workspace", { name: kept, [ORIGIN_KEY]: originOf(KEY_A, kept, HERE) }));
    const [a] = await workspacesNamed(skipped);
    const [b] = await workspacesNamed(kept);
    expect((await h.client.workspaces.read(a)).sourceUrl).toBe(originOf(KEY_A, skipped, HERE));
    expect((await h.client.workspaces.read(a)).sourceUrl).toMatch(/&backend=[0-9a-f]{32}$/);
    const plain = (await h.client.workspaces.read(b)).sourceUrl;
    expect(plain).not.toContain("backend=");
    expect(isPackageOrigin(ORIGIN_SOURCE_NAME, plain)).toBe(true);
  });

  it("a record whose key was lost is taken over by the same stack in the same backend, never from another", async () => {
    const name = uniqueName("first-up");
    // The killed first update's create: its key (KEY_A) died with the engine.
    const first = await withSkip("1", () =>
      create("Workspace", { name, description: "v1", [ORIGIN_KEY]: originOf(KEY_A, name, HERE) }),
    );
    // A copy of the program in another backend (another key, another backend): refused, untouched.
    const elsewhere = "file://host/other-state organization";
    const refused = await rejection(
      withSkip("1", () =>
        create("Workspace", { name, description: "copy", [ORIGIN_KEY]: originOf(KEY_B, name, elsewhere) }),
      ),
    );
    expect(refused.message).toContain("set adopt: true");
    // Another resource name of the same stack and backend: refused.
    const other = originFor(KEY_B, "proj", "dev", "Workspace", "another", HERE)!;
    expect((await rejection(create("Workspace", { name, [ORIGIN_KEY]: other }))).message).toContain("set adopt: true");
    expect((await h.client.workspaces.read(first.id)).description).toBe("v1");
    // The same stack again, with the new key it made: taken over, checkpoints skipped or not.
    const again = await withSkip(undefined, () =>
      create("Workspace", { name, description: "v2", [ORIGIN_KEY]: originOf(KEY_B, name, HERE) }),
    );
    expect(again.id).toBe(first.id);
    expect((await h.client.workspaces.read(first.id)).description).toBe("v2");
    expect(await workspacesNamed(name)).toHaveLength(1);
  });

  it("a record written with checkpoints kept carries no backend digest: only its key proves it", async () => {
    const name = uniqueName("kept-key");
    await withSkip(undefined, () => create("Workspace", { name, [ORIGIN_KEY]: originOf(KEY_A, name, HERE) }));
    const err = await rejection(
      withSkip("1", () => create("Workspace", { name, [ORIGIN_KEY]: originOf(KEY_B, name, HERE) })),
    );
    expect(err.message).toContain("set adopt: true");
  });
});

describe("the origin of a no-code workspace", () => {
  it("is sent on create; the same origin is taken over, another is not", async () => {
    const registryModuleId = await registryModuleWith(h, ["1.0.0"]);
    const mod = await create("NoCodeModule", { registryModuleId });
    const project = await createProject(h, uniqueName("origins"));
    const name = uniqueName("ncw");
    const declared = { noCodeModuleId: mod.id, name, project };
    const first = await create("NoCodeWorkspace", { ...declared, [ORIGIN_KEY]: origin("ncw") });
    const ws = await h.client.workspaces.read(first.id);
    expect([ws.sourceName, ws.sourceUrl]).toEqual([ORIGIN_SOURCE_NAME, origin("ncw")]);
    const again = await create("NoCodeWorkspace", { ...declared, [ORIGIN_KEY]: origin("ncw") });
    expect(again.id).toBe(first.id);
    expect(await workspacesNamed(name)).toHaveLength(1);
    const other = await rejection(
      create("NoCodeWorkspace", { ...declared, [ORIGIN_KEY]: origin("ncw", "e".repeat(32)) }),
    );
    expect(other.message).toContain("set adopt: true");
  });

  it("a no-code module has no origin field: a taken registry module keeps the adopt: true error", async () => {
    const registryModuleId = await registryModuleWith(h, ["1.0.0"]);
    await create("NoCodeModule", { registryModuleId });
    const err = await rejection(create("NoCodeModule", { registryModuleId }));
    expect(err.message).toContain("set adopt: true");
  });
});

describe("the stack's origin key", () => {
  it("is random per stack, made without any request, and never changes", async () => {
    const requests = () => h.server.stats().total;
    const before = requests();
    const a = await create("StackOrigin", {});
    const b = await create("StackOrigin", {});
    expect(requests()).toBe(before);
    expect(a.outs.key).toMatch(/^[0-9a-f]{32}$/);
    expect(b.outs.key).not.toBe(a.outs.key);
    expect(await call("StackOrigin", "diff", a.id, a.outs, {})).toMatchObject({ changes: false, replaces: [] });
    expect((await call("StackOrigin", "read", a.id, a.outs)).props.key).toBe(a.outs.key);
  });
});

describe("records without an origin field, created again after an interrupted update", () => {
  it("tag bindings and flat tags: the second create succeeds and leaves exactly the declared tags", async () => {
    const ws = await create("Workspace", { name: uniqueName("tags") });
    const inputs = { workspaceId: ws.id, tagNames: ["a"], tags: { env: "prod" } };
    const first = await create("WorkspaceTags", inputs);
    const second = await create("WorkspaceTags", inputs);
    expect(second.id).toBe(first.id);
    expect(second.outs).toMatchObject({ tagNames: ["a"], tags: { env: "prod" } });
    expect((await h.client.workspaces.read(ws.id)).tagNames).toEqual(["a"]);
    expect(await h.client.tagBindings.list(ws.id)).toEqual([expect.objectContaining({ key: "env", value: "prod" })]);
  });

  it("remote state consumers: the second create succeeds and leaves each consumer once", async () => {
    const ws = await create("Workspace", { name: uniqueName("consumed") });
    const reader = await create("Workspace", { name: uniqueName("reader") });
    const inputs = { workspaceId: ws.id, consumerIds: [reader.id] };
    const first = await create("RemoteStateConsumers", inputs);
    const second = await create("RemoteStateConsumers", inputs);
    expect(second.id).toBe(first.id);
    expect(second.outs.consumerIds).toEqual([reader.id]);
    expect(await h.client.remoteStateConsumers.listIds(ws.id)).toEqual([reader.id]);
  });
});

describe("data retention policy, created again after an interrupted update", () => {
  it("sets the same policy of its workspace again: one policy, same id", async () => {
    const server = await startServer({ port: 0, db: ":memory:", rateLimit: false, selfManaged: true });
    const config: Record<string, string> = {
      "workspaces:address": server.url,
      "workspaces:token": server.token,
      "workspaces:organization": server.organization,
    };
    try {
      configureFromStack({ config: { get: (k: string) => config[k] } });
      resetClients();
      const ws = await create("Workspace", { name: uniqueName("retained") });
      const inputs = { workspaceId: ws.id, deleteOlderThanNDays: 30 };
      const first = await create("DataRetentionPolicy", inputs);
      const second = await create("DataRetentionPolicy", inputs);
      expect(second.id).toBe(first.id);
      expect(second.outs).toMatchObject({ deleteOlderThanNDays: 30 });
      const read = await call("DataRetentionPolicy", "read", second.id, second.outs);
      expect(read.props).toMatchObject({ deleteOlderThanNDays: 30 });
    } finally {
      await server.close();
      const back: Record<string, string> = {
        "workspaces:address": h.server.url,
        "workspaces:token": h.server.token,
        "workspaces:organization": h.server.organization,
      };
      configureFromStack({ config: { get: (k: string) => back[k] } });
      resetClients();
    }
  });
});
