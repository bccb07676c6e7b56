/**
 * State is kept across releases: a stack created with an earlier release is previewed,
 * updated, refreshed and destroyed with this one. Two earlier shapes of a `Workspace`'s
 * outputs are covered: releases before 0.2.0 (every workspace value a top-level output,
 * about 60 of them) and 0.3.0 (the service's own values grouped in `metrics`, `status`
 * and `permissions`, which this release no longer stores). The serialized provider in
 * that state calls this release's entry point with the old outputs as `olds`.
 *
 * Each earlier release is built from git (its commit found from the history, see
 * RELEASES), extracted with `git archive`, this repository's node_modules linked in,
 * compiled with tsc. The program's `node_modules/pulumi-workspaces` points at that build
 * for the first `up`, then at this repository.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RunningServer } from "../../src/server";
import { WORKSPACE_OUTPUTS } from "../../src/resources/workspace";
import { api, repoRoot, serverEnv, startTestServer, TestStack, type StateResource } from "./harness";
import { consumerIds, tagBindings, workspaceByName } from "./server-helpers";
import { buildRelease, commits, notInHistory, parentOf } from "./releases";

const PROGRAM = (appDescription: string) => `
import { Workspace, RemoteStateConsumers } from "pulumi-workspaces";

const net = new Workspace("net", { name: "old-state-net", description: "shared network", tags: { env: "prod", team: "platform" } });
const app = new Workspace("app", {
  name: "old-state-app",
  description: ${JSON.stringify(appDescription)},
  tags: { env: "prod", team: "apps" },
  tagNames: ["web"],
});
new RemoteStateConsumers("net-consumers", { workspaceId: net.id, consumerIds: [app.id] });

export const netId = net.id;
export const appId = app.id;
`;

interface Release {
  /** How the release is named in the test titles. */
  name: string;
  /** The commit whose tree is the release. */
  commit(): string;
  /** An output key a `Workspace` of that release stores and this release does not. */
  marker: string;
  /** Asserts the shape of a `Workspace`'s outputs as that release writes them. */
  written(outputs: Record<string, unknown>): void;
}

const RELEASES: Release[] = [
  {
    name: "a release before 0.2.0 (every value a top-level output)",
    // The parent of the commit that added the field table (under the name it was added with).
    commit() {
      const added = commits(["--diff-filter=A", "--", "src/api/workspaceFields.ts"]).pop();
      if (!added) throw notInHistory("adds src/api/workspaceFields.ts (the field table)");
      return parentOf(added);
    },
    marker: "createdAt",
    written(outputs) {
      expect(Object.keys(outputs).length).toBeGreaterThan(55);
      expect(outputs).toHaveProperty("createdAt");
      expect(outputs).not.toHaveProperty("status");
    },
  },
  {
    name: "0.3.0 (the service's own values grouped in metrics, status and permissions)",
    // The commit that dated 0.3.0 in the CHANGELOG.
    commit() {
      const released = commits(["-S", "## 0.3.0 (", "--", "CHANGELOG.md"]).pop();
      if (!released) throw notInHistory("adds the 0.3.0 heading to CHANGELOG.md");
      return released;
    },
    marker: "status",
    written(outputs) {
      expect(outputs).toHaveProperty("status.createdAt");
      expect(outputs).toHaveProperty("metrics.resourceCount", 0);
      expect(outputs).toHaveProperty("permissions.canUpdate", true);
      expect(outputs).not.toHaveProperty("createdAt");
    },
  },
];

/** Points the program's `pulumi-workspaces` at `target`. */
function usePackage(stack: TestStack, target: string): void {
  const at = path.join(stack.dir, "node_modules", "pulumi-workspaces");
  fs.rmSync(at, { recursive: true, force: true });
  fs.symlinkSync(target, at, "dir");
}

function workspaceStates(stack: TestStack): StateResource[] {
  return stack.resources(":Workspace").sort((a, b) => a.urn.localeCompare(b.urn));
}

