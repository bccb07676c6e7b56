/**
 * `adopt: true`: a create takes over the record that already exists and changes only
 * what the program declares differently; without it a taken name fails with one
 * message that names the record and points to `adopt`. Against the real server.
 */
import { describe, it, expect, beforeAll, afterAll, vi } from "vitest";
import { implementationOf } from "../../src/resources/entry";
import { adoptionPreview, changedInputs } from "../../src/resources/providers/adoption";
import { noCodeWorkspaceAdopter, workspaceAdopter } from "../../src/resources/providers/workspace-adopters";
import { UNKNOWN } from "../../src/resources/providers/unknowns";
import { resetClients } from "../../src/resources/providers/client";
import { SNAPSHOT_LIFETIME_MS } from "../../src/resources/process/snapshot";
import type { Props } from "../../src/resources/providers/types";
import { createProject, startHarness, uniqueName, type Harness } from "./helpers";

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(async () => h.close());

const workspace = implementationOf("Workspace");
const noCodeModule = implementationOf("NoCodeModule");
const noCodeWorkspace = implementationOf("NoCodeWorkspace");

/** Requests by method sent while `fn` runs. */
async function counting<T>(fn: () => Promise<T>): Promise<{ result: T; byMethod: Record<string, number> }> {
  const before = h.server.stats().byRoute;
  const result = await fn();
  const after = h.server.stats().byRoute;
  const byMethod: Record<string, number> = {};
  for (const [route, n] of Object.entries(after)) {
    const d = n - (before[route] ?? 0);
    if (d > 0) byMethod[route.split(" ")[0]] = (byMethod[route.split(" ")[0]] ?? 0) + d;
  }
  return { result, byMethod };
}

const writes = (byMethod: Record<string, number>) =>
  (byMethod.POST ?? 0) + (byMethod.PATCH ?? 0) + (byMethod.DELETE ?? 0);

async function checked(impl: typeof workspace, news: Props): Promise<Props> {
  const r = await impl.check({}, news);
  expect(r.failures).toEqual([]);
  return r.inputs;
}

describe("Workspace adopt", () => {
  it("takes over a matching workspace without a single write", async () => {
    const name = uniqueName("same");
    const made = await h.client.workspaces.create(h.org, {
      name,
      description: "by hand",
      autoApply: true,
      tagNames: ["web"],
      tagBindings: [{ key: "env", value: "prod" }],
    });
    const inputs = await checked(workspace, {
      name,
      description: "by hand",
      autoApply: true,
      tagNames: ["Web"],
      tags: { env: "prod" },
      adopt: true,
    });
    const { result, byMethod } = await counting(() => workspace.create(inputs));
    expect(result.id).toBe(made.id);
    expect(writes(byMethod)).toBe(0);
    expect(result.outs.description).toBe("by hand");
    expect(result.outs.tags).toEqual({ env: "prod" });
    expect(result.outs.adopt).toBe(true);
    // Owned from now on: the next preview sees no change.
    expect((await workspace.diff(result.id, result.outs, inputs)).changes).toBe(false);
  });

  it("changes only what the program declares differently, in one update", async () => {
    const name = uniqueName("differs");
    const made = await h.client.workspaces.create(h.org, {
      name,
      description: "old",
      autoApply: true,
      tagBindings: [{ key: "env", value: "dev" }],
    });
    const inputs = await checked(workspace, { name, description: "new", tags: { env: "prod" }, adopt: true });
    const { result, byMethod } = await counting(() => workspace.create(inputs));
    expect(result.id).toBe(made.id);
    expect(byMethod.PATCH).toBe(1);
    expect(writes(byMethod)).toBe(1);
    const now = await h.client.workspaces.read(made.id);
    expect(now.description).toBe("new");
    // Not declared, so not touched.
    expect(now.autoApply).toBe(true);
    expect(await h.client.tagBindings.list(made.id)).toEqual([expect.objectContaining({ key: "env", value: "prod" })]);
  });

  it("creates the workspace when none of that name exists", async () => {
    const name = uniqueName("fresh");
    const inputs = await checked(workspace, { name, adopt: true });
    const created = await workspace.create(inputs);
    expect((await h.client.workspaces.readByName(h.org, name)).id).toBe(created.id);
  });

  it("keeps adopt through a refresh, so the inputs can be rebuilt", async () => {
    const name = uniqueName("refresh");
    await h.client.workspaces.create(h.org, { name });
    const inputs = await checked(workspace, { name, adopt: true });
    const created = await workspace.create(inputs);
    const read = await workspace.read(created.id, created.outs);
    expect(read.props?.adopt).toBe(true);
  });

  it("without adopt, a taken name fails naming the workspace and the way out, and changes nothing", async () => {
    const name = uniqueName("taken");
    const made = await h.client.workspaces.create(h.org, { name, description: "keep me" });
    const inputs = await checked(workspace, { name, description: "other" });
    const err = await workspace.create(inputs).then(
      () => undefined,
      (e: Error) => e,
    );
    expect(err?.message).toContain(made.id);
    expect(err?.message).toContain(`"${name}"`);
    expect(err?.message).toContain("adopt: true");
    expect(err?.stack === undefined || err?.name === "ProviderError").toBe(true);
    expect((await h.client.workspaces.read(made.id)).description).toBe("keep me");
  });

  it("names the declared properties that differ from the record, judged by the provider's own rules", async () => {
    const name = uniqueName("judge");
    const made = await h.client.workspaces.create(h.org, { name, description: "a", tagNames: ["web"] });
    const current = (await workspace.read(made.id, { organization: h.org })).props!;
    // Flat tags differ only in case and order, so they match; the description does not.
    const inputs = await checked(workspace, { name, description: "b", tagNames: ["WEB"], autoApply: false });
    expect(await changedInputs(workspace, made.id, current, inputs)).toEqual(["description"]);
  });

  it("refuses an adopt that is not a boolean, naming the property", async () => {
    const r = await workspace.check({}, { name: uniqueName("bad"), adopt: "yes" });
    expect(r.failures).toContainEqual(expect.objectContaining({ property: "adopt" }));
  });
});

