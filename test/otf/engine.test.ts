/**
 * The resources through the real engine against OTF, a server of the same API that this
 * project did not write. What OTF implements: a workspace with every setting OTF stores,
 * created, previewed and refreshed without a spurious diff, each setting edited, renamed,
 * flat tags (on the workspace and through `WorkspaceTags`), an SSH key, `WorkspaceLock`,
 * destroy. What OTF lacks (key-value tags, projects, safe delete, remote state consumers,
 * no-code) fails with one message naming the feature, and no record is lost or deleted
 * behind the program's back. Every assertion on the server reads OTF over plain HTTP.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { TestStack } from "../e2e/harness";
import {
  createOrganization,
  createSshKey,
  createWorkspace,
  errorsOf,
  expectNoStackTrace,
  expectOneMessageEach,
  otfEnv,
  otfServer,
  runOrganization,
  tagNames,
  workspace,
  workspaceIds,
  type OtfServer,
} from "./otf";

interface Version {
  appName: string;
  description: string;
  flag: boolean;
  appMode: "remote" | "local";
  opsMode: "remote" | "local";
  engineVersion: string;
  workingDirectory: string;
  triggerPatterns: string[];
  triggerPrefixes: string[];
  tagNames: string[];
  sharedTagNames: string[];
  sshKey: boolean;
  lockReason: string;
}

const program = (v: Version) => `
import * as pulumi from "@pulumi/pulumi";
import { Workspace, WorkspaceLock, WorkspaceTags } from "pulumi-workspaces";

const config = new pulumi.Config();

const app = new Workspace("app", {
  name: ${JSON.stringify(v.appName)},
  description: ${JSON.stringify(v.description)},
  executionMode: ${JSON.stringify(v.appMode)},
  autoApply: ${v.flag},
  autoApplyRunTrigger: ${v.flag},
  allowDestroyPlan: ${!v.flag},
  globalRemoteState: ${v.flag},
  queueAllRuns: ${v.flag},
  speculativeEnabled: ${!v.flag},
  engineVersion: ${JSON.stringify(v.engineVersion)},
  workingDirectory: ${JSON.stringify(v.workingDirectory)},
  fileTriggersEnabled: true,
  triggerPatterns: ${JSON.stringify(v.triggerPatterns)},
  sourceName: "pulumi-workspaces tests",
  sourceUrl: "https://example.com/pulumi-workspaces",
  tagNames: ${JSON.stringify(v.tagNames)},
  sshKeyId: ${v.sshKey ? 'config.require("sshKeyId")' : '""'},
  forceDelete: true,
});

const ops = new Workspace("ops", {
  name: "ops",
  executionMode: ${JSON.stringify(v.opsMode)},
  triggerPrefixes: ${JSON.stringify(v.triggerPrefixes)},
  forceDelete: true,
});

new WorkspaceLock("ops-lock", { workspaceId: ops.id, reason: ${JSON.stringify(v.lockReason)} });

// Flat tags of a workspace made outside this stack, added to what it already has.
new WorkspaceTags("shared-tags", { workspaceId: config.require("sharedId"), tagNames: ${JSON.stringify(v.sharedTagNames)}, mode: "additive" });

export const appId = app.id;
export const opsId = ops.id;
export const appEngineVersion = app.engineVersion;
export const appTagNames = app.tagNames;
export const appProject = app.project;
export const appSshKeyId = app.sshKeyId;
`;

const v1: Version = {
  appName: "app",
  description: "first",
  flag: true,
  appMode: "remote",
  opsMode: "local",
  engineVersion: "1.6.0",
  workingDirectory: "infra/app",
  triggerPatterns: ["/modules/**/*", "/infra/app/*.tf"],
  triggerPrefixes: ["modules/"],
  tagNames: ["web", "Frontend"],
  sharedTagNames: ["platform"],
  sshKey: true,
  lockReason: "migration",
};

const v2: Version = {
  appName: "app-renamed",
  description: "second",
  flag: false,
  appMode: "local",
  opsMode: "remote",
  engineVersion: "1.7.5",
  workingDirectory: "infra/web",
  triggerPatterns: ["/web/**/*"],
  triggerPrefixes: ["modules/", "shared/"],
  tagNames: ["web", "backend"],
  sharedTagNames: ["platform", "billing"],
  sshKey: false,
  lockReason: "freeze",
};

/** Attributes of a workspace as OTF holds them, for one comparison per version. */
function settings(ws: any): Record<string, unknown> {
  const a = ws.attributes;
  return {
    name: a.name,
    description: a.description,
    executionMode: a["execution-mode"],
    autoApply: a["auto-apply"],
    autoApplyRunTrigger: a["auto-apply-run-trigger"],
    allowDestroyPlan: a["allow-destroy-plan"],
    globalRemoteState: a["global-remote-state"],
    queueAllRuns: a["queue-all-runs"],
    speculativeEnabled: a["speculative-enabled"],
    terraformVersion: a["terraform-version"],
    workingDirectory: a["working-directory"],
    fileTriggersEnabled: a["file-triggers-enabled"],
    triggerPatterns: [...(a["trigger-patterns"] ?? [])].sort(),
    sourceName: a["source-name"],
    sourceUrl: a["source-url"],
    tagNames: [...(a["tag-names"] ?? [])].sort(),
    sshKey: ws.relationships["ssh-key"]?.data?.id ?? null,
  };
}

