/**
 * `PolicySetWorkspaces`, `PolicySetProjects`, `PolicySetWorkspaceExclusions` and
 * `PolicySetProjectExclusions` against the real local server, through the entry point as
 * the engine calls them: check failures with their property paths, one owner per list
 * refused at preview naming both resources, a global set's workspaces and projects refused
 * (at check when the set is known, before any write otherwise), the whole list in
 * authoritative mode (0 writes when it already is as declared, drift read back and
 * restored, an empty list clears, delete clears), additive mode that never loses or removes
 * another's ids, import by the set's id, a set deleted first, the 404 rule, and a refresh
 * of a set's lists that reads the set once.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { UNKNOWN } from "../../src/resources/providers/unknowns";
import { CLAIMANT_KEY } from "../../src/resources/process/claims";
import { resetClients } from "../../src/resources/providers/client";
import { createProject, providersAs, startHarness, teamTokenWith, uniqueName, type Harness } from "./helpers";
import { familyCalls } from "./entry-calls";
import type { Props } from "../../src/resources/providers/types";

let h: Harness;

beforeAll(async () => {
  h = await startHarness();
});
afterAll(async () => {
  await h?.close();
});

const WS = "PolicySetWorkspaces";
const PRJ = "PolicySetProjects";
const WS_EXCL = "PolicySetWorkspaceExclusions";
const PRJ_EXCL = "PolicySetProjectExclusions";

const { call, check, create, diff, update } = familyCalls();

/** A later engine operation, in a provider process of its own: nothing read before is held. */
function laterOperation(): void {
  resetClients();
}

/** Requests the server has answered so far whose route matches `pattern`. */
function requests(pattern: RegExp): number {
  return Object.entries(h.server.stats().byRoute)
    .filter(([route]) => pattern.test(route))
    .reduce((n, [, count]) => n + count, 0);
}

/** Writes the server has answered so far (POST, PATCH, PUT, DELETE). */
const writes = () => requests(/^(POST|PATCH|PUT|DELETE) /);

async function newSet(options: { global?: boolean } = {}): Promise<string> {
  return (await h.client.policySets.create(h.org, { name: uniqueName("set"), ...options })).id;
}

async function newWorkspace(): Promise<string> {
  return (await h.client.workspaces.create(h.org, { name: uniqueName("ws") })).id;
}

async function lists(setId: string) {
  const s = await h.client.policySets.read(setId);
  return {
    workspaceIds: [...s.workspaceIds].sort(),
    projectIds: [...s.projectIds].sort(),
    workspaceExclusionIds: [...s.workspaceExclusionIds].sort(),
    projectExclusionIds: [...s.projectExclusionIds].sort(),
  };
}

const sorted = (ids: string[]) => [...ids].sort();

