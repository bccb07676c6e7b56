/**
 * Where the generator finds the service, against the real server: the stack config of the
 * Pulumi project it runs in (its selected stack, as `pulumi stack init` / `select` record it,
 * or `--stack`), then `WORKSPACES_*`, then `TFE_*`; one line saying which source gave each
 * setting, never the token; a secret in the stack's config left to the engine, with the way
 * out when nothing else has a token.
 */
import { createHash } from "node:crypto";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { WorkspacesClient } from "../../src/client";
import { startServer, type RunningServer } from "../../src/server";
import { runCli } from "./check";
import { pulumiNewTypescript } from "./pulumi-new";

let server: RunningServer;
let root: string;
let project: string;
let pulumiHome: string;

/** Records `stack` as the project's selected stack, where the engine's CLI keeps it. */
function select(stack: string, projectFile = path.join(project, "Pulumi.yaml"), name = "adopt-here"): void {
  const digest = createHash("sha1").update(projectFile).digest("hex");
  fs.mkdirSync(path.join(pulumiHome, "workspaces"), { recursive: true });
  fs.writeFileSync(
    path.join(pulumiHome, "workspaces", `${name}-${digest}-workspace.json`),
    JSON.stringify({ stack: `organization/${name}/${stack}` }),
  );
}

/** A stack config file as `pulumi config set` writes it; `secure` values are ciphertext. */
function stackFile(stack: string, values: Record<string, string | { secure: string }>, dir = project): void {
  const lines = Object.entries(values).map(([k, v]) =>
    typeof v === "string" ? `  ${k}: ${v}` : `  ${k}:\n    secure: ${v.secure}`,
  );
  fs.writeFileSync(
    path.join(dir, `Pulumi.${stack}.yaml`),
    `encryptionsalt: v1:abc=:v1:def\nconfig:\n${lines.join("\n")}\n`,
  );
}

const CIPHERTEXT = { secure: "v1:A8xmMV0WvUMXedbJ:w18oNNdgKRPoMiRr7SdzoWsASA==" };

const generate = (args: string[], env: Record<string, string> = {}, cwd = project) =>
  runCli(
    ["generate", "--out", path.join(project, "out", "index.ts"), "--force", ...args],
    {
      PULUMI_HOME: pulumiHome,
      HOME: root,
      WORKSPACES_ADDRESS: "",
      WORKSPACES_TOKEN: "",
      WORKSPACES_ORGANIZATION: "",
      TFE_HOSTNAME: "",
      TFE_TOKEN: "",
      TFE_ORGANIZATION: "",
      ...env,
    },
    cwd,
  );

/** The one settings line the command printed. */
function settingsLine(stderr: string): string {
  const lines = stderr.split("\n").filter((l) => l.startsWith("settings: "));
  expect(lines, stderr).toHaveLength(1);
  return lines[0];
}

beforeAll(async () => {
  server = await startServer({ port: 0, db: ":memory:", rateLimit: false, organization: "acme" });
  const client = new WorkspacesClient({ address: server.url, token: server.token });
  for (const name of ["network", "app"]) await client.workspaces.create("acme", { name });
});

afterAll(async () => {
  await server?.close();
});

beforeEach(() => {
  root = fs.mkdtempSync(path.join(os.tmpdir(), "pw-generate-settings-"));
  project = path.join(root, "program");
  pulumiHome = path.join(root, "pulumi-home");
  fs.mkdirSync(project, { recursive: true });
  fs.writeFileSync(path.join(project, "Pulumi.yaml"), pulumiNewTypescript("adopt-here")["Pulumi.yaml"]);
  return () => fs.rmSync(root, { recursive: true, force: true });
});

