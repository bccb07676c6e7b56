/**
 * The policy pack as a user of YAML, Python or Go makes it, followed line by line from the
 * README ("The policy pack in CI", the same lines as policies/README.md): in the folder of
 * a YAML program, with nothing from a TypeScript project, `mkdir`, `npm init -y`, `npm
 * install pulumi-workspaces-policies @pulumi/pulumi`, the two one-line files and the config
 * file, then the preview with the pack, through the real engine and the provider plugin
 * against the local server. The published packages come from their tarballs (`npm pack`
 * of this checkout) in place of the registry; everything else the install needs comes from
 * the registry, as for a user. A Python or Go program hands the engine the same resources
 * (`workspaces:index:*`), so the pack judges it the same way.
 */
import { execFileSync } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RunningServer } from "../../src/server";
import { sectionOf } from "../docs/snippets";
import { Reader, stepsUnder } from "./doc-steps";
import { repoRoot, serverEnv, startTestServer, TestStack } from "./harness";

const README = "README.md";
const TITLE = "The policy pack in CI";

/** A YAML program of one workspace with these key-value tags. */
const program = (tags: Record<string, string>) => `
resources:
  billing:
    type: workspaces:index:Workspace
    properties:
      name: billing-dev
      executionMode: remote
      tags: ${JSON.stringify(tags)}
`;

/**
 * `npm pack` of the resources package (its dist/, built before the suite) and of the policy
 * package, built into a folder of its own: packages/policies builds into itself, and the
 * install test may pack it at the same time.
 */
function tarballs(dir: string): { resources: string; policies: string } {
  const pack = (from: string) => {
    const out = execFileSync("npm", ["pack", "--json", "--ignore-scripts", "--pack-destination", dir], {
      cwd: from,
      encoding: "utf8",
    });
    return path.join(dir, JSON.parse(out.slice(out.indexOf("[")))[0].filename as string);
  };
  const staged = path.join(dir, "pulumi-workspaces-policies");
  fs.mkdirSync(staged, { recursive: true });
  const manifest = JSON.parse(fs.readFileSync(path.join(repoRoot, "packages", "policies", "package.json"), "utf8"));
  delete manifest.scripts;
  fs.writeFileSync(path.join(staged, "package.json"), JSON.stringify(manifest, null, 2));
  fs.copyFileSync(path.join(repoRoot, "LICENSE"), path.join(staged, "LICENSE"));
  fs.copyFileSync(path.join(repoRoot, "policies", "README.md"), path.join(staged, "README.md"));
  execFileSync(
    process.execPath,
    [
      path.join(repoRoot, "node_modules", "typescript", "bin", "tsc"),
      "-p",
      path.join(repoRoot, "packages", "policies", "tsconfig.json"),
      "--outDir",
      path.join(staged, "dist"),
    ],
    { stdio: "pipe" },
  );
  return { resources: pack(repoRoot), policies: pack(staged) };
}

/**
 * A reader who also makes folders and one-line files, and runs npm's `init -y` and
 * `install PACKAGE...` as written, the packages from here taken from their tarballs.
 */
class PackReader extends Reader {
  constructor(
    stack: TestStack,
    server: RunningServer,
    private readonly packed: { resources: string; policies: string },
    private readonly sdk: string,
  ) {
    super(stack, server, {});
  }

