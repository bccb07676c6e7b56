/**
 * `AgentPoolAllowedWorkspaces`, `AgentPoolAllowedProjects` and `AgentPoolExcludedWorkspaces`
 * against the real local server, through the entry point as the engine calls them: check
 * failures with their property paths, one owner per list refused at preview naming both
 * resources, the whole list in authoritative mode (0 writes when it already is as declared,
 * drift read back and restored, an empty list clears, delete clears), additive mode that
 * never loses or removes another's ids (two resources on one pool in one `up`), the
 * allowances the workspace settings wait for, import by the pool's id, and a pool deleted
 * first.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { dispatch, PROTOCOL } from "../../src/resources/entry";
import { UNKNOWN } from "../../src/resources/providers/unknowns";
import { CLAIMANT_KEY } from "../../src/resources/process/claims";
import {
  isAllowanceDeclared,
  pendingAllowances,
  resetAllowances,
} from "../../src/resources/process/agent-pool-allowances";
import { configureFromStack } from "../../src/resources/provider-settings";
import { resetClients } from "../../src/resources/providers/client";
import { api, createProject, startHarness, uniqueName, type Harness } from "./helpers";

type Props = Record<string, any>;
type Failure = { property: string; reason: string };

let h: Harness;

beforeAll(async () => {
  h = await startHarness();
});
afterAll(async () => {
  await h?.close();
});

const WS = "AgentPoolAllowedWorkspaces";
const PRJ = "AgentPoolAllowedProjects";
const EXCL = "AgentPoolExcludedWorkspaces";

const call = (kind: string, method: string, ...args: unknown[]) =>
  dispatch(PROTOCOL, kind, method, args) as Promise<any>;

async function check(kind: string, news: Props, olds: Props = {}): Promise<{ inputs: Props; failures: Failure[] }> {
  return call(kind, "check", olds, news);
}

async function create(kind: string, news: Props): Promise<{ id: string; outs: Props; inputs: Props }> {
  const checked = await check(kind, news);
  expect(checked.failures).toEqual([]);
  const created = await call(kind, "create", checked.inputs);
  return { ...created, inputs: checked.inputs };
}

async function diff(kind: string, id: string, olds: Props, news: Props) {
  const checked = await check(kind, news);
  return call(kind, "diff", id, olds, checked.inputs);
}

async function update(kind: string, id: string, olds: Props, news: Props): Promise<Props> {
  const checked = await check(kind, news);
  expect(checked.failures).toEqual([]);
  return (await call(kind, "update", id, olds, checked.inputs)).outs;
}

/** Writes the server has answered so far (POST, PATCH, DELETE). */
function writes(): number {
  return Object.entries(h.server.stats().byRoute)
    .filter(([route]) => /^(POST|PATCH|DELETE) /.test(route))
    .reduce((n, [, count]) => n + count, 0);
}

async function newPool(): Promise<string> {
  return (await h.client.agentPools.create(h.org, { name: uniqueName("pool"), organizationScoped: false })).id;
}

async function newWorkspace(): Promise<string> {
  return (await h.client.workspaces.create(h.org, { name: uniqueName("ws") })).id;
}

async function lists(poolId: string) {
  const p = await h.client.agentPools.read(poolId);
  return {
    allowedWorkspaceIds: [...p.allowedWorkspaceIds].sort(),
    allowedProjectIds: [...p.allowedProjectIds].sort(),
    excludedWorkspaceIds: [...p.excludedWorkspaceIds].sort(),
  };
}

const sorted = (ids: string[]) => [...ids].sort();

