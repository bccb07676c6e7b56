/**
 * Resources never lose a workspace from state, through the real engine and the real
 * local server, asserting on the server's records:
 *
 * - a refresh with a token that sees only some workspaces keeps every workspace in
 *   state (and says why it cannot refresh the others), and a later `up` with the
 *   owners token changes nothing; with a token that sees everything, an out-of-band
 *   delete is still dropped on refresh and recreated on the next `up`;
 * - after an out-of-band change and a refresh, `pulumi preview --diff` names the
 *   drifted property with its old and new values;
 * - a different ambient organization does not replace live workspaces; a program that
 *   changes `organization` itself does;
 * - the messages a user reads: each failure printed once, without a stack trace,
 *   naming the resource, the property or the reason;
 * - a destroy with such a token deletes nothing it cannot see;
 * - and where the token lands on each configuration path, as the docs say.
 */
import * as fs from "node:fs";
import * as http from "node:http";
import type { AddressInfo } from "node:net";
import * as os from "node:os";
import * as path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RunningServer } from "../../src/server";
import { api, serverEnv, startTestServer, TestStack, type PulumiResult } from "./harness";
import { giveWorkspaceResources, workspaceByName } from "./server-helpers";

/** A team of the server's organization with `access` on the given workspaces; returns its token. */
async function teamToken(
  server: RunningServer,
  name: string,
  workspaceIds: string[],
  access = "read",
): Promise<string> {
  const team = await api<any>(server, `/organizations/${server.organization}/teams`, {
    method: "POST",
    body: { data: { type: "teams", attributes: { name } } },
  });
  expect(team.status).toBe(201);
  for (const id of workspaceIds) {
    const grant = await api(server, "/team-workspaces", {
      method: "POST",
      body: {
        data: {
          type: "team-workspaces",
          attributes: { access },
          relationships: {
            team: { data: { type: "teams", id: team.body.data.id } },
            workspace: { data: { type: "workspaces", id } },
          },
        },
      },
    });
    expect(grant.status).toBe(201);
  }
  const token = await api<any>(server, `/teams/${team.body.data.id}/authentication-token`, { method: "POST" });
  return token.body.data.attributes.token;
}

/** How many times `text` occurs in `output`. */
function occurrences(output: string, text: string): number {
  return output.split(text).length - 1;
}

/** The part of the output under "Diagnostics:", where the engine lists each failure. */
function diagnostics(output: string): string {
  const start = output.indexOf("\nDiagnostics:");
  if (start < 0) return "";
  const rest = output.slice(start + 1);
  const end = rest.search(/\n(Outputs|Resources):/);
  return end < 0 ? rest : rest.slice(0, end);
}

/** The ids of the Workspace resources in the stack's state, sorted. */
function workspaceIdsInState(stack: { resources(type: string): { id?: string }[] }): (string | undefined)[] {
  return stack
    .resources("dynamic/workspaces:Workspace")
    .map((w) => w.id)
    .sort();
}

/**
 * The user reads the failure once, and no stack trace: it is listed once under
 * Diagnostics, and anywhere else only as the engine's own status of the resource's row
 * (`error: ...`), never as an echo of the provider process's stderr.
 */
function expectOnceWithoutStack(r: PulumiResult, text: string): void {
  expect(r.code, r.output).not.toBe(0);
  expect(occurrences(diagnostics(r.output), text), r.output).toBe(1);
  for (const line of r.output.split("\n").filter((l) => l.includes(text))) expect(line, r.output).toMatch(/error: /);
  expect(r.output).not.toMatch(/^\s+at .+\(.*:\d+:\d+\)$/m);
  expect(r.output).not.toMatch(/\.ts:\d+:\d+/);
  expect(r.output).not.toContain("ProviderError");
  expect(r.output).not.toContain("[Circular");
}

const twoWorkspaces = (description = "managed") => `
import { Workspace } from "pulumi-workspaces";
const shared = new Workspace("shared", { name: "own-shared", description: ${JSON.stringify(description)} });
const secret = new Workspace("secret", { name: "own-secret", description: "managed" });
export const sharedId = shared.id;
export const secretId = secret.id;
`;