describe("pulumi up: check then create in one process", () => {
  it("check and create find and read the workspace in the organization's listing, one request for both", async () => {
    const name = uniqueName("reuse");
    const made = await h.client.workspaces.create(h.org, { name, description: "same" });
    resetClients(); // as in a new process: its first read lists the organization
    let created: { id: string } | undefined;
    const { byMethod } = await counting(async () => {
      const inputs = await checked(workspace, { name, description: "same", adopt: true });
      created = await workspace.create(inputs);
    });
    expect(created?.id).toBe(made.id);
    expect(Object.keys(byMethod)).toEqual(["GET"]);
    expect(byMethod.GET).toBeLessThanOrEqual(2); // the listing, and the rate-limit announcement
  });

  it("decides what to write on the record as the listing read it; a change made elsewhere since shows once that is over", async () => {
    const name = uniqueName("moved");
    const made = await h.client.workspaces.create(h.org, { name, description: "old" });
    resetClients();
    const inputs = await checked(workspace, { name, description: "old", adopt: true });
    // Changed by someone else (another client) between check and create.
    await h.client.workspaces.update(made.id, { description: "changed meanwhile" });
    const now = Date.now();
    vi.spyOn(Date, "now").mockReturnValue(now + SNAPSHOT_LIFETIME_MS + 1);
    try {
      const { result, byMethod } = await counting(() => workspace.create(inputs));
      expect(result.id).toBe(made.id);
      expect(byMethod.PATCH).toBe(1);
    } finally {
      vi.restoreAllMocks();
    }
    expect((await h.client.workspaces.read(made.id)).description).toBe("old");
  });

  it("looks the name up afresh when the workspace check found was renamed meanwhile", async () => {
    const name = uniqueName("renamed");
    const first = await h.client.workspaces.create(h.org, { name });
    const inputs = await checked(workspace, { name, adopt: true });
    await h.client.workspaces.update(first.id, { name: `${name}-old` });
    const second = await h.client.workspaces.create(h.org, { name });
    const created = await workspace.create(inputs);
    expect(created.id).toBe(second.id);
    expect((await h.client.workspaces.read(first.id)).name).toBe(`${name}-old`);
  });
});

