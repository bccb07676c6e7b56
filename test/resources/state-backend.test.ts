/**
 * The state backend a stack's origin names (src/resources/state-backend.ts): found in the
 * CLI's order, one form per backend whatever way it was written, another value for
 * another backend.
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import {
  checkpointsSkipped,
  projectBackendUrl,
  projectDirectory,
  stateBackend,
} from "../../src/resources/state-backend";

const root = fs.mkdtempSync(path.join(os.tmpdir(), "pw-backend-"));
afterAll(() => fs.rmSync(root, { recursive: true, force: true }));
const machine = { home: "/home/ci", host: "runner-1", cwd: "/work/program" };

function program(yaml: string): string {
  const dir = fs.mkdtempSync(path.join(root, "program-"));
  fs.writeFileSync(path.join(dir, "Pulumi.yaml"), yaml);
  return dir;
}

function credentials(current: string): string {
  const dir = fs.mkdtempSync(path.join(root, "home-"));
  fs.writeFileSync(path.join(dir, "credentials.json"), JSON.stringify({ current, accounts: {} }));
  return dir;
}

describe("the state backend of a stack", () => {
  it("follows the CLI's order: PULUMI_BACKEND_URL, then Pulumi.yaml's backend.url, then the current login, then Pulumi Cloud", () => {
    const dir = program("name: p\nruntime: nodejs\nbackend:\n  url: s3://from-project/state\n");
    const home = credentials("gs://from-login");
    const env = { PULUMI_HOME: home };
    expect(stateBackend(dir, { ...env, PULUMI_BACKEND_URL: "azblob://from-env" }, machine)).toBe("azblob://from-env");
    expect(stateBackend(dir, env, machine)).toBe("s3://from-project/state");
    expect(stateBackend(program("name: p\nruntime: nodejs\n"), env, machine)).toBe("gs://from-login");
    expect(stateBackend("", { PULUMI_CREDENTIALS_PATH: home }, machine)).toBe("gs://from-login");
    expect(stateBackend("", { PULUMI_HOME: path.join(root, "none") }, machine)).toBe("https://api.pulumi.com");
    expect(
      stateBackend("", { PULUMI_HOME: path.join(root, "none"), PULUMI_API: "https://pulumi.example.com/" }, machine),
    ).toBe("https://pulumi.example.com");
  });

  it("writes one backend one way: a directory by machine and absolute path, a bucket without its query", () => {
    const at = (url: string, m = machine) => stateBackend("", { PULUMI_BACKEND_URL: url }, m);
    expect(at("file://~")).toBe("file://runner-1/home/ci");
    expect(at("file://~/state?no_tmp_dir=true")).toBe("file://runner-1/home/ci/state");
    expect(at("file:///home/ci/state/")).toBe("file://runner-1/home/ci/state");
    expect(at("file://./state")).toBe("file://runner-1/work/program/state");
    expect(at("s3://bucket/prefix?region=eu-west-1&awssdk=v2")).toBe(at("s3://bucket/prefix"));
    expect(at("https://app.pulumi.com/")).toBe(at("https://api.pulumi.com"));
    expect(at("HTTPS://API.Pulumi.com")).toBe("https://api.pulumi.com");
    // Another machine's home directory, another bucket, another path: another backend.
    expect(at("file://~", { ...machine, host: "runner-2" })).not.toBe(at("file://~"));
    expect(at("s3://bucket/other")).not.toBe(at("s3://bucket/prefix"));
  });

  it("reads backend.url from Pulumi.yaml in block style, quoted or not, and nothing from other keys", () => {
    expect(projectBackendUrl("name: p\nbackend:\n  url: 'file://~/s' # local\n")).toBe("file://~/s");
    expect(projectBackendUrl('backend: # where\n    url: "s3://b"\nname: p\n')).toBe("s3://b");
    expect(projectBackendUrl("name: p\nbackend:\n  other: 1\nconfig:\n  url: s3://not-this\n")).toBeUndefined();
    expect(projectBackendUrl("name: p\nplugins:\n  url: s3://not-this\n")).toBeUndefined();
  });

  it("finds the project of a program started below it, where the engine starts a plugin", () => {
    const dir = program("name: p\nruntime: yaml\nbackend:\n  url: s3://from-project/state\n");
    const below = path.join(dir, "src", "deep");
    fs.mkdirSync(below, { recursive: true });
    expect(projectDirectory(below)).toBe(dir);
    expect(projectDirectory(dir)).toBe(dir);
    expect(stateBackend(projectDirectory(below), {}, machine)).toBe("s3://from-project/state");
    const lone = fs.mkdtempSync(path.join(os.tmpdir(), "pw-no-project-"));
    try {
      expect(projectDirectory(lone)).toBe(lone);
    } finally {
      fs.rmSync(lone, { recursive: true, force: true });
    }
  });

  it("reads PULUMI_SKIP_CHECKPOINTS as the CLI does", () => {
    for (const v of ["true", "TRUE", "1"]) expect(checkpointsSkipped({ PULUMI_SKIP_CHECKPOINTS: v })).toBe(true);
    for (const v of [undefined, "", "0", "false", "yes"])
      expect(checkpointsSkipped({ PULUMI_SKIP_CHECKPOINTS: v })).toBe(false);
  });
});