describe("check", () => {
  it("refuses ids of the wrong kind, a bad set or mode, a missing or repeated id, with property paths", async () => {
    const f = async (kind: string, news: Props) => (await check(kind, news)).failures;
    expect(await f(WS, { policySetId: "polset-1", workspaceIds: ["ws-1", "prj-2", "ws-1"] })).toEqual([
      { property: "workspaceIds[1]", reason: 'must be a workspace id (ws-...), not "prj-2"' },
      { property: "workspaceIds[2]", reason: "ws-1 is listed twice" },
    ]);
    expect(await f(PRJ, { policySetId: "polset-1", projectIds: ["ws-1"] })).toEqual([
      { property: "projectIds[0]", reason: 'must be a project id (prj-...), not "ws-1"' },
    ]);
    expect(await f(PRJ_EXCL, { policySetId: "polset-1", projectIds: ["prj-1", "pol-1"] })).toEqual([
      { property: "projectIds[1]", reason: 'must be a project id (prj-...), not "pol-1"' },
    ]);
    expect(await f(WS_EXCL, { policySetId: "apool-1", workspaceIds: [], mode: "owner" })).toEqual([
      { property: "policySetId", reason: "must be a policy set id (polset-...)" },
      { property: "mode", reason: 'must be "authoritative" or "additive", not "owner"' },
    ]);
    expect(await f(WS, { policySetId: "polset-1" })).toEqual([
      {
        property: "workspaceIds",
        reason: "is required (an empty list clears the set's workspaces in authoritative mode)",
      },
    ]);
    // Unknown until apply: judged by the check that runs when they are known.
    expect(await f(WS, { policySetId: UNKNOWN, workspaceIds: [UNKNOWN, "ws-2"] })).toEqual([]);
    // The claimant is never recorded; the mode defaults to authoritative.
    const { inputs } = await check(WS, { policySetId: "polset-rec", workspaceIds: [], [CLAIMANT_KEY]: "rec" });
    expect(inputs).toEqual({ policySetId: "polset-rec", workspaceIds: [], mode: "authoritative" });
  });

  it("one owner per list: refused at preview naming both resources", async () => {
    const f = async (kind: string, claimant: string, news: Props) =>
      (await check(kind, { ...news, [CLAIMANT_KEY]: claimant })).failures;
    const set = "polset-claims";

    // Two authoritative resources of the same list.
    expect(await f(WS, "all-a", { policySetId: set, workspaceIds: ["ws-1"] })).toEqual([]);
    expect(await f(WS, "all-a", { policySetId: set, workspaceIds: ["ws-1"] })).toEqual([]); // checked again
    const twice = await f(WS, "all-b", { policySetId: set, workspaceIds: [] });
    expect(twice).toEqual([
      {
        property: "policySetId",
        reason: expect.stringContaining(
          `the workspaces of policy set ${set} are declared by two resources of this stack, this one and "all-a": ` +
            `"all-a" is authoritative and this one is authoritative`,
        ),
      },
    ]);

    // An additive resource after the authoritative one.
    const mixed = await f(WS, "add-c", { policySetId: set, workspaceIds: ["ws-3"], mode: "additive" });
    expect(mixed.map((x) => x.reason)).toEqual([
      expect.stringContaining(`this one and "all-a": "all-a" is authoritative and this one is additive`),
    ]);

    // The other lists of the same set, and the same list of another set, are other records;
    // so is an agent pool's list of excluded workspaces.
    expect(await f(WS_EXCL, "excl", { policySetId: set, workspaceIds: ["ws-1"] })).toEqual([]);
    expect(await f(PRJ, "prj", { policySetId: set, projectIds: [] })).toEqual([]);
    expect(await f(PRJ_EXCL, "prj-excl", { policySetId: set, projectIds: [] })).toEqual([]);
    expect(await f(WS, "all-b", { policySetId: "polset-other", workspaceIds: [] })).toEqual([]);
    expect(
      await f("AgentPoolExcludedWorkspaces", "pool-excl", { agentPoolId: "apool-1", workspaceIds: ["ws-1"] }),
    ).toEqual([]);

    // Two additive resources adding the same id; different ids are fine.
    const set2 = "polset-claims-2";
    expect(await f(PRJ_EXCL, "add-1", { policySetId: set2, projectIds: ["prj-1"], mode: "additive" })).toEqual([]);
    expect(await f(PRJ_EXCL, "add-2", { policySetId: set2, projectIds: ["prj-2"], mode: "additive" })).toEqual([]);
    const same = await f(PRJ_EXCL, "add-3", { policySetId: set2, projectIds: ["prj-9", "prj-2"], mode: "additive" });
    expect(same).toEqual([
      {
        property: "projectIds",
        reason: expect.stringContaining(
          `the project exclusions of policy set ${set2} are declared by two resources of this stack, this one and "add-2": both add prj-2 to it`,
        ),
      },
    ]);
    // Then an authoritative one: refused naming each additive owner.
    const late = await f(PRJ_EXCL, "whole", { policySetId: set2, projectIds: [] });
    expect(late.map((x) => x.reason)).toEqual([
      expect.stringContaining(`this one and "add-1": "add-1" is additive and this one is authoritative`),
      expect.stringContaining(`this one and "add-2": "add-2" is additive and this one is authoritative`),
    ]);
  });
});

