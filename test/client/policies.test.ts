/**
 * The policy area of the client against the local server: typed values, the code sent
 * raw and read back as text (absent before any upload), both filters, every page of a
 * list, a request refused before it leaves, and a server without policies (answering as
 * OTF does) named as such.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { FeatureUnavailableError, NotFoundError, ValidationError, type WorkspacesClient } from "../../src/client";
import { startOtfLike, type OtfLike } from "./otf-like";
import { fakeClient } from "./fake-service";
import { failure, uniqueName, useServer } from "./helpers";

const t = useServer();

describe("policies", () => {
  it("creates a policy, uploads its code raw and downloads the same text", async () => {
    const name = uniqueName("pol");
    const p = await t.client.policies.create(t.org, {
      name,
      description: "tags on every resource",
      enforcementLevel: "hard-mandatory",
    });
    expect(p).toMatchObject({
      name,
      kind: "sentinel",
      query: null,
      description: "tags on every resource",
      enforcementLevel: "hard-mandatory",
      organization: t.org,
    });
    expect(p.id).toMatch(/^pol-/);

    // Nothing uploaded yet: no code, while the policy itself reads.
    expect(await t.client.policies.download(p.id)).toBeUndefined();

    // Code that is valid JSON too comes back as the same text, not as a parsed value.
    for (const code of ['main = rule { true }\n# "ünïcode"\n', '{"main": true}', "42", ""]) {
      await t.client.policies.upload(p.id, code);
      expect(await t.client.policies.download(p.id)).toBe(code);
    }
  });

  it("creates an OPA policy with its query and changes the level in place", async () => {
    const p = await t.client.policies.create(t.org, {
      name: uniqueName("opa"),
      kind: "opa",
      query: "data.terraform.deny",
      enforcementLevel: "mandatory",
    });
    expect(p).toMatchObject({ kind: "opa", query: "data.terraform.deny", enforcementLevel: "mandatory" });
    const updated = await t.client.policies.update(p.id, { enforcementLevel: "advisory", query: "data.x.deny" });
    expect(updated).toMatchObject({ id: p.id, enforcementLevel: "advisory", query: "data.x.deny" });
    expect(await t.client.policies.read(p.id)).toMatchObject({ enforcementLevel: "advisory" });
    const cleared = await t.client.policies.update(p.id, { description: null });
    expect(cleared.description).toBeNull();
  });

  it("lists every page, by name and by kind", async () => {
    const prefix = uniqueName("many");
    for (let i = 0; i < 102; i++)
      await t.client.policies.create(t.org, { name: `${prefix}-${i}`, enforcementLevel: "advisory" });
    const opa = await t.client.policies.create(t.org, {
      name: `${prefix}-opa`,
      kind: "opa",
      query: "data.a.b",
      enforcementLevel: "advisory",
    });
    const found = await t.client.policies.list(t.org, { search: prefix }).all();
    expect(found).toHaveLength(103);
    expect(new Set(found.map((p) => p.name)).size).toBe(103);
    const opaOnly = await t.client.policies.list(t.org, { search: prefix, kind: "opa" }).all();
    expect(opaOnly.map((p) => p.id)).toEqual([opa.id]);
  });

  it("deletes, and a deleted policy reads 404 and downloads 404", async () => {
    const p = await t.client.policies.create(t.org, { name: uniqueName("gone"), enforcementLevel: "advisory" });
    await t.client.policies.delete(p.id);
    expect(await failure(t.client.policies.read(p.id))).toBeInstanceOf(NotFoundError);
    expect(await failure(t.client.policies.download(p.id))).toBeInstanceOf(NotFoundError);
  });

  it("refuses a bad name and level before sending anything", async () => {
    const before = t.client.stats.requests;
    const err = await failure(t.client.policies.create(t.org, { name: "no spaces allowed", enforcementLevel: "x" }));
    expect(err).toBeInstanceOf(ValidationError);
    expect((err as ValidationError).status).toBe(0);
    expect((err as ValidationError).problems.map((p) => p.pointer)).toEqual([
      "/data/attributes/name",
      "/data/attributes/enforcement-level",
    ]);
    expect(t.client.stats.requests).toBe(before);
  });
});

describe("a server without policies (as OTF)", () => {
  let otf: OtfLike;
  let client: WorkspacesClient;
  beforeAll(async () => {
    otf = await startOtfLike();
    client = fakeClient(otf.service, { rateLimit: false });
  });
  afterAll(async () => otf.close());

  it("names policies and policy sets as missing while the organization reads", async () => {
    for (const [call, feature] of [
      [client.policies.list("acme").all(), "policies"],
      [client.policies.create("acme", { name: "p", enforcementLevel: "advisory" }), "policies"],
      [client.policySets.list("acme").all(), "policy sets"],
      [client.policySets.create("acme", { name: "s" }), "policy sets"],
    ] as const) {
      const err = await failure(call);
      expect(err).toBeInstanceOf(FeatureUnavailableError);
      expect((err as FeatureUnavailableError).feature).toBe(feature);
      expect(err.message).toContain(`does not offer ${feature}`);
    }
  });

  it("keeps a 404 a NotFoundError for an organization that does not read", async () => {
    const err = await failure(client.policies.list("nobody").all());
    expect(err).toBeInstanceOf(NotFoundError);
    expect(err).not.toBeInstanceOf(FeatureUnavailableError);
  });
});
