/**
 * docs/reference/ is generated from the doc comments (scripts/docs/reference.js) and
 * committed: regenerating it into a temporary directory gives the same pages, byte for
 * byte, and the pages cover every resource and lookup the package exports.
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as pkg from "../../src";
import { COMMAND, files, generate } from "../../scripts/docs/reference.js";

const root = path.resolve(__dirname, "..", "..");
const sdkVersion = (file: string) => (JSON.parse(fs.readFileSync(file, "utf8")) as { version: string }).version;
const lock = JSON.parse(fs.readFileSync(path.join(root, "package-lock.json"), "utf8")) as {
  packages: Record<string, { version: string }>;
};
/**
 * The pages print the SDK's types (`Output<string>`, ...) as the locked @pulumi/pulumi
 * declares them; a run with another SDK installed (CI's newest pair) cannot compare them.
 */
const lockedSdk =
  sdkVersion(path.join(root, "node_modules", "@pulumi", "pulumi", "package.json")) ===
  lock.packages["node_modules/@pulumi/pulumi"].version;
const committed = path.join(root, "docs", "reference");
let fresh: string;

beforeAll(() => {
  fresh = fs.mkdtempSync(path.join(os.tmpdir(), "reference-"));
  generate(fresh);
}, 120_000);

afterAll(() => fs.rmSync(fresh, { recursive: true, force: true }));

describe("docs/reference", () => {
  it.runIf(lockedSdk)("is what the sources generate today, with the locked SDK", () => {
    expect(files(committed), `the pages differ: run ${COMMAND} and commit docs/reference`).toEqual(files(fresh));
    const stale = files(fresh).filter(
      (f) => fs.readFileSync(path.join(fresh, f), "utf8") !== fs.readFileSync(path.join(committed, f), "utf8"),
    );
    expect(stale, `stale pages: run ${COMMAND} and commit docs/reference`).toEqual([]);
  });

  it("documents every class and function the package exports, with nothing that depends on the machine", () => {
    const main = fs.readFileSync(path.join(fresh, "pulumi-workspaces.md"), "utf8");
    const exported = Object.keys(pkg).filter((k) => typeof (pkg as Record<string, unknown>)[k] === "function");
    expect(exported).toEqual(expect.arrayContaining(["Workspace", "NoCodeWorkspace", "getWorkspaces"]));
    expect(exported.filter((name) => !main.includes(`### ${name}`))).toEqual([]);
    for (const f of files(fresh)) {
      const text = fs.readFileSync(path.join(fresh, f), "utf8");
      expect(text, f).not.toContain(root);
      expect(text, f).not.toMatch(/spec (section )?\d|\bthe spec\b/i);
    }
  });
});
