/**
 * Where the generator finds the service: the same settings the resources read, in the same
 * order. First the `workspaces:*` keys of the current Pulumi project's selected stack, then
 * `WORKSPACES_*`, then `TFE_*` and (for the token) the engine CLI's credentials file.
 *
 * The stack's keys are read from its files, as the engine would hand them to the providers:
 * `Pulumi.yaml` (found from the working directory upwards, its `config` block and its
 * `stackConfigDir`), the stack the engine's CLI has selected for that project (recorded in
 * `$PULUMI_HOME/workspaces/<project>-<sha1 of Pulumi.yaml's path>-workspace.json`, or named
 * by `--stack`) and its `Pulumi.<stack>.yaml`. Reading the files works without a network and
 * without the CLI: `pulumi config` would need a login to the stack's backend (the network,
 * for Pulumi Cloud). A value kept as a secret (`pulumi config set --secret`) is ciphertext
 * that only the stack's secrets provider opens, so the generator leaves it and takes the
 * token from the environment or the credentials file; it says so when nothing else has one.
 */
import { createHash } from "node:crypto";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { parse } from "yaml";
import { resolveSettings, SettingsError, type Settings } from "../client";
import { CONFIG_KEYS } from "../resources/provider-settings";

type Key = keyof typeof CONFIG_KEYS;

/** The `workspaces:*` keys a project's selected stack sets, and where they were found. */
interface StackConfig {
  /** The project file, when one was found. */
  projectFile?: string;
  /** The stack whose file was read. */
  stack?: string;
  /** Each key's value and the file (relative to the project) it came from. */
  values: Partial<Record<Key, { value: string; file: string }>>;
  /** Keys set as secrets (ciphertext), with the file holding each. */
  encrypted: Partial<Record<Key, string>>;
  /** Why no stack file was read, for the settings line. */
  missing?: string;
}

/** Where to look for the project and which stack to read. */
interface StackLookup {
  /** Folder to search from for `Pulumi.yaml` (upwards); default the working directory. */
  dir?: string;
  /** Stack to read instead of the selected one. */
  stack?: string;
  /** Environment (`PULUMI_HOME`, `WORKSPACES_*`, `TFE_*`); default `process.env`. */
  env?: Record<string, string | undefined>;
  /** Home directory (`~/.pulumi`, the credentials file); default the user's. */
  homeDir?: string;
}

function readYaml(file: string): Record<string, unknown> | undefined {
  let text: string;
  try {
    text = fs.readFileSync(file, "utf8");
  } catch {
    return undefined;
  }
  try {
    const doc: unknown = parse(text);
    return doc && typeof doc === "object" ? (doc as Record<string, unknown>) : {};
  } catch (err) {
    throw new SettingsError(`${file} is not valid YAML: ${(err as Error).message.split("\n")[0]}`);
  }
}

function findProject(from: string): string | undefined {
  for (let dir = path.resolve(from); ; dir = path.dirname(dir)) {
    for (const name of ["Pulumi.yaml", "Pulumi.yml"]) {
      if (fs.existsSync(path.join(dir, name))) return path.join(dir, name);
    }
    if (path.dirname(dir) === dir) return undefined;
  }
}

/** The stack the engine's CLI has selected for the project (`pulumi stack select`, `stack init`). */
function selectedStack(projectFile: string, project: string, pulumiHome: string): string | undefined {
  const paths = new Set([projectFile]);
  try {
    paths.add(fs.realpathSync(projectFile));
  } catch {
    // the path as given
  }
  for (const p of paths) {
    const digest = createHash("sha1").update(p).digest("hex");
    const file = path.join(pulumiHome, "workspaces", `${project}-${digest}-workspace.json`);
    try {
      const stack = (JSON.parse(fs.readFileSync(file, "utf8")) as { stack?: unknown }).stack;
      // The backend's full name (organization/project/stack) ends with the stack's own name.
      if (typeof stack === "string" && stack !== "") return stack.split("/").pop();
    } catch {
      // not selected through this path
    }
  }
  return undefined;
}

/** A config entry's value: a scalar, or the project file's `{ value }` / `{ default }` forms. */
function entryOf(raw: unknown): { value: string } | { secure: true } | undefined {
  if (typeof raw === "string" || typeof raw === "number" || typeof raw === "boolean") {
    const value = String(raw).trim();
    return value === "" ? undefined : { value };
  }
  if (raw && typeof raw === "object") {
    const o = raw as Record<string, unknown>;
    if ("secure" in o) return { secure: true };
    if ("value" in o) return entryOf(o.value);
    if ("default" in o) return entryOf(o.default);
  }
  return undefined;
}

