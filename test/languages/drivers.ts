/**
 * One stack of the languages suite in YAML, Go or Python, run through the real engine with
 * the plugin installed from its tarball into the stack's own PULUMI_HOME (nothing of it on
 * PATH). YAML runs on its language host through the CLI; Go and Python run on their SDK's
 * own runtime as Automation API inline programs (test/languages/go, test/languages/python),
 * which take an action and the step's values and print the result as JSON. Every language
 * answers the same `StepResult`, so that one module asserts on all three.
 */
import { execFileSync, spawn } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import type { RunningServer } from "../../src/server";
import { repoRoot, TestStack, type StateResource } from "../e2e/harness";
import { sdkAsk } from "../e2e/plugin-install-release";
import { description, yamlProgram, type Values } from "./stack";

/** A stack of the suite: its project and stack names, the program the Go and Python binaries run (`LANGUAGES_PROGRAM`), and its YAML program. */
export interface StackKind<V extends ProgramImports> {
  project: string;
  stack: string;
  program: "stack" | "organization";
  yaml: (v: V) => string;
}

/** What every stack's values hold: the records the import step takes over. */
export interface ProgramImports {
  imports: { type: string; resource: string; id: string }[];
}

/** The stack of stack.json. */
const STACK: StackKind<Values> = {
  project: description.project,
  stack: description.stack,
  program: "stack",
  yaml: yamlProgram,
};

export type Language = "yaml" | "go" | "python";
type Action = "up" | "preview" | "refresh" | "refresh-drift" | "import" | "destroy";

export interface StepResult {
  ok: boolean;
  /** What the program or the CLI printed, for assertion messages. */
  output: string;
  /** Resources by operation: the preview's plan, or the update's summary. */
  changes: Record<string, number>;
  /** A preview's planned steps. */
  steps: { op: string; urn: string }[];
  outputs: Record<string, any>;
}

/** What `scripts/test-languages --prepare` makes ready: the plugin tarball, the Go program, the Python venv. */
type Prepared = Record<"LANGUAGES_PLUGIN_TARBALL" | "LANGUAGES_GO_PROGRAM" | "LANGUAGES_PYTHON", string>;
const KEYS = ["LANGUAGES_PLUGIN_TARBALL", "LANGUAGES_GO_PROGRAM", "LANGUAGES_PYTHON"] as const;

let prepared: Prepared | undefined;
/** From the environment (`npm run test:languages` sets it), else from running the preparation once. */
export function prepare(): Prepared {
  if (prepared) return prepared;
  let found: Record<string, string | undefined> = process.env;
  if (!KEYS.every((k) => found[k])) {
    const out = execFileSync("bash", [path.join(repoRoot, "scripts", "test-languages"), "--prepare"], {
      encoding: "utf8",
      stdio: ["ignore", "pipe", "inherit"],
    });
    found = Object.fromEntries(
      out
        .trim()
        .split("\n")
        .map((l) => [l.slice(0, l.indexOf("=")), l.slice(l.indexOf("=") + 1)]),
    );
  }
  const missing = KEYS.filter((k) => !found[k]);
  if (missing.length) throw new Error(`scripts/test-languages --prepare did not give ${missing.join(", ")}`);
  prepared = Object.fromEntries(KEYS.map((k) => [k, found[k]!])) as Prepared;
  return prepared;
}

const { version } = JSON.parse(fs.readFileSync(path.join(repoRoot, "package.json"), "utf8")) as {
  version: string;
};

export class LanguageStack<V extends ProgramImports = Values> {
  private constructor(
    readonly language: Language,
    readonly stack: TestStack,
    private readonly kind: StackKind<V>,
  ) {}

