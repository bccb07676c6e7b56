import { describe, it, expect, beforeAll } from "vitest";
import * as fs from "node:fs";
import * as path from "node:path";
import * as os from "node:os";
import { createRequire } from "node:module";
import { spawnSync } from "node:child_process";
import * as pulumi from "@pulumi/pulumi";
import { providers } from "../../src/resources/closure";

const root = path.resolve(__dirname, "../..");
const SECRET = "tok-closure-secret-value-0123456789";

async function serialized(kind: keyof typeof providers): Promise<string> {
  const provider = providers[kind];
  const sf = await pulumi.runtime.serializeFunction(() => provider, { allowSecrets: false });
  return sf.text;
}

/** Evaluates serialized provider text the way the dynamic-provider host does (require-from-string). */
function evaluate(text: string): pulumi.dynamic.ResourceProvider {
  const requireFromString = createRequire(require.resolve("@pulumi/pulumi"))("require-from-string");
  return requireFromString(text).handler();
}

beforeAll(() => {
  // The serialized code loads the package's built entry point, as a user's program would.
  if (!fs.existsSync(path.join(root, "dist/resources/entry.js"))) {
    // Type errors elsewhere in the tree do not stop tsc from emitting; the assertions below judge the result.
    spawnSync(process.execPath, [require.resolve("typescript/bin/tsc"), "-p", "tsconfig.json"], { cwd: root, stdio: "ignore" });
  }
}, 120_000);

describe("serialized providers", () => {
  for (const kind of Object.keys(providers) as (keyof typeof providers)[]) {
    it(`${kind}: small, no secret, no absolute path, delegates to the entry point`, async () => {
      process.env.WORKSPACES_TOKEN = SECRET;
      try {
        const text = await serialized(kind);
        expect(text.length).toBeLessThan(4096);
        expect(text).not.toContain(SECRET);
        expect(text).not.toContain(root);
        expect(text).not.toContain(os.homedir());
        expect(text).not.toMatch(/["'`]\/(?:home|root|tmp|work|Users)\//);
        expect(text).toContain('"pulumi-workspaces/provider"');
        expect(text).toContain(`"${kind}"`);
        for (const m of ["configure", "check", "diff", "create", "read", "update", "delete"]) expect(text).toContain(`${m}:`);
      } finally {
        delete process.env.WORKSPACES_TOKEN;
      }
    });
  }

  it("resolves the entry point by package name from the program directory (self-reference here)", () => {
    const resolved = createRequire(root + "/").resolve("pulumi-workspaces/provider");
    expect(resolved).toBe(path.join(root, "dist/resources/entry.js"));
  });

  it("evaluated text serves calls through the entry point: check reports failures, diff is pure", async () => {
    const provider = evaluate(await serialized("Workspace"));
    const check = await provider.check!({}, { name: "bad name!", organization: "acme" });
    expect(check.failures?.map((f) => f.property)).toContain("name");
    const diff = await provider.diff!("ws-1", { name: "a", organization: "acme" }, { name: "a", organization: "acme" });
    expect(diff.changes).toBe(false);
  });
});

describe("entry point tolerance", () => {
  it("serves provider text frozen from protocol 1, as old state holds it", async () => {
    // Written once by this release; later releases must keep it working unchanged.
    const text = fs.readFileSync(path.join(__dirname, "fixtures/workspace-provider-protocol-1.js"), "utf8");
    const provider = evaluate(text);
    const olds = { name: "a", organization: "acme", tagNames: ["x"] };
    expect(await provider.diff!("ws-1", olds, { name: "a", organization: "acme", tagNames: ["X"] })).toMatchObject({ changes: false });
    expect(await provider.diff!("ws-1", olds, { name: "a", organization: "other" })).toMatchObject({ changes: true, replaces: ["organization"] });
    const check = await provider.check!({}, { name: "ok", organization: "acme", executionMode: "agent" });
    // An absent input is named in the reason (the engine would print its value as {<nil>}).
    expect(check.failures?.map((f) => [f.property, f.reason])).toEqual([["", "agentPoolId is required when executionMode is agent"]]);
  });

  it("accepts calls from older serialized code and any spelling of the kind, refuses newer protocols clearly", async () => {
    const entry = createRequire(root + "/")("pulumi-workspaces/provider");
    const olds = { name: "a", organization: "acme" };
    for (const kind of ["Workspace", "workspace", "workspaces:Workspace", "pulumi-nodejs:dynamic/workspaces:Workspace"]) {
      const d = await entry.dispatch(1, kind, "diff", ["ws-1", olds, { ...olds, name: "b" }]);
      expect(d.changes).toBe(true);
    }
    await expect(entry.dispatch(99, "Workspace", "diff", ["ws-1", olds, olds])).rejects.toThrow(/newer release.*upgrade/);
    await expect(entry.dispatch(1, "Gadget", "diff", ["ws-1", olds, olds])).rejects.toThrow(/unknown resource kind/);
    await expect(entry.dispatch(1, "Workspace", "explode", [])).rejects.toThrow(/unknown provider method/);
  });
});
