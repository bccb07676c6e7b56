/**
 * `pulumi up --target` and the stack's origin key (docs/interrupted-updates.md): a
 * workspace's origin is no dependency on the `StackOrigin` resource, so a stack that
 * does not hold the key yet (state written by an earlier release, or a first `up`
 * limited to one workspace) updates or creates just the targeted workspace, as before
 * origins existed. Such a create writes no origin; the next untargeted `up` records
 * the key and changes nothing else.
 */
import * as fs from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RunningServer } from "../../src/server";
import { api, serverEnv, startTestServer, TestStack } from "./harness";

const program = (description: string) => `
import { Workspace } from "pulumi-workspaces";
new Workspace("a", { name: "target-a", description: "${description}" });
new Workspace("b", { name: "target-b" });
`;

const ORIGIN_TYPE = "dynamic/workspaces:StackOrigin";

async function sourceOf(server: RunningServer, name: string): Promise<unknown> {
  const r = await api<any>(server, `/organizations/${server.organization}/workspaces/${name}`);
  expect(r.status).toBe(200);
  return r.body.data.attributes["source-name"];
}

describe("pulumi up --target on a stack without its origin key", () => {
  let server: RunningServer;
  let stack: TestStack;
  const urn = (name: string) => `urn:pulumi:dev::target::pulumi-nodejs:dynamic/workspaces:Workspace::${name}`;

  beforeAll(async () => {
    server = await startTestServer({ rateLimit: false });
    stack = await TestStack.create({ project: "target", files: { "index.ts": program("v1") }, env: serverEnv(server) });
  });
  afterAll(async () => {
    stack?.dispose();
    await server?.close();
  });

  it("creates only the targeted workspace, with no origin, on a first up", async () => {
    const r = await stack.up(["--target", urn("a")]);
    expect(r.code, r.output).toBe(0);
    expect(stack.resources("dynamic/workspaces:Workspace").map((x) => x.urn)).toEqual([urn("a")]);
    expect(stack.resources(ORIGIN_TYPE)).toEqual([]);
    expect(await sourceOf(server, "target-a")).toBeNull();
  });

  it("then records the key with the next untargeted up; what exists is no change", async () => {
    const r = await stack.up();
    expect(r.code, r.output).toBe(0);
    expect(stack.resources(ORIGIN_TYPE)).toHaveLength(1);
    expect(await sourceOf(server, "target-a")).toBeNull();
    expect(await sourceOf(server, "target-b")).toBe("pulumi-workspaces");
    const p = await stack.previewJson(["--expect-no-changes"]);
    expect(p.code, p.raw.output).toBe(0);
  });

  it("updates one workspace of a state that has no key (as an earlier release wrote it)", async () => {
    const file = stack.statePath();
    const state = JSON.parse(fs.readFileSync(file, "utf8"));
    const latest = state.checkpoint.latest;
    latest.resources = latest.resources.filter((x: { type: string }) => !x.type.endsWith(ORIGIN_TYPE));
    fs.writeFileSync(file, JSON.stringify(state));
    expect(stack.resources(ORIGIN_TYPE)).toEqual([]);

    stack.writeFiles({ "index.ts": program("v2") });
    const r = await stack.up(["--target", urn("a")]);
    expect(r.code, r.output).toBe(0);
    expect(r.output).toMatch(/~ 1 updated/);
    const ws = await api<any>(server, `/organizations/${server.organization}/workspaces/target-a`);
    expect(ws.body.data.attributes.description).toBe("v2");
    expect(stack.resources(ORIGIN_TYPE)).toEqual([]);
  });
});
