/**
 * The generator: reads an existing organization through the client and writes a Pulumi
 * program (TypeScript) that adopts it. `pulumi-workspaces generate` is its command line.
 *
 * @module pulumi-workspaces/generate
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { WorkspacesClient } from "../client";
import { readOrganization } from "./read";
import { renderProgram, type Generated } from "./render";
import { DRIVER_FILE, renderSplit, type SplitGenerated } from "./split";
import { generatorSettings } from "./stack-settings";

export { readOrganization, type OrganizationSnapshot, type ReadOptions } from "./read";
export {
  renderProgram,
  type Generated,
  type ImportEntry,
  type NotCarried,
  type SecretKey,
  type TokensNotDeclared,
} from "./render";
export type { Counts } from "./declarations";
export { mermaidOf, orgMapOf, readOrgMap, textMapOf, type MapSource, type OrgMap } from "./map";
export {
  ORGANIZATION_STACK,
  PROJECT_CONFIG_KEY,
  renderSplit,
  type SplitGenerated,
  type SplitOptions,
  type SplitStack,
} from "./split";

/** What {@link generate} reads and where it writes the program. */
export interface GenerateOptions {
  /**
   * Organization to read; default the settings' organization (the stack's
   * `workspaces:organization`, then `WORKSPACES_ORGANIZATION`, then `TFE_ORGANIZATION`).
   */
  organization?: string;
  /** Only the workspaces of this project (`prj-...`). */
  projectId?: string;
  /**
   * Where to write the program; the README goes beside it. Default `index.ts` in the working
   * directory. For {@link generateSplit}: the folder, default the working directory.
   */
  out?: string;
  /**
   * Also write the resources as a bulk import file for `pulumi import -f` (the provider
   * plugin's type tokens, for programs in YAML, Python, Go or C#).
   */
  importFile?: string;
  /** Replace files that exist. Default false: an existing file stops the generator before it reads anything. */
  force?: boolean;
  /**
   * A client to use instead of one built from the settings. Without it the settings are found
   * as the resources find them: the `workspaces:*` keys of the selected stack of the Pulumi
   * project in {@link GenerateOptions.projectDir} (read from its files), then `WORKSPACES_*`,
   * `TFE_*` and the engine CLI's credentials file; a progress line says where each came from.
   */
  client?: WorkspacesClient;
  /** Folder whose Pulumi project (`Pulumi.yaml`, here or above) and selected stack give the settings; default the working directory. */
  projectDir?: string;
  /** The stack whose `Pulumi.<stack>.yaml` gives the settings, instead of the selected one. */
  stack?: string;
  /** Progress lines. Default: none. */
  progress?: (line: string) => void;
}

/** What {@link generate} wrote: the program and README text, the secrets left to set, the paths and what the reads cost. */
export interface GenerateResult extends Generated {
  /** Absolute path of the program written. */
  programPath: string;
  /** Absolute path of the README written beside it. */
  readmePath: string;
  /** Absolute path of the bulk import file, when one was asked for. */
  importPath?: string;
  /** Absolute paths of the files written beside the program that it refers to: each policy's code. */
  filePaths: string[];
  /** Requests the reads took. */
  requests: number;
  /** Time from the first read to the files written, in milliseconds. */
  elapsedMs: number;
}

/** A mistake in the generator's options (a file in the way, no organization); its message says what to change. */
export class GenerateError extends Error {
  /** @param message what to change, shown to the user as is */
  constructor(message: string) {
    super(message);
    this.name = "GenerateError";
  }
}

/**
 * Reads an organization (or one project) through the client and writes a Pulumi program
 * that adopts its workspaces, tags, consumers, no-code modules, variables, variable sets,
 * projects, teams, team access, run triggers, notification configurations, agent pools
 * with their lists and agent tokens, policies (each one's code written in a file under
 * `policies/` beside the program), policy sets with their parameters and lists, memberships,
 * teams' people, and team and organization tokens (adopted without their secrets), with a
 * README beside it that lists the secrets to set before `pulumi up`.
 */
export async function generate(options: GenerateOptions = {}): Promise<GenerateResult> {
  const programPath = path.resolve(options.out ?? "index.ts");
  const readmePath = path.join(path.dirname(programPath), "README.md");
  const importPath = options.importFile === undefined ? undefined : path.resolve(options.importFile);
  const inTheWay = (paths: string[]) => {
    if (options.force) return;
    const found = paths.find((p) => fs.existsSync(p));
    if (found) throw new GenerateError(`${found} exists; choose another --out, or pass --force to replace it`);
  };
  inTheWay([programPath, readmePath, ...(importPath ? [importPath] : [])]);
  const { snapshot, requests, started } = await read(options);
  const generated = renderProgram(snapshot);
  const files = Object.entries(generated.files).map(([file, text]) => [
    path.join(path.dirname(programPath), file),
    text,
  ]);
  inTheWay(files.map(([p]) => p));
  fs.mkdirSync(path.dirname(programPath), { recursive: true });
  fs.writeFileSync(programPath, generated.program);
  fs.writeFileSync(readmePath, generated.readme);
  for (const [p, text] of files) {
    fs.mkdirSync(path.dirname(p), { recursive: true });
    fs.writeFileSync(p, text);
  }
  if (importPath) {
    fs.mkdirSync(path.dirname(importPath), { recursive: true });
    fs.writeFileSync(importPath, `${JSON.stringify({ resources: generated.imports }, null, 2)}\n`);
  }
  return {
    ...generated,
    programPath,
    readmePath,
    importPath,
    filePaths: files.map(([p]) => p),
    requests: requests(),
    elapsedMs: Date.now() - started,
  };
}

