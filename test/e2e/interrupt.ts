/** `pulumi up` stopped in the middle, as a dying CI runner stops it (interrupted.test.ts, test/otf). */
import { spawn } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import { expect } from "vitest";
import type { RunningServer } from "../../src/server";
import { attempts, settledList } from "./engine-steps";
import { api, type TestStack } from "./harness";

/** Tries of one read past the rate limit, 250 ms apart: ten seconds, ten of its windows. */
const READ_TRIES = 40;

/**
 * `pulumi up` in its own process group, sent `signal` (to the whole group, as a job
 * runner or a terminal does) as soon as `reached()` says so; polled every 20 ms.
 *
 * A kill that lands while the engine writes a checkpoint can leave the file backend's
 * `<stack>.json.attrs` empty, and every later command fails with "failed to load
 * checkpoint: EOF". That file is then removed, the step docs/interrupted-updates.md
 * gives, and `emptyAttrsRemoved` says so.
 */
export function upInterrupted(
  stack: TestStack,
  signal: NodeJS.Signals,
  reached: () => boolean | Promise<boolean>,
): Promise<{ code: number | null; output: string; emptyAttrsRemoved: boolean }> {
  const bin = String(stack.env.PATH).split(path.delimiter)[0];
  const child = spawn(path.join(bin, "pulumi"), ["up", "--yes", "--non-interactive", "--skip-preview"], {
    cwd: stack.dir,
    env: stack.env,
    detached: true,
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  child.stdout.on("data", (d) => (output += d));
  child.stderr.on("data", (d) => (output += d));
  let done = false;
  let busy = false;
  const poll = setInterval(() => {
    if (done || busy) return;
    busy = true;
    void Promise.resolve(reached())
      .catch(() => false)
      .then((yes) => {
        busy = false;
        if (!yes || done) return;
        done = true;
        clearInterval(poll);
        process.kill(-child.pid!, signal);
      });
  }, 20);
  return new Promise((resolve) => {
    child.on("close", (code) => {
      done = true;
      clearInterval(poll);
      const attrs = path.join(stack.backendDir, ".pulumi", "stacks", stack.project, `${stack.stack}.json.attrs`);
      const empty = fs.existsSync(attrs) && fs.statSync(attrs).size === 0;
      if (empty) fs.rmSync(attrs);
      resolve({ code, output, emptyAttrsRemoved: empty });
    });
  });
}

/** A workspace as the server lists it. */
export interface ServerWorkspace {
  id: string;
  name: string;
  description: string;
}

/** A read that waits out the rate limit (the tests' checks ask faster than 30 requests a second), for a bounded time. */
export async function read(server: RunningServer, p: string): Promise<any> {
  const r = await attempts(`GET ${p}`, READ_TRIES, 250, async () => {
    const r = await api<any>(server, p);
    if (r.status === 429) throw new Error("the rate limit answered 429");
    return r;
  });
  expect(r.status, p).toBe(200);
  return r.body;
}

async function serverWorkspaces(server: RunningServer): Promise<ServerWorkspace[]> {
  const out: ServerWorkspace[] = [];
  for (let page = 1; ; page++) {
    const body = await read(
      server,
      `/organizations/${server.organization}/workspaces?page%5Bsize%5D=100&page%5Bnumber%5D=${page}`,
    );
    for (const w of body.data) out.push({ id: w.id, name: w.attributes.name, description: w.attributes.description });
    if (!body.meta.pagination["next-page"]) return out;
  }
}

/** The server's workspaces once requests the stopped run had sent are all answered (two equal listings). */
export function settled(server: RunningServer): Promise<ServerWorkspace[]> {
  return settledList(() => serverWorkspaces(server), "the organization's workspaces");
}

/** The operations the stack's latest checkpoint lists as pending (`pending_operations`). */
function pendingOperations(stack: TestStack): Array<{ type: string; urn: string }> {
  const ops = (JSON.parse(stack.stateText()).checkpoint?.latest?.pending_operations ?? []) as Array<{
    type: string;
    resource: { urn: string };
  }>;
  return ops.map((o) => ({ type: o.type, urn: o.resource.urn }));
}

/** What {@link recover} saw, for the figures a test records. */
export interface Recovery {
  tookOver: string[];
  pendingAfterUp: number;
}

/**
 * The recovery docs/interrupted-updates.md gives, step by step, each asserted: `pulumi
 * cancel --yes` (nothing to cancel is said so), one `pulumi up` that takes over exactly
 * the records the stopped run left out of the state (`orphans`) with one info line each
 * and ends with every one of `names` once on the server and in the state, then
 * `pulumi refresh --clear-pending-creates --yes`, after which no operation is pending,
 * and a preview that changes nothing and warns of nothing.
 */
export async function recover(
  stack: TestStack,
  server: RunningServer,
  {
    names,
    orphans,
    type = "dynamic/workspaces:Workspace",
  }: { names: string[]; orphans: ServerWorkspace[]; type?: string },
): Promise<Recovery> {
  const cancel = await stack.pulumi(["cancel", "--yes", "--non-interactive"]);
  if (cancel.code !== 0) expect(cancel.output).toMatch(/not.*(locked|in progress)|no .*update|nothing/i);

  const pendingCreates = pendingOperations(stack).filter((o) => o.type === "creating");
  const up = await stack.upWithEvents();
  expect(up.code, up.output.slice(-4000)).toBe(0);
  const tookOver = up.diagnostics.filter((d) => /took over workspace "[^"]+" \(ws-/.test(d.message));
  for (const d of tookOver) expect(d.message).toContain("created by an interrupted update of this stack");
  const taken = tookOver.map((d) => /took over workspace "([^"]+)"/.exec(d.message)![1]).sort();
  expect(taken).toEqual(orphans.map((w) => w.name).sort());

  const after = await serverWorkspaces(server);
  const onServer = after.map((w) => w.name);
  expect(new Set(onServer).size).toBe(onServer.length);
  expect([...onServer].sort()).toEqual([...names].sort());
  const ids = stack.resources(type).map((r) => r.id!);
  expect(new Set(ids).size).toBe(names.length);
  expect([...ids].sort()).toEqual(after.map((w) => w.id).sort());
  for (const w of orphans) expect(ids).toContain(w.id);

  // The engine keeps the pending creates a killed update left ("must require user
  // intervention"), and warns of them on every run, until a refresh clears them.
  const pendingAfterUp = pendingOperations(stack).filter((o) => o.type === "creating");
  expect(pendingAfterUp.map((o) => o.urn).sort()).toEqual(pendingCreates.map((o) => o.urn).sort());
  if (pendingCreates.length > 0) expect(up.output).toMatch(/pending operations from previous deployment/);

  const refresh = await stack.pulumi(["refresh", "--clear-pending-creates", "--yes", "--non-interactive"]);
  expect(refresh.code, refresh.output.slice(-4000)).toBe(0);
  expect(pendingOperations(stack)).toEqual([]);
  expect(
    stack
      .resources(type)
      .map((r) => r.id!)
      .sort(),
  ).toEqual([...ids].sort());

  const p = await stack.previewJson(["--expect-no-changes"]);
  expect(p.code, p.raw.output).toBe(0);
  expect(p.steps.filter((s) => s.op !== "same")).toEqual([]);
  expect(p.raw.output).not.toMatch(/pending operations/);
  return { tookOver: taken, pendingAfterUp: pendingAfterUp.length };
}

/**
 * A copy of the program in another state backend (`copy`: the same project, stack and
 * resource names) meets the stack's `count` workspaces: its `up` fails with the
 * `adopt: true` error, takes nothing over, records no workspace, and every workspace keeps
 * the stack's `description`.
 */
export async function expectCopyRefused(
  copy: TestStack,
  server: RunningServer,
  { count, description, type = "dynamic/workspaces:Workspace" }: { count: number; description: string; type?: string },
): Promise<void> {
  const up = await copy.upWithEvents();
  expect(up.code).not.toBe(0);
  const errors = up.diagnostics.filter((d) => d.severity === "error" && /already exists/.test(d.message));
  // The engine stops starting creates after the first failures.
  expect(errors.length).toBeGreaterThan(0);
  for (const e of errors) expect(e.message).toMatch(/workspace "[^"]+" \(ws-\w+\).*set adopt: true/s);
  expect(up.output).not.toMatch(/took over/);
  expect(copy.resources(type)).toEqual([]);
  const after = await serverWorkspaces(server);
  expect(after).toHaveLength(count);
  for (const w of after) expect(w.description, w.name).toBe(description);
}
