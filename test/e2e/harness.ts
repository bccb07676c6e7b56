/**
 * End-to-end harness: the real Pulumi CLI, a file backend in a temporary
 * directory, and the real local server over loopback.
 *
 * Programs consume this package the way a user's program does after
 * `npm install <path to this repository>`: `node_modules/pulumi-workspaces` is a
 * symlink to the repository (so its `dist/` must be built: `npm run test:e2e`
 * does that first).
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { startServer, type RunningServer, type ServerOptions } from "../../src/server";

// Plain CommonJS shared with the demo and the benchmark.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const engine = require("../../scripts/lib/engine.js") as {
  repoRoot: string;
  ensureEngine(): string;
  ensureYamlHost(): string;
  pluginLauncher(dir: string): string;
  engineEnv(o: {
    bin: string;
    home: string;
    backendDir: string;
    passphrase?: string;
    extra?: Record<string, string>;
  }): NodeJS.ProcessEnv;
  linkPackage(dir: string): void;
  tempDir(prefix: string): string;
  runPulumi(args: string[], o: { cwd: string; env: NodeJS.ProcessEnv; timeoutMs?: number }): Promise<PulumiResult>;
  stateFile(backendDir: string, project: string, stack: string): string;
};

export const repoRoot = engine.repoRoot;
const PASSPHRASE = "e2e-passphrase-not-a-secret";

export interface PulumiResult {
  code: number;
  stdout: string;
  stderr: string;
  output: string;
}

/** A diagnostic as the engine's event log records it. */
export interface DiagnosticEvent {
  urn?: string;
  message: string;
  severity: string;
  ephemeral?: boolean;
}

export interface StateResource {
  urn: string;
  type: string;
  id?: string;
  custom?: boolean;
  inputs?: Record<string, unknown>;
  outputs?: Record<string, unknown>;
  protect?: boolean;
  parent?: string;
}

/** Fails early with a clear message instead of a confusing module-not-found inside the engine. */
export function requireBuiltPackage(): void {
  const entry = path.join(repoRoot, "dist", "resources", "entry.js");
  if (!fs.existsSync(entry)) {
    throw new Error(`${entry} is missing: build the package first (npm run build), or run npm run test:e2e`);
  }
}

/** The real server on an ephemeral loopback port with an in-memory database. */
export function startTestServer(options: Partial<ServerOptions> = {}): Promise<RunningServer> {
  return startServer({ port: 0, db: ":memory:", ...options });
}

/** Settings a program's providers read from the environment to reach `server`. */
export function serverEnv(server: RunningServer): Record<string, string> {
  return {
    WORKSPACES_ADDRESS: server.url,
    WORKSPACES_TOKEN: server.token,
    WORKSPACES_ORGANIZATION: server.organization,
  };
}

/** Tries of one request the rate limit refused, 250 ms apart: ten seconds, ten of its windows. */
const THROTTLED_TRIES = 40;

/**
 * GET (or other method) on the server's API with its owners token; returns the parsed body.
 * A 429 is waited out (the limiter refuses before any handler runs, so a retry is safe): the
 * tests' own checks ask faster than the rate limit allows while the engine is busy too.
 */
export async function api<T = any>(
  server: RunningServer,
  pathAndQuery: string,
  init: { method?: string; body?: unknown; token?: string } = {},
): Promise<{ status: number; body: T }> {
  for (let i = 1; ; i++) {
    const res = await fetch(`${server.url}${pathAndQuery}`, {
      method: init.method ?? "GET",
      headers: {
        authorization: `Bearer ${init.token ?? server.token}`,
        "content-type": "application/vnd.api+json",
        accept: "application/vnd.api+json",
      },
      body: init.body === undefined ? undefined : JSON.stringify(init.body),
    });
    const text = await res.text();
    if (res.status !== 429 || i >= THROTTLED_TRIES) {
      return { status: res.status, body: (text ? JSON.parse(text) : undefined) as T };
    }
    await new Promise((r) => setTimeout(r, 250));
  }
}

export interface StackOptions {
  /** Project name in Pulumi.yaml. */
  project?: string;
  stack?: string;
  /** Program files relative to the program directory; `index.ts` is the entry point. */
  files: Record<string, string>;
  /**
   * A YAML program instead of `files` (Pulumi.yaml without its `name` and `runtime` lines), run by the
   * YAML language host with the provider plugin of this checkout on PATH.
   */
  yaml?: string;
  /**
   * With `yaml`: whether this checkout's plugin is put on PATH (the default). Without it,
   * the engine uses a plugin installed into the stack's PULUMI_HOME (`pulumi plugin install`).
   */
  pluginOnPath?: boolean;
  /** Extra environment for every CLI run (e.g. serverEnv(server)). */
  env?: Record<string, string>;
  /** Plain stack config set before the first run. */
  config?: Record<string, string>;
  /** Secret stack config set before the first run. */
  secretConfig?: Record<string, string>;
}

