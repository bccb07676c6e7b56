/**
 * `npm run demo` minus its install and build steps: the root program against the
 * embedded server, with the report it prints, and the stack's state it writes on request.
 */
import { spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { repoRoot, requireBuiltPackage, TestStack, type StateResource } from "./harness";

/** The passphrase the demo's stack is encrypted with (scripts/lib/engine.js's default). */
const DEMO_PASSPHRASE = "pulumi-workspaces-local";

/**
 * Runs the demo to its end; `whileServing` (with --serve) is called once the demo says it
 * serves the view, with the output so far, and its promise's end sends SIGTERM.
 */
function runDemo(
  args: string[],
  env: Record<string, string>,
  whileServing?: (output: string) => Promise<void>,
): Promise<{ code: number; output: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [path.join(repoRoot, "scripts", "demo.js"), ...args], {
      cwd: repoRoot,
      env: { ...process.env, ...env },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let output = "";
    let serving = false;
    child.stdout.on("data", (d) => {
      output += d;
      if (whileServing && !serving && output.includes("serving the view until Ctrl-C")) {
        serving = true;
        whileServing(output).then(() => child.kill("SIGTERM"), reject);
      }
    });
    child.stderr.on("data", (d) => (output += d));
    child.on("error", reject);
    child.on("close", (code) => resolve({ code: code ?? -1, output }));
  });
}

/**
 * What demo/index.ts declares between workspaces, per environment: the run trigger chain
 * (network-prod's apply queues a run of identity-prod, whose apply queues billing-prod's)
 * and who reads whose state.
 */
function declaredEdges(): string[] {
  const edges = ["run trigger:network-prod->identity-prod", "run trigger:identity-prod->billing-prod"];
  for (const env of ["dev", "staging", "prod"]) {
    for (const reader of ["identity", "billing", "checkout"]) edges.push(`state:network-${env}->${reader}-${env}`);
    for (const reader of ["billing", "checkout"]) edges.push(`state:identity-${env}->${reader}-${env}`);
  }
  return edges.sort();
}

/** The project of each of the demo's workspaces that the map names: the payment services' own, else platform. */
const projectOf = (ws: string) => (/^(billing|checkout)-/.test(ws) ? "payments" : "platform");