/** The `workspaces:*` keys of the project's selected stack (or of `lookup.stack`), read from its files. */
function readStackConfig(lookup: StackLookup = {}): StackConfig {
  const env = lookup.env ?? process.env;
  const projectFile = findProject(lookup.dir ?? process.cwd());
  if (!projectFile) {
    if (lookup.stack !== undefined) throw new SettingsError(`--stack ${lookup.stack}: no Pulumi.yaml here or above`);
    return { values: {}, encrypted: {}, missing: "no Pulumi.yaml here or above" };
  }
  const projectDir = path.dirname(projectFile);
  const project = readYaml(projectFile) ?? {};
  const out: StackConfig = { projectFile, values: {}, encrypted: {} };
  const take = (config: unknown, file: string) => {
    if (!config || typeof config !== "object") return;
    for (const key of Object.keys(CONFIG_KEYS) as Key[]) {
      const entry = entryOf((config as Record<string, unknown>)[CONFIG_KEYS[key]]);
      if (!entry) continue;
      if ("secure" in entry) {
        out.encrypted[key] = file;
        delete out.values[key];
      } else {
        out.values[key] = { value: entry.value, file };
        delete out.encrypted[key];
      }
    }
  };
  take(project.config, path.basename(projectFile));

  const pulumiHome = env.PULUMI_HOME || path.join(lookup.homeDir ?? os.homedir(), ".pulumi");
  const stack =
    lookup.stack ?? selectedStack(projectFile, typeof project.name === "string" ? project.name : "", pulumiHome);
  if (!stack) return { ...out, missing: "no stack selected (pulumi stack select)" };
  out.stack = stack;
  const configDir =
    typeof project.stackConfigDir === "string" ? path.join(projectDir, project.stackConfigDir) : projectDir;
  const stackFile = path.join(configDir, `Pulumi.${stack}.yaml`);
  const stackDoc = readYaml(stackFile);
  if (!stackDoc) {
    if (lookup.stack !== undefined) throw new SettingsError(`--stack ${stack}: ${stackFile} does not exist`);
    return { ...out, missing: `stack ${stack} has no ${path.relative(projectDir, stackFile)}` };
  }
  take(stackDoc.config, path.relative(projectDir, stackFile));
  return out;
}

/** Names of the environment variables each setting may come from, in order. */
const ENV_NAMES: Record<Key, [string, string]> = {
  address: ["WORKSPACES_ADDRESS", "TFE_HOSTNAME"],
  token: ["WORKSPACES_TOKEN", "TFE_TOKEN"],
  organization: ["WORKSPACES_ORGANIZATION", "TFE_ORGANIZATION"],
};

/**
 * Resolves the generator's settings (stack config, `WORKSPACES_*`, `TFE_*`, the credentials
 * file) and one line saying where each came from; the token's value never appears in it.
 * `organization`, when given (`--organization`), comes before all of them.
 */
export function generatorSettings(lookup: StackLookup & { organization?: string }): {
  settings: Settings;
  line: string;
  config: StackConfig;
} {
  const env = lookup.env ?? process.env;
  const config = readStackConfig(lookup);
  const fromStack = (key: Key) => config.values[key]?.value;
  let settings: Settings;
  try {
    settings = resolveSettings({
      address: fromStack("address"),
      token: fromStack("token"),
      organization: lookup.organization ?? fromStack("organization"),
      env,
      homeDir: lookup.homeDir,
    });
  } catch (err) {
    if (err instanceof SettingsError) throw new SettingsError(missingMessage(err, config));
    throw err;
  }
  const from = (key: Key): string => {
    const source = key === "organization" ? settings.sources.organization : settings.sources[key];
    if (source === "options") {
      if (key === "organization" && lookup.organization !== undefined) return "--organization";
      return config.values[key]?.file ?? "stack config";
    }
    if (source === "WORKSPACES_*") return ENV_NAMES[key][0];
    if (source === "TFE_*") return ENV_NAMES[key][1];
    return settings.tokenFile ?? "the credentials file";
  };
  const parts = [
    `address ${settings.baseUrl} from ${from("address")}`,
    settings.organization === undefined
      ? "no organization"
      : `organization ${settings.organization} from ${from("organization")}`,
    `token from ${from("token")}`,
  ];
  const skipped = config.encrypted.token && settings.sources.token !== "options" ? " (the stack's is a secret)" : "";
  const none = config.missing ? `; ${config.missing}` : "";
  return { settings, line: `settings: ${parts.join(", ")}${skipped}${none}`, config };
}

/** The client's "no address" or "no token" message, said in terms of the stack and this command. */
function missingMessage(err: SettingsError, config: StackConfig): string {
  const where = config.stack
    ? `stack ${config.stack} sets no workspaces:address`
    : (config.missing ?? "no stack config was read");
  if (err.message.startsWith("no service address")) {
    return (
      `no service address (${where}): run \`pulumi config set workspaces:address HOST\` in the program's folder, ` +
      `or set WORKSPACES_ADDRESS (or TFE_HOSTNAME)`
    );
  }
  if (err.message.startsWith("no API token")) {
    const host = /^no API token for (\S+):/.exec(err.message)?.[1] ?? "the service";
    const secret = config.encrypted.token
      ? `workspaces:token in ${config.encrypted.token} is a secret, which only the engine decrypts; `
      : "";
    return (
      `no API token for ${host}: ${secret}set WORKSPACES_TOKEN (or TFE_TOKEN) for this command, ` +
      `or log in with the engine's CLI for its credentials file`
    );
  }
  return err.message;
}