  /** A stack with its provider configured through stack config (the token as a secret). */
  static async create<V extends ProgramImports = Values>(
    language: Language,
    server: RunningServer,
    kind: StackKind<V> = STACK as unknown as StackKind<V>,
  ): Promise<LanguageStack<V>> {
    const ready = prepare();
    const stack = await TestStack.create({
      project: kind.project,
      stack: kind.stack,
      files: {},
      yaml: "resources: {}\n",
      pluginOnPath: false,
      config: { "workspaces:address": server.url, "workspaces:organization": server.organization },
      secretConfig: { "workspaces:token": server.token },
    });
    const install = await stack.pulumi([
      "plugin",
      "install",
      "resource",
      "workspaces",
      version,
      "--file",
      ready.LANGUAGES_PLUGIN_TARBALL,
    ]);
    if (install.code !== 0) throw new Error(`pulumi plugin install exited ${install.code}:\n${install.output}`);
    if (language !== "yaml") {
      fs.writeFileSync(path.join(stack.dir, "Pulumi.yaml"), `name: ${kind.project}\nruntime: ${language}\n`);
    }
    return new LanguageStack(language, stack, kind);
  }

  up(v: V): Promise<StepResult> {
    return this.run("up", v);
  }

  preview(v: V): Promise<StepResult> {
    return this.run("preview", v);
  }

  /** A refresh that fails on any drift (`--expect-no-changes`). */
  refresh(v: V): Promise<StepResult> {
    return this.run("refresh", v);
  }

  /** A refresh that reports drift (in `changes`) rather than failing on it. */
  refreshDrift(v: V): Promise<StepResult> {
    return this.run("refresh-drift", v);
  }

  /**
   * Takes over the records of `v.imports`: YAML with `pulumi import` (no generated code,
   * unprotected); Go and Python with an up that declares them with the `import` resource
   * option, since `pulumi import` asks the project's language host for the program's plugins
   * and an inline program has none.
   */
  import(v: V): Promise<StepResult> {
    return this.run("import", v);
  }

  destroy(v: V): Promise<StepResult> {
    return this.run("destroy", v);
  }

  /**
   * The stack's default providers as the engine recorded them: the name it gives one after the
   * plugin's version, and the version and download address the SDK asked for, which it found
   * installed in the stack's PULUMI_HOME; and `pulumi plugin ls` there (workspaces only).
   */
  async providersUsed(): Promise<{
    providers: { name?: string; version: unknown; downloadURL?: string }[];
    installed: string[];
  }> {
    const { resources } = await this.exported();
    const providers = resources
      .filter((x) => x.type === "pulumi:providers:workspaces")
      .map((p) => ({
        name: p.urn
          .split("::")
          .pop()
          ?.replace(/_(?:https?|github)_.*$/, ""),
        version: p.inputs?.version,
        downloadURL: (p.inputs?.__internal as { pluginDownloadURL?: string } | undefined)?.pluginDownloadURL,
      }));
    const listed = JSON.parse((await this.stack.ok(["plugin", "ls", "--json"])).stdout) as {
      name: string;
      kind: string;
      version: string;
    }[];
    const installed = listed.filter((p) => p.name === "workspaces").map((p) => `${p.kind} ${p.version}`);
    return { providers, installed };
  }

  /**
   * What `providersUsed` must answer: the plugin installed once, at package.json's version; the
   * SDK's provider named after that version, with its release address. A YAML program has no
   * SDK: the engine takes the newest plugin installed, by no version.
   */
  expectedProviders(): Awaited<ReturnType<LanguageStack["providersUsed"]>> {
    const ask = this.language === "yaml" ? undefined : sdkAsk();
    return {
      providers: [
        ask
          ? { name: `default_${version.replace(/[.-]/g, "_")}`, version, downloadURL: ask.server }
          : { name: "default", version: undefined, downloadURL: undefined },
      ],
      installed: [`resource ${version}`],
    };
  }

  /** The checkpoint as `pulumi stack export` prints it (secrets encrypted). */
  async exported(): Promise<{ text: string; resources: StateResource[] }> {
    const r = await this.stack.ok(["stack", "export"]);
    return { text: r.stdout, resources: JSON.parse(r.stdout).deployment?.resources ?? [] };
  }

  dispose(): void {
    this.stack.dispose();
  }

  private run(action: Action, v: V): Promise<StepResult> {
    return this.language === "yaml"
      ? this.runYaml(action, v)
      : runProgram(this.language, this.stack, action, v, this.kind.program);
  }