/** Reads what `options` names, with a client from the settings unless one is given. */
async function read(options: GenerateOptions) {
  let client = options.client;
  if (!client) {
    const found = generatorSettings({
      dir: options.projectDir,
      stack: options.stack,
      organization: options.organization,
    });
    options.progress?.(found.line);
    client = new WorkspacesClient({ settings: found.settings });
  }
  const organization = options.organization ?? client.organization;
  if (!organization) {
    throw new GenerateError(
      "no organization: pass --organization, or run `pulumi config set workspaces:organization NAME` in the program's folder, " +
        "or set WORKSPACES_ORGANIZATION",
    );
  }
  const started = Date.now();
  const before = client.stats.requests;
  const snapshot = await readOrganization(client, {
    organization,
    projectId: options.projectId,
    progress: options.progress,
  });
  return { snapshot, started, requests: () => client.stats.requests - before };
}

/** What {@link generateSplit} wrote. */
export interface SplitResult extends SplitGenerated {
  /** Absolute path of the folder. */
  dir: string;
  /** Files written, relative to the folder (a `Pulumi.<stack>.yaml` that existed is kept, not listed). */
  written: string[];
  /** The `Pulumi.<stack>.yaml` files that existed and were kept as they are (they may hold secrets set since). */
  kept: string[];
  /** Requests the reads took. */
  requests: number;
  /** Time from the first read to the files written, in milliseconds. */
  elapsedMs: number;
}

/** The driver's source as the package ships it (src/ is part of the package). */
function driverSource(): string {
  return fs.readFileSync(path.resolve(__dirname, "..", "..", "src", "generate", "templates", DRIVER_FILE), "utf8");
}

/** The version range of this package a generated program depends on. */
function packageRange(): string {
  const pkg = JSON.parse(fs.readFileSync(path.resolve(__dirname, "..", "..", "package.json"), "utf8")) as {
    version: string;
  };
  return `^${pkg.version}`;
}

/**
 * Reads an organization and writes one Pulumi program whose stacks each own one project's
 * workspaces (`pulumi-workspaces generate --split-by project`), into the folder `out`
 * (default: the working directory): `index.ts`, `stacks/<stack>.ts`, `Pulumi.yaml`, a
 * `Pulumi.<stack>.yaml` per stack (config `pulumi-workspaces:project`), a driver that runs
 * every stack on the Automation API (`run-stacks.js`), a CI workflow with a matrix over the
 * stacks and a README. No-code modules go to stack `organization`.
 */
export async function generateSplit(options: GenerateOptions = {}): Promise<SplitResult> {
  if (options.projectId !== undefined) {
    throw new GenerateError(
      "--split-by project writes every project of the organization; --project limits generate to one (choose one of the two)",
    );
  }
  if (options.importFile !== undefined) {
    throw new GenerateError(
      "--import-file writes one stack's bulk import file; with --split-by project each stack adopts its records with adopt: true " +
        "(for pulumi import -f in another language, generate without --split-by)",
    );
  }
  const dir = path.resolve(options.out ?? ".");
  if (fs.existsSync(dir) && !fs.statSync(dir).isDirectory()) {
    throw new GenerateError(`${dir} is a file; with --split-by project, --out names a folder`);
  }
  const fixed = ["index.ts", "README.md", "Pulumi.yaml", "package.json", DRIVER_FILE];
  if (!options.force) {
    for (const f of fixed) {
      const p = path.join(dir, f);
      if (fs.existsSync(p)) throw new GenerateError(`${p} exists; choose another --out, or pass --force to replace it`);
    }
  }
  const { snapshot, requests, started } = await read(options);
  const generated = renderSplit(snapshot, { packageRange: packageRange() });
  const files: Record<string, string> = { ...generated.files, [DRIVER_FILE]: driverSource() };
  const isStackConfig = (file: string) => /^Pulumi\.[^/]+\.yaml$/.test(file);
  const kept = Object.keys(files).filter((f) => isStackConfig(f) && fs.existsSync(path.join(dir, f)));
  const written = Object.keys(files).filter((f) => !kept.includes(f));
  if (!options.force) {
    const inTheWay = written.map((f) => path.join(dir, f)).find((p) => fs.existsSync(p));
    if (inTheWay) throw new GenerateError(`${inTheWay} exists; choose another --out, or pass --force to replace it`);
  }
  for (const file of written) {
    const p = path.join(dir, file);
    fs.mkdirSync(path.dirname(p), { recursive: true });
    fs.writeFileSync(p, files[file], file === DRIVER_FILE ? { mode: 0o755 } : {});
  }
  return { ...generated, dir, written, kept, requests: requests(), elapsedMs: Date.now() - started };
}