describe.each(RELEASES)("a stack created with $name", (previous) => {
  const figures: string[] = [];
  let server: RunningServer;
  let stack: TestStack;
  let release: string;
  let commit: string;

  beforeAll(async () => {
    server = await startTestServer({ rateLimit: false });
    stack = await TestStack.create({
      project: "old-state",
      files: { "index.ts": PROGRAM("the app") },
      env: serverEnv(server),
    });
    commit = previous.commit();
    release = path.join(stack.root, "previous-release", "package");
    const t0 = Date.now();
    buildRelease(commit, release, ["src/index.ts", "src/resources/entry.ts"]);
    figures.push(`release ${commit.slice(0, 10)} built in ${((Date.now() - t0) / 1000).toFixed(1)} s`);
    usePackage(stack, release);
  }, 240_000);

  afterAll(async () => {
    if (figures.length) console.log(`\nold-state figures, ${previous.name}:\n  ${figures.join("\n  ")}`);
    stack?.dispose();
    await server?.close();
  });

  it("is created by that release, in its shape", async () => {
    await stack.ok(["up", "--yes", "--non-interactive", "--skip-preview"]);
    const [app, net] = workspaceStates(stack);
    previous.written(net.outputs!);
    figures.push(
      `that release: ${Object.keys(app.outputs!).length} outputs, ${JSON.stringify(app).length} bytes of state per workspace (compact JSON)`,
    );
    const onServer = await workspaceByName(server, "old-state-app");
    expect(onServer.id).toBe(app.id);
    expect(await consumerIds(server, net.id!)).toEqual([app.id]);
  });

  it("previews only the stack's origin key under this release (the old outputs are the olds)", async () => {
    usePackage(stack, repoRoot);
    const p = await stack.previewJson();
    expect(p.code, p.raw.output).toBe(0);
    // The one resource this release adds to a stack (docs/interrupted-updates.md); no workspace changes.
    expect(p.changeSummary).toMatchObject({ create: 1 });
    expect(Object.keys(p.changeSummary).sort()).toEqual(["create", "same"]);
    expect(p.steps.filter((s) => s.op !== "same").map((s) => [s.op, s.urn.split("::").pop()])).toEqual([
      ["create", "pulumi-workspaces-origin"],
    ]);
    // The untouched state still has the old shape: nothing was written.
    expect(workspaceStates(stack)[1].outputs).toHaveProperty(previous.marker);
  });

  it("updates one workspace from its old outputs; the other keeps them until refresh", async () => {
    const app0 = workspaceStates(stack)[0];
    const patchesBefore = server.stats().byRoute["PATCH /api/v2/workspaces/:workspace_id"] ?? 0;
    stack.writeFiles({ "index.ts": PROGRAM("the app, edited") });
    await stack.ok(["up", "--yes", "--non-interactive", "--skip-preview"]);
    expect((server.stats().byRoute["PATCH /api/v2/workspaces/:workspace_id"] ?? 0) - patchesBefore).toBe(1);
    const [app, net] = workspaceStates(stack);
    expect(app.id).toBe(app0.id);
    expect((await workspaceByName(server, "old-state-app")).attributes.description).toBe("the app, edited");
    expect(
      Object.keys(app.outputs!)
        .filter((k) => !k.startsWith("__"))
        .sort(),
    ).toEqual([...WORKSPACE_OUTPUTS].sort());
    expect(app.outputs).not.toHaveProperty(previous.marker);
    expect(app.outputs!.tags).toEqual({ env: "prod", team: "apps" });
    expect(net.outputs).toHaveProperty(previous.marker);
  });

  it("refreshes into this release's shape, then previews with no change", async () => {
    // Both workspaces are read from the server: by id, or from the organization's listing
    // (state of that release records the organization, so the listing serves it).
    const reads = () => {
      const by = server.stats().byRoute;
      return {
        byId: by["GET /api/v2/workspaces/:workspace_id"] ?? 0,
        listed: by["GET /api/v2/organizations/:organization_name/workspaces"] ?? 0,
      };
    };
    const reads0 = reads();
    await stack.ok(["refresh", "--yes", "--non-interactive", "--skip-preview"]);
    const read = { byId: reads().byId - reads0.byId, listed: reads().listed - reads0.listed };
    expect(read.byId >= 2 || read.listed >= 1, JSON.stringify(read)).toBe(true);
    const [app, net] = workspaceStates(stack);
    for (const ws of [app, net]) {
      expect(
        Object.keys(ws.outputs!)
          .filter((k) => !k.startsWith("__"))
          .sort(),
      ).toEqual([...WORKSPACE_OUTPUTS].sort());
      expect(ws.outputs).not.toHaveProperty(previous.marker);
    }
    expect(net.outputs!.effectiveTags).toEqual({ env: "prod", team: "platform" });
    // `app` was updated by this release, so its provider text is this release's too (a refresh keeps the stored one).
    figures.push(
      `this release: ${Object.keys(app.outputs!).length} outputs, ${JSON.stringify(app).length} bytes of state per workspace ` +
        `(${JSON.stringify(net).length} for one refreshed only, which keeps the previous provider text)`,
    );
    const p = await stack.previewJson();
    expect(p.code, p.raw.output).toBe(0);
    expect(Object.keys(p.changeSummary)).toEqual(["same"]);
    expect(await tagBindings(server, net.id!)).toEqual({ env: "prod", team: "platform" });
  });

  it("destroys everything", async () => {
    const [app, net] = workspaceStates(stack);
    await stack.ok(["destroy", "--yes", "--non-interactive", "--skip-preview"]);
    for (const ws of [app, net]) expect((await api(server, `/workspaces/${ws.id}`)).status).toBe(404);
    expect(stack.resources().filter((r) => r.custom)).toEqual([]);
  });
});
