/**
 * The engine itself, with a throwaway dynamic provider: proves the CLI, the
 * language host and the dynamic-provider host work together before any real
 * resource is involved, and pins the facts the provider closures rely on.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { repoRoot, TestStack } from "./harness";

const program = (size: number) => `
import * as pulumi from "@pulumi/pulumi";

// Resolves the package the way src/resources/provider-text.ts does: from the
// dynamic-provider host's working directory, at call time.
const provider: pulumi.dynamic.ResourceProvider = {
  async create(inputs: any) {
    const req = require("module").createRequire(process.cwd() + "/");
    return {
      id: "thing-" + inputs.name,
      outs: { ...inputs, cwd: process.cwd(), resolved: req.resolve("pulumi-workspaces/package.json") },
    };
  },
  async diff(_id: string, olds: any, news: any) {
    return { changes: olds.size !== news.size };
  },
  async update(_id: string, olds: any, news: any) {
    return { outs: { ...olds, ...news } };
  },
};

class Thing extends pulumi.dynamic.Resource {
  declare readonly resolved: pulumi.Output<string>;
  declare readonly cwd: pulumi.Output<string>;
  constructor(name: string, args: { name: string; size: number }) {
    super(provider, name, { ...args, resolved: undefined, cwd: undefined }, undefined, "e2e", "Thing");
  }
}

const thing = new Thing("one", { name: "one", size: ${size} });
export const resolved = thing.resolved;
export const cwd = thing.cwd;
`;

describe("the Pulumi engine with a dynamic provider", () => {
  let stack: TestStack;

  beforeAll(async () => {
    stack = await TestStack.create({ project: "engine-smoke", files: { "index.ts": program(1) } });
  });
  afterAll(() => stack?.dispose());

  it("reports the pinned release", async () => {
    const r = await stack.ok(["version"]);
    expect(r.stdout.trim()).toMatch(/^v3\.\d+\.\d+/);
  });

  it("creates the resource and records it in the file backend", async () => {
    const r = await stack.up();
    expect(r.code, r.output).toBe(0);
    const [thing] = stack.resources(":Thing");
    expect(thing.type).toBe("pulumi-nodejs:dynamic/e2e:Thing");
    expect(thing.id).toBe("thing-one");
    expect(thing.outputs?.size).toBe(1);
    // The serialized provider is stored with the resource.
    expect(typeof thing.outputs?.__provider).toBe("string");
  });

  it("runs provider code with the program directory as working directory, where the package resolves", async () => {
    const out = await stack.outputs();
    expect(out.cwd).toBe(stack.dir);
    expect(out.resolved).toBe(`${repoRoot}/package.json`);
  });

  it("previews no change for an unchanged program", async () => {
    const p = await stack.previewJson(["--expect-no-changes"]);
    expect(p.code, p.raw.output).toBe(0);
    expect(p.steps.filter((s) => s.op !== "same")).toEqual([]);
  });

  it("updates in place after an edit", async () => {
    stack.writeFiles({ "index.ts": program(2) });
    const p = await stack.previewJson();
    expect(p.steps.find((s) => s.urn.endsWith("::one"))?.op).toBe("update");
    const r = await stack.up();
    expect(r.code, r.output).toBe(0);
    const [thing] = stack.resources(":Thing");
    expect(thing.id).toBe("thing-one");
    expect(thing.outputs?.size).toBe(2);
  });

  it("destroys", async () => {
    const r = await stack.destroy();
    expect(r.code, r.output).toBe(0);
    expect(stack.resources(":Thing")).toEqual([]);
  });
});
