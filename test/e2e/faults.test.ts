/**
 * Faults under the real engine: `pulumi up` of 100 workspaces (with tags, flat tags and
 * remote state consumers) against a server that fails 10% of requests (a 503 or a dropped
 * connection, at random) and adds latency to every one. The run converges (another `up`
 * whenever the engine stops on a failure it reports), then previews no change; the server
 * holds exactly the workspaces the state holds, no duplicate and no orphan; no token is
 * in the state; and `pulumi destroy`, under the same faults, leaves nothing behind.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RunningServer } from "../../src/server";
import type { FaultOptions } from "../../src/server";
import { recordFigures } from "../reliability/figures";
import { serverEnv, startTestServer, TestStack, type PulumiResult } from "./harness";
// A read that waits out the rate limit: the checks below ask faster than 30 requests a second.
import { read } from "./interrupt";

const COUNT = 100;
const FAULTS: FaultOptions = { failureRate: 0.1, failureMode: "mixed", latencyMs: 20, latencyJitterMs: 30 };
/** Engine runs allowed before the test calls it non-convergence. */
const MAX_RUNS = 8;

const program = `
import { Workspace, RemoteStateConsumers } from "pulumi-workspaces";

const workspaces: Workspace[] = [];
for (let i = 0; i < ${COUNT}; i++) {
  workspaces.push(new Workspace(\`ws-\${i}\`, {
    name: \`fault-ws-\${i}\`,
    description: \`workspace \${i} of a run under faults\`,
    executionMode: i % 2 === 0 ? "remote" : "local",
    tags: { fleet: "faults", shard: String(i % 10) },
    tagNames: i % 3 === 0 ? ["faulty", \`group-\${i % 5}\`] : [],
  }));
}
// Every tenth workspace lets the next one read its state.
for (let i = 0; i < ${COUNT} - 1; i += 10) {
  new RemoteStateConsumers(\`consumers-\${i}\`, { workspaceId: workspaces[i].id, consumerIds: [workspaces[i + 1].id] });
}
export const ids = workspaces.map((w) => w.id);
`;

async function serverWorkspaces(
  server: RunningServer,
): Promise<Array<{ id: string; name: string; tagNames: string[] }>> {
  const out: Array<{ id: string; name: string; tagNames: string[] }> = [];
  for (let page = 1; ; page++) {
    const body = await read(
      server,
      `/organizations/${server.organization}/workspaces?page%5Bsize%5D=100&page%5Bnumber%5D=${page}`,
    );
    for (const w of body.data) out.push({ id: w.id, name: w.attributes.name, tagNames: w.attributes["tag-names"] });
    if (!body.meta.pagination["next-page"]) return out;
  }
}

describe("100 workspaces through the engine with 10% injected failures and latency", () => {
  let server: RunningServer;
  let stack: TestStack;
  const figures: Record<string, string | number> = {};
  let runs = 0;
  const history: string[] = [];
  /** Requests of the engine runs only, not of the checks between them. */
  const underFaults = { requests: 0, faults: 0 };

  /** Runs `pulumi <op>` under faults until it succeeds; returns how many runs it took. */
  async function untilConverged(op: "up" | "destroy"): Promise<number> {
    let last: PulumiResult | undefined;
    for (let attempt = 1; attempt <= MAX_RUNS; attempt++) {
      server.setFaults(FAULTS);
      const before = server.stats();
      // Without --continue-on-error the engine stops scheduling at the first failure, so
      // each run would get only a few resources further.
      last = op === "up" ? await stack.up(["--continue-on-error"]) : await stack.destroy(["--continue-on-error"]);
      server.setFaults({});
      const after = server.stats();
      underFaults.requests += after.total - before.total;
      underFaults.faults += after.faultsInjected - before.faultsInjected;
      runs++;
      const summary =
        /Resources:\n([\s\S]*?)\n\s*Duration/.exec(last.output)?.[1].replace(/\s+/g, " ").trim() ?? `exit ${last.code}`;
      history.push(`${op} ${attempt}: ${summary}`);
      if (last.code === 0) return attempt;
      // A failure the engine reports, not a crash of the engine or the program.
      expect(last.output).toMatch(/error|failed/i);
    }
    throw new Error(
      `pulumi ${op} did not converge in ${MAX_RUNS} runs (${history.join("; ")}):\n${last?.output.slice(-4000)}`,
    );
  }

  beforeAll(async () => {
    server = await startTestServer();
    stack = await TestStack.create({ project: "faults-e2e", files: { "index.ts": program }, env: serverEnv(server) });
  });
  afterAll(async () => {
    stack?.dispose();
    await server?.close();
    recordFigures("faults-e2e", figures);
  });

  it("up converges, with another up whenever the engine stops on a reported failure", async () => {
    const ups = await untilConverged("up");
    figures["pulumi up runs until converged"] = ups;
    const p = await stack.previewJson(["--expect-no-changes"]);
    expect(p.code, p.raw.output).toBe(0);
    expect(p.steps.filter((s) => s.op !== "same")).toEqual([]);
  });

  it("the server holds exactly the workspaces in the state: no duplicate, no orphan, all settings applied", async () => {
    const onServer = await serverWorkspaces(server);
    const names = onServer.map((w) => w.name);
    expect(new Set(names).size).toBe(names.length);
    expect(names.sort()).toEqual(Array.from({ length: COUNT }, (_, i) => `fault-ws-${i}`).sort());
    const inState = stack.resources("dynamic/workspaces:Workspace").map((r) => r.id);
    expect(inState).toHaveLength(COUNT);
    expect([...inState].sort()).toEqual(onServer.map((w) => w.id).sort());
    for (const w of onServer) {
      const i = Number(w.name.slice("fault-ws-".length));
      expect([...w.tagNames].sort(), w.name).toEqual(i % 3 === 0 ? ["faulty", `group-${i % 5}`].sort() : []);
      const b = await read(server, `/workspaces/${w.id}/tag-bindings`);
      const bindings = Object.fromEntries(b.data.map((x: any) => [x.attributes.key, x.attributes.value]));
      expect(bindings, w.name).toEqual({ fleet: "faults", shard: String(i % 10) });
    }
    for (let i = 0; i < COUNT - 1; i += 10) {
      const subject = onServer.find((w) => w.name === `fault-ws-${i}`)!;
      const next = onServer.find((w) => w.name === `fault-ws-${i + 1}`)!;
      const c = await read(server, `/workspaces/${subject.id}/relationships/remote-state-consumers`);
      expect(c.data.map((x: any) => x.id)).toEqual([next.id]);
    }
  });

  it("keeps no token in the state file", () => {
    const text = stack.stateText();
    expect(text).not.toContain(server.token);
    expect(text).not.toContain("WORKSPACES_TOKEN");
  });

  it("destroy under the same faults leaves nothing behind", async () => {
    const destroys = await untilConverged("destroy");
    figures["pulumi destroy runs until done"] = destroys;
    expect(await serverWorkspaces(server)).toEqual([]);
    expect(stack.resources("dynamic/workspaces:")).toEqual([]);
    figures["engine runs under faults"] = runs;
    figures["engine runs, one by one"] = history.join("; ");
    figures["requests of the engine runs answered by the server (a dropped connection is not counted)"] =
      underFaults.requests;
    figures["faults injected (503 or dropped connection)"] = underFaults.faults;
    figures["workspaces created, checked and destroyed"] = COUNT;
    figures["duplicates / orphans / left behind"] = "0 / 0 / 0";
    expect(underFaults.faults).toBeGreaterThan(0);
  });
});