describe("a refresh with a token that sees only some workspaces", () => {
  let server: RunningServer;
  let stack: TestStack;
  let ids: { sharedId: string; secretId: string };

  beforeAll(async () => {
    server = await startTestServer();
    stack = await TestStack.create({
      project: "own-weak",
      files: { "index.ts": twoWorkspaces() },
      env: serverEnv(server),
    });
    const up = await stack.up();
    expect(up.code, up.output).toBe(0);
    ids = (await stack.outputs()) as typeof ids;
  });
  afterAll(async () => {
    stack?.dispose();
    await server?.close();
  });

  it("keeps the workspace it cannot see in state, says why, and a later up with the owners token changes nothing", async () => {
    const weak = await teamToken(server, "readers", [ids.sharedId]);
    const refresh = await stack.pulumi(["refresh", "--yes", "--non-interactive", "--skip-preview"], {
      WORKSPACES_TOKEN: weak,
    });
    expectOnceWithoutStack(refresh, `cannot refresh workspace "own-secret" (${ids.secretId})`);
    expect(refresh.output).toContain("pulumi state delete");
    expect(refresh.output).toContain("token that can see it");
    expect(refresh.output).not.toContain(weak);

    // Both workspaces are still in state, and on the server.
    expect(workspaceIdsInState(stack)).toEqual([ids.sharedId, ids.secretId].sort());
    expect((await workspaceByName(server, "own-secret")).id).toBe(ids.secretId);

    // The owners token finds nothing to do, and the server keeps the same records.
    const before = await Promise.all(["own-shared", "own-secret"].map((n) => workspaceByName(server, n)));
    const up = await stack.up();
    expect(up.code, up.output).toBe(0);
    const preview = await stack.previewJson(["--expect-no-changes"]);
    expect(preview.code, preview.raw.output).toBe(0);
    expect(preview.steps.filter((s) => s.op !== "same")).toEqual([]);
    const after = await Promise.all(["own-shared", "own-secret"].map((n) => workspaceByName(server, n)));
    expect(after.map((w) => [w.id, w.attributes["updated-at"]])).toEqual(
      before.map((w) => [w.id, w.attributes["updated-at"]]),
    );
  });

  it("a destroy with that token deletes nothing it cannot see: the workspace stays on the server and in state, with one message", async () => {
    const weak = await teamToken(server, "destroyers", [ids.sharedId]);
    const r = await stack.pulumi(["destroy", "--yes", "--non-interactive", "--skip-preview"], {
      WORKSPACES_TOKEN: weak,
    });
    expectOnceWithoutStack(r, `cannot delete workspace "own-secret" (${ids.secretId}): the service answered 404`);
    expect(r.output).toContain("token that can see it");
    expect(r.output).toContain("pulumi state delete");
    expect(r.output).not.toContain(weak);
    // The read-only token could delete neither: both stay, on the server and in state.
    for (const [name, id] of [
      ["own-secret", ids.secretId],
      ["own-shared", ids.sharedId],
    ]) {
      expect((await workspaceByName(server, name)).id).toBe(id);
    }
    expect(workspaceIdsInState(stack)).toEqual([ids.sharedId, ids.secretId].sort());
  });

  it("with a token that sees everything, an out-of-band delete is dropped on refresh and recreated on up", async () => {
    const del = await api(server, `/workspaces/${ids.secretId}`, { method: "DELETE" });
    expect(del.status).toBe(204);
    const refresh = await stack.refresh();
    expect(refresh.code, refresh.output).toBe(0);
    expect(stack.resources("dynamic/workspaces:Workspace").map((w) => w.id)).toEqual([ids.sharedId]);
    const up = await stack.up();
    expect(up.code, up.output).toBe(0);
    const recreated = await workspaceByName(server, "own-secret");
    expect(recreated.id).not.toBe(ids.secretId);
    expect((await stack.outputs()).secretId).toBe(recreated.id);
  });
});

