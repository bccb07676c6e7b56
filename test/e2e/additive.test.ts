/**
 * The additive ownership rule through the real engine: `WorkspaceTags` and
 * `RemoteStateConsumers` in additive mode on a workspace another team owns never
 * change or remove a value they did not set, during the stack's life or after
 * `destroy`, and a conflicting value fails the update with one message that names
 * the key and the owner's value.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RunningServer } from "../../src/server";
import { api, serverEnv, startTestServer, TestStack } from "./harness";
import { consumerIds, createWorkspaceWithTags, setTagBindings, tagBindings } from "./server-helpers";

interface Version {
  costCenter: string;
}

const program = (v: Version) => `
import * as pulumi from "@pulumi/pulumi";
import { WorkspaceTags, RemoteStateConsumers } from "pulumi-workspaces";

const config = new pulumi.Config();
const workspaceId = config.require("workspaceId");

const tags = new WorkspaceTags("finance-tags", {
  workspaceId,
  mode: "additive",
  tags: { "cost-center": ${JSON.stringify(v.costCenter)}, "billing-owner": "finance" },
  tagNames: ["search", "finops"],
});

new RemoteStateConsumers("finance-readers", {
  workspaceId,
  mode: "additive",
  consumerIds: [config.require("theirReader"), config.require("ourReader")],
});

export const addedTags = tags.addedTags;
export const addedTagNames = tags.addedTagNames;
`;

async function flatTags(server: RunningServer, workspaceId: string): Promise<string[]> {
  const r = await api<any>(server, `/workspaces/${workspaceId}`);
  return [...r.body.data.attributes["tag-names"]].sort();
}

describe("additive tags and consumers on a workspace another team owns", () => {
  let server: RunningServer;
  let stack: TestStack;
  let owned: string;
  let theirReader: string;
  let ourReader: string;

  beforeAll(async () => {
    server = await startTestServer();
    // Made and owned outside the stack: a key-value tag, a flat tag and a consumer of its own.
    owned = await createWorkspaceWithTags(server, "search-prod", { "cost-center": "cc-original", team: "search" });
    theirReader = await createWorkspaceWithTags(server, "search-reports");
    ourReader = await createWorkspaceWithTags(server, "finance-reports");
    await api(server, `/workspaces/${owned}/relationships/tags`, {
      method: "POST",
      body: { data: [{ type: "tags", attributes: { name: "search" } }] },
    });
    await api(server, `/workspaces/${owned}/relationships/remote-state-consumers`, {
      method: "POST",
      body: { data: [{ type: "workspaces", id: theirReader }] },
    });
    stack = await TestStack.create({
      project: "additive-e2e",
      files: { "index.ts": program({ costCenter: "cc-byref" }) },
      env: serverEnv(server),
      config: { workspaceId: owned, theirReader, ourReader },
    });
  });
  afterAll(async () => {
    stack?.dispose();
    await server?.close();
  });

  it("refuses to overwrite the owner's value, once, naming the key and the value, and changes nothing", async () => {
    const r = await stack.upWithEvents();
    expect(r.code).not.toBe(0);
    const message =
      'tags.cost-center: the workspace already has cost-center = "cc-original", set outside this resource';
    // One diagnostic, and no stack trace anywhere.
    expect(
      r.diagnostics.filter((d) => d.message.includes("set outside this resource")),
      r.output,
    ).toHaveLength(1);
    expect(r.diagnostics.find((d) => d.message.includes(message))?.urn).toMatch(/WorkspaceTags::finance-tags$/);
    expect(r.output).not.toMatch(/^\s+at .+:\d+:\d+\)?$/m);
    expect(r.output).not.toMatch(/\.ts:\d+:\d+/);
    expect(await tagBindings(server, owned)).toEqual({ "cost-center": "cc-original", team: "search" });
    expect(await flatTags(server, owned)).toEqual(["search"]);
    expect(stack.resources("WorkspaceTags")).toEqual([]);
  });

  it("with the owner's value declared, adds only its own tags and consumer and records only those", async () => {
    stack.writeFiles({ "index.ts": program({ costCenter: "cc-original" }) });
    const r = await stack.up();
    expect(r.code, r.output).toBe(0);
    expect(await tagBindings(server, owned)).toEqual({
      "cost-center": "cc-original",
      team: "search",
      "billing-owner": "finance",
    });
    expect(await flatTags(server, owned)).toEqual(["finops", "search"]);
    expect(await consumerIds(server, owned)).toEqual([theirReader, ourReader].sort());
    const out = await stack.outputs();
    expect(out.addedTags).toEqual({ "billing-owner": "finance" });
    expect(out.addedTagNames).toEqual(["finops"]);
    const [consumers] = stack.resources("RemoteStateConsumers");
    expect(consumers.outputs?.addedConsumerIds).toEqual([ourReader]);
  });

  it("after destroy the owner's values are all still there, including one changed since the stack set it", async () => {
    // The owner takes over the key the stack added.
    await setTagBindings(server, owned, {
      "cost-center": "cc-original",
      team: "search",
      "billing-owner": "search-leads",
    });
    expect((await tagBindings(server, owned))["billing-owner"]).toBe("search-leads");
    const r = await stack.destroy();
    expect(r.code, r.output).toBe(0);
    expect(await tagBindings(server, owned)).toEqual({
      "cost-center": "cc-original",
      team: "search",
      "billing-owner": "search-leads",
    });
    expect(await flatTags(server, owned)).toEqual(["search"]);
    expect(await consumerIds(server, owned)).toEqual([theirReader]);
  });
});
