/**
 * The three packages as a user gets them: `npm pack` of the resources package, the server
 * package (packages/server) and the policy package (packages/policies), installed from the
 * tarballs into fresh directories (the registry only for their dependencies). On each
 * supported pair, Node 20 with the oldest supported @pulumi/pulumi and Node 22 with the
 * newest, it measures the program's install against a program that depends on
 * @pulumi/pulumi alone, runs the program through the engine against the server started
 * with the server package's `workspaces-server`, and runs an organisation's pack that is
 * only a package.json depending on the policy package, a one-line index.js that loads its
 * ready pack (examples/policy/policy-pack) and a config file. Each install runs at npm's default log level: the server package must
 * install on Node 20 without an EBADENGINE warning. examples/variables, copied as a user copies
 * it, installs the package from its tarball (its range must admit the packed version) and previews.
 *
 * It covers both pairs itself, so .ci/node22 (the suites on Node 22) skips it.
 */
import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { requireBuiltPackage } from "../e2e/harness";

// eslint-disable-next-line @typescript-eslint/no-require-imports
const engine = require("../../scripts/lib/engine.js") as {
  ensureEngine(): string;
  engineEnv(o: { bin: string; home: string; backendDir: string; extra?: Record<string, string> }): NodeJS.ProcessEnv;
  runPulumi(
    args: string[],
    o: { cwd: string; env: NodeJS.ProcessEnv; timeoutMs?: number },
  ): Promise<{ code: number; stdout: string; output: string }>;
};
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { node22Bin } = require("../../scripts/lib/node22.js") as { node22Bin: () => string };
// eslint-disable-next-line @typescript-eslint/no-require-imports
const versions = require("../../scripts/release/versions.js") as {
  admits: (range: string, version: string) => boolean;
  releaseOf: (version: string) => string | undefined;
};

const root = path.resolve(__dirname, "..", "..");
/** Packages a program may add beyond what @pulumi/pulumi brings (axios, zod and theirs today). */
const MAX_ADDED_PACKAGES = 40;
/** The oldest supported SDK: the devDependency the repository pins. */
const OLDEST_SDK: string = JSON.parse(fs.readFileSync(path.join(root, "package.json"), "utf8")).devDependencies[
  "@pulumi/pulumi"
];
const TOKEN = "package-test-token-not-a-secret";

interface Tarball {
  file: string;
  size: number;
  unpackedSize: number;
  entries: number;
}

interface Install {
  packages: number;
  seconds: number;
  scripts: string[];
  /** Packages npm warned about with EBADENGINE (they declare a Node range this Node is outside of). */
  badEngine: string[];
}

/** Figures printed at the end, for the README and CI notes. */
const figures: Record<string, unknown> = {};

function run(cmd: string, args: string[], cwd: string, env: NodeJS.ProcessEnv = process.env): string {
  return runWithWarnings(cmd, args, cwd, env).stdout;
}

/** Runs a command; its standard error (npm's warnings) is returned beside its output. */
function runWithWarnings(
  cmd: string,
  args: string[],
  cwd: string,
  env: NodeJS.ProcessEnv = process.env,
): { stdout: string; stderr: string } {
  const r = spawnSync(cmd, args, {
    cwd,
    env,
    encoding: "utf8",
    stdio: ["ignore", "pipe", "pipe"],
    maxBuffer: 64 << 20,
  });
  if (r.error || r.status !== 0) {
    throw new Error(
      `${cmd} ${args.join(" ")} in ${cwd} failed: ${r.error?.message ?? `exit ${String(r.status)}`}\n${r.stdout}${r.stderr}`,
    );
  }
  return { stdout: r.stdout, stderr: r.stderr };
}

/** The packages of npm's EBADENGINE warnings: `npm warn EBADENGINE   package: 'cookie@2.0.2',`. */
function badEngines(npmOutput: string): string[] {
  return [...npmOutput.matchAll(/EBADENGINE\s+package: '([^']+)'/g)].map((m) => m[1]);
}

/**
 * `npm pack` of `dir`. The root package is packed from the dist/ the suite was started with
 * (`npm run test:e2e` and CI build it first), without its prepack build: that build empties
 * dist/ while it runs, under whatever else uses it meanwhile (CI runs other suites beside
 * this one). The other packages build into their own folders.
 */
