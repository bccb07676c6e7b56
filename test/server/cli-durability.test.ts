import { execFileSync, spawn, type ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import { existsSync, mkdtempSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Api } from "./helpers";
import { createFromModule, enableModule, publishModule } from "./no-code-support";

/**
 * The CLI as users start it, in a child process: its one output line, SIGTERM, and a
 * kill -9 that must lose nothing the server acknowledged.
 */
const root = resolve(__dirname, "../..");
// Inside node_modules so the compiled files resolve the package's dependencies.
const outDir = join(root, "node_modules/.cache/workspaces-server-test");
let dir: string;

beforeAll(() => {
  execFileSync(
    process.execPath,
    [
      join(root, "node_modules/typescript/bin/tsc"),
      "-p",
      join(root, "tsconfig.json"),
      "--outDir",
      outDir,
      "--declaration",
      "false",
      "--sourceMap",
      "false",
    ],
    {
      cwd: root,
      stdio: "pipe",
    },
  );
  dir = mkdtempSync(join(tmpdir(), "ws-server-"));
}, 120_000);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const exits = new WeakMap<ChildProcess, Promise<number | null>>();

function launch(
  args: string[],
  env: Record<string, string> = {},
): Promise<{ child: ChildProcess; url: string; stdout: () => string; stderr: () => string }> {
  const child = spawn(process.execPath, [join(outDir, "server/cli.js"), ...args], {
    stdio: ["ignore", "pipe", "pipe"],
    env: { ...process.env, ...env },
  });
  exits.set(child, new Promise((r) => child.on("exit", (code) => r(code))));
  let out = "";
  let err = "";
  child.stderr.on("data", (c) => (err += c));
  return new Promise((resolvePromise, reject) => {
    child.stdout.on("data", (c) => {
      out += c;
      const m = /^workspaces-server listening on (http:\/\/\S+\/api\/v2)\n/.exec(out);
      if (m) resolvePromise({ child, url: m[1], stdout: () => out, stderr: () => err });
    });
    child.on("exit", (code) => reject(new Error(`server exited with ${code}: ${err}`)));
  });
}

const exited = (child: ChildProcess) => exits.get(child)!;

/** The exit status and stderr of a CLI run that is expected to stop on its own. */
function run(args: string[], env: Record<string, string> = {}): { status: number; stderr: string } {
  try {
    execFileSync(process.execPath, [join(outDir, "server/cli.js"), ...args], {
      stdio: "pipe",
      env: { ...process.env, ...env },
    });
    return { status: 0, stderr: "" };
  } catch (err) {
    const e = err as { status: number; stderr: Buffer };
    return { status: e.status, stderr: String(e.stderr) };
  }
}

const exitStatus = (args: string[]) => run(args).status;

async function stop(child: ChildProcess): Promise<void> {
  const done = exited(child);
  child.kill("SIGTERM");
  await done;
}

describe("workspaces-server CLI", () => {
  it("prints exactly one line, honours --token and --organization, and exits 0 on SIGTERM", async () => {
    const s = await launch([
      "--port",
      "0",
      "--db",
      ":memory:",
      "--token",
      "cli-token-123",
      "--organization",
      "cli-org",
      "--rate-limit",
      "0",
    ]);
    const api = new Api(s.url, "cli-token-123");
    const org = await api.get(`/organizations/cli-org`);
    expect(org.status).toBe(200);
    expect(s.stdout().split("\n").filter(Boolean)).toHaveLength(1);
    expect(s.stderr()).not.toContain("cli-token-123");
    const done = exited(s.child);
    s.child.kill("SIGTERM");
    expect(await done).toBe(0);
  });

  it("generates and prints a token when none is given", async () => {
    const s = await launch(["--port", "0", "--db", ":memory:"]);
    const m = /owners token (\S+)/.exec(s.stderr());
    expect(m).not.toBeNull();
    expect((await new Api(s.url, m![1]).get(`/organizations/example-org`)).status).toBe(200);
    s.child.kill("SIGTERM");
    await exited(s.child);
  });

  it("stores remote notification destinations with --store-remote-notifications or its environment variable, and refuses them without", async () => {
    const attempt = async (args: string[], env: Record<string, string> = {}) => {
      const s = await launch(["--port", "0", "--db", ":memory:", "--token", "cli-token-nc", ...args], env);
      try {
        const api = new Api(s.url, "cli-token-nc");
        const ws = await api.post(`/organizations/example-org/workspaces`, {
          data: { type: "workspaces", attributes: { name: "hooks" } },
        });
        const created = await api.post(`/workspaces/${ws.body.data.id}/notification-configurations`, {
          data: {
            type: "notification-configurations",
            attributes: { name: "n", "destination-type": "slack", enabled: true, url: "https://hooks.example.com/x" },
          },
        });
        return created.status;
      } finally {
        await stop(s.child);
      }
    };
    expect(await attempt(["--store-remote-notifications"])).toBe(201);
    expect(await attempt([], { WORKSPACES_SERVER_STORE_REMOTE_NOTIFICATIONS: "1" })).toBe(201);
    expect(await attempt([], { WORKSPACES_SERVER_STORE_REMOTE_NOTIFICATIONS: "" })).toBe(422);
  });

  it("serves the web view with --web-view or WORKSPACES_WEB_VIEW=1, printing its sign-in address once on stderr", async () => {
    const signIn = async (args: string[], env: Record<string, string> = {}) => {
      const s = await launch(["--port", "0", "--db", ":memory:", "--token", "cli-token-view", ...args], env);
      try {
        const origin = s.url.replace(/\/api\/v2$/, "");
        // The address follows the listening line; give stderr a moment to carry it.
        for (let i = 0; i < 50 && !/sign in: /.test(s.stderr()); i++) await new Promise((r) => setTimeout(r, 20));
        const lines = s.stderr().match(/^workspaces-server: web view, open once to sign in: (\S+)$/gm) ?? [];
        const page = await fetch(`${origin}/app/`);
        if (lines.length === 0) return { lines, page: page.status, session: 0 };
        const address = new URL(String(lines[0]).split("sign in: ")[1] ?? "");
        expect(address.origin).toBe(origin);
        const code = new URLSearchParams(address.hash.slice(1)).get("code");
        const session = await fetch(`${origin}/app/session`, {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify({ code }),
        });
        expect(s.stdout().split("\n").filter(Boolean)).toHaveLength(1);
        return { lines, page: page.status, session: session.status };
      } finally {
        await stop(s.child);
      }
    };
    expect(await signIn(["--web-view"])).toMatchObject({ page: 200, session: 204, lines: [expect.any(String)] });
    expect(await signIn([], { WORKSPACES_WEB_VIEW: "1" })).toMatchObject({ page: 200, session: 204 });
    expect(await signIn([])).toEqual({ lines: [], page: 404, session: 0 });
  });

  it("refuses bad arguments with a usage message", () => {
    expect(exitStatus(["--port", "nope"])).toBe(2);
  });

  it("takes the owners token from --token-file or WORKSPACES_SERVER_TOKEN and the key from --encryption-key-file or WORKSPACES_SERVER_ENCRYPTION_KEY, showing neither", async () => {
    const tokenFile = join(dir, "owners.token");
    writeFileSync(tokenFile, "file-token-1\n", { mode: 0o600 });
    const key = randomBytes(32).toString("hex");
    const keyFile = join(dir, "given.key");
    writeFileSync(keyFile, key, { mode: 0o600 });
    const fromFile = await launch([
      "--port",
      "0",
      "--db",
      join(dir, "a.db"),
      "--token-file",
      tokenFile,
      "--encryption-key-file",
      keyFile,
    ]);
    expect((await new Api(fromFile.url, "file-token-1").get(`/organizations/example-org`)).status).toBe(200);
    expect(fromFile.child.spawnargs.join(" ")).not.toContain("file-token-1");
    await stop(fromFile.child);
    expect(existsSync(join(dir, "a.db.key")), "a given key is not written beside the database").toBe(false);
    const env = { WORKSPACES_SERVER_TOKEN: "env-token-2", WORKSPACES_SERVER_ENCRYPTION_KEY: key };
    const fromEnv = await launch(["--port", "0", "--db", join(dir, "b.db")], env);
    const api = new Api(fromEnv.url, "env-token-2");
    expect((await api.get(`/organizations/example-org`)).status).toBe(200);
    const noCode = await enableModule(
      api,
      "example-org",
      await publishModule(api, "example-org", "sealed", ["1.0.0"]),
      { "version-pin": "1.0.0" },
    );
    await createFromModule(api, noCode.id, "sealed", [{ key: "secret", value: "sealed-value", sensitive: true }]);
    await stop(fromEnv.child);
    expect(existsSync(join(dir, "b.db.key"))).toBe(false);
    for (const out of [fromFile.stderr(), fromEnv.stderr(), fromFile.stdout(), fromEnv.stdout()]) {
      for (const secret of ["file-token-1", "env-token-2", key]) expect(out).not.toContain(secret);
    }
    // Another key for a database sealed with this one: refused, the key not shown.
    const other = randomBytes(32).toString("hex");
    const refused = run(["--port", "0", "--db", join(dir, "b.db")], { WORKSPACES_SERVER_ENCRYPTION_KEY: other });
    expect(refused.status).toBe(1);
    expect(refused.stderr).toMatch(/another key/);
    expect(refused.stderr).not.toContain(other);
    // Without a key, one is generated beside the database, readable by its owner only.
    const generated = await launch(["--port", "0", "--db", join(dir, "c.db"), "--token-file", tokenFile]);
    await stop(generated.child);
    expect(statSync(join(dir, "c.db.key")).mode & 0o777).toBe(0o600);
    expect(run(["--token", "x", "--token-file", tokenFile]).status).toBe(2);
    const missing = run(["--token-file", join(dir, "missing.token")]);
    expect(missing.status).toBe(2);
    expect(missing.stderr).toMatch(/cannot read/);
  });

  it("logs one JSON line per request to stderr at info by default, without the token; --log-level silent logs none", async () => {
    const s = await launch(["--port", "0", "--db", ":memory:", "--token", "cli-log-token-9", "--rate-limit", "0"]);
    await new Api(s.url, "cli-log-token-9").get(`/organizations/example-org`);
    const quiet = await launch([
      "--port",
      "0",
      "--db",
      ":memory:",
      "--token",
      "cli-log-token-9",
      "--log-level",
      "silent",
    ]);
    await new Api(quiet.url, "cli-log-token-9").get(`/organizations/example-org`);
    for (const child of [s.child, quiet.child]) {
      const done = exited(child);
      child.kill("SIGTERM");
      await done;
    }
    const lines = s
      .stderr()
      .split("\n")
      .filter((l) => l.includes('"msg":"request"'));
    expect(lines.map((l) => JSON.parse(l)).map((l) => [l.method, l.route, l.status])).toEqual([
      ["GET", "/api/v2/organizations/:organization_name", 200],
    ]);
    expect(s.stderr()).not.toContain("cli-log-token-9");
    expect(s.stdout().split("\n").filter(Boolean)).toHaveLength(1);
    expect(quiet.stderr()).toBe("");
    expect(exitStatus(["--log-level", "loud"])).toBe(2);
  });

  it("loses nothing acknowledged when killed with SIGKILL, and keeps its token across restarts", async () => {
    const db = join(dir, "durable.db");
    const args = ["--port", "0", "--db", db, "--token", "durable-token", "--rate-limit", "0"];
    const s = await launch(args);
    const api = new Api(s.url, "durable-token");
    const acknowledged: string[] = [];
    const inflight: Promise<unknown>[] = [];
    for (let i = 0; i < 200; i++) {
      inflight.push(
        api
          .post(`/organizations/example-org/workspaces`, {
            data: { type: "workspaces", attributes: { name: `d-${i}` } },
          })
          .then((r) => {
            if (r.status === 201) acknowledged.push(r.body.data.id);
          })
          .catch(() => undefined),
      );
      if (i === 120) {
        await Promise.race([Promise.all(inflight.slice(0, 60)), new Promise((r) => setTimeout(r, 2000))]);
        s.child.kill("SIGKILL");
      }
    }
    await Promise.allSettled(inflight);
    await exited(s.child);
    expect(acknowledged.length).toBeGreaterThan(0);

    const again = await launch(args);
    try {
      const api2 = new Api(again.url, "durable-token");
      for (const id of acknowledged) {
        const r = await api2.get(`/workspaces/${id}`);
        expect(r.status, id).toBe(200);
      }
    } finally {
      again.child.kill("SIGTERM");
      await exited(again.child);
    }
  }, 60_000);
});
