// Which go-tfe the compatibility run (./go-tfe.js) uses and where it keeps it: one place,
// read by the run and by test/client/go-tfe-wire.test.ts (which checks its fixture against
// these sources).
"use strict";
const { execFileSync } = require("child_process");
const fs = require("fs");
const os = require("os");
const path = require("path");

const MODULE = "github.com/hashicorp/go-tfe";
const VERSION = "v1.111.2";
// go.sum line of the module zip: a different download is refused.
const MODULE_SUM = "h1:Bzak6GbLANLsy+c335vdteJdBF7fRvMhgcM9fzKSvbs=";

/** The cache of the run: PULUMI_WORKSPACES_COMPAT_DIR, else under XDG_CACHE_HOME, else ~/.cache. */
function cacheRoot(env = process.env) {
  return (
    env.PULUMI_WORKSPACES_COMPAT_DIR ||
    path.join(env.XDG_CACHE_HOME || path.join(os.homedir(), ".cache"), "pulumi-workspaces", "compat")
  );
}

/** The environment of every `go` command of the run: its own module and build caches. */
function goEnv(extra = {}, env = process.env) {
  const dir = cacheRoot(env);
  return {
    PATH: env.PATH,
    HOME: env.HOME || os.homedir(),
    GOMODCACHE: path.join(dir, "gomod"),
    GOCACHE: env.GOCACHE || path.join(dir, "gobuild"),
    GOPATH: path.join(dir, "gopath"),
    GOPROXY: env.GOPROXY || "https://proxy.golang.org",
    GOFLAGS: "-modcacherw -mod=readonly -buildvcs=false",
    ...extra,
  };
}

/**
 * The module's sources as the Go module cache holds them (read-only, written whole by `go
 * mod download`, so never seen half-copied), whether or not they are there yet.
 */
function sourcesDir(env = process.env) {
  return path.join(cacheRoot(env), "gomod", `${MODULE}@${VERSION}`);
}

/**
 * Fetches the module through the Go module proxy into the run's module cache (nothing when
 * it is there already), checks its checksum and returns its directory; throws with the reason.
 */
function download(env = process.env) {
  const work = path.join(cacheRoot(env), `go-tfe-${VERSION}`);
  fs.mkdirSync(work, { recursive: true });
  const info = JSON.parse(
    execFileSync("go", ["mod", "download", "-json", `${MODULE}@${VERSION}`], {
      cwd: work,
      env: goEnv({}, env),
      encoding: "utf8",
      stdio: ["ignore", "pipe", "inherit"],
    }),
  );
  if (info.Error) throw new Error(`go mod download: ${info.Error}`);
  if (info.Sum !== MODULE_SUM)
    throw new Error(`checksum of ${MODULE}@${VERSION} is ${info.Sum}, expected ${MODULE_SUM}`);
  return info.Dir;
}

module.exports = { MODULE, VERSION, MODULE_SUM, cacheRoot, goEnv, sourcesDir, download };
