import { describe, it, expect, beforeAll } from "vitest";
import * as fs from "node:fs";
import * as path from "node:path";
import * as os from "node:os";
import { createRequire } from "node:module";
import { spawnSync } from "node:child_process";
import type * as pulumi from "@pulumi/pulumi";
import { providerText } from "../../src/resources/provider-text";
import { typeTokens } from "../../src/resources/tokens";
import { Workspace } from "../../src/resources/workspace";

const root = path.resolve(__dirname, "../..");
const SECRET = "tok-closure-secret-value-0123456789";

const KINDS = Object.keys(typeTokens) as (keyof typeof typeTokens)[];

/** Evaluates serialized provider text the way the dynamic-provider host does (require-from-string). */
function evaluate(text: string): pulumi.dynamic.ResourceProvider {
  const requireFromString = createRequire(require.resolve("@pulumi/pulumi"))("require-from-string");
  return requireFromString(text).handler();
}

beforeAll(() => {
  // The serialized code loads the package's built entry point, as a user's program would.
  if (!fs.existsSync(path.join(root, "dist/resources/entry.js"))) {
    // Type errors elsewhere in the tree do not stop tsc from emitting; the assertions below judge the result.
    spawnSync(process.execPath, [require.resolve("typescript/bin/tsc"), "-p", "tsconfig.json"], {
      cwd: root,
      stdio: "ignore",
    });
  }
}, 120_000);