describe("the generator's settings", () => {
  it("takes address and organization from the selected stack's config and the token from the environment", async () => {
    select("dev");
    stackFile("dev", {
      "workspaces:address": server.url,
      "workspaces:organization": "acme",
      "workspaces:token": CIPHERTEXT,
    });
    const r = await generate([], { WORKSPACES_TOKEN: server.token });
    expect(r.code, r.stderr).toBe(0);
    expect(settingsLine(r.stderr)).toBe(
      `settings: address ${server.url} from Pulumi.dev.yaml, organization acme from Pulumi.dev.yaml, ` +
        "token from WORKSPACES_TOKEN (the stack's is a secret)",
    );
    expect(r.stderr).not.toContain(server.token);
    const program = fs.readFileSync(path.join(project, "out", "index.ts"), "utf8");
    expect(program).toContain('new Workspace("network"');
    expect(program).toContain('new Workspace("app"');
  });

  it("puts the stack's config before the environment, as the resources do, and --organization before both", async () => {
    select("dev");
    stackFile("dev", { "workspaces:address": server.url, "workspaces:organization": "acme" });
    const r = await generate(["--organization", "acme"], {
      WORKSPACES_ADDRESS: "http://127.0.0.1:9",
      WORKSPACES_ORGANIZATION: "other",
      TFE_TOKEN: server.token,
    });
    expect(r.code, r.stderr).toBe(0);
    expect(settingsLine(r.stderr)).toBe(
      `settings: address ${server.url} from Pulumi.dev.yaml, organization acme from --organization, token from TFE_TOKEN`,
    );
  });

  it("reads the project from a folder above, the stack named by --stack, and a stackConfigDir", async () => {
    fs.appendFileSync(path.join(project, "Pulumi.yaml"), "stackConfigDir: config\n");
    fs.mkdirSync(path.join(project, "config"));
    fs.mkdirSync(path.join(project, "src"));
    select("dev");
    stackFile(
      "prod",
      { "workspaces:address": server.url, "workspaces:organization": "acme" },
      path.join(project, "config"),
    );
    const r = await generate(["--stack", "prod"], { WORKSPACES_TOKEN: server.token }, path.join(project, "src"));
    expect(r.code, r.stderr).toBe(0);
    expect(settingsLine(r.stderr)).toContain(`address ${server.url} from config/Pulumi.prod.yaml`);

    const missing = await generate(["--stack", "staging"], { WORKSPACES_TOKEN: server.token });
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain(
      `--stack staging: ${path.join(project, "config", "Pulumi.staging.yaml")} does not exist`,
    );
  });

  it("takes a token kept in plain text in the stack's config, and prints it nowhere", async () => {
    select("dev");
    stackFile("dev", {
      "workspaces:address": server.url,
      "workspaces:organization": "acme",
      "workspaces:token": server.token,
    });
    const r = await generate([]);
    expect(r.code, r.stderr).toBe(0);
    expect(settingsLine(r.stderr)).toContain("token from Pulumi.dev.yaml");
    expect(r.stderr).not.toContain(server.token);
  });

  it("without a selected stack, uses the environment and says why", async () => {
    stackFile("dev", { "workspaces:address": "http://127.0.0.1:9" });
    const r = await generate([], {
      WORKSPACES_ADDRESS: server.url,
      WORKSPACES_TOKEN: server.token,
      WORKSPACES_ORGANIZATION: "acme",
    });
    expect(r.code, r.stderr).toBe(0);
    expect(settingsLine(r.stderr)).toBe(
      `settings: address ${server.url} from WORKSPACES_ADDRESS, organization acme from WORKSPACES_ORGANIZATION, ` +
        "token from WORKSPACES_TOKEN; no stack selected (pulumi stack select)",
    );
  });

  it("with the token only as a secret of the stack, names the secret and the way out, and writes nothing", async () => {
    select("dev");
    stackFile("dev", {
      "workspaces:address": server.url,
      "workspaces:organization": "acme",
      "workspaces:token": CIPHERTEXT,
    });
    const r = await generate([]);
    expect(r.code).toBe(1);
    expect(r.stderr).toBe(
      `pulumi-workspaces generate: no API token for ${new URL(server.url).host}: workspaces:token in Pulumi.dev.yaml is a secret, ` +
        "which only the engine decrypts; set WORKSPACES_TOKEN (or TFE_TOKEN) for this command, " +
        "or log in with the engine's CLI for its credentials file",
    );
    expect(fs.existsSync(path.join(project, "out"))).toBe(false);
  });

  it("without an address anywhere, says which stack it read and the two ways to set one", async () => {
    select("dev");
    stackFile("dev", { "workspaces:organization": "acme" });
    const r = await generate([], { WORKSPACES_TOKEN: server.token });
    expect(r.code).toBe(1);
    expect(r.stderr).toBe(
      "pulumi-workspaces generate: no service address (stack dev sets no workspaces:address): " +
        "run `pulumi config set workspaces:address HOST` in the program's folder, or set WORKSPACES_ADDRESS (or TFE_HOSTNAME)",
    );
  });
});