describe("a global set", () => {
  it("takes no workspaces or projects: refused at check when the set exists; exclusions are fine", async () => {
    const set = await newSet({ global: true });
    const ws = await newWorkspace();
    const prj = await createProject(h, uniqueName("prj"));
    for (const [kind, news] of [
      [WS, { policySetId: set, workspaceIds: [ws] }],
      [PRJ, { policySetId: set, projectIds: [prj], mode: "additive" }],
    ] as const) {
      const { failures } = await check(kind, news);
      expect(failures).toEqual([
        {
          property: "policySetId",
          reason: expect.stringMatching(
            new RegExp(`^cannot set the (workspaces|projects) of policy set ${set}: policy set "set-[^"]+" is global`),
          ),
        },
      ]);
      expect(failures[0].reason).toContain("global: false");
      expect(failures[0].reason).toContain("PolicySetWorkspaceExclusions");
    }
    const before = writes();
    const excluded = await create(WS_EXCL, { policySetId: set, workspaceIds: [ws] });
    expect(excluded.outs.workspaceIds).toEqual([ws]);
    await create(PRJ_EXCL, { policySetId: set, projectIds: [prj] });
    expect(await lists(set)).toEqual({
      workspaceIds: [],
      projectIds: [],
      workspaceExclusionIds: [ws],
      projectExclusionIds: [prj],
    });
    expect(writes() - before).toBe(2);
  });

  it("is judged by what the program's PolicySet declares once the engine has diffed it", async () => {
    // Made not global in the same up as its first workspaces: the set's diff comes first.
    const leaving = await newSet({ global: true });
    const ws = await newWorkspace();
    await call("PolicySet", "diff", leaving, { global: true }, { global: false });
    laterOperation();
    const reads = () => requests(/^GET \S*\/policy-sets\/:[^/]+$/);
    const before = reads();
    expect((await check(WS, { policySetId: leaving, workspaceIds: [ws] })).failures).toEqual([]);
    // Declared not global (#1080): a preview's check of where the set applies reads nothing.
    expect(reads() - before).toBe(0);
    // Made global while the program declares its projects: refused at preview already.
    const joining = await newSet();
    await call("PolicySet", "diff", joining, { global: false }, { global: true });
    const { failures } = await check(PRJ, { policySetId: joining, projectIds: [] });
    expect(failures.map((f) => f.reason)).toEqual([expect.stringContaining("is global")]);
  });

  it("a set not yet known at check is refused before any write", async () => {
    // Created in the same `up`: its id is unknown when the list is checked.
    const { inputs, failures } = await check(WS, { policySetId: UNKNOWN, workspaceIds: [await newWorkspace()] });
    expect(failures).toEqual([]);
    const set = await newSet({ global: true });
    const before = writes();
    const refused = await call(WS, "create", { ...inputs, policySetId: set }).catch((e: Error) => e);
    expect(refused).toBeInstanceOf(Error);
    expect(refused.message).toMatch(new RegExp(`^cannot set the workspaces of policy set ${set}: .* is global`));
    expect(writes() - before).toBe(0);
    expect((await lists(set)).workspaceIds).toEqual([]);
  });
});

