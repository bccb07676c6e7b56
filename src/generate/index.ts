/**
 * The generator: reads an existing organization through the client and writes a Pulumi
 * program (TypeScript) that adopts it. `pulumi-workspaces generate` is its command line.
 *
 * @module pulumi-workspaces/generate
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { WorkspacesClient } from "../client";
import { currentSettings } from "../resources/provider-settings";
import { readOrganization } from "./read";
import { renderProgram, type Generated } from "./render";

export { readOrganization, type OrganizationSnapshot, type ReadOptions } from "./read";
export { renderProgram, type Generated, type ImportEntry, type NotCarried, type SecretKey } from "./render";

/** What {@link generate} reads and where it writes the program. */
export interface GenerateOptions {
  /** Organization to read; default the settings' organization (`WORKSPACES_ORGANIZATION`, ...). */
  organization?: string;
  /** Only the workspaces of this project (`prj-...`). */
  projectId?: string;
  /** Where to write the program; the README goes beside it. Default `index.ts` in the working directory. */
  out?: string;
  /**
   * Also write the resources as a bulk import file for `pulumi import -f` (the provider
   * plugin's type tokens, for programs in YAML, Python, Go or C#).
   */
  importFile?: string;
  /** Replace files that exist. Default false: an existing file stops the generator before it reads anything. */
  force?: boolean;
  /** A client to use instead of one built from the settings (address and token as the resources find them). */
  client?: WorkspacesClient;
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
 * that adopts its workspaces, tags, consumers and no-code modules, with a README beside it
 * that lists the secrets to set before `pulumi up`.
 */
export async function generate(options: GenerateOptions = {}): Promise<GenerateResult> {
  const programPath = path.resolve(options.out ?? "index.ts");
  const readmePath = path.join(path.dirname(programPath), "README.md");
  const importPath = options.importFile === undefined ? undefined : path.resolve(options.importFile);
  if (!options.force) {
    for (const p of [programPath, readmePath, ...(importPath ? [importPath] : [])]) {
      if (fs.existsSync(p)) throw new GenerateError(`${p} exists; choose another --out, or pass --force to replace it`);
    }
  }
  const client = options.client ?? new WorkspacesClient({ settings: currentSettings() });
  const organization = options.organization ?? client.organization;
  if (!organization) {
    throw new GenerateError("no organization: pass --organization, or set WORKSPACES_ORGANIZATION");
  }
  const started = Date.now();
  const before = client.stats.requests;
  const snapshot = await readOrganization(client, {
    organization,
    projectId: options.projectId,
    progress: options.progress,
  });
  const generated = renderProgram(snapshot);
  fs.mkdirSync(path.dirname(programPath), { recursive: true });
  fs.writeFileSync(programPath, generated.program);
  fs.writeFileSync(readmePath, generated.readme);
  if (importPath) {
    fs.mkdirSync(path.dirname(importPath), { recursive: true });
    fs.writeFileSync(importPath, `${JSON.stringify({ resources: generated.imports }, null, 2)}\n`);
  }
  return {
    ...generated,
    programPath,
    readmePath,
    importPath,
    requests: client.stats.requests - before,
    elapsedMs: Date.now() - started,
  };
}
