/**
 * `PolicySetParameter` against the real local server, through the entry point as the engine
 * calls it: the #1512 refusal at check (a known set) and before any write (a set created in
 * the same `up`), a sensitive value kept out of the outputs and the server's answers and
 * compared with the last declared one (no diff unchanged, a diff changed), `sensitive:
 * false` shown (#2232), sensitive made non-sensitive replacing, drift of a plain value
 * restored, a killed create converging with no duplicate, and adoption with no write.
 */
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PARAMETER_NOT_ALLOWED_DETAIL } from "../../src/api/policy-sets";
import { UNKNOWN } from "../../src/resources/providers/unknowns";
import { entryCalls } from "./entry-calls";
import { api, startHarness, uniqueName, writesTo, type Harness } from "./helpers";

type Props = Record<string, any>;

let h: Harness;

beforeAll(async () => {
  h = await startHarness();
});
afterAll(async () => {
  await h?.close();
});

const { call, check, create } = entryCalls("PolicySetParameter");
const sets = entryCalls("PolicySet");
const writes = () => writesTo(h);

async function diff(id: string, olds: Props, news: Props) {
  return call("diff", id, olds, (await check(news, olds)).inputs);
}

async function update(id: string, olds: Props, news: Props): Promise<Props> {
  return (await call("update", id, olds, (await check(news, olds)).inputs)).outs;
}

/** A Sentinel set whose policies come from a version: one that takes parameters. */
async function versionedSet(): Promise<string> {
  const dir = mkdtempSync(join(tmpdir(), "params-"));
  writeFileSync(join(dir, "sentinel.hcl"), 'policy "p" {\n  source = "./p.sentinel"\n}\n');
  writeFileSync(join(dir, "p.sentinel"), "main = rule { true }\n");
  return (await sets.create({ name: uniqueName("versioned"), organization: h.org, policiesFolder: dir })).id;
}

/** The parameter as the server answers it on the wire. */
async function onTheWire(setId: string, parameterId: string): Promise<Record<string, unknown>> {
  const res = await api(h, "GET", `/policy-sets/${setId}/parameters/${parameterId}`);
  expect(res.status).toBe(200);
  return res.json.data.attributes;
}

describe("refused where the service would ignore it (#1512)", () => {
  it("at check, with the reason and the way out, for an OPA set and a set of policies attached one by one", async () => {
    const opa = await h.client.policySets.create(h.org, { name: uniqueName("opa"), kind: "opa" });
    const refused = (await check({ policySetId: opa.id, key: "limit", value: "1" })).failures;
    expect(refused).toHaveLength(1);
    expect(refused[0].property).toBe("policySetId");
    expect(refused[0].reason).toContain(`policy set "${opa.name}" (${opa.id})`);
    expect(refused[0].reason).toContain("OPA");
    expect(refused[0].reason).toContain(PARAMETER_NOT_ALLOWED_DETAIL);
    expect(refused[0].reason).toContain("policiesFolder");

    const pol = await h.client.policies.create(h.org, { name: uniqueName("pol"), enforcementLevel: "advisory" });
    const attached = await h.client.policySets.create(h.org, { name: uniqueName("attached"), policyIds: [pol.id] });
    const failures = (await check({ policySetId: attached.id, key: "limit", value: "1" })).failures;
    expect(failures[0].reason).toContain("attached one by one");

    // An empty Sentinel set and a versioned one take parameters.
    const empty = await h.client.policySets.create(h.org, { name: uniqueName("empty") });
    expect((await check({ policySetId: empty.id, key: "limit", value: "1" })).failures).toEqual([]);
    expect((await check({ policySetId: await versionedSet(), key: "limit", value: "1" })).failures).toEqual([]);
  });

  it("a set known only during pulumi up: check passes, create refuses before any write", async () => {
    expect((await check({ policySetId: UNKNOWN, key: "limit", value: "1" })).failures).toEqual([]);
    const opa = await h.client.policySets.create(h.org, { name: uniqueName("later"), kind: "opa" });
    const start = writes();
    const err = await call("create", { policySetId: opa.id, key: "limit", value: "1", sensitive: false }).catch(
      (e: Error) => e,
    );
    expect(err.message).toContain("OPA");
    expect(writes() - start).toBe(0);
  });
});

