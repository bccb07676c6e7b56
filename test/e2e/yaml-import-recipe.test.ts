/**
 * docs/languages.md's recipe for taking a whole organization into a YAML program, followed
 * as written through the real engine, the YAML language host and the provider plugin,
 * against the local server: its project file, then its commands (stack config, the
 * generator's bulk import file, `pulumi import` into `Main.yaml`, a preview that must show
 * no change). What it imports stays protected, so a program that lost its code cannot
 * delete a record: `pulumi up` without `Main.yaml` fails and sends nothing.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parse } from "yaml";
import type { RunningServer } from "../../src/server";
import { seedOrganization, type Seeded } from "../generate/seed";
import { blockUnder, Reader, stepsUnder, writesSince, type StepResult } from "./doc-steps";
import { startTestServer, TestStack, type StateResource } from "./harness";

const PAGE = "docs/languages.md";
const RECIPE = "A whole organization into a YAML program";

describe("docs/languages.md: a whole organization into a YAML program, as written", () => {
  const projectFile = blockUnder(PAGE, RECIPE, "yaml");
  const steps = stepsUnder(PAGE, RECIPE);
  const project = /^name: (\S+)$/m.exec(projectFile)?.[1] ?? "";
  let server: RunningServer;
  let seeded: Seeded;
  let stack: TestStack;
  let results: StepResult[];

  /** The stack's resources of the plugin's types, from `pulumi stack export`. */
  async function imported(): Promise<StateResource[]> {
    const r = await stack.ok(["stack", "export"]);
    const resources = (JSON.parse(r.stdout).deployment?.resources ?? []) as StateResource[];
    return resources.filter((x) => x.type.startsWith("workspaces:index:"));
  }

  beforeAll(async () => {
    server = await startTestServer({ organization: "acme", runSpeed: 50 });
    seeded = await seedOrganization(server, 12, 2);
    // A folder for the engine (its own PULUMI_HOME and backend) with the plugin on PATH; the
    // page's project file replaces the harness's, and the page's commands create the stack.
    stack = await TestStack.create({ project, stack: "harness", files: {}, yaml: "" });
    fs.writeFileSync(path.join(stack.dir, "Pulumi.yaml"), projectFile);
  });

  afterAll(async () => {
    stack?.dispose();
    await server?.close();
  });

  it("starts from a project file with an empty program", () => {
    const doc = parse(projectFile) as Record<string, unknown>;
    expect(doc.name).toBe(project);
    expect(doc.runtime).toBe("yaml");
    expect(doc.resources ?? {}).toEqual({});
    expect(doc.variables ?? {}).toEqual({});
  });

  it("its commands import every record without a write, and the preview after shows no change", async () => {
    results = await new Reader(stack, server, {
      "app.terraform.io": server.url,
      '"..."': `"${server.token}"`,
    }).follow(steps);
    expect(results.flatMap((r) => r.writes)).toEqual([]);
    expect(results.at(-1)?.command).toBe("pulumi preview --expect-no-changes");

    const entries = JSON.parse(fs.readFileSync(path.join(stack.dir, "import.json"), "utf8")).resources as {
      id: string;
    }[];
    const state = await imported();
    expect(state.map((x) => x.id).sort()).toEqual(entries.map((e) => e.id).sort());
    const workspaces = state.filter((x) => /:(Workspace|NoCodeWorkspace)$/.test(x.type)).map((x) => x.id);
    expect(workspaces.sort()).toEqual([...seeded.ids.values()].sort());
  });

  it("keeps the engine's default: every imported record protected, in the state and in the code", async () => {
    const state = await imported();
    expect(state.filter((x) => x.protect !== true).map((x) => x.urn)).toEqual([]);
    const code = fs.readFileSync(path.join(stack.dir, "Main.yaml"), "utf8");
    expect(code.split("protect: true").length - 1).toBe(state.length);
  });

  it("cannot delete what it imported: without Main.yaml, pulumi up fails and sends nothing", async () => {
    const main = path.join(stack.dir, "Main.yaml");
    const aside = path.join(stack.root, "Main.yaml");
    fs.renameSync(main, aside);
    try {
      const before = { ...server.stats().byRoute };
      const r = await stack.up();
      expect(r.code).not.toBe(0);
      expect(r.output).toMatch(/protect/);
      expect(writesSince(server, before)).toEqual([]);
    } finally {
      fs.renameSync(aside, main);
    }
    expect((await imported()).length).toBe(
      JSON.parse(fs.readFileSync(path.join(stack.dir, "import.json"), "utf8")).resources.length,
    );
    const p = await stack.previewJson(["--expect-no-changes"]);
    expect(p.code, p.raw.output.slice(-4000)).toBe(0);
  });
});