describe("serialized providers", () => {
  for (const kind of KINDS) {
    it(`${kind}: one short line, no secret, no absolute path, delegates to the entry point`, async () => {
      process.env.WORKSPACES_TOKEN = SECRET;
      try {
        const text = providerText(kind);
        // Stored twice per resource and rewritten with the whole state after every step.
        expect(text.length).toBeLessThan(200);
        expect(text).not.toContain(SECRET);
        expect(text).not.toContain(root);
        expect(text).not.toContain(os.homedir());
        expect(text).not.toMatch(/["'`]\/(?:home|root|tmp|work|Users)\//);
        expect(text).toContain('"pulumi-workspaces/provider"');
        expect(text).toContain(`"${kind}"`);
        const provider = evaluate(text);
        for (const m of ["configure", "check", "diff", "create", "read", "update", "delete"] as const)
          expect(typeof provider[m]).toBe("function");
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
    const provider = evaluate(providerText("Workspace"));
    const check = await provider.check!({}, { name: "bad name!", organization: "acme" });
    expect(check.failures?.map((f) => f.property)).toContain("name");
    const diff = await provider.diff!("ws-1", { name: "a", organization: "acme" }, { name: "a", organization: "acme" });
    expect(diff.changes).toBe(false);
  });
});

describe("resource registration", () => {
  it("a resource carries its type token and the provider text, as a dynamic resource does", async () => {
    const { setMocks } = await import("@pulumi/pulumi/runtime");
    const seen: { type: string; inputs: Record<string, unknown> }[] = [];
    await setMocks({
      newResource: (args) => {
        seen.push({ type: args.type, inputs: args.inputs });
        return { id: "ws-1", state: args.inputs };
      },
      call: () => ({}),
    });
    const ws = new Workspace("w", { name: "a", organization: "acme" });
    await new Promise<void>((resolve) => ws.id.apply(() => resolve()));
    // With the stack's origin key, registered once with the first workspace (docs/interrupted-updates.md).
    expect(seen.map((s) => s.type).sort()).toEqual([
      "pulumi-nodejs:dynamic/workspaces:StackOrigin",
      "pulumi-nodejs:dynamic/workspaces:Workspace",
    ]);
    const registered = seen.find((s) => s.type.endsWith(":Workspace"))!;
    expect(registered.inputs.__provider).toBe(providerText("Workspace"));
    expect(registered.inputs.name).toBe("a");
  });

  it("records the program's line as the source position, and leaves the stack trace limit as it was", async () => {
    const { setMocks } = await import("@pulumi/pulumi/runtime");
    await setMocks({ newResource: (args) => ({ id: "ws-2", state: args.inputs }), call: () => ({}) });
    const runtimeResource = createRequire(require.resolve("@pulumi/pulumi"))("./runtime/resource") as {
      registerResource: (...a: unknown[]) => unknown;
    };
    const register = runtimeResource.registerResource;
    const positions: unknown[] = [];
    runtimeResource.registerResource = (...a: unknown[]) => {
      positions.push(a[9]);
      return register(...a);
    };
    try {
      const limit = Error.stackTraceLimit;
      // A named function, as a program's frames are (an anonymous frame carries no position the SDK can read).
      function declareWorkspace(): Workspace {
        return new Workspace("positioned", { name: "b", organization: "acme" });
      }
      declareWorkspace();
      expect(Error.stackTraceLimit).toBe(limit);
      expect(() => new Workspace("bad", { name: "x", __provider: "evil" } as never)).toThrow(/__provider is reserved/);
      expect(Error.stackTraceLimit).toBe(limit);
    } finally {
      runtimeResource.registerResource = register;
    }
    expect(positions).toHaveLength(1);
    expect((positions[0] as { uri: string }).uri).toMatch(/provider-text\.test\.ts$/);
  });
});

describe("entry point tolerance", () => {
  it("serves provider text frozen from protocol 1, as old state holds it", async () => {
    // Written once by this release; later releases must keep it working unchanged.
    const text = fs.readFileSync(path.join(__dirname, "fixtures/workspace-provider-protocol-1.js"), "utf8");
    const provider = evaluate(text);
    const olds = { name: "a", organization: "acme", tagNames: ["x"] };
    expect(await provider.diff!("ws-1", olds, { name: "a", organization: "acme", tagNames: ["X"] })).toMatchObject({
      changes: false,
    });
    expect(await provider.diff!("ws-1", olds, { name: "a", organization: "other" })).toMatchObject({
      changes: true,
      replaces: ["organization"],
    });
    const check = await provider.check!({}, { name: "ok", organization: "acme", executionMode: "agent" });
    // The failure carries its property, absent input or not; the engine prints the property before the reason.
    expect(check.failures?.map((f) => [f.property, f.reason])).toEqual([
      ["agentPoolId", "is required when executionMode is agent"],
    ]);
  });

  it("serves the provider text of this release, frozen, as state written by it holds it", async () => {
    const text = fs.readFileSync(path.join(__dirname, "fixtures/workspace-provider-text-1.js"), "utf8");
    expect(text).toBe(providerText("Workspace"));
    const provider = evaluate(text);
    const olds = { name: "a", organization: "acme" };
    expect(await provider.diff!("ws-1", olds, { ...olds, description: "d" })).toMatchObject({ changes: true });
  });

  it("refuses provider text from a newer protocol or an unknown kind when the host loads it, with a way out", () => {
    const text = providerText("Workspace");
    expect(() => evaluate(text.replace("provider(1,", "provider(99,"))).toThrow(/newer release.*upgrade/);
    expect(() => evaluate(text.replace('"Workspace"', '"Gadget"'))).toThrow(
      /unknown resource kind.*install that release/,
    );
  });

  it("accepts calls from older serialized code and any spelling of the kind, refuses newer protocols clearly", async () => {
    const entry = createRequire(root + "/")("pulumi-workspaces/provider");
    const olds = { name: "a", organization: "acme" };
    for (const kind of [
      "Workspace",
      "workspace",
      "workspaces:Workspace",
      "pulumi-nodejs:dynamic/workspaces:Workspace",
    ]) {
      const d = await entry.dispatch(1, kind, "diff", ["ws-1", olds, { ...olds, name: "b" }]);
      expect(d.changes).toBe(true);
    }
    await expect(entry.dispatch(99, "Workspace", "diff", ["ws-1", olds, olds])).rejects.toThrow(
      /newer release.*upgrade/,
    );
    await expect(entry.dispatch(1, "Gadget", "diff", ["ws-1", olds, olds])).rejects.toThrow(/unknown resource kind/);
    await expect(entry.dispatch(1, "Workspace", "explode", [])).rejects.toThrow(/unknown provider method/);
  });
});