describe("PolicySetParameter", () => {
  it("sensitive: never in the outputs' value nor the server's answers; unchanged no diff, changed a diff", async () => {
    const setId = await versionedSet();
    const news = { policySetId: setId, key: "api_key", value: "s3cr3t-value", sensitive: true };
    const { id, outs } = await create(news);
    expect(id).toMatch(new RegExp(`^${setId}/var-`));
    expect(outs).toMatchObject({ key: "api_key", sensitive: true, value: null, sensitiveValue: "s3cr3t-value" });
    const parameterId = outs.parameterId;
    expect(JSON.stringify(await onTheWire(setId, parameterId))).not.toContain("s3cr3t-value");
    expect((await h.client.policySetParameters.read(setId, parameterId)).value).toBeNull();

    const read = await call("read", id, outs);
    expect(JSON.stringify({ ...read.props, sensitiveValue: undefined })).not.toContain("s3cr3t-value");
    expect((await diff(id, read.props, news)).changes).toBe(false);
    expect(await diff(id, read.props, { ...news, value: "other" })).toMatchObject({ changes: true, replaces: [] });

    const start = writes();
    const changed = await update(id, read.props, { ...news, value: "other" });
    expect(writes() - start).toBe(1);
    expect(changed).toMatchObject({ value: null, sensitiveValue: "other" });
    expect((await diff(id, changed, { ...news, value: "other" })).changes).toBe(false);

    // A new key renames it in place, the sealed value kept.
    const renamed = { ...news, key: "api_token", value: "other" };
    expect(await diff(id, changed, renamed)).toMatchObject({ changes: true, replaces: [] });
    const moved = await update(id, changed, renamed);
    expect(moved).toMatchObject({ parameterId, key: "api_token", sensitiveValue: "other" });
    expect(await h.client.policySetParameters.read(setId, parameterId)).toMatchObject({ key: "api_token" });
  });

  it("sensitive: false shows the value (#2232); drift read back and restored; made sensitive in place", async () => {
    const setId = await versionedSet();
    const news = { policySetId: setId, key: "region", value: "eu-west-1", sensitive: false };
    const { id, outs } = await create(news);
    expect(outs).toMatchObject({ value: "eu-west-1", sensitive: false, sensitiveValue: null });
    expect(await onTheWire(setId, outs.parameterId)).toMatchObject({ value: "eu-west-1", sensitive: false });

    await h.client.policySetParameters.update(setId, outs.parameterId, { value: "us-east-1" });
    const read = await call("read", id, outs);
    expect(read.props.value).toBe("us-east-1");
    expect(await diff(id, read.props, news)).toMatchObject({ changes: true, replaces: [] });
    const restored = await update(id, read.props, news);
    expect((await h.client.policySetParameters.read(setId, outs.parameterId)).value).toBe("eu-west-1");

    const sealed = await update(id, restored, { ...news, sensitive: true });
    expect(sealed).toMatchObject({ value: null, sensitive: true, sensitiveValue: "eu-west-1" });
    // The service never unseals: back to non-sensitive is a replacement.
    expect(await diff(id, sealed, news)).toMatchObject({ replaces: ["sensitive"], deleteBeforeReplace: true });
  });

  it("a killed create converges: its key taken by a parameter of the same kind is kept, with no duplicate", async () => {
    const setId = await versionedSet();
    // What a create whose answer was lost left behind.
    await h.client.policySetParameters.create(setId, { key: "token", value: "first", sensitive: true });
    const { outs } = await create({ policySetId: setId, key: "token", value: "declared", sensitive: true });
    const all = [];
    for await (const p of h.client.policySetParameters.list(setId)) all.push(p);
    expect(all.map((p) => p.key)).toEqual(["token"]);
    expect(outs).toMatchObject({ parameterId: all[0].id, sensitiveValue: "declared" });

    // Another sensitivity is not this declaration's: the error names adopt: true.
    await h.client.policySetParameters.create(setId, { key: "plain", value: "x", sensitive: false });
    const checked = await check({ policySetId: setId, key: "plain", value: "x", sensitive: true });
    const err = await call("create", checked.inputs).catch((e: Error) => e);
    expect(err.message).toContain("already exists");
    expect(err.message).toContain("adopt: true");
  });

  it("a create whose answer was lost keeps the parameter it made: one parameter", async () => {
    const setId = await versionedSet();
    const checked = await check({ policySetId: setId, key: "lost", value: "v", sensitive: true });
    // The POST commits and then loses its answer; reads go through.
    h.server.setFaults({ failureRate: 1, failureMode: "drop", failureStage: "after", methods: ["POST"] });
    const created = await call("create", checked.inputs).finally(() => h.server.setFaults({}));
    const all = [];
    for await (const p of h.client.policySetParameters.list(setId)) all.push(p);
    expect(all.map((p) => p.id)).toEqual([created.outs.parameterId]);
    expect(created.outs).toMatchObject({ key: "lost", sensitive: true, sensitiveValue: "v" });
  });

  it("adopt takes over a parameter of that key with no write, a sensitive one too", async () => {
    const setId = await versionedSet();
    await h.client.policySetParameters.create(setId, { key: "limit", value: "10" });
    await h.client.policySetParameters.create(setId, { key: "secret", value: "unknown", sensitive: true });
    const start = writes();
    const plain = await create({ policySetId: setId, key: "limit", value: "10", adopt: true });
    const sealed = await create({ policySetId: setId, key: "secret", value: "declared", sensitive: true, adopt: true });
    expect(writes() - start).toBe(0);
    expect(plain.outs).toMatchObject({ value: "10", adopt: true });
    expect(sealed.outs).toMatchObject({ sensitive: true, sensitiveValue: "declared", adopt: true });
    // The next change of the declared value writes it.
    const news = { policySetId: setId, key: "secret", value: "rotated", sensitive: true };
    expect((await diff(sealed.id, sealed.outs, news)).changes).toBe(true);
  });

  it("check failures; a bad import id says what the id must be; delete removes the parameter", async () => {
    expect((await check({ policySetId: "ws-1", key: "", sensitive: "yes" })).failures).toEqual([
      { property: "policySetId", reason: "must be a policy set id (polset-...)" },
      { property: "key", reason: "must be a non-empty string" },
      { property: "value", reason: "is required" },
      { property: "sensitive", reason: "must be true or false" },
    ]);
    await expect(call("read", "polset-1", {})).rejects.toThrow(/<polset-id>\/<var-id>/);
    const setId = await versionedSet();
    const { id, outs } = await create({ policySetId: setId, key: "gone", value: "v" });
    await call("delete", id, outs);
    await expect(h.client.policySetParameters.read(setId, outs.parameterId)).rejects.toThrow();
    // A second delete finds it gone, under the 404 rule (an owners token sees every set).
    await call("delete", id, outs);
  });
});
