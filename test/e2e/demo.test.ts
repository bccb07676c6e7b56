/**
 * `npm run demo` minus its install and build steps: the root program against the
 * embedded server, with the report it prints.
 */
import { spawn } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import { describe, expect, it } from "vitest";
import { repoRoot, requireBuiltPackage } from "./harness";

function runDemo(): Promise<{ code: number; output: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [path.join(repoRoot, "scripts", "demo.js")], {
      cwd: repoRoot,
      stdio: ["ignore", "pipe", "pipe"],
    });
    let output = "";
    child.stdout.on("data", (d) => (output += d));
    child.stderr.on("data", (d) => (output += d));
    child.on("error", reject);
    child.on("close", (code) => resolve({ code: code ?? -1, output }));
  });
}

describe("the demo", () => {
  it("declares the organisation on the embedded server, reports it and cleans up", async () => {
    requireBuiltPackage();
    const r = await runDemo();
    expect(r.code, r.output).toBe(0);
    // 22 resources of the demo program and the stack's origin (docs/interrupted-updates.md).
    expect(r.output).toMatch(/\+ 23 created/);
    expect(r.output).toMatch(/14 workspaces, 2 projects, 1 SSH key/);
    // Project tag bindings are inherited by every workspace in the project.
    expect(r.output).toMatch(
      /network-prod\s+platform\s+business-unit=commerce cost-center=cc-1024 env=prod owner=platform service=network/,
    );
    expect(r.output).toMatch(/network-prod .*billing-prod,checkout-prod,identity-prod\s+yes\s+api/);
    expect(r.output).toMatch(/sandbox-network-eu-west-1\s+platform.*no-code/);
    expect(r.output).toMatch(/nocode-\S+\s+mod-\S+\s+1\.2\.0\s+true\s+region: eu-west-1\|us-east-1/);
    expect(fs.existsSync(path.join(repoRoot, "Pulumi.demo.yaml"))).toBe(false);
  });
});