describe("check", () => {
  it("refuses ids of the wrong kind, a bad pool or mode, a missing or repeated id, with property paths", async () => {
    const f = async (kind: string, news: Props) => (await check(kind, news)).failures;
    expect(await f(WS, { agentPoolId: "apool-1", workspaceIds: ["ws-1", "prj-2", "ws-1"] })).toEqual([
      { property: "workspaceIds[1]", reason: 'must be a workspace id (ws-...), not "prj-2"' },
      { property: "workspaceIds[2]", reason: "ws-1 is listed twice" },
    ]);
    expect(await f(PRJ, { agentPoolId: "apool-1", projectIds: ["ws-1"] })).toEqual([
      { property: "projectIds[0]", reason: 'must be a project id (prj-...), not "ws-1"' },
    ]);
    expect(await f(EXCL, { agentPoolId: "ws-1", workspaceIds: [], mode: "owner" })).toEqual([
      { property: "agentPoolId", reason: "must be an agent pool id (apool-...)" },
      { property: "mode", reason: 'must be "authoritative" or "additive", not "owner"' },
    ]);
    expect(await f(WS, { agentPoolId: "apool-1" })).toEqual([
      {
        property: "workspaceIds",
        reason: "is required (an empty list clears the pool's allowed workspaces in authoritative mode)",
      },
    ]);
    // Unknown until apply: judged by the check that runs when they are known.
    expect(await f(WS, { agentPoolId: UNKNOWN, workspaceIds: [UNKNOWN, "ws-2"] })).toEqual([]);
    // The claimant is never recorded; the mode defaults to authoritative.
    const { inputs } = await check(WS, { agentPoolId: "apool-rec", workspaceIds: [], [CLAIMANT_KEY]: "rec" });
    expect(inputs).toEqual({ agentPoolId: "apool-rec", workspaceIds: [], mode: "authoritative" });
  });

  it("one owner per list: refused at preview naming both resources, in either order", async () => {
    const f = async (kind: string, claimant: string, news: Props) =>
      (await check(kind, { ...news, [CLAIMANT_KEY]: claimant })).failures;
    const pool = "apool-claims";

    // Two authoritative resources of the same list.
    expect(await f(WS, "all-a", { agentPoolId: pool, workspaceIds: ["ws-1"] })).toEqual([]);
    expect(await f(WS, "all-a", { agentPoolId: pool, workspaceIds: ["ws-1"] })).toEqual([]); // checked again
    const twice = await f(WS, "all-b", { agentPoolId: pool, workspaceIds: [] });
    expect(twice).toHaveLength(1);
    expect(twice[0].property).toBe("agentPoolId");
    expect(twice[0].reason).toContain(`this one and "all-a"`);
    expect(twice[0].reason).toContain(`"all-a" is authoritative and this one is authoritative`);

    // An additive resource after the authoritative one.
    const mixed = await f(WS, "add-c", { agentPoolId: pool, workspaceIds: ["ws-3"], mode: "additive" });
    expect(mixed.map((x) => x.reason)).toEqual([
      expect.stringContaining(`this one and "all-a": "all-a" is authoritative`),
    ]);

    // Other lists of the same pool, and the same list of another pool, are other records.
    expect(await f(EXCL, "excl", { agentPoolId: pool, workspaceIds: ["ws-1"] })).toEqual([]);
    expect(await f(PRJ, "prj", { agentPoolId: pool, projectIds: [] })).toEqual([]);
    expect(await f(WS, "all-b", { agentPoolId: "apool-other", workspaceIds: [] })).toEqual([]);

    // Additive first, then the authoritative one.
    const pool2 = "apool-claims-2";
    expect(await f(WS, "add-1", { agentPoolId: pool2, workspaceIds: ["ws-1"], mode: "additive" })).toEqual([]);
    expect(await f(WS, "add-2", { agentPoolId: pool2, workspaceIds: ["ws-2"], mode: "additive" })).toEqual([]);
    const late = await f(WS, "whole", { agentPoolId: pool2, workspaceIds: ["ws-1"] });
    expect(late.map((x) => x.reason)).toEqual([
      expect.stringContaining(`this one and "add-1": "add-1" is additive and this one is authoritative`),
      expect.stringContaining(`this one and "add-2": "add-2" is additive and this one is authoritative`),
    ]);

    // Two additive resources adding the same id.
    const same = await f(WS, "add-3", { agentPoolId: pool2, workspaceIds: ["ws-9", "ws-2"], mode: "additive" });
    expect(same).toEqual([
      { property: "workspaceIds", reason: expect.stringContaining(`this one and "add-2": both add ws-2 to it`) },
    ]);
  });
});