describe("authoritative", () => {
  it("sets the whole list, writes nothing when it is as declared, shows drift and restores it, clears, and delete clears", async () => {
    const set = await newSet();
    const [a, b, c] = [await newWorkspace(), await newWorkspace(), await newWorkspace()];
    await h.client.policySets.addWorkspaces(set, [c]);

    const r = await create(WS, { policySetId: set, workspaceIds: [b, a] });
    expect(r.id).toBe(set);
    expect(r.outs).toMatchObject({
      policySetId: set,
      mode: "authoritative",
      workspaceIds: sorted([a, b]),
      addedWorkspaceIds: [],
      organization: h.org,
    });
    expect((await lists(set)).workspaceIds).toEqual(sorted([a, b]));
    expect((await diff(WS, r.id, r.outs, r.inputs)).changes).toBe(false);

    // Adoption: a list that already is as declared costs no write.
    laterOperation();
    const before = writes();
    const again = await create(WS, { policySetId: set, workspaceIds: [a, b] });
    expect(again.outs.workspaceIds).toEqual(sorted([a, b]));
    expect(writes() - before).toBe(0);

    // Drift: one removed, one added outside the program, seen by the next operation.
    await h.client.policySets.removeWorkspaces(set, [b]);
    await h.client.policySets.addWorkspaces(set, [c]);
    laterOperation();
    const read = await call(WS, "read", r.id, r.outs);
    expect(read.props.workspaceIds).toEqual(sorted([a, c]));
    expect(await diff(WS, r.id, read.props, r.inputs)).toMatchObject({ changes: true, replaces: [] });
    const restored = await update(WS, r.id, read.props, r.inputs);
    expect(restored.workspaceIds).toEqual(sorted([a, b]));
    expect((await lists(set)).workspaceIds).toEqual(sorted([a, b]));

    // Another set replaces the resource.
    expect(await diff(WS, r.id, restored, { ...r.inputs, policySetId: "polset-x" })).toMatchObject({
      changes: true,
      replaces: ["policySetId"],
    });

    // An empty list clears; delete clears too, and leaves the other lists alone.
    await h.client.policySets.addWorkspaceExclusions(set, [c]);
    const cleared = await update(WS, r.id, restored, { policySetId: set, workspaceIds: [] });
    expect(cleared.workspaceIds).toEqual([]);
    expect((await lists(set)).workspaceIds).toEqual([]);
    const back = await update(WS, r.id, cleared, { policySetId: set, workspaceIds: [a] });
    expect((await lists(set)).workspaceIds).toEqual([a]);
    await call(WS, "delete", r.id, back);
    expect(await lists(set)).toEqual({
      workspaceIds: [],
      projectIds: [],
      workspaceExclusionIds: [c],
      projectExclusionIds: [],
    });
  });

  it("projects and both exclusions: the same, each on its own list", async () => {
    const set = await newSet();
    const [p1, p2, p3] = [
      await createProject(h, uniqueName("prj")),
      await createProject(h, uniqueName("prj")),
      await createProject(h, uniqueName("prj")),
    ];
    const w = await newWorkspace();
    const projects = await create(PRJ, { policySetId: set, projectIds: [p2, p1] });
    expect(projects.outs).toMatchObject({ projectIds: sorted([p1, p2]), addedProjectIds: [] });
    const wsExcl = await create(WS_EXCL, { policySetId: set, workspaceIds: [w] });
    expect(wsExcl.outs.workspaceIds).toEqual([w]);
    const prjExcl = await create(PRJ_EXCL, { policySetId: set, projectIds: [p3] });
    expect(prjExcl.outs.projectIds).toEqual([p3]);
    expect(await lists(set)).toEqual({
      workspaceIds: [],
      projectIds: sorted([p1, p2]),
      workspaceExclusionIds: [w],
      projectExclusionIds: [p3],
    });
    await call(PRJ, "delete", projects.id, projects.outs);
    await call(PRJ_EXCL, "delete", prjExcl.id, prjExcl.outs);
    expect(await lists(set)).toEqual({
      workspaceIds: [],
      projectIds: [],
      workspaceExclusionIds: [w],
      projectExclusionIds: [],
    });
  });

  it("delete clears a list whose project was deleted since the set was read, as a destroy does", async () => {
    const set = await newSet();
    const [p1, p2] = [await createProject(h, uniqueName("prj")), await createProject(h, uniqueName("prj"))];
    const made = await create(PRJ, { policySetId: set, projectIds: [p1, p2] });
    laterOperation();
    await call(PRJ, "read", made.id, made.outs); // the destroy's process holds the set as read now
    // Deleted by another client (another resource of the destroy, or a person): it leaves the list.
    await h.client.projects.delete(p1);
    await call(PRJ, "delete", made.id, made.outs);
    expect((await lists(set)).projectIds).toEqual([]);
  });

  it("import by the set's id reads the whole list as an authoritative resource holds it", async () => {
    const set = await newSet();
    const [a, b] = [await newWorkspace(), await newWorkspace()];
    await h.client.policySets.addWorkspaceExclusions(set, [b, a]);
    laterOperation();
    const before = writes();
    const imported = await call(WS_EXCL, "read", set, {});
    expect(imported.id).toBe(set);
    expect(imported.props).toMatchObject({ policySetId: set, mode: "authoritative", workspaceIds: sorted([a, b]) });
    expect(writes() - before).toBe(0);
  });

  it("a set deleted first leaves nothing to do; one that never existed, or an unknown id, is refused with the way out", async () => {
    const set = await newSet();
    const a = await newWorkspace();
    const r = await create(WS, { policySetId: set, workspaceIds: [a] });
    await h.client.policySets.delete(set);
    laterOperation();
    // The owners token sees every set, so a 404 means gone.
    expect(await call(WS, "read", r.id, r.outs)).toEqual({});
    await call(WS, "delete", r.id, r.outs);

    const checked = await check(WS, { policySetId: "polset-nothere", workspaceIds: [a] });
    expect(checked.failures).toEqual([]);
    const refused = await call(WS, "create", checked.inputs).catch((e: Error) => e);
    expect(refused.message).toContain("cannot set the workspaces of policy set polset-nothere");
    expect(refused.message).toContain("Check policySetId");

    // A workspace the organization does not have: the service's reason, and which input to fix.
    const other = await newSet();
    const unknown = await check(WS, { policySetId: other, workspaceIds: [a, "ws-nothere"] });
    const bad = await call(WS, "create", unknown.inputs).catch((e: Error) => e);
    expect(bad.message).toMatch(/^cannot set the workspaces of policy set polset-\S+ to \[.*"ws-nothere".*\]: /);
    expect(bad.message).toContain("Check workspaceIds");
  });
});

