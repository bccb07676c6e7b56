/**
 * The README's first jobs, followed as written, through the real engine and the real local
 * server under its default rate limit: a folder as `pulumi new typescript` leaves it (with
 * this package installed), the lines of "Point it at the service" (the address and the
 * organization in the stack's config, the token in the environment), then the lines of
 * "Adopt an existing organization": the generator takes its settings from the stack, and
 * `pulumi preview` and `pulumi up` adopt an organization made by hand without one write.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RunningServer } from "../../src/server";
import { pulumiNewTypescript } from "../generate/pulumi-new";
import { seedOrganization, type Seeded } from "../generate/seed";
import { blockUnder, follow, runGenerator, stepsUnder, writesSince } from "./doc-steps";
import { startTestServer, TestStack } from "./harness";

const COUNT = 24;
const NO_CODE = 2;
const PROJECT = "readme-adopt";

const README = "README.md";

describe("the README, followed as written: point it at the service, then adopt an organization", () => {
  const setup = stepsUnder(README, "Point it at the service");
  const adopt = stepsUnder(README, "Adopt an existing organization");
  let server: RunningServer;
  let seeded: Seeded;
  let stack: TestStack;
  let fill: Record<string, string>;

  beforeAll(async () => {
    server = await startTestServer({ organization: "acme" });
    seeded = await seedOrganization(server, COUNT, NO_CODE);
    // `pulumi new` writes the files and creates the stack (dev); `npm install` links the package.
    stack = await TestStack.create({ project: PROJECT, files: pulumiNewTypescript(PROJECT) });
    fill = { "app.terraform.io": server.url, '"..."': `"${server.token}"` };
  });

  afterAll(async () => {
    stack?.dispose();
    await server?.close();
  });

  it("names the hosted service's address, organization acme and the token the reader fills in", () => {
    expect(setup.join("\n")).toContain("workspaces:address app.terraform.io");
    expect(setup.join("\n")).toContain("workspaces:organization acme");
    expect(setup.some((c) => c.startsWith("export WORKSPACES_TOKEN="))).toBe(true);
    expect(adopt[0]).toMatch(/^npx pulumi-workspaces generate\b/);
  });

  it("the setup lines put the address and organization in the stack's config, and the token nowhere in it", async () => {
    await follow(setup, stack, server, fill);
    const config = fs.readFileSync(path.join(stack.dir, `Pulumi.${stack.stack}.yaml`), "utf8");
    expect(config).toContain(`workspaces:address: ${server.url}`);
    expect(config).toContain("workspaces:organization: acme");
    expect(config).not.toContain(server.token);
    expect(stack.env.WORKSPACES_ADDRESS).toBeUndefined();
  });

  it("generate, as the README writes it, reads the stack's settings, replaces pulumi new's index.ts and writes nothing to the service", async () => {
    const [generate] = adopt;
    // Without --force the file `pulumi new` wrote stops it: the reason the README passes it.
    const args = generate.split(/\s+/).slice(2);
    const refused = await runGenerator(
      args.filter((a) => a !== "--force"),
      { cwd: stack.dir, env: stack.env },
    );
    expect(refused.code).toBe(1);
    expect(refused.output).toContain(
      `${path.join(stack.dir, "index.ts")} exists; choose another --out, or pass --force`,
    );

    const [r] = await follow([generate], stack, server, fill);
    expect(r.writes).toEqual([]);
    expect(r.output).toContain(
      `settings: address ${server.url} from Pulumi.${stack.stack}.yaml, organization acme from Pulumi.${stack.stack}.yaml, token from WORKSPACES_TOKEN`,
    );
    expect(r.output).not.toContain(server.token);
    expect(fs.readFileSync(path.join(stack.dir, "index.ts"), "utf8")).toContain("adopt: true");
  });

  it("the generated README's secret keys, set as it says", async () => {
    const page = path.join(stack.dir, "README.md");
    const table = fs.readFileSync(page, "utf8");
    const workspaceOf = new Map(
      [...table.matchAll(/^\s*\| `([^`]+)` \| (\S+) \| \S+ \|$/gm)].map((m) => [m[1], m[2]] as const),
    );
    expect(workspaceOf.size).toBe(seeded.passwords.size);
    const lines = blockUnder(page, "Before the first `pulumi up`", "sh").split("\n");
    const filled = lines.map((line) => {
      const key = /--secret (\S+) /.exec(line)?.[1] ?? "";
      return line.replace(/'<value of [^>]+>'/, `'${seeded.passwords.get(workspaceOf.get(key) ?? "")}'`);
    });
    expect(filled.filter((l) => l.includes("'undefined'"))).toEqual([]);
    await follow(filled, stack, server, {});
  });

  it("pulumi preview and pulumi up adopt every record without one write, and a preview after shows no change", async () => {
    const results = await follow(adopt.slice(1), stack, server, fill);
    expect(results.map((r) => r.command.split(/\s+/).slice(0, 2).join(" "))).toEqual(["pulumi preview", "pulumi up"]);
    expect(results.flatMap((r) => r.writes)).toEqual([]);

    const held = new Map<string, string>();
    for (const res of [...stack.resources("workspaces:Workspace"), ...stack.resources("workspaces:NoCodeWorkspace")])
      held.set(String(res.outputs?.name), String(res.id));
    expect(held.size).toBe(COUNT);
    for (const [name, id] of seeded.ids) expect(held.get(name), name).toBe(id);

    const before = { ...server.stats().byRoute };
    const p = await stack.previewJson(["--expect-no-changes"]);
    expect(p.code, p.raw.output.slice(-4000)).toBe(0);
    expect(p.steps.filter((s) => s.op !== "same")).toEqual([]);
    expect(writesSince(server, before)).toEqual([]);
  });
});
