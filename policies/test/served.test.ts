// The pack as the engine runs it: @pulumi/pulumi's own policy-pack runner starts index.ts in a
// child process (ts-node, type-checked), and the test speaks the analyzer's gRPC protocol to it
// the way the CLI does: configure, analyze and remediate each resource, then analyze the stack.
import { type ChildProcess, spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import * as grpc from "@grpc/grpc-js";
import * as analyzerGrpc from "@pulumi/pulumi/proto/analyzer_grpc_pb";
import * as analyzer from "@pulumi/pulumi/proto/analyzer_pb";
import * as rpc from "@pulumi/pulumi/runtime/rpc";
import { Empty } from "google-protobuf/google/protobuf/empty_pb";
import { Struct } from "google-protobuf/google/protobuf/struct_pb";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { VariableSet, Workspace, WorkspaceTags, WorkspaceVariable, policies } from "../rules";

const packDir = join(__dirname, "..");
const LEVEL = analyzer.EnforcementLevel;

let child: ChildProcess | undefined;
let client: analyzerGrpc.AnalyzerClient;

function call<Res>(send: (done: (err: grpc.ServiceError | null, res: Res) => void) => unknown): Promise<Res> {
  return new Promise((resolve, reject) => send((err, res) => (err ? reject(err) : resolve(res))));
}

function options(): analyzer.AnalyzerResourceOptions {
  return new analyzer.AnalyzerResourceOptions().setCustomtimeouts(
    new analyzer.AnalyzerResourceOptions.CustomTimeouts(),
  );
}

function analyzeRequest(type: string, name: string, props: Record<string, unknown>): analyzer.AnalyzeRequest {
  return new analyzer.AnalyzeRequest()
    .setType(type)
    .setName(name)
    .setUrn(`urn:pulumi:ci::workspaces::${type}::${name}`)
    .setProperties(Struct.fromJavaScript(props as never))
    .setOptions(options());
}

function diagnostics(res: analyzer.AnalyzeResponse) {
  return res.getDiagnosticsList().map((d) => ({
    policy: d.getPolicyname(),
    level: d.getEnforcementlevel(),
    message: d.getMessage(),
    urn: d.getUrn(),
  }));
}

beforeAll(async () => {
  const runner = join(packDir, "node_modules", "@pulumi", "pulumi", "cmd", "run-policy-pack");
  // The first argument is the engine address, which the runner drops.
  const proc = spawn(process.execPath, [runner, "127.0.0.1:0", "."], {
    cwd: packDir,
    stdio: ["ignore", "pipe", "pipe"],
  });
  child = proc;
  let stderr = "";
  proc.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
  const port = await new Promise<string>((resolve, reject) => {
    let stdout = "";
    proc.stdout.on("data", (d: Buffer) => {
      stdout += d.toString();
      const line = stdout.split("\n")[0];
      if (stdout.includes("\n") && /^\d+$/.test(line.trim())) resolve(line.trim());
    });
    proc.on("exit", (code) => reject(new Error(`policy pack exited with ${String(code)}: ${stdout}${stderr}`)));
  });
  client = new analyzerGrpc.AnalyzerClient(`127.0.0.1:${port}`, grpc.credentials.createInsecure());
}, 120_000);

afterAll(() => {
  client?.close();
  child?.kill();
});

describe("the pack served by the engine's policy-pack runner", () => {
  it("describes every rule with its level and config schema", async () => {
    const info = await call<analyzer.AnalyzerInfo>((done) => client.getAnalyzerInfo(new Empty(), done));
    expect(info.getName()).toBe("pulumi-workspaces");
    expect(info.getVersion()).toBe(
      (JSON.parse(readFileSync(join(__dirname, "..", "package.json"), "utf8")) as { version: string }).version,
    );
    const served = info.getPoliciesList().map((p) => [p.getName(), p.getEnforcementlevel()]);
    const levels: Record<string, number> = {
      advisory: LEVEL.ADVISORY,
      mandatory: LEVEL.MANDATORY,
      remediate: LEVEL.REMEDIATE,
      disabled: LEVEL.DISABLED,
    };
    expect(served).toEqual(policies.map((p) => [p.name, levels[p.enforcementLevel!]]));
    const selector = info.getPoliciesList().find((p) => p.getName() === "workspace-tag-selector-settings")!;
    expect(Object.keys(selector.getConfigschema()!.getProperties()!.toJavaScript()).sort()).toEqual([
      "forbidAutoApply",
      "requiredExecutionMode",
      "selectors",
    ]);
  });

  it.each(Workspace.tokens)("reports violations of one resource's inputs at the rule's level (%s)", async (type) => {
    const request = analyzeRequest(type, "app", {
      name: "app",
      organization: "acme",
      executionMode: "agent",
      forceDelete: true,
    });
    const res = await call<analyzer.AnalyzeResponse>((done) => client.analyze(request, done));
    const found = diagnostics(res);
    expect(found.map((d) => [d.policy, d.level])).toEqual([
      ["workspace-execution-mode-valid", LEVEL.MANDATORY],
      ["workspace-force-delete", LEVEL.ADVISORY],
    ]);
    expect(found[0].message).toContain(
      'Workspace "app": agentPoolId is not set (agent-pool-id is required when execution-mode is agent)',
    );
  });

  it("remediates upper-case flat tags and keeps the secret provider", async () => {
    const providerSecret = { [rpc.specialSigKey]: rpc.specialSecretSig, value: "provider code" };
    const request = analyzeRequest(Workspace.tokens[0], "app", {
      name: "app",
      tagNames: ["Prod", "team-a"],
      __provider: providerSecret,
    });
    const res = await call<analyzer.RemediateResponse>((done) => client.remediate(request, done));
    const remediations = res.getRemediationsList();
    expect(remediations.map((r) => r.getPolicyname())).toEqual(["workspace-flat-tag-lowercase"]);
    const props = remediations[0].getProperties()!.toJavaScript() as Record<string, unknown>;
    expect(props.tagNames).toEqual(["prod", "team-a"]);
    expect(props.__provider).toEqual(providerSecret);
  });

  it("reports a secret-named variable that is not sensitive and a global set, through both doors", async () => {
    const variable = analyzeRequest(WorkspaceVariable.tokens[0], "token", {
      workspaceId: "ws-1",
      key: "GITHUB_TOKEN",
      value: "ghp-not-secret-yet",
      category: "env",
    });
    const set = analyzeRequest(VariableSet.tokens[1], "creds", {
      name: "creds",
      global: true,
      variables: [
        { key: "AWS_SECRET_ACCESS_KEY", value: "x", category: "env", sensitive: false },
        { key: "AWS_REGION", value: "eu-west-1", category: "env" },
      ],
    });
    const found = [];
    for (const request of [variable, set]) {
      found.push(...diagnostics(await call<analyzer.AnalyzeResponse>((done) => client.analyze(request, done))));
    }
    expect(found.map((d) => [d.policy, d.level])).toEqual([
      ["variable-secret-key-sensitive", LEVEL.MANDATORY],
      ["variable-secret-key-sensitive", LEVEL.MANDATORY],
      ["variable-set-global", LEVEL.ADVISORY],
    ]);
    expect(found[0].message).toContain('WorkspaceVariable "token": key "GITHUB_TOKEN" names a secret');
    expect(found[1].message).toContain('VariableSet "creds": variables[0].key "AWS_SECRET_ACCESS_KEY" names a secret');
  });

  it("applies the sample config and judges the stack from the inputs it analyzed", async () => {
    const sample = JSON.parse(readFileSync(join(packDir, "config.example.json"), "utf8")) as Record<string, unknown>;
    const request = new analyzer.ConfigureAnalyzerRequest();
    const levels: Record<string, number> = {
      advisory: LEVEL.ADVISORY,
      mandatory: LEVEL.MANDATORY,
      remediate: LEVEL.REMEDIATE,
      disabled: LEVEL.DISABLED,
    };
    for (const p of policies) {
      // As the CLI does: a policy's own level unless the config names one.
      const given = sample[p.name];
      const { enforcementLevel, ...properties } = (
        typeof given === "string" ? { enforcementLevel: given } : (given ?? {})
      ) as Record<string, unknown>;
      const level = (enforcementLevel as string | undefined) ?? p.enforcementLevel!;
      request
        .getPolicyconfigMap()
        .set(
          p.name,
          new analyzer.PolicyConfig()
            .setEnforcementlevel(levels[level])
            .setProperties(Struct.fromJavaScript(properties as never)),
        );
    }
    await call<Empty>((done) => client.configure(request, done));

    // The sample config turns on the operations remediation (here of a plugin resource).
    const legacy = analyzeRequest(Workspace.tokens[1], "legacy", { name: "legacy-dev", operations: false });
    const remediated = await call<analyzer.RemediateResponse>((done) => client.remediate(legacy, done));
    expect(remediated.getRemediationsList().map((r) => [r.getPolicyname(), r.getProperties()!.toJavaScript()])).toEqual(
      [["workspace-operations-deprecated", { name: "legacy-dev", executionMode: "local" }]],
    );

    const ws = {
      name: "billing-prod",
      organization: "acme",
      executionMode: "agent",
      agentPoolId: "apool-1",
      tags: { env: "prod", owner: "x" },
      tagNames: ["a"],
    };
    const tags = { workspaceId: "ws-unknown-yet", mode: "additive", tagNames: ["b"] };
    // A dynamic Workspace and a plugin WorkspaceTags in one stack, judged together.
    const [wsType] = Workspace.tokens;
    const tagsType = WorkspaceTags.tokens[1];
    for (const [type, name, props] of [
      [wsType, "billing", ws],
      [tagsType, "billing-extra", tags],
    ] as const) {
      const res = await call<analyzer.AnalyzeResponse>((done) =>
        client.analyze(analyzeRequest(type, name, props), done),
      );
      expect(diagnostics(res)).toEqual([]);
    }

    const wsUrn = `urn:pulumi:ci::workspaces::${wsType}::billing`;
    // Outputs as a deployed workspace reports them: the service's tags, whoever manages them.
    const wsResource = new analyzer.AnalyzerResource()
      .setType(wsType)
      .setName("billing")
      .setUrn(wsUrn)
      .setProperties(Struct.fromJavaScript({ ...ws, tagNames: ["a", "b"] }))
      .setOptions(options());
    const tagsResource = new analyzer.AnalyzerResource()
      .setType(tagsType)
      .setName("billing-extra")
      .setUrn(`urn:pulumi:ci::workspaces::${tagsType}::billing-extra`)
      .setProperties(Struct.fromJavaScript(tags))
      .setOptions(options())
      .setDependenciesList([wsUrn]);
    tagsResource
      .getPropertydependenciesMap()
      .set("workspaceId", new analyzer.AnalyzerPropertyDependencies().setUrnsList([wsUrn]));
    const stack = new analyzer.AnalyzeStackRequest().setResourcesList([wsResource, tagsResource]);
    const res = await call<analyzer.AnalyzeResponse>((done) => client.analyzeStack(stack, done));
    const found = diagnostics(res);
    expect(found.map((d) => [d.policy, d.level, d.urn])).toEqual([
      ["workspace-single-owner", LEVEL.MANDATORY, tagsResource.getUrn()],
    ]);
    expect(found[0].message).toContain(
      'WorkspaceTags "billing-extra" and Workspace "billing" both manage the flat tags (tagNames)',
    );
  });
});