describe("authoritative", () => {
  it("sets the whole list, writes nothing when it is as declared, shows drift and restores it, clears, and delete clears", async () => {
    const pool = await newPool();
    const [a, b, c] = [await newWorkspace(), await newWorkspace(), await newWorkspace()];
    await h.client.agentPools.updateAllowedWorkspaces(pool, [c]);

    const r = await create(WS, { agentPoolId: pool, workspaceIds: [b, a] });
    expect(r.id).toBe(pool);
    expect(r.outs).toMatchObject({
      agentPoolId: pool,
      mode: "authoritative",
      workspaceIds: sorted([a, b]),
      addedWorkspaceIds: [],
      organization: h.org,
    });
    expect((await lists(pool)).allowedWorkspaceIds).toEqual(sorted([a, b]));
    expect((await diff(WS, r.id, r.outs, r.inputs)).changes).toBe(false);

    // Adoption: a list that already is as declared costs no write.
    const before = writes();
    const again = await create(WS, { agentPoolId: pool, workspaceIds: [a, b] });
    expect(again.outs.workspaceIds).toEqual(sorted([a, b]));
    expect(writes() - before).toBe(0);

    // Drift: one removed, one added outside the program.
    await h.client.agentPools.updateAllowedWorkspaces(pool, [a, c]);
    const read = await call(WS, "read", r.id, r.outs);
    expect(read.props.workspaceIds).toEqual(sorted([a, c]));
    expect(await diff(WS, r.id, read.props, r.inputs)).toMatchObject({ changes: true, replaces: [] });
    const restored = await update(WS, r.id, read.props, r.inputs);
    expect(restored.workspaceIds).toEqual(sorted([a, b]));
    expect((await lists(pool)).allowedWorkspaceIds).toEqual(sorted([a, b]));

    // Another pool replaces the resource.
    expect(await diff(WS, r.id, restored, { ...r.inputs, agentPoolId: "apool-x" })).toMatchObject({
      changes: true,
      replaces: ["agentPoolId"],
    });

    // An empty list clears; delete clears too, and leaves the other lists alone.
    await h.client.agentPools.updateExcludedWorkspaces(pool, [c]);
    const cleared = await update(WS, r.id, restored, { agentPoolId: pool, workspaceIds: [] });
    expect(cleared.workspaceIds).toEqual([]);
    expect((await lists(pool)).allowedWorkspaceIds).toEqual([]);
    const back = await update(WS, r.id, cleared, { agentPoolId: pool, workspaceIds: [a] });
    await call(WS, "delete", r.id, back);
    expect(await lists(pool)).toEqual({ allowedWorkspaceIds: [], allowedProjectIds: [], excludedWorkspaceIds: [c] });
  });

  it("a renamed resource: the old one's delete leaves the list its successor declared in the same up", async () => {
    const pool = await newPool();
    const [a, b, c] = [await newWorkspace(), await newWorkspace(), await newWorkspace()];
    const old = await create(WS, { agentPoolId: pool, workspaceIds: [a, b] });
    // The engine checks and creates the new resource, then deletes the one gone from the program.
    await create(WS, { agentPoolId: pool, workspaceIds: [a, c], [CLAIMANT_KEY]: "renamed" });
    await call(WS, "delete", old.id, old.outs);
    expect((await lists(pool)).allowedWorkspaceIds).toEqual(sorted([a, c]));

    // Additive: the ids a successor adds stay, the others it added go.
    const other = await newPool();
    const before = await create(EXCL, { agentPoolId: other, workspaceIds: [a, b], mode: "additive" });
    await create(EXCL, { agentPoolId: other, workspaceIds: [a], mode: "additive", [CLAIMANT_KEY]: "successor" });
    await call(EXCL, "delete", before.id, before.outs);
    expect((await lists(other)).excludedWorkspaceIds).toEqual([a]);

    // An id handed from one additive resource to another in one update stays.
    const third = await newPool();
    const giving = { agentPoolId: third, workspaceIds: [a, b], mode: "additive" };
    const giver = await create(WS, giving);
    // The next up checks both, in a process of its own, then writes.
    const gives = { ...giving, workspaceIds: [a], [CLAIMANT_KEY]: "giver" };
    expect((await check(WS, gives)).failures).toEqual([]);
    await create(WS, { agentPoolId: third, workspaceIds: [b], mode: "additive", [CLAIMANT_KEY]: "taker" });
    const gave = await update(WS, giver.id, giver.outs, gives);
    expect(gave.addedWorkspaceIds).toEqual([a]);
    expect((await lists(third)).allowedWorkspaceIds).toEqual(sorted([a, b]));
  });

  it("projects and excluded workspaces: the same, each on its own list", async () => {
    const pool = await newPool();
    const p1 = await createProject(h, uniqueName("prj"));
    const p2 = await createProject(h, uniqueName("prj"));
    const w = await newWorkspace();
    const projects = await create(PRJ, { agentPoolId: pool, projectIds: [p2, p1] });
    expect(projects.outs).toMatchObject({ projectIds: sorted([p1, p2]), addedProjectIds: [] });
    const excluded = await create(EXCL, { agentPoolId: pool, workspaceIds: [w] });
    expect(excluded.outs.workspaceIds).toEqual([w]);
    expect(await lists(pool)).toEqual({
      allowedWorkspaceIds: [],
      allowedProjectIds: sorted([p1, p2]),
      excludedWorkspaceIds: [w],
    });
    await call(PRJ, "delete", projects.id, projects.outs);
    expect(await lists(pool)).toEqual({ allowedWorkspaceIds: [], allowedProjectIds: [], excludedWorkspaceIds: [w] });
  });

  it("import by the pool's id reads the whole list as an authoritative resource holds it", async () => {
    const pool = await newPool();
    const [a, b] = [await newWorkspace(), await newWorkspace()];
    await h.client.agentPools.updateAllowedWorkspaces(pool, [b, a]);
    const before = writes();
    const imported = await call(WS, "read", pool, {});
    expect(imported.id).toBe(pool);
    expect(imported.props).toMatchObject({ agentPoolId: pool, mode: "authoritative", workspaceIds: sorted([a, b]) });
    expect(writes() - before).toBe(0);
  });

  it("a pool deleted first leaves nothing to do; one that never existed is refused with the way out", async () => {
    const pool = await newPool();
    const a = await newWorkspace();
    const r = await create(WS, { agentPoolId: pool, workspaceIds: [a] });
    await h.client.agentPools.delete(pool);
    // The owners token sees every pool, so a 404 means gone.
    expect(await call(WS, "read", r.id, r.outs)).toEqual({});
    await call(WS, "delete", r.id, r.outs);

    const checked = await check(WS, { agentPoolId: "apool-nothere", workspaceIds: [a] });
    const refused = await call(WS, "create", checked.inputs).catch((e: Error) => e);
    expect(refused.message).toContain("the allowed workspaces of agent pool apool-nothere");
    expect(refused.message).toContain("Check agentPoolId");

    // A workspace the organization does not have: the service's reason, and which input to fix.
    const other = await newPool();
    const unknown = await check(WS, { agentPoolId: other, workspaceIds: [a, "ws-nothere"] });
    const bad = await call(WS, "create", unknown.inputs).catch((e: Error) => e);
    expect(bad.message).toMatch(/^cannot set the allowed workspaces of agent pool apool-\S+ to \[.*"ws-nothere".*\]: /);
    expect(bad.message).toContain('"ws-nothere" not found');
    expect(bad.message).toContain("Check workspaceIds");
    expect((await lists(other)).allowedWorkspaceIds).toEqual([]);
  });
});

