/**
 * The generator: reads an existing organization through the client and writes a Pulumi
 * program (TypeScript) that adopts it. `pulumi-workspaces generate` is its command line.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { WorkspacesClient } from "../client";
import { currentSettings } from "../resources/settings";
import { readOrganization } from "./read";
import { renderProgram, type Generated } from "./render";

export { readOrganization, type OrganizationSnapshot, type ReadOptions } from "./read";
export { renderProgram, type Generated, type NotCarried, type SecretKey } from "./render";

export interface GenerateOptions {
  /** Organization to read; default the settings' organization (`WORKSPACES_ORGANIZATION`, ...). */
  organization?: string;
  /** Only the workspaces of this project (`prj-...`). */
  projectId?: string;
  /** Where to write the program; the README goes beside it. Default `index.ts` in the working directory. */
  out?: string;
  /** Replace files that exist. Default false: an existing file stops the generator before it reads anything. */
  force?: boolean;
  /** A client to use instead of one built from the settings (address and token as the resources find them). */
  client?: WorkspacesClient;
  /** Progress lines. Default: none. */
  progress?: (line: string) => void;
}

export interface GenerateResult extends Generated {
  programPath: string;
  readmePath: string;
  /** Requests the reads took. */
  requests: number;
  elapsedMs: number;
}

export class GenerateError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "GenerateError";
  }
}

export async function generate(options: GenerateOptions = {}): Promise<GenerateResult> {
  const programPath = path.resolve(options.out ?? "index.ts");
  const readmePath = path.join(path.dirname(programPath), "README.md");
  if (!options.force) {
    for (const p of [programPath, readmePath]) {
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
  const snapshot = await readOrganization(client, { organization, projectId: options.projectId, progress: options.progress });
  const generated = renderProgram(snapshot);
  fs.mkdirSync(path.dirname(programPath), { recursive: true });
  fs.writeFileSync(programPath, generated.program);
  fs.writeFileSync(readmePath, generated.readme);
  return { ...generated, programPath, readmePath, requests: client.stats.requests - before, elapsedMs: Date.now() - started };
}