function npmPack(dir: string, dest: string): Tarball {
  const scripts = dir === root ? ["--ignore-scripts"] : [];
  const out = run("npm", ["pack", "--json", ...scripts, "--pack-destination", dest], dir);
  const info = JSON.parse(out.slice(out.indexOf("[")))[0];
  return {
    file: path.join(dest, info.filename),
    size: info.size,
    unpackedSize: info.unpackedSize,
    entries: info.entryCount,
  };
}

/** `npm install` in `dir` with `package.json`; the count and install scripts come from the lock file. */
function npmInstall(dir: string, pkg: Record<string, unknown>, env: NodeJS.ProcessEnv): Install {
  fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(
    path.join(dir, "package.json"),
    JSON.stringify({ name: path.basename(dir), version: "1.0.0", private: true, ...pkg }, null, 2),
  );
  const started = Date.now();
  // npm's default log level: its warnings (EBADENGINE among them) reach standard error.
  const { stderr } = runWithWarnings("npm", ["install", "--no-audit", "--no-fund", "--loglevel=warn"], dir, env);
  const seconds = (Date.now() - started) / 1000;
  const lock = JSON.parse(fs.readFileSync(path.join(dir, "package-lock.json"), "utf8")) as {
    packages: Record<string, { hasInstallScript?: boolean; link?: boolean }>;
  };
  const entries = Object.entries(lock.packages).filter(([k, v]) => k !== "" && !v.link);
  return {
    packages: entries.length,
    seconds,
    scripts: entries.filter(([, v]) => v.hasInstallScript).map(([k]) => k),
    badEngine: badEngines(stderr),
  };
}

const PROGRAM = `"use strict";
const pulumi = require("@pulumi/pulumi");
const { Workspace } = require("pulumi-workspaces");
const name = new pulumi.Config().require("workspaceName");
const ws = new Workspace("app", { name, executionMode: "remote", tags: { env: "dev", owner: "platform" } });
exports.workspaceId = ws.id;
exports.sdk = require("@pulumi/pulumi/package.json").version;
exports.node = process.version;
`;

