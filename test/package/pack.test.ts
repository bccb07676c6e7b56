/**
 * The resources package's tarball as `npm pack` would publish it (dist/ is built by
 * `npm test` before the unit suite): what it contains, what it leaves out, its size, and
 * that everything it points at (README links, exports, source maps) is inside it.
 */
import { execFileSync } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";

const root = path.resolve(__dirname, "..", "..");

interface PackResult {
  size: number;
  unpackedSize: number;
  files: Array<{ path: string; size: number }>;
}

/**
 * Upper bounds with headroom over what is measured today (1.15 MB packed, 5.46 MB unpacked:
 * dist with source maps, src, docs, examples). The growth since 1.01 MB / 4.72 MB is the
 * service's policies: seven resources and a lookup with their wire schemas, four client areas,
 * providers, a folder's tarball writer, a page, an example and examples in four languages in
 * the schema. The growth since 870 kB / 4.06 MB before that is the agent
 * pools area: six resources and a lookup with their wire schemas, client areas, providers,
 * page and examples in four languages. The growth since 733 kB / 3.39 MB before that is six
 * resources and three lookups for projects, teams, access, run triggers and notifications,
 * with their pages and each resource's examples in four languages in the schema (252 kB in
 * dist); before that, four API areas of the client with their wire schemas and the four
 * variable resources (from 577 kB / 2.56 MB), and before that the schema that says every
 * type, default, enum and import id, one list of secrets and clears for both doors, and the
 * docs of the other languages.
 */
const MAX_PACKED = 1_300_000;
const MAX_UNPACKED = 6_200_000;

let pack: PackResult;
let files: Set<string>;
const manifest = JSON.parse(fs.readFileSync(path.join(root, "package.json"), "utf8"));

beforeAll(() => {
  if (!fs.existsSync(path.join(root, "dist", "index.js")))
    throw new Error("dist/ is missing: run npm run build first (npm test does)");
  // --ignore-scripts: the prepack build already ran as `npm run build`.
  const out = execFileSync("npm", ["pack", "--dry-run", "--json", "--ignore-scripts"], {
    cwd: root,
    encoding: "utf8",
    stdio: ["ignore", "pipe", "ignore"],
  });
  pack = JSON.parse(out)[0];
  files = new Set(pack.files.map((f) => f.path));
}, 60_000);

/** True when `rel` (a file or a folder, relative to the package root) is in the tarball. */
function packed(rel: string): boolean {
  const p = path.posix.normalize(rel).replace(/\/$/, "");
  return files.has(p) || [...files].some((f) => f.startsWith(p + "/"));
}

describe("the pulumi-workspaces tarball", () => {
  it("holds the entry points, declarations, LICENSE and README", () => {
    for (const f of [
      "package.json",
      "LICENSE",
      "README.md",
      "dist/index.js",
      "dist/index.d.ts",
      "dist/resources/entry.js",
      "dist/client/index.js",
      "dist/api/index.js",
      "dist/resources/tokens.js",
      "dist/generate/index.js",
    ]) {
      expect(files.has(f), f).toBe(true);
    }
    expect(fs.readFileSync(path.join(root, "LICENSE"), "utf8")).toContain(
      "Apache License\n                           Version 2.0",
    );
    expect(manifest.license).toBe("Apache-2.0");
    expect(manifest.repository?.url).toMatch(/^git\+https:\/\//);
  });

  it("leaves out the server, tests and local state", () => {
    const stray = [...files].filter((f) =>
      /^(dist|src)\/server\/|^test\/|^bench\/|^policies\/|node_modules\/|\.db$|\.tgz$|^\.pulumi-state/.test(f),
    );
    expect(stray).toEqual([]);
  });

  it("stays small", () => {
    expect(pack.size).toBeLessThan(MAX_PACKED);
    expect(pack.unpackedSize).toBeLessThan(MAX_UNPACKED);
  });

  it("resolves every export and bin target inside the tarball", () => {
    const targets = [
      manifest.main,
      manifest.types,
      ...Object.values(manifest.exports as Record<string, string>),
      ...Object.values((manifest.bin ?? {}) as Record<string, string>),
    ];
    for (const t of targets) expect(packed(t.replace(/^\.\//, "")), t).toBe(true);
  });

  it("installs without the server's dependencies or an install script", () => {
    const deps = Object.keys(manifest.dependencies ?? {});
    expect(deps).not.toContain("fastify");
    expect(deps).not.toContain("better-sqlite3");
    for (const s of ["preinstall", "install", "postinstall"]) expect(manifest.scripts?.[s], s).toBeUndefined();
    expect(manifest.scripts?.prepack).toMatch(/build/);
  });

  it("ships the target of every relative link in README.md, docs/ and examples/", () => {
    const broken: string[] = [];
    const docs = ["README.md", ...[...files].filter((f) => /^(docs|examples)\/.*\.md$/.test(f))];
    // The examples' READMEs are shipped and checked too (the examples' index and each example's).
    expect(docs).toEqual(
      expect.arrayContaining(["examples/README.md", "examples/policy/README.md", "examples/quickstart/README.md"]),
    );
    for (const doc of docs) {
      const text = fs.readFileSync(path.join(root, doc), "utf8");
      for (const m of text.matchAll(/\]\(([^)\s]+)\)/g)) {
        const link = m[1].split("#")[0];
        if (link === "" || /^[a-z]+:/i.test(link)) continue;
        const target = path.posix.join(path.posix.dirname(doc), link);
        if (!packed(target)) broken.push(`${doc}: ${m[1]}`);
      }
    }
    expect(broken).toEqual([]);
  });

  it("ships the sources of every source map it ships (or no map)", () => {
    const unresolved: string[] = [];
    for (const f of files) {
      if (f.endsWith(".js")) {
        const ref = /\/\/# sourceMappingURL=(\S+)\s*$/.exec(fs.readFileSync(path.join(root, f), "utf8"))?.[1];
        if (ref && !files.has(path.posix.join(path.posix.dirname(f), ref))) unresolved.push(`${f} -> ${ref}`);
      }
      if (f.endsWith(".map")) {
        const map = JSON.parse(fs.readFileSync(path.join(root, f), "utf8")) as {
          sources: string[];
          sourceRoot?: string;
        };
        for (const s of map.sources) {
          const src = path.posix.normalize(path.posix.join(path.posix.dirname(f), map.sourceRoot ?? "", s));
          if (!files.has(src)) unresolved.push(`${f} -> ${src}`);
        }
      }
    }
    expect(unresolved).toEqual([]);
  });
});
