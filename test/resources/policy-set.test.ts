/**
 * `PolicySet` against the real local server, through the entry point as the engine calls
 * it: check failures (overridable on a Sentinel set, policyIds with policiesFolder), a diff
 * that sends no request, policies attached one by one with drift restored, a folder
 * uploaded as a version only when its files change, a rename in place and a kind change
 * replacing, adoption with no write, import by both id forms, and one read per set shared
 * by the resources of an operation.
 */
import { mkdtempSync, mkdirSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { UNKNOWN } from "../../src/resources/providers/unknowns";
import { resetClients } from "../../src/resources/providers/client";
import { originFor } from "../../src/resources/providers/origin";
import { folderDigest, folderFiles, tarball } from "../../src/resources/providers/policy-set-folder";
import { entryCalls } from "./entry-calls";
import { providersAs, startHarness, uniqueName, writesTo, type Harness } from "./helpers";

type Props = Record<string, any>;

let h: Harness;

beforeAll(async () => {
  h = await startHarness();
});
afterAll(async () => {
  await h?.close();
});

const { call, check, create } = entryCalls("PolicySet");
const writes = () => writesTo(h);

async function update(id: string, olds: Props, news: Props): Promise<Props> {
  return (await call("update", id, olds, (await check(news, olds)).inputs)).outs;
}

async function diff(id: string, olds: Props, news: Props) {
  return call("diff", id, olds, (await check(news, olds)).inputs);
}

function policiesFolder(files: Record<string, string>): string {
  const dir = mkdtempSync(join(tmpdir(), "policies-"));
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(join(dir, path, ".."), { recursive: true });
    writeFileSync(join(dir, path), text);
  }
  return dir;
}

const SENTINEL_FILES = {
  "sentinel.hcl": 'policy "cost" {\n  source = "./cost.sentinel"\n  enforcement_level = "advisory"\n}\n',
  "cost.sentinel": "main = rule { true }\n",
};

async function policy(kind = "sentinel"): Promise<string> {
  const p = await h.client.policies.create(h.org, {
    name: uniqueName("pol"),
    kind,
    ...(kind === "opa" ? { query: "data.example.allow" } : {}),
    enforcementLevel: kind === "opa" ? "advisory" : "soft-mandatory",
  });
  return p.id;
}

describe("check and diff", () => {
  it("one clear failure per bad input, with its property path", async () => {
    const f = async (news: Props) => (await check({ organization: h.org, ...news })).failures;
    expect(await f({ name: "baseline" })).toEqual([]);
    expect(await f({})).toEqual([{ property: "name", reason: "is required" }]);
    expect((await f({ name: "has space" }))[0]).toMatchObject({ property: "name" });
    const overridable = await f({ name: "s", overridable: true });
    expect(overridable).toHaveLength(1);
    expect(overridable[0].property).toBe("overridable");
    expect(overridable[0].reason).toContain("OPA policy sets only");
    expect(overridable[0].reason).toContain('kind: "opa"');
    expect(await f({ name: "o", kind: "opa", overridable: true })).toEqual([]);
    const both = await f({ name: "b", policyIds: ["pol-1"], policiesFolder: policiesFolder(SENTINEL_FILES) });
    expect(both.map((x) => x.property)).toEqual(["policiesFolder"]);
    expect(both[0].reason).toContain("exclusive");
    expect((await f({ name: "m", policiesFolder: "/no/such/folder" }))[0].reason).toContain("does not exist");
    expect(await f({ name: "p", policyIds: ["ws-1"] })).toEqual([
      { property: "policyIds[0]", reason: "must be a policy id (pol-...)" },
    ]);
    expect(await f({ name: UNKNOWN, policyIds: UNKNOWN, policiesFolder: UNKNOWN })).toEqual([]);
    // The kind's default and the folder's digest are part of the checked inputs.
    const folder = policiesFolder(SENTINEL_FILES);
    const inputs = (await check({ name: "d", organization: h.org, policiesFolder: folder })).inputs;
    expect(inputs.kind).toBe("sentinel");
    expect(inputs.policiesSha256).toBe(folderDigest(folderFiles(folder)));
  });

  it("a rename is an update; kind, organization and a switch to a folder replace; no request is made", async () => {
    const olds = { name: "a", organization: h.org, kind: "sentinel", policyIds: ["pol-1"], policiesFolder: null };
    const before = h.server.stats().total;
    const d = (news: Props) => call("diff", "polset-1", olds, news);
    expect(await d({ name: "b", organization: h.org, kind: "sentinel" })).toMatchObject({
      changes: true,
      replaces: [],
    });
    expect(await d({ name: "a", organization: h.org, kind: "opa" })).toMatchObject({
      replaces: ["kind"],
      deleteBeforeReplace: true,
    });
    expect(await d({ name: "a", organization: "other", kind: "sentinel" })).toMatchObject({
      replaces: ["organization"],
    });
    expect(
      await d({ name: "a", organization: h.org, kind: "sentinel", policiesFolder: "x", policiesSha256: "f" }),
    ).toMatchObject({ replaces: ["policiesFolder"] });
    expect((await d({ name: "a", organization: h.org, kind: "sentinel" })).changes).toBe(false);
    expect(h.server.stats().total).toBe(before);
  });
});