describe("what preview says about a resource marked adopt", () => {
  it("names the record and the declared properties that differ, and sends no write", async () => {
    const name = uniqueName("announce");
    const made = await h.client.workspaces.create(h.org, {
      name,
      description: "by hand",
      autoApply: true,
      tagNames: ["web"],
      tagBindings: [{ key: "env", value: "dev" }],
    });
    // autoApply and the flat tag match (case aside); description and tags do not.
    const inputs = await checked(workspace, {
      name,
      description: "declared",
      autoApply: true,
      tagNames: ["WEB"],
      tags: { env: "prod" },
      adopt: true,
    });
    const { result, byMethod } = await counting(() => adoptionPreview(workspace, workspaceAdopter, inputs));
    expect(result).toBe(
      `adopt: pulumi up adopts the existing workspace "${name}" (${made.id}) in organization "${h.org}"; changes description, tags`,
    );
    expect(writes(byMethod)).toBe(0);
    expect((await h.client.workspaces.read(made.id)).description).toBe("by hand");
  });

  it("says no property changes when the record is as declared", async () => {
    const name = uniqueName("asis");
    const made = await h.client.workspaces.create(h.org, { name, description: "same" });
    const inputs = await checked(workspace, { name, description: "same", adopt: true });
    expect(await adoptionPreview(workspace, workspaceAdopter, inputs)).toBe(
      `adopt: pulumi up adopts the existing workspace "${name}" (${made.id}) in organization "${h.org}"; no property changes`,
    );
  });

  it("leaves a value known only during pulumi up unjudged and says so", async () => {
    const name = uniqueName("later");
    const made = await h.client.workspaces.create(h.org, { name, description: "old" });
    const inputs = await checked(workspace, { name, description: "new", project: UNKNOWN, adopt: true });
    expect(await adoptionPreview(workspace, workspaceAdopter, inputs)).toBe(
      `adopt: pulumi up adopts the existing workspace "${name}" (${made.id}) in organization "${h.org}"; changes description (project known only during pulumi up)`,
    );
  });

  it("says that pulumi up creates a record that does not exist, or adopts it then when its name is not known yet", async () => {
    const name = uniqueName("absent");
    const inputs = await checked(workspace, { name, adopt: true });
    expect(await adoptionPreview(workspace, workspaceAdopter, inputs)).toBe(
      `adopt: no workspace "${name}" in organization "${h.org}" exists; pulumi up creates it`,
    );
    const unnamed = await checked(workspace, { name: UNKNOWN, adopt: true });
    expect(await adoptionPreview(workspace, workspaceAdopter, unnamed)).toBe(
      "adopt: the workspace is identified by values known only during pulumi up; it is adopted then if it exists",
    );
  });
});