/** One Pulumi project and stack in a temporary directory. */
export class TestStack {
  private constructor(
    readonly root: string,
    readonly dir: string,
    readonly backendDir: string,
    readonly project: string,
    readonly stack: string,
    public env: NodeJS.ProcessEnv,
  ) {}

  static async create(options: StackOptions): Promise<TestStack> {
    requireBuiltPackage();
    const bin = engine.ensureEngine();
    const root = engine.tempDir("pw-e2e-");
    const dir = path.join(root, "program");
    const backendDir = path.join(root, "backend");
    const home = path.join(root, "pulumi-home");
    for (const d of [dir, backendDir, home]) fs.mkdirSync(d, { recursive: true });
    const project = options.project ?? "e2e";
    const stack = options.stack ?? "dev";
    const env = engine.engineEnv({ bin, home, backendDir, passphrase: PASSPHRASE, extra: options.env ?? {} });
    // Programs run transpile-only: the compiler's check is not what these tests test and it
    // costs seconds of CPU per command. The unit suite type-checks what users compile: the
    // examples and the docs' snippets (test/docs/snippets.test.ts), the generated programs
    // (test/generate).
    env.PULUMI_NODEJS_TRANSPILE_ONLY ??= "true";
    const s = new TestStack(root, dir, backendDir, project, stack, env);
    if (options.yaml !== undefined) {
      // The engine's directory stays first (runPulumi starts the pulumi found there).
      const plugins = options.pluginOnPath === false ? [] : [engine.pluginLauncher(path.join(root, "plugins"))];
      env.PATH = [bin, ...plugins, engine.ensureYamlHost(), env.PATH].join(path.delimiter);
      s.writeYaml(options.yaml);
      return s.init(options);
    }
    fs.writeFileSync(
      path.join(dir, "Pulumi.yaml"),
      `name: ${project}\nruntime:\n  name: nodejs\n  options:\n    typescript: true\n`,
    );
    fs.writeFileSync(
      path.join(dir, "package.json"),
      JSON.stringify({ name: project, private: true, main: "index.ts" }, null, 2),
    );
    fs.writeFileSync(
      path.join(dir, "tsconfig.json"),
      JSON.stringify(
        {
          compilerOptions: {
            strict: true,
            target: "ES2022",
            module: "commonjs",
            moduleResolution: "node",
            types: ["node"],
          },
        },
        null,
        2,
      ),
    );
    engine.linkPackage(dir);
    s.writeFiles(options.files);
    return s.init(options);
  }

  /** Creates the stack and sets its config. */
  private async init(options: StackOptions): Promise<TestStack> {
    await this.ok(["stack", "init", this.stack, "--non-interactive"]);
    for (const [k, v] of Object.entries(options.config ?? {})) await this.ok(["config", "set", k, v]);
    for (const [k, v] of Object.entries(options.secretConfig ?? {})) await this.ok(["config", "set", "--secret", k, v]);
    return this;
  }

  /** Replaces the YAML program (Pulumi.yaml after its `name` and `runtime` lines). */
  writeYaml(program: string): void {
    fs.writeFileSync(path.join(this.dir, "Pulumi.yaml"), `name: ${this.project}\nruntime: yaml\n${program}`);
  }

  writeFiles(files: Record<string, string>): void {
    for (const [name, text] of Object.entries(files)) {
      const p = path.join(this.dir, name);
      fs.mkdirSync(path.dirname(p), { recursive: true });
      fs.writeFileSync(p, text);
    }
  }

  /** Runs the CLI in the program directory. */
  pulumi(args: string[], extraEnv: Record<string, string> = {}): Promise<PulumiResult> {
    return engine.runPulumi(args, { cwd: this.dir, env: { ...this.env, ...extraEnv } });
  }

  /** Runs the CLI and fails with its output when it exits non-zero. */
  async ok(args: string[], extraEnv: Record<string, string> = {}): Promise<PulumiResult> {
    const r = await this.pulumi(args, extraEnv);
    if (r.code !== 0) throw new Error(`pulumi ${args.join(" ")} exited ${r.code}:\n${r.output}`);
    return r;
  }

  up(args: string[] = []): Promise<PulumiResult> {
    return this.pulumi(["up", "--yes", "--non-interactive", "--skip-preview", ...args]);
  }