function expected(v: Version, sshKeyId: string): Record<string, unknown> {
  return {
    name: v.appName,
    description: v.description,
    executionMode: v.appMode,
    autoApply: v.flag,
    autoApplyRunTrigger: v.flag,
    allowDestroyPlan: !v.flag,
    globalRemoteState: v.flag,
    queueAllRuns: v.flag,
    speculativeEnabled: !v.flag,
    terraformVersion: v.engineVersion,
    workingDirectory: v.workingDirectory,
    fileTriggersEnabled: true,
    triggerPatterns: [...v.triggerPatterns].sort(),
    sourceName: "pulumi-workspaces tests",
    sourceUrl: "https://example.com/pulumi-workspaces",
    // OTF keeps a flat tag in the case given (the hosted service lower-cases it).
    tagNames: [...v.tagNames].sort(),
    sshKey: v.sshKey ? sshKeyId : null,
  };
}

function workspaceIdsInState(stack: TestStack): string[] {
  return stack
    .resources("dynamic/workspaces:Workspace")
    .map((w) => w.id ?? "")
    .sort();
}

describe("resources OTF implements, through the engine", () => {
  let otf: OtfServer;
  let stack: TestStack;
  let sharedId: string;
  let sshKeyId: string;
  let ids: { appId: string; opsId: string };

  beforeAll(async () => {
    otf = otfServer();
    sharedId = await createWorkspace(otf, otf.organization, { name: "shared", "terraform-version": "1.6.0" });
    const tagged = await fetch(`${otf.url}/api/v2/workspaces/${sharedId}/relationships/tags`, {
      method: "POST",
      headers: { authorization: `Bearer ${otf.token}`, "content-type": "application/vnd.api+json" },
      body: JSON.stringify({ data: [{ type: "tags", attributes: { name: "pre-existing" } }] }),
    });
    expect(tagged.status).toBe(204);
    sshKeyId = await createSshKey(otf, otf.organization, "deploy");
    stack = await TestStack.create({
      project: "otf-e2e",
      files: { "index.ts": program(v1) },
      env: otfEnv(otf),
      config: { sharedId, sshKeyId },
    });
  });
  afterAll(() => stack?.dispose());

  it("creates workspaces with every setting OTF stores, flat tags, an SSH key and a lock", async () => {
    const r = await stack.up();
    expect(r.code, r.output).toBe(0);
    ids = (await stack.outputs()) as typeof ids;
    expect(ids.appId).toMatch(/^ws-/);

    const app = await workspace(otf, ids.appId);
    expect(settings(app)).toEqual(expected(v1, sshKeyId));
    // Sent as the service spells it (terraform-version), not OTF's latest release.
    const out = await stack.outputs();
    expect(out.appEngineVersion).toBe("1.6.0");
    expect(out.appTagNames.map((t: string) => t.toLowerCase()).sort()).toEqual(["frontend", "web"]);
    // OTF has no projects: the output says so instead of failing.
    expect(out.appProject ?? null).toBeNull();
    expect(out.appSshKeyId).toBe(sshKeyId);

    const ops = await workspace(otf, ids.opsId);
    expect(ops.attributes["execution-mode"]).toBe("local");
    expect(ops.attributes["trigger-prefixes"]).toEqual(["modules/"]);
    expect(ops.attributes.locked).toBe(true);
    expect(stack.resources("dynamic/workspaces:WorkspaceLock")[0]?.outputs?.locked).toBe(true);

    expect(await tagNames(otf, sharedId)).toEqual(["platform", "pre-existing"]);
  });

  it("previews no change and refreshes without drift", async () => {
    const p = await stack.previewJson(["--expect-no-changes"]);
    expect(p.code, p.raw.output).toBe(0);
    expect(p.steps.filter((s) => s.op !== "same")).toEqual([]);

    // Every output but the status, which the lock taken after the create changed.
    const outputs = () => stack.resources().map((x) => [x.urn, { ...x.outputs, status: undefined }]);
    const before = outputs();
    const r = await stack.refresh(["--expect-no-changes"]);
    expect(r.code, r.output).toBe(0);
    expect(outputs()).toEqual(before);
  });

  it("edits every setting in place, renames, retags, unassigns the key and re-locks", async () => {
    stack.writeFiles({ "index.ts": program(v2) });
    const r = await stack.up();
    expect(r.code, r.output).toBe(0);
    const out = await stack.outputs();
    expect(out.appId).toBe(ids.appId);
    expect(out.opsId).toBe(ids.opsId);

    expect(settings(await workspace(otf, ids.appId))).toEqual(expected(v2, sshKeyId));
    expect(await workspace(otf, `${otf.organization}/app`)).toBeNull();
    expect((await workspace(otf, `${otf.organization}/app-renamed`)).id).toBe(ids.appId);

    const ops = await workspace(otf, ids.opsId);
    expect(ops.attributes["execution-mode"]).toBe("remote");
    expect([...ops.attributes["trigger-prefixes"]].sort()).toEqual(["modules/", "shared/"]);
    expect(ops.attributes.locked).toBe(true);
    expect(stack.resources("dynamic/workspaces:WorkspaceLock")[0]?.outputs?.reason).toBe("freeze");

    expect(await tagNames(otf, sharedId)).toEqual(["billing", "platform", "pre-existing"]);

    const p = await stack.previewJson(["--expect-no-changes"]);
    expect(p.code, p.raw.output).toBe(0);
  });

  it("destroys: unlocks, deletes the workspaces and removes only the tags it added", async () => {
    const r = await stack.destroy();
    expect(r.code, r.output).toBe(0);
    expect(await workspace(otf, ids.appId)).toBeNull();
    expect(await workspace(otf, ids.opsId)).toBeNull();
    expect(await tagNames(otf, sharedId)).toEqual(["pre-existing"]);
    expect(stack.resources().filter((x) => x.custom && !x.type.startsWith("pulumi:"))).toEqual([]);
  });
});