  private importFile(v: V): string {
    const file = path.join(this.stack.root, "import.json");
    const resources = v.imports.map((i) => ({ type: i.type, name: i.resource, id: i.id }));
    fs.writeFileSync(file, JSON.stringify({ resources }));
    return file;
  }

  private async runYaml(action: Action, v: V): Promise<StepResult> {
    const s = this.stack;
    s.writeYaml(this.kind.yaml(v));
    const none = { changes: {}, steps: [], outputs: {} };
    if (action === "preview") {
      const p = await s.previewJson();
      return { ...none, ok: p.code === 0, output: p.raw.output, changes: p.changeSummary, steps: p.steps };
    }
    const args: Record<Exclude<Action, "preview">, string[]> = {
      up: ["up", "--yes", "--skip-preview"],
      refresh: ["refresh", "--yes", "--skip-preview", "--expect-no-changes"],
      "refresh-drift": ["refresh", "--yes", "--skip-preview"],
      // More than one resource at once: from a file (the positional form takes one).
      import: ["import", "--yes", "--protect=false", "--generate-code=false", "--file", this.importFile(v)],
      destroy: ["destroy", "--yes", "--skip-preview"],
    };
    const r = await s.pulumi([...args[action], "--non-interactive"]);
    if (r.code !== 0) return { ...none, ok: false, output: r.output };
    // The summary of the update just made, as the Automation API reads it.
    const history = JSON.parse((await s.ok(["stack", "history", "--json"])).stdout) as {
      resourceChanges?: Record<string, number>;
    }[];
    const outputs = JSON.parse((await s.ok(["stack", "output", "--json", "--show-secrets"])).stdout);
    return { ok: true, output: r.output, changes: history[0]?.resourceChanges ?? {}, steps: [], outputs };
  }
}

/**
 * The values a Go or Python program reads: the workspaces and the lookups at least; without
 * `module`, the program declares nothing else.
 */
export type ProgramValues = Pick<Values, "workspaces" | "lookups" | "imports"> & Partial<Values>;

/**
 * Runs the Go or Python program's `action` with the values `v` on `stack`, in the stack's
 * environment (`stack.env`: the engine's PATH, PULUMI_HOME, backend and passphrase); `program`
 * says which stack the values describe.
 */
export async function runProgram(
  language: Exclude<Language, "yaml">,
  stack: TestStack,
  action: Action,
  v: ProgramValues | ProgramImports,
  program: StackKind<never>["program"] = "stack",
): Promise<StepResult> {
  const ready = prepare();
  const values = path.join(stack.root, `values-${action}.json`);
  fs.writeFileSync(values, JSON.stringify(v, null, 2));
  const [cmd, args] =
    language === "go"
      ? [ready.LANGUAGES_GO_PROGRAM, [action]]
      : [ready.LANGUAGES_PYTHON, [path.join(__dirname, "python", "languages.py"), action]];
  const r = await spawnProgram(cmd, args, {
    ...stack.env,
    LANGUAGES_DIR: stack.dir,
    LANGUAGES_STACK: stack.stack,
    LANGUAGES_PROJECT: stack.project,
    LANGUAGES_VALUES: values,
    LANGUAGES_PROGRAM: program,
  });
  const line = r.stdout
    .trim()
    .split("\n")
    .reverse()
    .find((l) => l.startsWith("{"));
  const parsed = line ? (JSON.parse(line) as Partial<StepResult> & { error?: string }) : { error: "no result" };
  return {
    ok: r.code === 0 && !parsed.error,
    output: `${parsed.error ?? ""}\n${r.stdout}\n${r.stderr}`,
    changes: parsed.changes ?? {},
    steps: parsed.steps ?? [],
    outputs: parsed.outputs ?? {},
  };
}

function spawnProgram(
  cmd: string,
  args: string[],
  env: NodeJS.ProcessEnv,
): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, { env, stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d) => (stdout += d));
    child.stderr.on("data", (d) => (stderr += d));
    child.on("error", reject);
    child.on("close", (code) => resolve({ code: code ?? -1, stdout, stderr }));
  });
}