describe("the demo", () => {
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "pw-demo-test-"));
  const stateFile = path.join(tmp, "state.json");
  // The sensitive variable's value, chosen here so that the test knows what must never show.
  const gatewayKey = `gw-${randomBytes(12).toString("hex")}`;
  const notificationToken = `nt-${randomBytes(16).toString("hex")}`;
  const secretsEnv = { DEMO_PAYMENT_GATEWAY_KEY: gatewayKey, DEMO_NOTIFICATION_TOKEN: notificationToken };
  let run: Promise<{ code: number; output: string }> | undefined;
  // No terminal here: the demo stops at once, as it does in CI and in a pipe.
  const demo = () => (run ??= runDemo(["--export-state", stateFile], secretsEnv));
  afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

  it("declares the organisation on the embedded server, reports it and cleans up", async () => {
    requireBuiltPackage();
    const r = await demo();
    expect(r.code, r.output).toBe(0);
    // 31 resources of the demo program and the stack's origin (docs/interrupted-updates.md).
    expect(r.output).toMatch(/\+ 32 created/);
    expect(r.output).toMatch(/14 workspaces, 3 projects, 1 SSH key/);
    // Project tag bindings are inherited by every workspace in the project.
    expect(r.output).toMatch(
      /network-prod\s+platform\s+business-unit=commerce cost-center=cc-1024 env=prod owner=platform service=network/,
    );
    expect(r.output).toMatch(/network-prod .*billing-prod,checkout-prod,identity-prod\s+yes\s+api/);
    expect(r.output).toMatch(/billing-prod\s+payments\s+env=prod owner=payments service=billing\s/);
    expect(r.output).toMatch(/sandbox-network-eu-west-1\s+platform.*no-code/);
    expect(r.output).toMatch(/nocode-\S+\s+mod-\S+\s+1\.2\.0\s+true\s+region: eu-west-1\|us-east-1/);
    expect(fs.existsSync(path.join(repoRoot, "Pulumi.demo.yaml"))).toBe(false);
  });

  it("reports the variables (the sensitive one masked), the set, the team, the trigger and the notification", async () => {
    const { output } = await demo();
    expect(output).toMatch(
      /payments-defaults\s+project payments \(6 workspaces\)\s+PAYMENTS_CURRENCY=EUR, LOG_LEVEL=warn\n/,
    );
    expect(output).toMatch(/billing-prod\s+LOG_LEVEL\s+env\s+info\n/);
    expect(output).toMatch(/billing-prod\s+PAYMENT_GATEWAY_KEY\s+env\s+\(sensitive\)\n/);
    expect(output).toMatch(/\(1 sensitive\)/);
    expect(output).toMatch(/\npayments\s+organization\s+project payments: write\n/);
    expect(output).toMatch(/rt-\S+\s+network-prod -> identity-prod\n/);
    expect(output).toMatch(/rt-\S+\s+identity-prod -> billing-prod\n/);
    const row = output.match(
      /network-prod runs\s+network-prod\s+generic http:\/\/127\.0\.0\.1:(\d+)\/hooks\/network-prod\s+run:completed,run:errored\s+true\s+HTTP 200\n/,
    );
    expect(row, output).not.toBeNull();
    // What the receiver got, on the port the configuration names, signed with the token.
    const delivered = output.match(
      /notification 'network-prod runs' -> verification delivered to http:\/\/127\.0\.0\.1:(\d+)\/hooks\/network-prod \(signed, signature valid\), (during pulumi up|on request)/,
    );
    expect(delivered, output).not.toBeNull();
    expect(delivered![1]).toBe(row![1]);
    expect(output).toMatch(/receiver got 1 delivery in all/);
  });

  it("ends with the map of what it deployed and the web view's address, and stops", async () => {
    const { output } = await demo();
    const lines = output.trimEnd().split("\n");
    const view = lines.at(-2)!.match(/^\[demo\] view {5}(http:\/\/127\.0\.0\.1:\d+\/app\/)#code=[A-Za-z0-9_-]{43}$/);
    expect(view, output).not.toBeNull();
    const organization = output.match(/^\[demo\] server .* \(organization (\S+)\)$/m)![1];
    expect(lines.at(-1)).toBe(
      `[demo] map      ${view![1]}#/o/${organization}/map (once signed in through the view's address)`,
    );
    expect(output).not.toContain("serving the view");
    const map = output.slice(output.indexOf("map of what it deployed"), output.indexOf("[demo] view"));
    expect(map).toMatch(/\npayments \(6 workspaces\)\n {2}no run trigger or state sharing leaves its workspaces\n/);
    expect(map).toMatch(/\nplatform \(8 workspaces\)\n/);
    expect(map).toContain("  network-prod ─state→ billing-prod (payments), checkout-prod (payments), identity-prod\n");
    const edges: string[] = [];
    for (const m of map.matchAll(/^ {2}(\S+) ─(run trigger|state)→ (.+)$/gm)) {
      for (const head of m[3].split(", ")) {
        const [, name, project] = head.match(/^(\S+)(?: \((\S+)\))?$/)!;
        // A workspace of another project than the one the line is under names its project.
        expect(project ?? projectOf(m[1]), head).toBe(projectOf(name));
        edges.push(`${m[2]}:${m[1]}->${name}`);
      }
    }
    expect(edges.sort()).toEqual(declaredEdges());
  });

  it("with --serve, serves the view until SIGTERM, then cleans up and exits 0", async () => {
    await demo(); // one demo at a time: both use the root program's stack config
    let page = 0;
    const r = await runDemo(["--serve"], secretsEnv, async (output) => {
      const url = output.match(/\[demo\] view {5}(\S+)#code=/)![1];
      page = (await fetch(url)).status;
    });
    expect(r.code, r.output).toBe(0);
    expect(page).toBe(200);
    expect(r.output).toMatch(/serving the view until Ctrl-C .*\n\[demo\] SIGTERM: stopping the server\n$/);
    expect(fs.existsSync(path.join(repoRoot, "Pulumi.demo.yaml"))).toBe(false);
  });

  it("never prints the sensitive value or the notification token, and keeps them in the state only encrypted", async () => {
    const { output } = await demo();
    expect(output).not.toContain(gatewayKey);
    expect(output).not.toContain(notificationToken);
    const exported = fs.readFileSync(stateFile, "utf8");
    expect(exported).not.toContain(gatewayKey);
    expect(exported).not.toContain(notificationToken);
    const resources = JSON.parse(exported).deployment.resources as StateResource[];
    const variables = resources.find((r) => r.type.endsWith(":WorkspaceVariables"));
    expect(variables?.outputs?.sensitiveValues).toMatchObject({
      "4dabf18193072939515e22adb298388d": "1b47061264138c4ac30d75fd1eb44270",
      ciphertext: expect.any(String),
    });
    // The positive control: the same state, imported into a stack of its own and decrypted,
    // holds the value where the variable keeps it.
    const copy = await TestStack.create({ project: "pulumi-workspaces-demo", stack: "demo", files: {} });
    try {
      const env = { PULUMI_CONFIG_PASSPHRASE: DEMO_PASSPHRASE };
      await copy.ok(["stack", "import", "--file", stateFile], env);
      const shown = JSON.parse((await copy.ok(["stack", "export", "--show-secrets"], env)).stdout).deployment
        .resources as StateResource[];
      const kept = shown.find((r) => r.type.endsWith(":WorkspaceVariables"))?.outputs?.sensitiveValues as {
        plaintext: string;
      };
      expect(JSON.parse(kept.plaintext)).toEqual({ "env/PAYMENT_GATEWAY_KEY": gatewayKey });
      // DEMO_NOTIFICATION_TOKEN is the token the stack was given.
      expect(JSON.stringify(shown)).toContain(notificationToken);
    } finally {
      copy.dispose();
    }
  });
});