describe("features OTF lacks, through the engine", () => {
  const org = runOrganization("lacking");
  let otf: OtfServer;
  let stack: TestStack;
  let targetId: string;

  const failing = `
new Workspace("kv", { name: "kv", tags: { env: "dev" }, forceDelete: true });
new Workspace("in-project", { name: "in-project", project: "prj-AbCdEfGhIjKlMnOp", forceDelete: true });
new WorkspaceTags("kv-tags", { workspaceId: target, tags: { team: "a" } });
new RemoteStateConsumers("consumers", { workspaceId: target, consumerIds: [safe.id] });
new NoCodeModule("module", { registryModuleId: "mod-AbCdEfGhIjKlMnOp" });
`;
  const program = (opts: { forceDelete: boolean; failing: boolean }) => `
import * as pulumi from "@pulumi/pulumi";
import { NoCodeModule, RemoteStateConsumers, Workspace, WorkspaceTags } from "pulumi-workspaces";

const target = new pulumi.Config().require("targetId");
const safe = new Workspace("safe", { name: "safe", description: "kept until forceDelete", forceDelete: ${opts.forceDelete} });
${opts.failing ? failing : ""}
export const safeId = safe.id;
`;

  /** Every workspace on OTF is the target or in state, and every one in state is on OTF. */
  async function expectNoRecordLost(): Promise<void> {
    const onServer = await workspaceIds(otf, org);
    const inState = workspaceIdsInState(stack);
    expect(onServer).toEqual([...inState, targetId].sort());
  }

  beforeAll(async () => {
    otf = otfServer();
    await createOrganization(otf, org);
    targetId = await createWorkspace(otf, org, { name: "target" });
    stack = await TestStack.create({
      project: "otf-lacking",
      files: { "index.ts": program({ forceDelete: false, failing: true }) },
      env: otfEnv(otf, org),
      config: { targetId },
    });
  });
  afterAll(() => stack?.dispose());

  it("fails each missing feature with one message naming it, and loses no record", async () => {
    const r = await stack.upWithEvents(["--continue-on-error"]);
    expect(r.code, r.output).not.toBe(0);
    const features: Array<[string, RegExp]> = [
      ["kv", /key-value tags/],
      ["in-project", /projects/],
      ["kv-tags", /key-value tags/],
      ["consumers", /remote state consumers/],
      ["module", /no-code provisioning/],
    ];
    expectOneMessageEach(r, features);
    expect(errorsOf(r.diagnostics, "safe")).toEqual([]);
    expect(await workspace(otf, `${org}/safe`)).not.toBeNull();
    await expectNoRecordLost();
    // The failed key-value tags left the target as it was.
    expect((await workspace(otf, targetId)).attributes.name).toBe("target");
  });

  it("refuses to delete without safe delete rather than force-deleting, and keeps the record in state", async () => {
    const r = await stack.destroy();
    expect(r.code, r.output).not.toBe(0);
    expect(r.output).toMatch(/does not offer safe delete/);
    expect(r.output).toMatch(/forceDelete/);
    expectNoStackTrace(r);
    const safe = await workspace(otf, `${org}/safe`);
    expect(safe).not.toBeNull();
    expect(workspaceIdsInState(stack)).toContain(safe.id);
    await expectNoRecordLost();
  });

  it("deletes with forceDelete", async () => {
    stack.writeFiles({ "index.ts": program({ forceDelete: true, failing: false }) });
    const up = await stack.up();
    expect(up.code, up.output).toBe(0);
    const r = await stack.destroy();
    expect(r.code, r.output).toBe(0);
    expect(await workspaceIds(otf, org)).toEqual([targetId]);
    expect(workspaceIdsInState(stack)).toEqual([]);
  });
});
