// OTF as a running server for the OTF suite (test/otf) and `scripts/otf start`: PostgreSQL
// from Debian's packages (installed as root when missing), a fresh database per run, otfd
// on a free loopback port with a random secret and site token, and an organization.
// Everything it starts it stops again: the process, then the database.
"use strict";
const { execFileSync, spawn } = require("child_process");
const crypto = require("crypto");
const fs = require("fs");
const net = require("net");
const os = require("os");
const path = require("path");

const repoRoot = path.resolve(__dirname, "..", "..");

function log(msg) {
  process.stderr.write(`[otf] ${msg}\n`);
}

function run(cmd, args, options = {}) {
  return execFileSync(cmd, args, { encoding: "utf8", stdio: ["ignore", "pipe", "pipe"], ...options });
}

function commandExists(cmd) {
  try {
    run("sh", ["-c", `command -v ${cmd}`]);
    return true;
  } catch {
    return false;
  }
}

/** Path of otfd: PULUMI_WORKSPACES_OTFD, else built or reused by `scripts/otf build`. */
function ensureOtfd() {
  if (process.env.PULUMI_WORKSPACES_OTFD) return process.env.PULUMI_WORKSPACES_OTFD;
  const out = execFileSync("bash", [path.join(repoRoot, "scripts", "otf"), "build"], {
    encoding: "utf8",
    stdio: ["ignore", "pipe", "inherit"],
  });
  const lines = out.trim().split("\n");
  return lines[lines.length - 1];
}

/** Server versions installed from Debian's packages, newest first. */
function installedVersions() {
  const dir = "/usr/lib/postgresql";
  if (!fs.existsSync(dir)) return [];
  return fs
    .readdirSync(dir)
    .filter((v) => fs.existsSync(path.join(dir, v, "bin", "postgres")))
    .sort((a, b) => Number(b) - Number(a));
}

const isRoot = () => typeof process.getuid === "function" && process.getuid() === 0;

/** Runs `sh -c script` as the postgres system user (we are root). */
function asPostgres(script) {
  return run("su", ["postgres", "-s", "/bin/sh", "-c", script]);
}

/**
 * Makes sure a PostgreSQL cluster runs and the current user has a role that may create
 * databases. Returns where to reach it: the socket directory and port.
 */
function ensurePostgres() {
  if (installedVersions().length === 0 || !commandExists("pg_ctlcluster")) {
    if (!isRoot()) {
      throw new Error(
        "PostgreSQL is not installed: install Debian's `postgresql` package (apt-get install -y postgresql), or run as root to let this script install it",
      );
    }
    log("installing PostgreSQL from Debian's packages (apt-get install -y postgresql)");
    const env = { ...process.env, DEBIAN_FRONTEND: "noninteractive" };
    execFileSync("apt-get", ["update"], { stdio: ["ignore", 2, 2], env });
    execFileSync("apt-get", ["install", "-y", "--no-install-recommends", "postgresql"], {
      stdio: ["ignore", 2, 2],
      env,
    });
  }
  const version = installedVersions()[0];
  if (!version) throw new Error("no PostgreSQL server binaries under /usr/lib/postgresql after installing");

  const clusters = () =>
    run("pg_lsclusters", ["--no-header"])
      .split("\n")
      .map((l) => l.trim().split(/\s+/))
      .filter((f) => f[0] === version);
  let cluster = clusters()[0];
  if (!cluster) {
    if (!isRoot())
      throw new Error(`no PostgreSQL ${version} cluster: create one with pg_createcluster ${version} main --start`);
    log(`creating the PostgreSQL ${version} cluster "main"`);
    run("pg_createcluster", [version, "main"]);
    cluster = clusters()[0];
  }
  // pg_lsclusters: version, name, port, status, owner, data directory, log file.
  const [, name, port, status] = cluster;
  if (!status.startsWith("online")) {
    if (!isRoot())
      throw new Error(
        `PostgreSQL ${version}/${name} is ${status}: start it with pg_ctlcluster ${version} ${name} start`,
      );
    log(`starting PostgreSQL ${version}/${name}`);
    run("pg_ctlcluster", [version, name, "start"]);
  }
  const socketDir = "/var/run/postgresql";
  const user = os.userInfo().username;
  if (isRoot()) {
    const has = asPostgres(`psql -p ${port} -tAc "SELECT 1 FROM pg_roles WHERE rolname = '${user}'"`).trim();
    if (has !== "1") {
      log(`creating the PostgreSQL role ${user}`);
      asPostgres(`createuser -p ${port} -s ${user}`);
    }
  }
  return { socketDir, port: Number(port) };
}