describe("NoCodeModule and NoCodeWorkspace adopt", () => {
  let moduleId: string;
  let registryModuleId: string;
  let project: string;

  beforeAll(async () => {
    const rm = await h.client.registryModules.create(h.org, { name: uniqueName("net"), provider: "aws", noCode: true });
    await h.client.registryModules.createVersion({ organization: h.org, name: rm.name, provider: "aws" }, "1.0.0");
    registryModuleId = rm.id;
    const m = await h.client.noCode.enable(h.org, {
      registryModuleId,
      enabled: true,
      variableOptions: [{ variableName: "region", variableType: "string", options: ["eu", "us"] }],
    });
    moduleId = m.id;
    project = await createProject(h, uniqueName("prj"));
  });

  it("adopts the module's no-code settings, sending one update only for what differs", async () => {
    const same = await checked(noCodeModule, {
      registryModuleId,
      variableOptions: [{ variableName: "region", variableType: "string", options: ["us", "eu"] }],
      adopt: true,
    });
    const a = await counting(() => noCodeModule.create(same));
    expect(a.result.id).toBe(moduleId);
    expect(writes(a.byMethod)).toBe(0);

    const more = await checked(noCodeModule, {
      registryModuleId,
      variableOptions: [{ variableName: "region", variableType: "string", options: ["eu", "us", "ap"] }],
      adopt: true,
    });
    const b = await counting(() => noCodeModule.create(more));
    expect(b.result.id).toBe(moduleId);
    expect(b.byMethod.PATCH).toBe(1);
    expect(writes(b.byMethod)).toBe(1);
  });

  it("without adopt, an enabled module fails naming it", async () => {
    const inputs = await checked(noCodeModule, { registryModuleId });
    await expect(noCodeModule.create(inputs)).rejects.toThrow(new RegExp(`${moduleId}.*adopt: true`));
  });

  it("adopts a workspace made from the module, sensitive values taken as declared", async () => {
    const name = uniqueName("ncws");
    const made = await h.client.noCode.createWorkspace(moduleId, {
      name,
      projectId: project,
      variables: [
        { key: "region", value: "eu", category: "engine" },
        { key: "password", value: "s3cret", category: "env", sensitive: true },
      ],
    });
    const vars = [
      { key: "region", value: "eu", category: "engine" },
      { key: "password", value: "s3cret", category: "env", sensitive: true },
    ];
    const inputs = await checked(noCodeWorkspace, {
      noCodeModuleId: moduleId,
      name,
      project,
      variables: vars,
      adopt: true,
    });
    const { result, byMethod } = await counting(() => noCodeWorkspace.create(inputs));
    expect(result.id).toBe(made.id);
    expect(writes(byMethod)).toBe(0);
    expect(result.outs.sensitiveValues).toEqual({ password: "s3cret" });
    expect((await noCodeWorkspace.diff(result.id, result.outs, inputs)).changes).toBe(false);
  });

  it("without adopt, a taken name fails naming the workspace, and nothing is made", async () => {
    const name = uniqueName("nctaken");
    const made = await h.client.workspaces.create(h.org, { name, projectId: project });
    const inputs = await checked(noCodeWorkspace, { noCodeModuleId: moduleId, name, project });
    const { result, byMethod } = await counting(() =>
      noCodeWorkspace.create(inputs).then(
        () => undefined,
        (e: Error) => e,
      ),
    );
    expect(result?.message).toMatch(new RegExp(`workspace "${name}" \\(${made.id}\\).*already exists.*adopt: true`));
    expect(byMethod.POST).toBe(1);
    expect(byMethod.PATCH ?? 0).toBe(0);
  });

  it("adopts a workspace made from the module whose variables differ, through one upgrade", async () => {
    const name = uniqueName("ncup");
    const made = await h.client.noCode.createWorkspace(moduleId, {
      name,
      projectId: project,
      description: "kept",
      variables: [{ key: "region", value: "eu", category: "engine" }],
    });
    const inputs = await checked(noCodeWorkspace, {
      noCodeModuleId: moduleId,
      name,
      project,
      variables: [{ key: "region", value: "us", category: "engine" }],
      adopt: true,
    });
    const { result, byMethod } = await counting(() => noCodeWorkspace.create(inputs));
    expect(result.id).toBe(made.id);
    expect(result.outs.lastUpgrade).toMatchObject({ status: expect.stringMatching(/applied|planned_and_finished/) });
    // The upgrade's initiate and confirm; no settings update, since none differs.
    expect(byMethod.PATCH ?? 0).toBe(0);
    expect(byMethod.POST).toBe(2);
    const vars = await h.client.variables.list(made.id);
    expect(vars.find((v) => v.key === "region")?.value).toBe("us");
    expect((await h.client.workspaces.read(made.id)).description).toBe("kept");
  });

  it("refuses to adopt a workspace that was not made from the module", async () => {
    const name = uniqueName("plain");
    await h.client.workspaces.create(h.org, { name, projectId: project });
    const inputs = await checked(noCodeWorkspace, { noCodeModuleId: moduleId, name, project, adopt: true });
    await expect(noCodeWorkspace.create(inputs)).rejects.toThrow(
      /not made from a no-code module.*Workspace with adopt: true/,
    );
  });

  it("preview reports a workspace it cannot adopt instead of failing", async () => {
    const name = uniqueName("plainpv");
    await h.client.workspaces.create(h.org, { name, projectId: project });
    const inputs = await checked(noCodeWorkspace, { noCodeModuleId: moduleId, name, project, adopt: true });
    const message = await adoptionPreview(noCodeWorkspace, noCodeWorkspaceAdopter, inputs);
    expect(message).toMatch(
      new RegExp(
        `^adopt: could not look up the workspace "${name}" in organization "${h.org}" \\(cannot adopt .*not made from a no-code module.*\\); pulumi up tries again$`,
      ),
    );
  });
});