  /**
   * `up --json`: the engine's events, one JSON object a line, so that a test can count
   * the diagnostics a failure produced, and see ephemeral status messages, exactly.
   * (The progress display repeats a resource's last message on every row update.)
   */
  async upWithEvents(args: string[] = []): Promise<PulumiResult & { diagnostics: DiagnosticEvent[] }> {
    const r = await this.pulumi(["up", "--yes", "--non-interactive", "--skip-preview", "--json", ...args]);
    const events: any[] = [];
    for (const line of r.stdout.split("\n")) {
      if (!line.startsWith("{")) continue;
      try {
        events.push(JSON.parse(line));
      } catch {
        // a multi-line object: parsed below
      }
    }
    if (events.length === 0 && r.stdout.trim().startsWith("{")) {
      for (const chunk of r.stdout.split(/\n(?=\{)/)) {
        try {
          events.push(JSON.parse(chunk));
        } catch {
          // not an event
        }
      }
    }
    const diagnostics = events.map((e) => e.diagnosticEvent).filter((d): d is DiagnosticEvent => Boolean(d));
    return { ...r, diagnostics };
  }

  refresh(args: string[] = []): Promise<PulumiResult> {
    return this.pulumi(["refresh", "--yes", "--non-interactive", "--skip-preview", ...args]);
  }

  destroy(args: string[] = []): Promise<PulumiResult> {
    return this.pulumi(["destroy", "--yes", "--non-interactive", "--skip-preview", ...args]);
  }

  /** `pulumi preview --json`: the planned steps and the change summary. */
  async previewJson(args: string[] = []): Promise<{
    code: number;
    steps: Array<{ op: string; urn: string }>;
    changeSummary: Record<string, number>;
    raw: PulumiResult;
  }> {
    const r = await this.pulumi(["preview", "--json", "--non-interactive", ...args]);
    let parsed: any = {};
    try {
      parsed = JSON.parse(r.stdout);
    } catch {
      if (r.code === 0) throw new Error(`preview --json printed no JSON:\n${r.output}`);
    }
    return { code: r.code, steps: parsed.steps ?? [], changeSummary: parsed.changeSummary ?? {}, raw: r };
  }

  /**
   * `pulumi preview --expect-no-changes`: throws, naming each step, when the program plans
   * anything but `same` (a create, update, delete or replace alike) or the preview fails;
   * the preview otherwise.
   */
  async expectNoChanges(args: string[] = []): Promise<Awaited<ReturnType<TestStack["previewJson"]>>> {
    const p = await this.previewJson(["--expect-no-changes", ...args]);
    const changed = p.steps.filter((s) => s.op !== "same").map((s) => `${s.op} ${s.urn.split("::").pop()}`);
    if (p.code !== 0 || changed.length > 0)
      throw new Error(
        `expected no change, but the preview ${p.code === 0 ? "" : `exited with ${p.code} and `}planned ${changed.join(", ") || "nothing"}:\n${p.raw.output.slice(-4000)}`,
      );
    return p;
  }

  /**
   * Each of `secrets` is in the checkpoint only encrypted: absent from `pulumi stack export`
   * and there with `--show-secrets`, so that its absence is not a value dropped.
   */
  async expectEncryptedOnly(secrets: string[]): Promise<void> {
    const exported = (await this.ok(["stack", "export"])).stdout;
    const shown = (await this.ok(["stack", "export", "--show-secrets"])).stdout;
    for (const secret of secrets) {
      if (exported.includes(secret)) throw new Error(`${secret} is in plain text in the exported checkpoint`);
      if (!shown.includes(secret))
        throw new Error(`${secret} is not in the checkpoint at all: the program's value was dropped, not encrypted`);
    }
  }

  statePath(): string {
    return engine.stateFile(this.backendDir, this.project, this.stack);
  }

  /** The raw text of the latest checkpoint (for "no secret in plain text" checks). */
  stateText(): string {
    return fs.readFileSync(this.statePath(), "utf8");
  }

  /** Resources of the latest checkpoint, optionally only those whose type ends with `typeSuffix`. */
  resources(typeSuffix?: string): StateResource[] {
    const all = (JSON.parse(this.stateText()).checkpoint?.latest?.resources ?? []) as StateResource[];
    return typeSuffix ? all.filter((r) => r.type.endsWith(typeSuffix)) : all;
  }

  /** Stack outputs, secrets revealed. */
  async outputs(): Promise<Record<string, any>> {
    const r = await this.ok(["stack", "output", "--json", "--show-secrets"]);
    return JSON.parse(r.stdout);
  }

  dispose(): void {
    killStrays(this.root);
    fs.rmSync(this.root, { recursive: true, force: true });
  }
}

/**
 * The engine starts its plugins (the language host, the dynamic provider) in process groups
 * of their own, so a SIGKILL to the CLI's group (test/e2e/interrupt.ts) leaves them running,
 * idle, with their requests in flight still served. Whatever still works in a stack's
 * folder when the stack is disposed is killed (Linux: /proc), so no test leaves processes
 * behind it.
 */
function killStrays(dir: string): void {
  if (!fs.existsSync("/proc/self/cwd")) return;
  const root = fs.realpathSync(dir);
  for (const pid of fs.readdirSync("/proc").filter((p) => /^\d+$/.test(p))) {
    if (Number(pid) === process.pid) continue;
    try {
      const cwd = fs.readlinkSync(`/proc/${pid}/cwd`);
      if (cwd === root || cwd.startsWith(root + path.sep)) process.kill(Number(pid), "SIGKILL");
    } catch {
      // gone already, or not ours to read
    }
  }
}
