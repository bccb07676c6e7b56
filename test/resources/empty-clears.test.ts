/**
 * The empty forms that clear a setting from every language (`""` for a string setting, `{}`
 * for the VCS connection, `""` for its tags regex) are, after check, exactly TypeScript's
 * `null`: the same checked inputs, hence the same diff against any state. The round trip
 * through the service (create, update, refresh, drift) of both forms is in
 * null-clears.test.ts.
 */
import { describe, expect, it } from "vitest";
import { implementationOf } from "../../src/resources/entry";
import { CLEARABLE } from "../../src/resources/providers/workspace-inputs";
import { WORKSPACE_FIELDS } from "../../src/api/workspace-fields";

type Props = Record<string, any>;

/** Every clearable setting of `Workspace`, in its empty form and as TypeScript's null. */
const EMPTY: Props = {
  description: "",
  agentPoolId: "",
  autoDestroyAt: "",
  autoDestroyActivityDuration: "",
  workingDirectory: "",
  sshKeyId: "",
  vcsRepo: {},
};
const NULLS: Props = Object.fromEntries(Object.keys(EMPTY).map((k) => [k, null]));

/** What the service last reported: every one of those settings set. */
const OUTPUTS: Props = {
  organization: "acme",
  name: "web",
  description: "owned by platform",
  executionMode: "remote",
  agentPoolId: null,
  autoDestroyAt: "2031-01-02T03:04:05.000Z",
  autoDestroyActivityDuration: "14d",
  workingDirectory: "infra",
  sshKeyId: "sshkey-1",
  vcsRepo: { identifier: "acme/web", oauthTokenId: "ot-1", branch: "", tagsRegex: "^v" },
};

const check = async (kind: string, news: Props) => {
  const r = await implementationOf(kind).check({}, news);
  expect(r.failures).toEqual([]);
  return r.inputs;
};

describe("the empty forms clear as null does", () => {
  it("the list of what clears is the field table's nullable lines", () => {
    const nullable = Object.entries(WORKSPACE_FIELDS)
      .filter(([, f]) => (f as { nullable?: true }).nullable)
      .map(([k]) => k);
    expect([...CLEARABLE.strings, ...CLEARABLE.objects].sort()).toEqual(nullable.sort());
    expect(Object.keys(EMPTY).sort()).toEqual(nullable.sort());
    expect(CLEARABLE.objects).toEqual(["vcsRepo"]);
    expect(CLEARABLE.keys).toEqual({ vcsRepo: ["tagsRegex"] });
  });

  it("Workspace: check turns each empty form into null, and the diff is the same", async () => {
    const base = { organization: "acme", name: "web" };
    const fromEmpty = await check("Workspace", { ...base, ...EMPTY });
    const fromNull = await check("Workspace", { ...base, ...NULLS });
    expect(fromEmpty).toEqual(fromNull);
    for (const k of Object.keys(EMPTY)) expect(fromEmpty[k], k).toBeNull();
    const diff = (inputs: Props) => implementationOf("Workspace").diff("ws-1", OUTPUTS, inputs);
    const d = await diff(fromEmpty);
    expect(d).toEqual(await diff(fromNull));
    expect(d.changes).toBe(true);
  });

  it('Workspace: vcsRepo.tagsRegex "" is null inside the connection, which stays', async () => {
    const repo = { identifier: "acme/web", oauthTokenId: "ot-1" };
    const fromEmpty = await check("Workspace", {
      organization: "acme",
      name: "web",
      vcsRepo: { ...repo, tagsRegex: "" },
    });
    expect(fromEmpty.vcsRepo).toEqual({ ...repo, tagsRegex: null });
    const fromNull = await check("Workspace", {
      organization: "acme",
      name: "web",
      vcsRepo: { ...repo, tagsRegex: null },
    });
    const diff = (inputs: Props) => implementationOf("Workspace").diff("ws-1", OUTPUTS, inputs);
    expect(await diff(fromEmpty)).toEqual(await diff(fromNull));
    // Already cleared on the service: no change in either form.
    const cleared = { ...OUTPUTS, vcsRepo: { ...OUTPUTS.vcsRepo, tagsRegex: null } };
    expect(await implementationOf("Workspace").diff("ws-1", cleared, fromEmpty)).toMatchObject({ changes: false });
  });

  it("a connection with something given is no clear: it still needs its repository", async () => {
    const r = await implementationOf("Workspace").check(
      {},
      { organization: "acme", name: "web", vcsRepo: { oauthTokenId: "ot-1" } },
    );
    expect(r.failures.map((f) => f.property)).toContain("vcsRepo.identifier");
  });

  it("a string setting that cannot be cleared keeps its empty string (and check's word on it)", async () => {
    const r = await implementationOf("Workspace").check({}, { organization: "acme", name: "web", engineVersion: "" });
    expect(r.failures.map((f) => f.property)).toEqual(["engineVersion"]);
  });

  it('NoCodeWorkspace: description and agentPoolId clear with "" as with null', async () => {
    const base = { organization: "acme", noCodeModuleId: "nocode-1", name: "net", project: "prj-1" };
    const fromEmpty = await check("NoCodeWorkspace", { ...base, description: "", agentPoolId: "" });
    const fromNull = await check("NoCodeWorkspace", { ...base, description: null, agentPoolId: null });
    expect(fromEmpty).toEqual(fromNull);
    expect(fromEmpty).toMatchObject({ description: null, agentPoolId: null });
    const olds = { ...base, description: "set", agentPoolId: null, variables: [], sensitiveValues: {} };
    const diff = (inputs: Props) => implementationOf("NoCodeWorkspace").diff("ws-1", olds, inputs);
    expect(await diff(fromEmpty)).toEqual(await diff(fromNull));
  });
});
