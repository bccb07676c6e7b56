/**
 * The plugin's release as the engine meets it: the archives scripts/plugin/pack.js builds,
 * served from a loopback HTTP server at the paths of a GitHub release's downloads; the release
 * address the SDKs name (`pluginDownloadURL`, the engine's `github://` scheme), which
 * `PULUMI_PLUGIN_DOWNLOAD_URL_OVERRIDES` maps to that server; a fresh PULUMI_HOME; and a PATH with the engine alone (no `node`, no plugin), so that the
 * engine must download and start the self-contained executable itself.
 *
 * `autoInstall(archives, env, extraPath, program)` runs any program that way: YAML through the
 * CLI (test/e2e/plugin-install.test.ts), and the Python Automation API inline program of
 * test/languages/python, which drives the engine with the environment it is handed
 * (test/languages/plugin-download.test.ts).
 */
import { execFileSync } from "node:child_process";
import * as fs from "node:fs";
import * as http from "node:http";
import type { AddressInfo } from "node:net";
import * as path from "node:path";
import { repoRoot } from "./harness";

// eslint-disable-next-line @typescript-eslint/no-require-imports
const engine = require("../../scripts/lib/engine.js") as {
  ensureEngine(): string;
  runPulumi(
    args: string[],
    o: { cwd: string; env: NodeJS.ProcessEnv },
  ): Promise<{ code: number; stdout: string; output: string }>;
};

/** What the SDKs ask the engine for: their pulumi-plugin.json (Python's; Go's is checked equal by test/plugin/versions.test.ts). */
export interface PluginAsk {
  name: string;
  version: string;
  server: string;
}

export function sdkAsk(): PluginAsk {
  const file = path.join(repoRoot, "sdk", "python", "pulumi_workspaces", "pulumi-plugin.json");
  return JSON.parse(fs.readFileSync(file, "utf8")) as PluginAsk;
}

/** Builds this machine's archive (and the checksums) into `out`; the archive's path. */
export function packHostArchive(out: string): string {
  const printed = execFileSync(process.execPath, [path.join(repoRoot, "scripts", "plugin", "pack.js"), out], {
    encoding: "utf8",
    stdio: ["ignore", "pipe", "pipe"],
  });
  return printed.trim();
}

/** One request the release server answered. */
interface Served {
  path: string;
  status: number;
}

/** Serves the files of `dir` under `/releases/download/v<version>/<file>` on 127.0.0.1. */
async function startReleaseServer(dir: string): Promise<{ base: string; served: Served[]; close(): Promise<void> }> {
  const served: Served[] = [];
  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? "/", "http://release");
    const m = /^\/releases\/download\/v[^/]+\/([^/]+)$/.exec(url.pathname);
    const file = m && path.join(dir, decodeURIComponent(m[1]));
    const found = file !== null && path.dirname(file) === dir && fs.existsSync(file);
    served.push({ path: url.pathname, status: found ? 200 : 404 });
    if (!found) {
      res.writeHead(404).end("not found");
      return;
    }
    res.writeHead(200, { "content-type": "application/gzip", "content-length": fs.statSync(file).size });
    fs.createReadStream(file).pipe(res);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    base: `http://127.0.0.1:${port}/releases/download/`,
    served,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

/**
 * The override that sends the SDK's release address (`github://api.github.com/<owner>/<name>`)
 * to `base`: the engine matches the regexp against the whole address and downloads from the URL
 * instead, filling in `${VERSION}` (the engine's own placeholder; the override's regexp names no
 * group of that name).
 */
function downloadOverride(ask: PluginAsk, base: string): string {
  return `^${ask.server.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}$=${base}v\${VERSION}/`;
}

/** Executables in the folders of `PATH` that the engine must not find there. */
function forbiddenOnPath(env: NodeJS.ProcessEnv): string[] {
  const names = ["node", "node.exe", "pulumi-resource-workspaces", "pulumi-resource-workspaces.exe"];
  return (env.PATH ?? "")
    .split(path.delimiter)
    .flatMap((dir) => names.map((n) => path.join(dir, n)))
    .filter((f) => fs.existsSync(f));
}

/** A plugin as `pulumi plugin ls --json` lists it. */
interface ListedPlugin {
  name: string;
  kind: string;
  version: string;
}

export interface AutoInstalled {
  /** What the release server answered, in order. */
  served: Served[];
  /** `pulumi plugin ls --json` in the program's PULUMI_HOME afterwards. */
  plugins: ListedPlugin[];
  /** The installed executable, as the engine laid it out under PULUMI_HOME. */
  executable: string;
}

/**
 * Runs `program` with the engine environment `env` (whose PULUMI_HOME must be fresh) made
 * offline-installing: the archives in `archives` served on loopback, the SDK's release
 * address overridden to them, automatic plugin acquisition on, and PATH reduced to the
 * engine's folder plus `extraPath` (the YAML language host, say).
 */
export async function autoInstall(
  archives: string,
  env: NodeJS.ProcessEnv,
  extraPath: string[],
  program: (env: NodeJS.ProcessEnv) => Promise<void>,
): Promise<AutoInstalled> {
  const home = env.PULUMI_HOME;
  if (!home || (fs.existsSync(path.join(home, "plugins")) && fs.readdirSync(path.join(home, "plugins")).length > 0)) {
    throw new Error(`autoInstall needs a fresh PULUMI_HOME, got ${home}`);
  }
  const ask = sdkAsk();
  const release = await startReleaseServer(archives);
  try {
    const offline: NodeJS.ProcessEnv = {
      ...env,
      PATH: [engine.ensureEngine(), ...extraPath].join(path.delimiter),
      PULUMI_PLUGIN_DOWNLOAD_URL_OVERRIDES: downloadOverride(ask, release.base),
    };
    delete offline.PULUMI_DISABLE_AUTOMATIC_PLUGIN_ACQUISITION;
    const forbidden = forbiddenOnPath(offline);
    if (forbidden.length) throw new Error(`the engine's PATH holds ${forbidden.join(", ")}`);
    await program(offline);
    const ls = await engine.runPulumi(["plugin", "ls", "--json"], { cwd: home, env: offline });
    if (ls.code !== 0) throw new Error(`pulumi plugin ls exited ${ls.code}:\n${ls.output}`);
    const plugins = JSON.parse(ls.stdout) as ListedPlugin[];
    const exe = process.platform === "win32" ? "pulumi-resource-workspaces.exe" : "pulumi-resource-workspaces";
    const executable = path.join(home, "plugins", `resource-${ask.name}-v${ask.version}`, exe);
    return { served: release.served, plugins, executable };
  } finally {
    await release.close();
  }
}
