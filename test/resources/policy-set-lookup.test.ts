/**
 * `getPolicySet` against the real local server: a set by exact name with its kind, flags,
 * policies and where it applies, from one list and one read; none found, and bad
 * arguments, each one message naming the lookup.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getPolicySet, getPolicySetOutput, lookupSettingsFrom } from "../../src/resources/lookups";
import { startHarness, uniqueName, type Harness } from "./helpers";

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
  lookupSettingsFrom(() => ({ address: h.server.url, token: h.server.token, organization: h.org }));
});
afterAll(async () => {
  await h?.close();
});

describe("getPolicySet", () => {
  it("a set by exact name with its policies and where it applies, from one list and one read", async () => {
    const name = uniqueName("guardrails");
    const policy = await h.client.policies.create(h.org, { name: uniqueName("pol"), enforcementLevel: "advisory" });
    const [ws, out] = [
      await h.client.workspaces.create(h.org, { name: uniqueName("in") }),
      await h.client.workspaces.create(h.org, { name: uniqueName("out") }),
    ];
    const [prj, prjOut] = [
      await h.client.projects.create(h.org, { name: uniqueName("prj") }),
      await h.client.projects.create(h.org, { name: uniqueName("prj") }),
    ];
    const set = await h.client.policySets.create(h.org, {
      name,
      policyIds: [policy.id],
      workspaceIds: [ws.id],
      workspaceExclusionIds: [out.id],
      projectIds: [prj.id],
      projectExclusionIds: [prjOut.id],
    });
    // Another set whose name holds this one's: the lookup takes the exact name.
    await h.client.policySets.create(h.org, { name: `${name}-2`, kind: "opa", overridable: true });

    const before = h.server.stats().total;
    expect(await getPolicySet({ name })).toEqual({
      id: set.id,
      name,
      organization: h.org,
      kind: "sentinel",
      global: false,
      overridable: false,
      policyIds: [policy.id],
      workspaceIds: [ws.id],
      projectIds: [prj.id],
      workspaceExclusionIds: [out.id],
      projectExclusionIds: [prjOut.id],
    });
    expect(h.server.stats().total - before).toBeLessThanOrEqual(3);
    const opa = await new Promise((resolve) =>
      getPolicySetOutput({ name: `${name}-2`, organization: h.org }).apply(resolve),
    );
    expect(opa).toMatchObject({ kind: "opa", overridable: true, policyIds: [] });
  });

  it("none found, and bad arguments, fail with one message naming the lookup", async () => {
    await expect(getPolicySet({ name: "no-such-set" })).rejects.toThrow(
      /getPolicySet: no policy set "no-such-set" in organization .* may see/,
    );
    await expect(getPolicySet({ name: "" })).rejects.toThrow(/getPolicySet/);
    await expect(getPolicySet({ name: "x", colour: "red" } as never)).rejects.toThrow(/getPolicySet/);
  });
});