describe("PolicySet", () => {
  it("attaches policies one by one, reads a detached one back and attaches it again", async () => {
    const [p1, p2] = [await policy(), await policy()];
    const name = uniqueName("set");
    const news = { name, organization: h.org, description: "baseline", policyIds: [p1, p2] };
    const { id, outs } = await create(news);
    expect(id).toMatch(/^polset-/);
    expect(outs).toMatchObject({ name, kind: "sentinel", global: false, policyIds: [p1, p2].sort() });
    expect((await diff(id, outs, news)).changes).toBe(false);

    await h.client.policySets.removePolicies(id, [p2]);
    resetClients(); // the refresh is another engine operation: nothing of the create's is held
    const read = await call("read", id, outs);
    expect(read.props.policyIds).toEqual([p1]);
    expect(await diff(id, read.props, news)).toMatchObject({ changes: true, replaces: [] });
    const restored = await update(id, read.props, news);
    expect(restored.policyIds).toEqual([p1, p2].sort());
    expect((await h.client.policySets.read(id)).policyIds.sort()).toEqual([p1, p2].sort());

    const renamed = await update(id, restored, { ...news, name: `${name}-b`, policyIds: [p2] });
    expect(renamed).toMatchObject({ name: `${name}-b`, policyIds: [p2] });
    expect(await h.client.policySets.read(id)).toMatchObject({ name: `${name}-b`, policyIds: [p2] });
  });

  it("uploads the folder as a version, nothing for an unchanged folder, a new version for an edit", async () => {
    const folder = policiesFolder(SENTINEL_FILES);
    const news = { name: uniqueName("versioned"), organization: h.org, policiesFolder: folder };
    const { id, outs } = await create(news);
    expect(outs.policiesSha256).toBe(folderDigest(folderFiles(folder)));
    expect(outs.currentVersionId).toMatch(/^polsetver-/);
    const set = await h.client.policySets.read(id);
    expect(set.currentVersionId).toBe(outs.currentVersionId);
    expect((await h.client.policySetVersions.read(outs.currentVersionId)).status).toBe("ready");

    // Unchanged files: no change, and an update (of another setting) uploads nothing.
    expect((await diff(id, outs, news)).changes).toBe(false);
    const start = writes();
    const described = await update(id, outs, { ...news, description: "d" });
    expect(writes() - start).toBe(1);
    expect(described.currentVersionId).toBe(outs.currentVersionId);

    // An edit of one file is a change, and the update uploads a new version.
    writeFileSync(join(folder, "cost.sentinel"), "main = rule { false }\n");
    const edited = { ...news, description: "d" };
    expect(await diff(id, described, edited)).toMatchObject({ changes: true, replaces: [] });
    const uploaded = await update(id, described, edited);
    expect(uploaded.currentVersionId).not.toBe(outs.currentVersionId);
    expect(uploaded.policiesSha256).toBe(folderDigest(folderFiles(folder)));
    expect((await h.client.policySets.read(id)).currentVersionId).toBe(uploaded.currentVersionId);
  });

  it("a version the service cannot use fails with its reason; the set is kept and uploaded again by the next up", async () => {
    // More than the service unpacks: the version is errored.
    const folder = policiesFolder({ "sentinel.hcl": "" });
    writeFileSync(join(folder, "huge.sentinel"), Buffer.alloc(65 * 1024 * 1024));
    const checked = await check({ name: uniqueName("errored"), organization: h.org, policiesFolder: folder });
    const err = await call("create", checked.inputs).catch((e: Error & { id?: string; properties?: Props }) => e);
    expect(err.message).toContain("could not use the policies uploaded from policiesFolder");
    expect(err.message).toMatch(/unpacks to more than/);
    expect(err.message).toContain("Fix the folder's files and run `pulumi up` again");
    expect(err.id).toMatch(/^polset-/);
    expect(err.properties).toMatchObject({ policiesSha256: null });
    expect((await call("diff", err.id, err.properties, checked.inputs)).changes).toBe(true);
  });

  it("a version uploaded outside the program shows in the next diff", async () => {
    const folder = policiesFolder(SENTINEL_FILES);
    const news = { name: uniqueName("drift"), organization: h.org, policiesFolder: folder };
    const { id, outs } = await create(news);
    const other = await h.client.policySetVersions.create(id);
    await h.client.policySetVersions.upload(
      other,
      tarball(folderFiles(policiesFolder({ "x.sentinel": "main = true\n" }))),
    );
    for (let i = 0; i < 50 && (await h.client.policySets.read(id)).currentVersionId === outs.currentVersionId; i++)
      await new Promise((r) => setTimeout(r, 100));
    // The next operation's provider process: nothing read before is held.
    providersAs(h, h.server.token);
    const read = await call("read", id, outs);
    expect(read.props.policiesSha256).toBeNull();
    expect((await diff(id, read.props, news)).changes).toBe(true);
  });

  it("a name taken: one message naming the id and adopt: true; adopt takes it over with no write", async () => {
    const name = uniqueName("taken");
    const p = await policy();
    const existing = await h.client.policySets.create(h.org, { name, policyIds: [p], description: "kept" });
    const checked = await check({ name, organization: h.org, policyIds: [p] });
    const refused = await call("create", checked.inputs).catch((e: Error) => e);
    expect(refused.message).toContain(
      `policy set "${name}" (${existing.id}) in organization "${h.org}" already exists`,
    );
    expect(refused.message).toContain("adopt: true");

    const start = writes();
    const adopted = await create({ name, organization: h.org, policyIds: [p], adopt: true });
    expect(writes() - start).toBe(0);
    expect(adopted.id).toBe(existing.id);
    expect(adopted.outs).toMatchObject({ name, policyIds: [p], description: "kept", adopt: true });
  });

  it("an interrupted create is taken over by its origin, with no duplicate; another origin's is not", async () => {
    const origin = (name: string) => originFor("0123456789abcdef0123456789abcdef", "proj", "dev", "PolicySet", name);
    const name = uniqueName("crash");
    const news = { name, organization: h.org, __origin: origin("baseline") };
    const first = await create(news);
    expect((await h.client.policySets.read(first.id)).description).toContain("interrupted-updates");
    const again = await create({ ...news, description: "declared" });
    expect(again.id).toBe(first.id);
    const named = [];
    for await (const s of h.client.policySets.list(h.org, { search: name })) named.push(s.id);
    expect(named).toEqual([first.id]);
    expect((await h.client.policySets.read(first.id)).description).toBe("declared");
    // A refresh gives the origin back as no description: the program declared none.
    const read = await call("read", first.id, { ...first.outs, __inputNames: ["name", "organization"] });
    expect(read.inputs).toEqual({ name, organization: h.org });
    const other = await check({ ...news, __origin: origin("another") });
    await expect(call("create", other.inputs)).rejects.toThrow(/already exists.*adopt: true/s);
  });

  it("a create whose answer was lost is found by its name and kept: one set", async () => {
    const name = uniqueName("lost");
    const checked = await check({ name, organization: h.org, description: "made once" });
    // The POST commits and then loses its answer; reads go through.
    h.server.setFaults({ failureRate: 1, failureMode: "503", failureStage: "after", methods: ["POST"] });
    const created = await call("create", checked.inputs).finally(() => h.server.setFaults({}));
    const named = [];
    for await (const s of h.client.policySets.list(h.org, { search: name })) named.push(s.id);
    expect(named).toEqual([created.id]);
    expect(created.outs).toMatchObject({ name, description: "made once" });
    expect((await call("diff", created.id, created.outs, checked.inputs)).changes).toBe(false);
  });

  it("OPA: overridable is set and read back; imported by id and by organization/name", async () => {
    const name = uniqueName("opa");
    const { id, outs } = await create({ name, organization: h.org, kind: "opa", overridable: true });
    expect(outs).toMatchObject({ kind: "opa", overridable: true });
    const byName = await call("read", `${h.org}/${name}`, {});
    expect(byName.id).toBe(id);
    expect(byName.props).toMatchObject({ name, kind: "opa", overridable: true });
    const byId = await call("read", id, {});
    expect(byId.props.name).toBe(name);
    await expect(call("read", "pol-123", {})).rejects.toThrow(/polset-<id>/);
    await call("delete", id, outs);
    await expect(h.client.policySets.read(id)).rejects.toThrow();
  });

  it("one read of a set serves every resource of it within an operation; a write drops it", async () => {
    const { id, outs } = await create({ name: uniqueName("shared"), organization: h.org });
    // The create's answer serves the resources of the set that run next in the same `up`.
    let before = h.server.stats().total;
    await call("read", id, outs);
    expect(h.server.stats().total - before).toBe(0);
    resetClients();
    before = h.server.stats().total;
    await call("read", id, outs);
    await call("read", id, outs);
    await call("read", id, outs);
    expect(h.server.stats().total - before).toBe(1);
    await update(id, outs, { name: outs.name, organization: h.org, description: "changed" });
    const after = h.server.stats().total;
    expect((await call("read", id, outs)).props.description).toBe("changed");
    expect(h.server.stats().total - after).toBe(1);
  });
});
