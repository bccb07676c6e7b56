/**
 * Chromium for the browser tests: Debian's package driven by playwright-core, nothing
 * downloaded at test time. The executable is `WORKSPACES_CHROMIUM`, else `/usr/bin/chromium`
 * (`apt-get install -y --no-install-recommends chromium`). Without it a test is skipped on
 * a developer's machine and fails in CI (`CI` set), where nothing may be skipped.
 *
 * Also here: the demo served in the background (`scripts/demo.js --serve`) and a recorder of
 * every request a page makes and every response body it receives.
 */
import { spawn, type ChildProcess } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import { chromium, type Browser, type BrowserContext, type Response } from "playwright-core";
import { repoRoot } from "./harness";

/** The Chromium this machine offers, or undefined with the reason. */
export function chromiumExecutable(): { path?: string; missing?: string } {
  const given = process.env.WORKSPACES_CHROMIUM;
  const candidate = given || "/usr/bin/chromium";
  if (fs.existsSync(candidate)) return { path: candidate };
  return {
    missing: given
      ? `WORKSPACES_CHROMIUM names ${given}, which does not exist`
      : "no Chromium at /usr/bin/chromium: install Debian's (apt-get install -y --no-install-recommends chromium) or set WORKSPACES_CHROMIUM to a Chromium executable",
  };
}

/** Whether a missing browser fails the run instead of skipping it: always in CI. */
export const browserRequired = Boolean(process.env.CI);

export async function launchChromium(executablePath: string): Promise<Browser> {
  // --no-sandbox: CI runs as root, where Chromium's sandbox refuses to start.
  return chromium.launch({ executablePath, args: ["--no-sandbox"] });
}

export interface Recorded {
  /** Every request a page of the context made (URL and method), in order. */
  requests: { url: string; method: string }[];
  /** Every response body the context received, as text. */
  bodies: { url: string; status: number; body: string }[];
}

/**
 * Records every request and response body of `context` (each of its pages). `settle()`
 * waits until every body has been read, so that a test asserts on all of them.
 */
export function recordTraffic(context: BrowserContext): Recorded & { settle(): Promise<void> } {
  const recorded: Recorded = { requests: [], bodies: [] };
  const pending: Promise<void>[] = [];
  context.on("request", (r) => recorded.requests.push({ url: r.url(), method: r.method() }));
  context.on("response", (r: Response) => {
    pending.push(
      r.body().then(
        (b) => void recorded.bodies.push({ url: r.url(), status: r.status(), body: b.toString("utf8") }),
        // A redirect or a response the page dropped has no body to read.
        () => void recorded.bodies.push({ url: r.url(), status: r.status(), body: "" }),
      ),
    );
  });
  return {
    ...recorded,
    async settle() {
      for (let n = -1; n !== pending.length;) {
        n = pending.length;
        await Promise.all(pending);
      }
    },
  };
}

/**
 * The requests whose URL is not the server at `origin` (`http://127.0.0.1:<port>`, or the
 * same port on `localhost`): what the page sent anywhere else.
 */
export function offServer(requests: { url: string }[], origin: string): string[] {
  const { port } = new URL(origin);
  return requests
    .map((r) => r.url)
    .filter((u) => {
      const url = new URL(u);
      return !(url.protocol === "http:" && ["127.0.0.1", "localhost"].includes(url.hostname) && url.port === port);
    });
}

/** How long the demo may take to deploy and print the view's address. */
const READY_MS = 600_000;

export interface ServedDemo {
  /** The view's one-time sign-in address the demo printed. */
  viewUrl: string;
  /** `http://127.0.0.1:<port>` of the demo's server. */
  origin: string;
  organization: string;
  /** What the demo printed so far. */
  output(): string;
  /** SIGINT, then the demo's exit code and whole output. */
  stop(): Promise<{ code: number | null; signal: NodeJS.Signals | null; output: string }>;
}

/**
 * `node scripts/demo.js --serve` with `env`: resolves once it prints the view's address,
 * rejects with its output if it exits first.
 */
export function serveDemo(env: Record<string, string>): Promise<ServedDemo> {
  const child: ChildProcess = spawn(process.execPath, [path.join(repoRoot, "scripts", "demo.js"), "--serve"], {
    cwd: repoRoot,
    env: { ...process.env, ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.on("exit", (code, signal) => resolve({ code, signal })),
  );
  return new Promise((resolve, reject) => {
    const onData = (d: Buffer) => {
      output += d.toString("utf8");
      const view = /^(?:\[demo\] )?view\s+(http:\/\/127\.0\.0\.1:\d+\/app\/#code=\S+)/m.exec(output);
      const org = /organization (\S+)\)/.exec(output);
      if (!view || !org) return;
      clearTimeout(late);
      const viewUrl = view[1];
      resolve({
        viewUrl,
        origin: new URL(viewUrl).origin,
        organization: org[1],
        output: () => output,
        async stop() {
          if (child.exitCode === null && child.signalCode === null) child.kill("SIGINT");
          const end = await exited;
          return { ...end, output };
        },
      });
    };
    child.stdout!.on("data", onData);
    child.stderr!.on("data", onData);
    child.on("error", reject);
    void exited.then(({ code, signal }) =>
      reject(
        new Error(`the demo ended (code ${code}, signal ${signal}) before printing the view's address:\n${output}`),
      ),
    );
    // Well past the demo's own minute or two, and within the suite's hook timeout, with what it printed.
    const late = setTimeout(() => {
      child.kill("SIGINT");
      reject(new Error(`the demo printed no view address in ${READY_MS / 1000} s:\n${output}`));
    }, READY_MS);
    void exited.then(() => clearTimeout(late));
  });
}