describe("the 404 rule", () => {
  const as = (token: string) => providersAs(h, token);

  it("a set gone from the view of a token that cannot see every set is never dropped", async () => {
    const set = await newSet();
    const r = await create(WS, { policySetId: set, workspaceIds: [await newWorkspace()] });
    const token = await teamTokenWith(h, {});
    await h.client.policySets.delete(set);
    as(token);
    try {
      // A member that is no owner shows no permission proving it sees every set.
      const refresh = await call(WS, "read", r.id, r.outs).catch((e: Error) => e);
      expect(refresh).toBeInstanceOf(Error);
      expect(refresh.message).toContain(`cannot refresh the workspaces of policy set ${set}`);
      expect(refresh.message).toContain("pulumi state delete");
      await expect(call(WS, "delete", r.id, r.outs)).rejects.toThrow(/cannot delete the workspaces of policy set/);
    } finally {
      as(h.server.token);
    }
  });

  it("a token that may read a set but not manage it is told which token to use", async () => {
    const set = await newSet();
    const a = await newWorkspace();
    const token = await teamTokenWith(h, {});
    as(token);
    try {
      const checked = await check(WS, { policySetId: set, workspaceIds: [a] });
      expect(checked.failures).toEqual([]);
      const refused = await call(WS, "create", checked.inputs).catch((e: Error) => e);
      expect(refused.message).toMatch(new RegExp(`^cannot set the workspaces of policy set ${set} to \\["${a}"\\]: `));
      expect(refused.message).toContain("may read the set but not manage it");
      expect(refused.message).toContain("a token that may manage policies");
    } finally {
      as(h.server.token);
    }
    expect((await lists(set)).workspaceIds).toEqual([]);
  });
});