describe("the 404 rule", () => {
  /** Points the providers at the same server with another token. */
  function as(token: string): void {
    const config: Record<string, string> = {
      "workspaces:address": h.server.url,
      "workspaces:token": token,
      "workspaces:organization": h.org,
    };
    configureFromStack({ config: { get: (k: string) => config[k] } });
    resetClients();
  }

  it("a pool gone from the view of a token that cannot see every pool is never dropped", async () => {
    const pool = await newPool();
    const r = await create(WS, { agentPoolId: pool, workspaceIds: [await newWorkspace()] });
    const team = await api(h, "POST", `/organizations/${h.org}/teams`, {
      data: { type: "teams", attributes: { name: uniqueName("team") } },
    });
    expect(team.status).toBe(201);
    const token = (await api(h, "POST", `/teams/${team.json.data.id}/authentication-token`)).json.data.attributes
      .token as string;
    await h.client.agentPools.delete(pool);
    as(token);
    try {
      const refresh = await call(WS, "read", r.id, r.outs).catch((e: Error) => e);
      expect(refresh).toBeInstanceOf(Error);
      expect(refresh.message).toContain(`cannot refresh the allowed workspaces of agent pool ${pool}`);
      expect(refresh.message).toContain("pulumi state delete");
      await expect(call(WS, "delete", r.id, r.outs)).rejects.toThrow(/cannot delete the allowed workspaces/);
    } finally {
      as(h.server.token);
    }
  });
});