/** A free TCP port on the loopback interface. */
function freePort() {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.once("error", reject);
    srv.listen(0, "127.0.0.1", () => {
      const { port } = srv.address();
      srv.close(() => resolve(port));
    });
  });
}

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/** POST /api/v2/organizations with the site token. */
async function createOrganization(url, token, name) {
  const res = await fetch(`${url}/api/v2/organizations`, {
    method: "POST",
    headers: {
      authorization: `Bearer ${token}`,
      "content-type": "application/vnd.api+json",
      accept: "application/vnd.api+json",
    },
    body: JSON.stringify({ data: { type: "organizations", attributes: { name, email: `${name}@example.com` } } }),
  });
  if (res.status !== 201) throw new Error(`creating organization ${name} on OTF: ${res.status} ${await res.text()}`);
}

/**
 * Starts otfd against a fresh database and creates `organization`. Resolves with where to
 * reach it and `stop()`, which ends the process and drops the database.
 */
async function startOtf({ organization = "acme", otfd = ensureOtfd() } = {}) {
  const pg = ensurePostgres();
  const database = `otf_${process.pid}_${crypto.randomBytes(4).toString("hex")}`;
  const pgArgs = ["-h", pg.socketDir, "-p", String(pg.port)];
  run("createdb", [...pgArgs, database]);
  const dropDatabase = () => {
    try {
      run("dropdb", [...pgArgs, "--if-exists", "--force", database]);
    } catch (err) {
      log(`could not drop database ${database}: ${String(err.stderr || err.message).trim()}`);
    }
  };

  const port = await freePort();
  const token = `site-${crypto.randomBytes(16).toString("hex")}`;
  const workDir = fs.mkdtempSync(path.join(os.tmpdir(), "otf-"));
  const logFile = path.join(workDir, "otfd.log");
  const out = fs.openSync(logFile, "a");
  const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith("OTF_")));
  const child = spawn(
    otfd,
    [
      "--address",
      `127.0.0.1:${port}`,
      "--database",
      `postgres:///${database}?host=${encodeURIComponent(pg.socketDir)}&port=${pg.port}`,
      "--secret",
      crypto.randomBytes(16).toString("hex"),
      "--site-token",
      token,
    ],
    { cwd: workDir, env: { ...env, HOME: workDir }, stdio: ["ignore", out, out] },
  );
  fs.closeSync(out);
  let exited = null;
  const exitedPromise = new Promise((resolve) =>
    child.once("exit", (code, signal) => resolve((exited = { code, signal }))),
  );
  const url = `http://127.0.0.1:${port}`;
  const tail = () => fs.readFileSync(logFile, "utf8").split("\n").slice(-30).join("\n");

  let stopped = false;
  const stop = async () => {
    if (stopped) return;
    stopped = true;
    if (!exited) {
      child.kill("SIGTERM");
      const timer = setTimeout(() => child.kill("SIGKILL"), 10_000);
      await exitedPromise;
      clearTimeout(timer);
    }
    dropDatabase();
    fs.rmSync(workDir, { recursive: true, force: true });
  };

  try {
    const deadline = Date.now() + 90_000;
    for (;;) {
      if (exited)
        throw new Error(`otfd exited (${exited.code ?? exited.signal}) before answering /healthz:\n${tail()}`);
      try {
        const res = await fetch(`${url}/healthz`);
        if (res.ok) break;
      } catch {
        // not listening yet
      }
      if (Date.now() > deadline) throw new Error(`otfd did not answer /healthz within 90 s:\n${tail()}`);
      await sleep(200);
    }
    await createOrganization(url, token, organization);
  } catch (err) {
    await stop();
    throw err;
  }
  return { url, token, organization, database, logFile, pid: child.pid, stop };
}

module.exports = { ensureOtfd, ensurePostgres, startOtf, createOrganization };

if (require.main === module && process.argv[2] === "postgres") {
  const { port } = ensurePostgres();
  log(`PostgreSQL ready on port ${port}`);
}

if (require.main === module && process.argv[2] === "start") {
  startOtf().then(
    (otf) => {
      process.stdout.write(
        `WORKSPACES_ADDRESS=${otf.url}\nWORKSPACES_TOKEN=${otf.token}\nWORKSPACES_ORGANIZATION=${otf.organization}\n`,
      );
      log(`otfd (pid ${otf.pid}) on ${otf.url}, database ${otf.database}, log ${otf.logFile}; Ctrl-C stops it`);
      const end = () => otf.stop().then(() => process.exit(0));
      process.once("SIGINT", end);
      process.once("SIGTERM", end);
    },
    (err) => {
      log(`error: ${err.message}`);
      process.exit(1);
    },
  );
}
