/**
 * Taking over a whole organization from a YAML program: the generator writes a bulk import
 * file (`--import-file`) for an organization seeded over the API (projects, tags,
 * consumers, no-code modules and workspaces made from them), `pulumi import -f` takes every
 * record over through the provider plugin and writes the program, and that program then
 * previews no change. The alternative to `adopt: true` for programs not in TypeScript.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RunningServer } from "../../src/server";
import { WorkspacesClient } from "../../src/client";
import { originUrl } from "../../src/api/origin";
import { generate } from "../../src/generate";
import { seedOrganization, type Seeded } from "../generate/seed";
import { startTestServer, TestStack } from "./harness";

const COUNT = 12;
const NO_CODE = 2;

describe("pulumi import -f of an organization, from the generator's import file", () => {
  let server: RunningServer;
  let seeded: Seeded;
  let stack: TestStack;
  let importFile: string;

  beforeAll(async () => {
    server = await startTestServer({ runSpeed: 50 });
    seeded = await seedOrganization(server, COUNT, NO_CODE);
    // A workspace an earlier stack of this package created: its origin is not carried into the imported program.
    await new WorkspacesClient({ address: server.url, token: server.token }).workspaces.create(server.organization, {
      name: "made-by-a-stack",
      sourceName: "pulumi-workspaces",
      sourceUrl: originUrl({ project: "old", stack: "dev", resource: "made", digest: "ab".repeat(16) }),
    });
    stack = await TestStack.create({
      project: "yaml-import-e2e",
      files: {},
      yaml: "resources: {}\n",
      config: { "workspaces:address": server.url, "workspaces:organization": server.organization },
      secretConfig: { "workspaces:token": server.token },
    });
    importFile = path.join(stack.dir, "import.json");
  });
  afterAll(async () => {
    stack?.dispose();
    await server?.close();
  });

  it("the generator writes one import entry per resource of the program it writes", async () => {
    const result = await generate({
      organization: server.organization,
      out: path.join(stack.root, "generated", "index.ts"),
      importFile,
      client: new WorkspacesClient({ address: server.url, token: server.token, organization: server.organization }),
    });
    const file = JSON.parse(fs.readFileSync(importFile, "utf8"));
    expect(file.resources).toEqual(result.imports);
    const declared = result.program.match(/new (\w+)\("/g) ?? [];
    expect(file.resources).toHaveLength(declared.length);
    const byType = (t: string) => file.resources.filter((r: { type: string }) => r.type === `workspaces:index:${t}`);
    expect(byType("Workspace")).toHaveLength(seeded.ids.size - seeded.noCodeNames.length + 1);
    expect(byType("NoCodeWorkspace")).toHaveLength(seeded.noCodeNames.length);
    expect(byType("NoCodeModule")).toHaveLength(seeded.modules.length);
    expect(byType("RemoteStateConsumers").length).toBeGreaterThan(0);
  });

  it("pulumi import -f takes every record over, and the program it writes previews no change", async () => {
    const code = path.join(stack.dir, "imported.yaml");
    const r = await stack.ok([
      "import",
      "-f",
      importFile,
      "--yes",
      "--non-interactive",
      "--protect=false",
      "--out",
      code,
    ]);
    const entries = JSON.parse(fs.readFileSync(importFile, "utf8")).resources as { name: string; id: string }[];
    const state = stack.resources().filter((x) => x.type.startsWith("workspaces:"));
    expect(state.map((x) => x.id).sort(), r.output).toEqual(entries.map((e) => e.id).sort());

    const written = fs.readFileSync(code, "utf8");
    expect(written).toMatch(/sourceName: portal/);
    expect(written).not.toMatch(/sourceName: pulumi-workspaces/);
    stack.writeYaml(written);
    const p = await stack.previewJson();
    expect(p.code, p.raw.output).toBe(0);
    const changed = p.steps.filter((s) => s.op !== "same").map((s) => `${s.op} ${s.urn.split("::").pop()}`);
    expect(changed, p.raw.output).toEqual([]);
  });
});