describe("additive", () => {
  it("two resources on one set in one up keep each other's ids; delete removes only its own", async () => {
    const set = await newSet();
    const [mine1, mine2, theirs, person] = [
      await newWorkspace(),
      await newWorkspace(),
      await newWorkspace(),
      await newWorkspace(),
    ];
    await h.client.policySets.addWorkspaces(set, [person]);

    const [one, two] = await Promise.all([
      create(WS, { policySetId: set, workspaceIds: [mine1, mine2, person], mode: "additive" }),
      create(WS, { policySetId: set, workspaceIds: [theirs], mode: "additive" }),
    ]);
    expect((await lists(set)).workspaceIds).toEqual(sorted([mine1, mine2, theirs, person]));
    // Declared and present, but not added by it: the person's id is not its own.
    expect(one.outs).toMatchObject({
      mode: "additive",
      workspaceIds: sorted([mine1, mine2, person]),
      addedWorkspaceIds: sorted([mine1, mine2]),
    });
    expect(two.outs.addedWorkspaceIds).toEqual([theirs]);

    // An own id removed outside the program is added again; another's removal is ignored.
    await h.client.policySets.removeWorkspaces(set, [mine2, theirs]);
    laterOperation();
    const read = await call(WS, "read", one.id, one.outs);
    expect(read.props.workspaceIds).toEqual(sorted([mine1, person]));
    expect((await diff(WS, one.id, read.props, one.inputs)).changes).toBe(true);
    const readTwo = await call(WS, "read", two.id, two.outs);
    expect(readTwo.props.workspaceIds).toEqual([]);
    const restored = await update(WS, one.id, read.props, one.inputs);
    expect(restored.addedWorkspaceIds).toEqual(sorted([mine1, mine2]));
    expect((await lists(set)).workspaceIds).toEqual(sorted([mine1, mine2, person]));
    await h.client.policySets.addWorkspaces(set, [theirs]);
    laterOperation();

    // Dropping an id it added removes it; the others stay.
    const fewer = await update(WS, one.id, restored, { ...one.inputs, workspaceIds: [mine1, person] });
    expect(fewer.addedWorkspaceIds).toEqual([mine1]);
    expect((await lists(set)).workspaceIds).toEqual(sorted([mine1, person, theirs]));

    // Delete removes only its own ids: never the other resource's or the person's.
    await call(WS, "delete", one.id, fewer);
    expect((await lists(set)).workspaceIds).toEqual(sorted([person, theirs]));
    await call(WS, "delete", two.id, two.outs);
    expect((await lists(set)).workspaceIds).toEqual([person]);
  });

  it("adds nothing when every declared id is there already: 0 writes, and delete then removes nothing", async () => {
    const set = await newSet();
    const p = await createProject(h, uniqueName("prj"));
    await h.client.policySets.addProjects(set, [p]);
    laterOperation();
    const before = writes();
    const r = await create(PRJ, { policySetId: set, projectIds: [p], mode: "additive" });
    expect(writes() - before).toBe(0);
    await call(PRJ, "delete", r.id, r.outs);
    expect((await lists(set)).projectIds).toEqual([p]);
    expect(writes() - before).toBe(0);
  });
});

describe("refresh cost (#1080)", () => {
  it("a refresh of a set's four lists reads the set once", async () => {
    const set = await newSet();
    const [w1, w2] = [await newWorkspace(), await newWorkspace()];
    const [p1, p2] = [await createProject(h, uniqueName("prj")), await createProject(h, uniqueName("prj"))];
    const made = [
      [WS, await create(WS, { policySetId: set, workspaceIds: [w1] })],
      [PRJ, await create(PRJ, { policySetId: set, projectIds: [p1] })],
      [WS_EXCL, await create(WS_EXCL, { policySetId: set, workspaceIds: [w2] })],
      [PRJ_EXCL, await create(PRJ_EXCL, { policySetId: set, projectIds: [p2] })],
    ] as const;
    laterOperation();
    const reads = () => requests(/^GET \S*\/policy-sets\/:[^/]+$/);
    const before = reads();
    const refreshed = await Promise.all(made.map(([kind, r]) => call(kind, "read", r.id, r.outs)));
    expect(reads() - before).toBe(1);
    expect(refreshed.map((r) => r.props.workspaceIds ?? r.props.projectIds)).toEqual([[w1], [p1], [w2], [p2]]);
  });
});