describe("drift after refresh", () => {
  let server: RunningServer;
  let stack: TestStack;

  beforeAll(async () => {
    server = await startTestServer();
    stack = await TestStack.create({
      project: "own-drift",
      files: { "index.ts": twoWorkspaces("declared") },
      env: serverEnv(server),
    });
    const up = await stack.up();
    expect(up.code, up.output).toBe(0);
  });
  afterAll(async () => {
    stack?.dispose();
    await server?.close();
  });

  it("preview --diff names the drifted property with old and new values, and up puts it back", async () => {
    const ws = await workspaceByName(server, "own-shared");
    const patch = await api(server, `/workspaces/${ws.id}`, {
      method: "PATCH",
      body: { data: { type: "workspaces", attributes: { description: "changed by hand" } } },
    });
    expect(patch.status).toBe(200);
    const refresh = await stack.refresh();
    expect(refresh.code, refresh.output).toBe(0);

    const preview = await stack.pulumi(["preview", "--diff", "--non-interactive"]);
    expect(preview.code, preview.output).toBe(0);
    expect(preview.output).toMatch(/~\s*description\s*:\s*"changed by hand"\s*=>\s*"declared"/);
    // Only what drifted, and nothing the program did not give.
    expect(preview.output).not.toMatch(/[-+~]\s*executionMode/);
    expect(preview.output).not.toMatch(/[-+~]\s*name\s*:/);

    const up = await stack.up();
    expect(up.code, up.output).toBe(0);
    expect(up.output).toMatch(/description/);
    expect((await workspaceByName(server, "own-shared")).attributes.description).toBe("declared");
  });
});

describe("an ambient organization", () => {
  let server: RunningServer;
  let stack: TestStack;
  let other: string;

  beforeAll(async () => {
    server = await startTestServer();
    other = "elsewhere";
    const org = await api(server, "/organizations", {
      method: "POST",
      body: { data: { type: "organizations", attributes: { name: other, email: "ops@example.com" } } },
    });
    expect(org.status).toBe(201);
    stack = await TestStack.create({
      project: "own-org",
      files: {
        "index.ts": `import { Workspace } from "pulumi-workspaces";\nexport const id = new Workspace("app", { name: "own-app" }).id;\n`,
      },
      env: serverEnv(server),
    });
    const up = await stack.up();
    expect(up.code, up.output).toBe(0);
  });
  afterAll(async () => {
    stack?.dispose();
    await server?.close();
  });

  it("that changed does not replace a live workspace; the program changing it does", async () => {
    const before = await workspaceByName(server, "own-app");
    const elsewhere = { WORKSPACES_ORGANIZATION: other };
    const preview = await stack.pulumi(["preview", "--json", "--non-interactive", "--expect-no-changes"], elsewhere);
    expect(preview.code, preview.output).toBe(0);
    const up = await stack.pulumi(["up", "--yes", "--non-interactive", "--skip-preview"], elsewhere);
    expect(up.code, up.output).toBe(0);
    const after = await workspaceByName(server, "own-app");
    expect(after.id).toBe(before.id);
    expect(after.relationships.organization.data.id).toBe(server.organization);
    expect((await api(server, `/organizations/${other}/workspaces/own-app`)).status).toBe(404);
    expect(stack.resources("dynamic/workspaces:Workspace")[0].inputs?.organization).toBe(server.organization);

    // Naming the organization in the program is a real move: a replacement.
    stack.writeFiles({
      "index.ts": `import { Workspace } from "pulumi-workspaces";\nexport const id = new Workspace("app", { name: "own-app", organization: ${JSON.stringify(other)} }).id;\n`,
    });
    const moved = await stack.previewJson();
    expect(moved.code, moved.raw.output).toBe(0);
    expect(moved.steps.find((s) => s.urn.endsWith("::app"))?.op).toMatch(/replace/);
  });
});