describe("additive", () => {
  it("two resources on one pool in one up keep each other's ids; delete removes only its own", async () => {
    const pool = await newPool();
    const [mine1, mine2, theirs, person] = [
      await newWorkspace(),
      await newWorkspace(),
      await newWorkspace(),
      await newWorkspace(),
    ];
    await h.client.agentPools.updateAllowedWorkspaces(pool, [person]);

    // Both read-modify-write the whole list at the same time, as the engine runs them.
    const [one, two] = await Promise.all([
      create(WS, { agentPoolId: pool, workspaceIds: [mine1, mine2, person], mode: "additive" }),
      create(WS, { agentPoolId: pool, workspaceIds: [theirs], mode: "additive" }),
    ]);
    expect((await lists(pool)).allowedWorkspaceIds).toEqual(sorted([mine1, mine2, theirs, person]));
    // Declared and present, but not added by it: the person's id is not its own.
    expect(one.outs).toMatchObject({
      mode: "additive",
      workspaceIds: sorted([mine1, mine2, person]),
      addedWorkspaceIds: sorted([mine1, mine2]),
    });
    expect(two.outs.addedWorkspaceIds).toEqual([theirs]);

    // An own id removed outside the program is added again; another's removal is ignored.
    await h.client.agentPools.updateAllowedWorkspaces(pool, [mine1, person]);
    const read = await call(WS, "read", one.id, one.outs);
    expect(read.props.workspaceIds).toEqual(sorted([mine1, person]));
    expect((await diff(WS, one.id, read.props, one.inputs)).changes).toBe(true);
    const readTwo = await call(WS, "read", two.id, two.outs);
    expect(readTwo.props.workspaceIds).toEqual([]);
    const restored = await update(WS, one.id, read.props, one.inputs);
    expect(restored.addedWorkspaceIds).toEqual(sorted([mine1, mine2]));
    expect((await lists(pool)).allowedWorkspaceIds).toEqual(sorted([mine1, mine2, person]));
    await h.client.agentPools.updateAllowedWorkspaces(pool, [mine1, mine2, person, theirs]);

    // Dropping an id it added removes it; the others stay.
    const fewer = await update(WS, one.id, restored, { ...one.inputs, workspaceIds: [mine1, person] });
    expect(fewer.addedWorkspaceIds).toEqual([mine1]);
    expect((await lists(pool)).allowedWorkspaceIds).toEqual(sorted([mine1, person, theirs]));

    // Delete removes only its own ids: never the other resource's or the person's.
    await call(WS, "delete", one.id, fewer);
    expect((await lists(pool)).allowedWorkspaceIds).toEqual(sorted([person, theirs]));
    await call(WS, "delete", two.id, two.outs);
    expect((await lists(pool)).allowedWorkspaceIds).toEqual([person]);
  });

  it("adds nothing when every declared id is there already: 0 writes, and delete then removes nothing", async () => {
    const pool = await newPool();
    const a = await newWorkspace();
    await h.client.agentPools.updateAllowedWorkspaces(pool, [a]);
    const before = writes();
    const r = await create(WS, { agentPoolId: pool, workspaceIds: [a], mode: "additive" });
    expect(writes() - before).toBe(0);
    await call(WS, "delete", r.id, r.outs);
    expect((await lists(pool)).allowedWorkspaceIds).toEqual([a]);
    expect(writes() - before).toBe(0);
  });
});

describe("allowances", () => {
  it("an allowing list says when its pool is declared and when its write landed; an excluding one never does", async () => {
    const pool = await newPool();
    const a = await newWorkspace();
    const checked = await check(WS, { agentPoolId: pool, workspaceIds: [a], [CLAIMANT_KEY]: "allow-a" });
    expect(isAllowanceDeclared(pool)).toBe(true);
    expect(pendingAllowances(pool)).toEqual(["allow-a"]);
    await call(WS, "create", checked.inputs);
    expect(pendingAllowances(pool)).toEqual([]);

    const other = await newPool();
    await check(EXCL, { agentPoolId: other, workspaceIds: [a], [CLAIMANT_KEY]: "exclude-a" });
    expect(isAllowanceDeclared(other)).toBe(false);
  });

  it("an up that finds the list as declared says so in its diff, so nothing waits for a write", async () => {
    const pool = await newPool();
    const [a, b] = [await newWorkspace(), await newWorkspace()];
    const first = await create(WS, { agentPoolId: pool, workspaceIds: [a], [CLAIMANT_KEY]: "kept" });
    resetAllowances(); // a later up, in a provider process of its own
    const again = await check(WS, { agentPoolId: pool, workspaceIds: [a], [CLAIMANT_KEY]: "kept" });
    expect(pendingAllowances(pool)).toEqual(["kept"]);
    expect((await call(WS, "diff", pool, first.outs, again.inputs)).changes).toBe(false);
    expect(pendingAllowances(pool)).toEqual([]);

    // A change stays pending until its update lands.
    resetAllowances();
    const widened = await check(WS, { agentPoolId: pool, workspaceIds: [a, b], [CLAIMANT_KEY]: "kept" });
    expect((await call(WS, "diff", pool, first.outs, widened.inputs)).changes).toBe(true);
    expect(pendingAllowances(pool)).toEqual(["kept"]);
    await call(WS, "update", pool, first.outs, widened.inputs);
    expect(pendingAllowances(pool)).toEqual([]);
  });
});
