/**
 * Which state backend a stack lives in, found the way the engine's CLI finds it, so that
 * the origin of a record can name the stack beyond its project and stack names
 * (docs/interrupted-updates.md): the same stack in the same backend computes the same
 * value on every run and on every machine, a stack of the same names in another backend
 * another one.
 *
 * The CLI takes the first of: `PULUMI_BACKEND_URL`, the project's `backend.url` in
 * `Pulumi.yaml`, the `current` login of its credentials file (`PULUMI_CREDENTIALS_PATH`,
 * else `PULUMI_HOME`, else `~/.pulumi`), else the hosted Pulumi Cloud (`PULUMI_API`). The
 * address is then written in one form: a local directory (`file://`) as its absolute path
 * and the machine's name (a directory is a backend of one machine: `file://~` on two
 * machines is two backends), a bucket without its query (`?region=`, `?profile=` say how
 * to reach it, not which it is), Pulumi Cloud's two addresses as one.
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";

/** The hosted Pulumi Cloud, where the CLI logs in when nothing else is named. */
const PULUMI_CLOUD = "https://api.pulumi.com";

/** The `url` under the top-level `backend` key of a `Pulumi.yaml` (block style, as the CLI and users write it). */
export function projectBackendUrl(text: string): string | undefined {
  const lines = text.split(/\r?\n/);
  const at = lines.findIndex((l) => /^backend:\s*(#.*)?$/.test(l));
  if (at < 0) return undefined;
  for (const line of lines.slice(at + 1)) {
    if (/^\S/.test(line)) return undefined; // the next top-level key
    const m = /^\s+url:\s*(?:"([^"]*)"|'([^']*)'|([^\s#]+))/.exec(line);
    if (m) return m[1] ?? m[2] ?? m[3];
  }
  return undefined;
}

function readText(file: string): string | undefined {
  try {
    return fs.readFileSync(file, "utf8");
  } catch {
    return undefined;
  }
}

/** The backend address the CLI uses for a program whose `Pulumi.yaml` is in `rootDirectory`, as configured. */
function configuredUrl(rootDirectory: string, env: NodeJS.ProcessEnv, home: string): string {
  if (env.PULUMI_BACKEND_URL) return env.PULUMI_BACKEND_URL;
  for (const name of ["Pulumi.yaml", "Pulumi.yml"]) {
    const text = rootDirectory ? readText(path.join(rootDirectory, name)) : undefined;
    const url = text === undefined ? undefined : projectBackendUrl(text);
    if (url) return url;
  }
  const folder = env.PULUMI_CREDENTIALS_PATH || env.PULUMI_HOME || path.join(home, ".pulumi");
  try {
    const current = JSON.parse(readText(path.join(folder, "credentials.json")) ?? "{}").current;
    if (typeof current === "string" && current !== "") return current;
  } catch {
    // an unreadable credentials file: the CLI would have refused to run
  }
  return env.PULUMI_API || PULUMI_CLOUD;
}

/**
 * The state backend of the program whose `Pulumi.yaml` is in `rootDirectory`, in one
 * form per backend (see above); `cwd` resolves a relative `file://` path as the CLI does.
 */
export function stateBackend(
  rootDirectory: string,
  env: NodeJS.ProcessEnv = process.env,
  machine: { home: string; host: string; cwd: string } = {
    home: os.homedir(),
    host: os.hostname(),
    cwd: process.cwd(),
  },
): string {
  const url = configuredUrl(rootDirectory, env, machine.home).trim();
  if (url.startsWith("file://")) {
    let dir = url.slice("file://".length).split("?")[0];
    if (dir === "~" || dir.startsWith("~/")) dir = path.join(machine.home, dir.slice(1));
    return `file://${machine.host}${path.resolve(machine.cwd, dir)}`;
  }
  const bare = url.split("?")[0].replace(/\/+$/, "");
  const scheme = /^[a-z][a-z0-9+.-]*:\/\/[^/]*/i.exec(bare);
  const normal = scheme ? scheme[0].toLowerCase() + bare.slice(scheme[0].length) : bare;
  return normal === "https://app.pulumi.com" ? PULUMI_CLOUD : normal;
}

/**
 * The directory of the project whose program started in `dir`: the nearest one at or above
 * it holding a `Pulumi.yaml` (the engine starts a provider plugin in the program's
 * directory, which may be below the project's), else `dir` itself.
 */
export function projectDirectory(dir: string): string {
  for (let at = path.resolve(dir); ; at = path.dirname(at)) {
    if (["Pulumi.yaml", "Pulumi.yml"].some((name) => fs.existsSync(path.join(at, name)))) return at;
    if (path.dirname(at) === at) return path.resolve(dir);
  }
}

/** Whether the engine of this run records its state only at the end (`PULUMI_SKIP_CHECKPOINTS`, read as the CLI reads it). */
export function checkpointsSkipped(env: NodeJS.ProcessEnv = process.env): boolean {
  const v = env.PULUMI_SKIP_CHECKPOINTS ?? "";
  return v === "1" || v.toLowerCase() === "true";
}