describe.skipIf(process.env.WORKSPACES_CI_PAIR === "node22")(
  "the packed tarballs, installed as a user installs them",
  () => {
    const work = fs.mkdtempSync(path.join(os.tmpdir(), "workspaces-package-"));
    let resources: Tarball;
    let serverTarball: Tarball;
    let policies: Tarball;
    let server: ChildProcess | undefined;
    let serverUrl = "";
    let serverInstall: Install;
    let engineBin = "";

    beforeAll(async () => {
      engineBin = engine.ensureEngine();
      requireBuiltPackage();
      resources = npmPack(root, work);
      serverTarball = npmPack(path.join(root, "packages", "server"), work);
      policies = npmPack(path.join(root, "packages", "policies"), work);
      figures.tarballs = Object.fromEntries(
        [resources, serverTarball, policies].map((t) => [
          path.basename(t.file),
          { packedBytes: t.size, unpackedBytes: t.unpackedSize, files: t.entries },
        ]),
      );

      // The server package in a folder of its own (it builds better-sqlite3 for this Node).
      serverInstall = npmInstall(
        path.join(work, "server"),
        { dependencies: { "pulumi-workspaces-server": `file:${serverTarball.file}` } },
        process.env,
      );
      figures.serverInstall = serverInstall;
      const bin = path.join(work, "server", "node_modules", ".bin", "workspaces-server");
      const proc = spawn(bin, ["--port", "0", "--db", ":memory:", "--token", TOKEN], {
        stdio: ["ignore", "pipe", "pipe"],
      });
      server = proc;
      serverUrl = await new Promise<string>((resolve, reject) => {
        let out = "";
        proc.stdout.on("data", (d: Buffer) => {
          out += d.toString();
          const m = /workspaces-server listening on (\S+)\n/.exec(out);
          if (m) resolve(m[1]);
        });
        proc.on("exit", (code) => reject(new Error(`workspaces-server exited with ${String(code)}: ${out}`)));
      });
      // Building better-sqlite3 takes about two minutes on an idle 2-core machine, far longer under load.
    }, 1_800_000);

    afterAll(() => {
      server?.kill();
      console.log(`package figures: ${JSON.stringify(figures, null, 2)}`);
      fs.rmSync(work, { recursive: true, force: true });
    });

    it("packs the resources package without the server and the server package without the resources", () => {
      const listed = (t: Tarball) => run("tar", ["-tzf", t.file], work).split("\n");
      expect(listed(resources).some((f) => f.startsWith("package/dist/server/"))).toBe(false);
      const serverFiles = listed(serverTarball);
      expect(serverFiles).toContain("package/dist/server/cli.js");
      // The web view's page, bundled by the prepack: the installed server never runs esbuild.
      for (const page of ["index.html", "app.js", "app.css"])
        expect(serverFiles).toContain(`package/dist/server/web/page/${page}`);
      expect(serverFiles).toContain("package/LICENSE");
      expect(serverFiles.some((f) => f.startsWith("package/dist/resources/") || f.endsWith(".map"))).toBe(false);
      const policyFiles = listed(policies);
      expect(policyFiles).toEqual(
        expect.arrayContaining([
          "package/dist/index.js",
          "package/dist/rules/index.js",
          "package/dist/rules/index.d.ts",
          "package/LICENSE",
        ]),
      );
      expect(policyFiles.some((f) => f.includes("/test/"))).toBe(false);
    });

    it("installs the server package on this Node without an engine warning (EBADENGINE) from it or its dependencies", () => {
      // fastify's light-my-request 6.8 pulls cookie 2, which declares Node 22 or later; the
      // server package pins light-my-request ~6.6.0 (cookie 1), which fastify's ^6.0.0 shares.
      expect(serverInstall.badEngine).toEqual([]);
    });

    it("installs examples/variables from the packed tarball, its range admitting the version, and previews it", async () => {
      // The example as a user copies it: its own package.json, the package from the tarball.
      const example = path.join(root, "examples", "variables");
      const manifest = JSON.parse(fs.readFileSync(path.join(example, "package.json"), "utf8")) as {
        dependencies: Record<string, string>;
      };
      const range = manifest.dependencies["pulumi-workspaces"];
      const packed = JSON.parse(run("tar", ["-xzOf", resources.file, "package/package.json"], work)).version as string;
      // A release tree packs the release; a pre-release tree packs the release it leads to.
      expect(versions.admits(range, versions.releaseOf(packed)!), `${range} must admit ${packed}`).toBe(true);
      const dir = path.join(work, "variables-example");
      npmInstall(
        dir,
        { ...manifest, dependencies: { ...manifest.dependencies, "pulumi-workspaces": `file:${resources.file}` } },
        process.env,
      );
      for (const f of ["index.ts", "Pulumi.yaml", "tsconfig.json"])
        fs.copyFileSync(path.join(example, f), path.join(dir, f));
      if (versions.releaseOf(packed) === packed) {
        // npm's own judgement: with the example's range back, the installed release satisfies it.
        fs.writeFileSync(path.join(dir, "package.json"), JSON.stringify({ ...manifest, name: "variables-example" }));
        run("npm", ["ls", "pulumi-workspaces"], dir);
      }

      const project = await fetch(`${serverUrl}/organizations/example-org/projects`, {
        method: "POST",
        headers: { authorization: `Bearer ${TOKEN}`, "content-type": "application/vnd.api+json" },
        body: JSON.stringify({ data: { type: "projects", attributes: { name: "billing" } } }),
      });
      expect(project.status).toBe(201);
      const projectId = ((await project.json()) as { data: { id: string } }).data.id;
      const backendDir = path.join(dir, "state");
      fs.mkdirSync(backendDir, { recursive: true });
      const env = engine.engineEnv({
        bin: engineBin,
        home: path.join(dir, "pulumi-home"),
        backendDir,
        extra: {
          PATH: `${engineBin}${path.delimiter}${process.env.PATH}`,
          WORKSPACES_ADDRESS: serverUrl,
          WORKSPACES_TOKEN: TOKEN,
          WORKSPACES_ORGANIZATION: "example-org",
        },
      });
      const ok = async (args: string[]) => {
        const r = await engine.runPulumi(args, { cwd: dir, env });
        expect(r.code, r.output).toBe(0);
        return r;
      };
      await ok(["stack", "init", "dev", "--non-interactive"]);
      await ok(["config", "set", "project", projectId]);
      await ok(["config", "set", "awsAccessKeyId", "AKIAEXAMPLE"]);
      await ok(["config", "set", "--secret", "awsSecretAccessKey", "example-secret-key"]);
      const preview = await ok(["preview", "--non-interactive", "--json"]);
      const steps = (JSON.parse(preview.stdout) as { steps: { op: string; urn: string }[] }).steps;
      const created = steps.filter((x) => x.op === "create").map((x) => x.urn.split("::")[2].split("$").pop());
      expect(created.sort()).toEqual(
        expect.arrayContaining([
          "pulumi-nodejs:dynamic/workspaces:VariableSet",
          "pulumi-nodejs:dynamic/workspaces:VariableSetApplication",
          "pulumi-nodejs:dynamic/workspaces:WorkspaceVariables",
        ]),
      );
    }, 900_000);

    const pairs = [
      { label: "node20", nodeBin: () => path.dirname(process.execPath), sdk: () => OLDEST_SDK, major: 20 },
      {
        label: "node22",
        nodeBin: () => node22Bin(),
        sdk: () => run("npm", ["view", "@pulumi/pulumi", "version"], root).trim(),
        major: 22,
      },
    ];

    describe.each(pairs)("on $label", (pair) => {
      let env: NodeJS.ProcessEnv;
      let sdk: string;
      let programDir: string;
      let packDir: string;
      let stackEnv: NodeJS.ProcessEnv;

      beforeAll(() => {
        const nodeBin = pair.nodeBin();
        env = { ...process.env, PATH: `${nodeBin}${path.delimiter}${process.env.PATH}` };
        sdk = pair.sdk();
        const dir = path.join(work, pair.label);
        const baseline = npmInstall(path.join(dir, "baseline"), { dependencies: { "@pulumi/pulumi": sdk } }, env);
        programDir = path.join(dir, "program");
        const program = npmInstall(
          programDir,
          { main: "index.js", dependencies: { "@pulumi/pulumi": sdk, "pulumi-workspaces": `file:${resources.file}` } },
          env,
        );
        fs.writeFileSync(path.join(programDir, "index.js"), PROGRAM);
        fs.writeFileSync(path.join(programDir, "Pulumi.yaml"), "name: package-test\nruntime: nodejs\n");

        // The organisation's pack: examples/policy/policy-pack with the tarballs for the registry.
        const example = path.join(root, "examples", "policy", "policy-pack");
        const manifest = JSON.parse(fs.readFileSync(path.join(example, "package.json"), "utf8"));
        packDir = path.join(dir, "policy-pack");
        fs.mkdirSync(packDir, { recursive: true });
        for (const f of ["PulumiPolicy.yaml", "index.js"])
          fs.copyFileSync(path.join(example, f), path.join(packDir, f));
        const pack = npmInstall(
          packDir,
          {
            ...manifest,
            dependencies: {
              ...manifest.dependencies,
              "@pulumi/pulumi": sdk,
              "pulumi-workspaces-policies": `file:${policies.file}`,
              // What the policy package depends on, from its tarball instead of the registry.
              "pulumi-workspaces": `file:${resources.file}`,
            },
            // Also for the policy package's own range: a checkout between releases packs
            // `<next>-dev.N`, which that range of the next release does not admit.
            overrides: { "pulumi-workspaces": "$pulumi-workspaces" },
          },
          env,
        );
        fs.copyFileSync(
          path.join(root, "examples", "policy", "policy-config.json"),
          path.join(packDir, "policy-config.json"),
        );
        figures[pair.label] = {
          sdk,
          baseline,
          program,
          addedPackages: program.packages - baseline.packages,
          policyPack: pack,
        };

        const backendDir = path.join(dir, "state");
        fs.mkdirSync(backendDir, { recursive: true });
        stackEnv = engine.engineEnv({
          bin: engineBin,
          home: path.join(dir, "pulumi-home"),
          backendDir,
          extra: {
            PATH: `${engineBin}${path.delimiter}${env.PATH}`,
            WORKSPACES_ADDRESS: serverUrl,
            WORKSPACES_TOKEN: TOKEN,
            WORKSPACES_ORGANIZATION: "example-org",
          },
        });
      }, 900_000);

      it("installs at most 40 packages beyond @pulumi/pulumi, none with an install script, no server dependency, no engine warning", () => {
        const f = figures[pair.label] as {
          baseline: Install;
          program: Install;
          addedPackages: number;
          policyPack: Install;
        };
        expect([...f.program.badEngine, ...f.policyPack.badEngine]).toEqual([]);
        expect(f.addedPackages).toBeLessThanOrEqual(MAX_ADDED_PACKAGES);
        expect(f.program.scripts.filter((s) => !f.baseline.scripts.includes(s))).toEqual([]);
        for (const dep of ["fastify", "better-sqlite3"])
          expect(fs.existsSync(path.join(programDir, "node_modules", dep)), dep).toBe(false);
        expect(
          JSON.parse(
            fs.readFileSync(path.join(programDir, "node_modules", "@pulumi", "pulumi", "package.json"), "utf8"),
          ).version,
        ).toBe(sdk);
      });

      it("stops a name the organisation's pack forbids before it reaches the service", async () => {
        const name = `${pair.label}_Bad`;
        expect(
          (await engine.runPulumi(["stack", "init", "dev", "--non-interactive"], { cwd: programDir, env: stackEnv }))
            .code,
        ).toBe(0);
        expect(
          (await engine.runPulumi(["config", "set", "workspaceName", name], { cwd: programDir, env: stackEnv })).code,
        ).toBe(0);
        const r = await engine.runPulumi(
          [
            "preview",
            "--non-interactive",
            "--policy-pack",
            packDir,
            "--policy-pack-config",
            path.join(packDir, "policy-config.json"),
          ],
          {
            cwd: programDir,
            env: stackEnv,
          },
        );
        expect(r.code, r.output).not.toBe(0);
        expect(r.output).toMatch(/\[mandatory\]\s+workspace-name-pattern/);
        expect(r.output).toContain(name);
        const res = await fetch(`${serverUrl}/organizations/example-org/workspaces/${name}`, {
          headers: { authorization: `Bearer ${TOKEN}` },
        });
        expect(res.status).toBe(404);
      });

      it("installs the provider plugin as the bin pulumi-resource-workspaces, which serves its schema to the engine", async () => {
        const plugin = path.join(programDir, "node_modules", ".bin", "pulumi-resource-workspaces");
        const r = await engine.runPulumi(["package", "get-schema", plugin], { cwd: programDir, env: stackEnv });
        expect(r.code, r.output).toBe(0);
        const served = JSON.parse(r.stdout) as { name: string; resources: Record<string, unknown> };
        const committed = JSON.parse(fs.readFileSync(path.join(root, "src", "plugin", "schema.json"), "utf8"));
        expect(served).toEqual(committed);
      });

      it("deploys a compliant program through the engine with the pack, on this Node and SDK", async () => {
        const name = `billing-${pair.label}-dev`;
        expect(
          (await engine.runPulumi(["config", "set", "workspaceName", name], { cwd: programDir, env: stackEnv })).code,
        ).toBe(0);
        const r = await engine.runPulumi(
          [
            "up",
            "--yes",
            "--non-interactive",
            "--policy-pack",
            packDir,
            "--policy-pack-config",
            path.join(packDir, "policy-config.json"),
          ],
          {
            cwd: programDir,
            env: stackEnv,
          },
        );
        expect(r.code, r.output).toBe(0);
        const outputs = JSON.parse(
          (await engine.runPulumi(["stack", "output", "--json"], { cwd: programDir, env: stackEnv })).output,
        ) as { workspaceId: string; sdk: string; node: string };
        expect(outputs.sdk).toBe(sdk);
        expect(outputs.node).toMatch(new RegExp(`^v${pair.major}\\.`));
        const res = await fetch(`${serverUrl}/organizations/example-org/workspaces/${name}`, {
          headers: { authorization: `Bearer ${TOKEN}` },
        });
        expect(res.status).toBe(200);
        const body = (await res.json()) as { data: { id: string } };
        expect(body.data.id).toBe(outputs.workspaceId);
      });
    });
  },
);