  protected override async run(argv: string[], written: string): Promise<{ code: number; output: string }> {
    const [program, ...args] = argv;
    const at = (p: string) => path.resolve(this.cwd, p);
    if (program === "mkdir" && args.length === 1) {
      fs.mkdirSync(at(args[0]));
      return { code: 0, output: "" };
    }
    if (program === "echo" && args.length === 3 && args[1] === ">") {
      fs.writeFileSync(at(args[2]), `${args[0]}\n`);
      return { code: 0, output: "" };
    }
    if (program === "npm" && (args.join(" ") === "init -y" || (args[0] === "install" && args.length > 1))) {
      const specs = args.flatMap((a) => {
        // The package the policy package depends on comes through the override below.
        if (a === "pulumi-workspaces-policies") return [this.packed.policies];
        return a === "@pulumi/pulumi" ? [this.sdk] : [a];
      });
      const npmArgs = args[0] === "install" ? [...specs, "--no-audit", "--no-fund"] : args;
      if (args[0] === "install") {
        // The registry's part, also for the policy package's own dependency: a checkout between
        // releases packs `<next>-dev.N`, which its range of the next release does not admit.
        const manifest = at("package.json");
        const pkg = JSON.parse(fs.readFileSync(manifest, "utf8")) as Record<string, unknown>;
        pkg.overrides = { "pulumi-workspaces": `file:${path.resolve(this.cwd, this.packed.resources)}` };
        fs.writeFileSync(manifest, JSON.stringify(pkg, null, 2));
      }
      try {
        const output = execFileSync("npm", npmArgs, { cwd: this.cwd, env: this.stack.env, encoding: "utf8" });
        return { code: 0, output };
      } catch (err) {
        const e = err as { status?: number; stdout?: string; stderr?: string };
        return { code: e.status ?? 1, output: `${e.stdout ?? ""}${e.stderr ?? ""}` };
      }
    }
    return super.run(argv, written);
  }
}

describe("the README's policy pack, made and run as a YAML program's user does", () => {
  const steps = stepsUnder(README, TITLE);
  let server: RunningServer;
  let stack: TestStack;
  let reader: PackReader;

  beforeAll(async () => {
    server = await startTestServer();
    stack = await TestStack.create({
      project: "pack-steps",
      files: {},
      yaml: program({ env: "dev", owner: "platform" }),
      env: serverEnv(server),
    });
    // The page names the SDK for Node.js 20; on 22 and later the current one.
    const node20 = /on Node\.js 20,\s+`(@pulumi\/pulumi@[\d.]+)` in place of `@pulumi\/pulumi`/.exec(
      sectionOf(fs.readFileSync(path.join(repoRoot, README), "utf8"), TITLE),
    )?.[1];
    expect(node20).toBeDefined();
    const sdk = Number(process.versions.node.split(".")[0]) < 22 ? node20! : "@pulumi/pulumi";
    reader = new PackReader(stack, server, tarballs(stack.root), sdk);
  }, 600_000);
  afterAll(async () => {
    stack?.dispose();
    await server?.close();
  });

  it("takes nothing from a TypeScript project", () => {
    expect(fs.existsSync(path.join(stack.dir, "package.json"))).toBe(false);
    expect(steps.join("\n")).not.toMatch(/node_modules|tsconfig|typescript/);
    expect(steps.at(-1)).toMatch(/^pulumi preview --policy-pack /);
  });

  it("makes the pack with the page's lines, and the preview runs it and passes a compliant program", async () => {
    const results = await reader.follow(steps);
    const preview = results.at(-1)!;
    // The pack's version is the one `npm init -y` gave its package.json.
    expect(preview.output).toMatch(/Policies:\s+✅ pulumi-workspaces@v1\.0\.0 \(local: policy-pack\)/);
    expect(preview.output).not.toMatch(/mandatory/);
    expect(preview.writes).toEqual([]);
    const manifest = JSON.parse(fs.readFileSync(path.join(stack.dir, "policy-pack", "package.json"), "utf8"));
    expect(manifest.main).toBe("index.js");
    expect(Object.keys(manifest.dependencies)).toEqual(
      expect.arrayContaining(["pulumi-workspaces-policies", "@pulumi/pulumi"]),
    );
  });

  it("fails the same preview on the rule its config makes mandatory, and sends nothing", async () => {
    stack.writeYaml(program({ owner: "platform" }));
    const before = server.stats().total;
    const preview = steps.at(-1)!;
    await expect(reader.follow([preview])).rejects.toThrow(
      /workspace-required-tags[\s\S]*mandatory|mandatory[\s\S]*workspace-required-tags/,
    );
    expect(server.stats().total - before).toBe(0);
  });
});