describe("messages a user reads", () => {
  let server: RunningServer;

  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(async () => {
    await server?.close();
  });

  it("a refused delete is printed once, without a stack trace", async () => {
    const stack = await TestStack.create({
      project: "own-refused",
      files: {
        "index.ts": `import { Workspace } from "pulumi-workspaces";\nexport const id = new Workspace("busy", { name: "own-busy" }).id;\n`,
      },
      env: serverEnv(server),
    });
    try {
      expect((await stack.up()).code).toBe(0);
      const ws = await workspaceByName(server, "own-busy");
      await giveWorkspaceResources(server, ws.id, 2);
      const r = await stack.destroy();
      expectOnceWithoutStack(r, `cannot delete workspace "own-busy" (${ws.id}): the workspace still manages resources`);
      expect(r.output).toContain("forceDelete");
      expect((await workspaceByName(server, "own-busy")).id).toBe(ws.id);
    } finally {
      stack.dispose();
    }
  });

  it("Workspace.get with a token that cannot see the workspace names it and why", async () => {
    const created = await api<any>(server, `/organizations/${server.organization}/workspaces`, {
      method: "POST",
      body: { data: { type: "workspaces", attributes: { name: "own-hidden" } } },
    });
    expect(created.status).toBe(201);
    const id = created.body.data.id as string;
    const weak = await teamToken(server, "nobody", []);
    const stack = await TestStack.create({
      project: "own-get",
      files: {
        "index.ts": `import { Workspace } from "pulumi-workspaces";\nexport const d = Workspace.get("hidden", ${JSON.stringify(id)}).description;\n`,
      },
      env: { ...serverEnv(server), WORKSPACES_TOKEN: weak },
    });
    try {
      const r = await stack.up();
      expectOnceWithoutStack(r, `cannot read workspace ${id}: the service answered 404`);
      expect(r.output).toContain("may not see it");
      expect(r.output).not.toContain(weak);
      // By organization and name, the lookup in the program says the same.
      const byName = `${server.organization}/own-hidden`;
      stack.writeFiles({
        "index.ts": `import { Workspace } from "pulumi-workspaces";\nexport const d = Workspace.get("hidden", ${JSON.stringify(byName)}).description;\n`,
      });
      const n = await stack.up();
      expectOnceWithoutStack(n, `cannot adopt workspace ${byName}: the service answered 404`);
      expect(n.output).toContain("may not see it");
      expect(n.output).not.toContain(weak);
    } finally {
      stack.dispose();
    }
  });

  it("an update refused for a read-only token says the token may lack write permission", async () => {
    const program = (d: string) =>
      `import { Workspace } from "pulumi-workspaces";\nexport const id = new Workspace("ro", { name: "own-readonly", description: ${JSON.stringify(d)} }).id;\n`;
    const stack = await TestStack.create({
      project: "own-readonly",
      files: { "index.ts": program("one") },
      env: serverEnv(server),
    });
    try {
      expect((await stack.up()).code).toBe(0);
      const ws = await workspaceByName(server, "own-readonly");
      const reader = await teamToken(server, "ro-readers", [ws.id]);
      stack.writeFiles({ "index.ts": program("two") });
      const r = await stack.pulumi(["up", "--yes", "--non-interactive", "--skip-preview"], {
        WORKSPACES_TOKEN: reader,
      });
      expectOnceWithoutStack(r, `cannot update workspace "own-readonly" (${ws.id})`);
      expect(r.output).toContain("may lack write permission");
      expect((await workspaceByName(server, "own-readonly")).attributes.description).toBe("one");
    } finally {
      stack.dispose();
    }
  });

  it("a check failure speaks the program's names, once, on the property it is about", async () => {
    const stack = await TestStack.create({
      project: "own-check",
      files: {
        "index.ts": `import { Workspace } from "pulumi-workspaces";\nnew Workspace("agent", { name: "own-agent", executionMode: "agent" });\n`,
      },
      env: serverEnv(server),
    });
    try {
      const r = await stack.pulumi(["preview", "--non-interactive"]);
      // The engine names the property (an absent one prints as {<nil>}) before the reason.
      expectOnceWithoutStack(
        r,
        "property agentPoolId value {<nil>} has a problem: is required when executionMode is agent",
      );
      expect(r.output).not.toMatch(/agent-pool-id|execution-mode/);
      expect(r.output).not.toMatch(/agentPoolId[^\n]*agentPoolId/);
      expect((await api(server, `/organizations/${server.organization}/workspaces/own-agent`)).status).toBe(404);
    } finally {
      stack.dispose();
    }
  });

  it("a safe delete that waits out conflicts reports progress as ephemeral status messages", async () => {
    // A proxy answers the first safe deletes with the service's "still processing" conflict.
    let conflicts = 3;
    const target = new URL(server.url);
    const proxy = http.createServer((req, res) => {
      if (req.method === "POST" && /\/actions\/safe-delete$/.test(req.url ?? "") && conflicts > 0) {
        conflicts -= 1;
        req.resume();
        res.writeHead(409, { "content-type": "application/vnd.api+json" });
        res.end(
          JSON.stringify({
            errors: [{ status: "409", title: "conflict", detail: "The workspace is still processing a run." }],
          }),
        );
        return;
      }
      const upstream = http.request(
        {
          host: target.hostname,
          port: target.port,
          path: req.url,
          method: req.method,
          headers: { ...req.headers, host: target.host },
        },
        (up) => {
          res.writeHead(up.statusCode ?? 502, up.headers);
          up.pipe(res);
        },
      );
      req.pipe(upstream);
    });
    await new Promise<void>((resolve) => proxy.listen(0, "127.0.0.1", resolve));
    const address = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}${target.pathname}`;
    const stack = await TestStack.create({
      project: "own-progress",
      files: {
        "index.ts": `import { Workspace } from "pulumi-workspaces";\nexport const id = new Workspace("slow", { name: "own-slow" }).id;\n`,
      },
      env: { ...serverEnv(server), WORKSPACES_ADDRESS: address },
    });
    try {
      expect((await stack.up()).code).toBe(0);
      const r = await stack.destroy();
      expect(r.code, r.output).toBe(0);
      expect(conflicts).toBe(0);
      expect(r.output).toContain('waiting for the service to finish processing workspace "own-slow"');
      // A status, not a diagnostic: it does not stay in the summary.
      expect(diagnostics(r.output)).not.toContain("waiting for the service");
      expect((await api(server, `/organizations/${server.organization}/workspaces/own-slow`)).status).toBe(404);
    } finally {
      stack.dispose();
      await new Promise<void>((resolve) => proxy.close(() => resolve()));
    }
  });
});

describe("where the token lands", () => {
  let server: RunningServer;

  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(async () => {
    await server?.close();
  });

  const program = (name: string) =>
    `import { Workspace } from "pulumi-workspaces";\nexport const id = new Workspace("w", { name: ${JSON.stringify(name)} }).id;\n`;

  it("stack config: encrypted in state as an input of the default pulumi-nodejs provider, and in -v=9 logs", async () => {
    const { WORKSPACES_TOKEN: _token, ...rest } = serverEnv(server);
    const stack = await TestStack.create({
      project: "own-tok-config",
      files: { "index.ts": program("tok-config") },
      env: rest,
      secretConfig: { "workspaces:token": server.token },
    });
    try {
      const up = await stack.pulumi(["up", "--yes", "--non-interactive", "--skip-preview", "-v=9", "--logtostderr"]);
      expect(up.code, up.output.slice(-2000)).toBe(0);
      expect(up.output).toContain(server.token);
      expect(up.output).not.toContain("workspaces:token is set in plain text");
      expect(stack.stateText()).not.toContain(server.token);
      const exported = JSON.parse((await stack.ok(["stack", "export", "--show-secrets"])).stdout);
      const holders = exported.deployment.resources.filter((r: any) => JSON.stringify(r).includes(server.token));
      expect(holders.map((r: any) => r.type)).toEqual(["pulumi:providers:pulumi-nodejs"]);
      // A secret: the export shows it only with --show-secrets, inside the secret marker.
      expect(JSON.stringify(holders[0].inputs["workspaces:token"])).toContain(server.token);
      expect((await stack.ok(["stack", "export"])).stdout).not.toContain(server.token);
    } finally {
      stack.dispose();
    }
  });

  it("plain stack config (--plaintext): in plain text in Pulumi.<stack>.yaml and in the state, said once, and in -v=9 logs", async () => {
    const { WORKSPACES_TOKEN: _token, ...rest } = serverEnv(server);
    const stack = await TestStack.create({
      project: "own-tok-plain",
      files: { "index.ts": program("tok-plain") },
      env: rest,
    });
    try {
      // The CLI takes a value that looks like a token in plain text only with --plaintext.
      const refused = await stack.pulumi(["config", "set", "workspaces:token", server.token]);
      expect(refused.code).not.toBe(0);
      expect(refused.output).toContain("--plaintext");
      await stack.ok(["config", "set", "--plaintext", "workspaces:token", server.token]);
      const up = await stack.up();
      expect(up.code, up.output).toBe(0);
      // The provider says so once, without the token.
      const warning = "workspaces:token is set in plain text (in Pulumi.dev.yaml, and unencrypted in the state";
      expect(occurrences(diagnostics(up.output), warning), up.output).toBe(1);
      expect(diagnostics(up.output)).toContain("pulumi config set --secret workspaces:token");
      expect(up.output).not.toContain(server.token);
      const verbose = await stack.pulumi([
        "up",
        "--yes",
        "--non-interactive",
        "--skip-preview",
        "-v=9",
        "--logtostderr",
      ]);
      expect(verbose.code, verbose.output.slice(-2000)).toBe(0);
      expect(verbose.output).toContain(server.token);
      expect(fs.readFileSync(path.join(stack.dir, `Pulumi.${stack.stack}.yaml`), "utf8")).toContain(
        `workspaces:token: ${server.token}`,
      );
      expect(stack.stateText()).toContain(server.token);
      // Readable without --show-secrets, as a plain input of the default provider only.
      const exported = JSON.parse((await stack.ok(["stack", "export"])).stdout);
      const holders = exported.deployment.resources.filter((r: any) => JSON.stringify(r).includes(server.token));
      expect(holders.map((r: any) => r.type)).toEqual(["pulumi:providers:pulumi-nodejs"]);
      expect(holders[0].inputs["workspaces:token"]).toBe(server.token);
    } finally {
      stack.dispose();
    }
  });

  it("TFE_TOKEN, then the credentials file alone: neither in state nor in -v=9 logs", async () => {
    const { WORKSPACES_TOKEN: _token, ...rest } = serverEnv(server);
    const home = fs.mkdtempSync(path.join(os.tmpdir(), "own-home-"));
    const stack = await TestStack.create({
      project: "own-tok-tfe",
      files: { "index.ts": program("tok-tfe") },
      env: { ...rest, HOME: home },
    });
    const verbose = ["up", "--yes", "--non-interactive", "--skip-preview", "-v=9", "--logtostderr", "--logflow"];
    try {
      // No credentials file yet: TFE_TOKEN is the only token.
      const viaEnv = await stack.pulumi(verbose, { TFE_TOKEN: server.token });
      expect(viaEnv.code, viaEnv.output.slice(-2000)).toBe(0);
      expect(viaEnv.output).not.toContain(server.token);
      expect((await workspaceByName(server, "tok-tfe")).id).toMatch(/^ws-/);

      // The file the engine's CLI writes on login, by host and port; no token in the environment.
      fs.mkdirSync(path.join(home, ".terraform.d"));
      const credentials = { credentials: { [new URL(server.url).host]: { token: server.token } } };
      fs.writeFileSync(path.join(home, ".terraform.d", "credentials.tfrc.json"), JSON.stringify(credentials));
      stack.writeFiles({ "index.ts": program("tok-file") });
      const viaFile = await stack.pulumi(verbose);
      expect(viaFile.code, viaFile.output.slice(-2000)).toBe(0);
      expect(viaFile.output).not.toContain(server.token);
      expect((await workspaceByName(server, "tok-file")).id).toMatch(/^ws-/);
      expect((await stack.ok(["stack", "export", "--show-secrets"])).stdout).not.toContain(server.token);
    } finally {
      stack.dispose();
      fs.rmSync(home, { recursive: true, force: true });
    }
  });

  it("environment: neither in state nor in -v=9 logs", async () => {
    const stack = await TestStack.create({
      project: "own-tok-env",
      files: { "index.ts": program("tok-env") },
      env: serverEnv(server),
    });
    try {
      const up = await stack.pulumi([
        "up",
        "--yes",
        "--non-interactive",
        "--skip-preview",
        "-v=9",
        "--logtostderr",
        "--logflow",
      ]);
      expect(up.code, up.output.slice(-2000)).toBe(0);
      expect(up.output).not.toContain(server.token);
      expect((await stack.ok(["stack", "export", "--show-secrets"])).stdout).not.toContain(server.token);
      expect((await workspaceByName(server, "tok-env")).id).toMatch(/^ws-/);
    } finally {
      stack.dispose();
    }
  });
});
