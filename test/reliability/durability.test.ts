/**
 * Durability: the server runs as its own process on a file database, writers keep it busy,
 * and it is killed with SIGKILL in the middle of the load. After a restart on the same
 * file, every write the server acknowledged is there, complete, and nothing exists that
 * nobody asked for or that was only half written.
 */
import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import Database from "better-sqlite3";
import { afterAll, describe, expect, test } from "vitest";
import { Api } from "../server/helpers";
import { startChildServer, type ChildServer } from "./child";
import { recordFigures } from "./figures";

const CYCLES = 3;
const WRITERS = 8;
/** Acknowledged writes per cycle before the kill (the writers keep going while it lands). */
const KILL_AFTER = 150;

interface Acked {
  kind: "create" | "tag" | "lock";
  workspace: string;
  name: string;
  detail?: string;
}

const dir = mkdtempSync(join(tmpdir(), "ws-durability-"));
const file = join(dir, "workspaces.db");
const token = `durability-${randomBytes(16).toString("hex")}`;
let server: ChildServer | null = null;

afterAll(async () => {
  await server?.stop("SIGKILL");
  rmSync(dir, { recursive: true, force: true });
});

const bindingOf = (name: string) => ({ key: "written-as", value: name });

/**
 * One writer: create a workspace (attributes and key-value tags in one request), then add
 * a flat tag to it, then lock it. Each acknowledged step is recorded; a request that got
 * no answer is recorded as in flight (it may or may not have landed).
 */
async function writer(
  api: Api,
  prefix: string,
  id: number,
  acked: Acked[],
  inFlight: Set<string>,
  stop: { now: boolean },
) {
  for (let n = 0; !stop.now; n++) {
    const name = `${prefix}-w${id}-${n}`;
    inFlight.add(name);
    let ws: string;
    try {
      const r = await api.post(`/organizations/${ORG}/workspaces`, {
        data: {
          type: "workspaces",
          attributes: { name, description: `description of ${name}`, "execution-mode": "local" },
          relationships: { "tag-bindings": { data: [{ type: "tag-bindings", attributes: bindingOf(name) }] } },
        },
      });
      if (r.status !== 201) throw new Error(`create ${name}: ${r.status} ${r.text}`);
      ws = r.body.data.id;
      acked.push({ kind: "create", workspace: ws, name });
      const t = await api.post(`/workspaces/${ws}/relationships/tags`, {
        data: [{ type: "tags", attributes: { name: `tag-${id}` } }],
      });
      if (t.status !== 204) throw new Error(`tag ${name}: ${t.status}`);
      acked.push({ kind: "tag", workspace: ws, name, detail: `tag-${id}` });
      const l = await api.post(`/workspaces/${ws}/actions/lock`, { reason: `lock of ${name}` });
      if (l.status !== 200) throw new Error(`lock ${name}: ${l.status}`);
      acked.push({ kind: "lock", workspace: ws, name });
    } catch (err) {
      // The kill: the connection drops. Anything else is a failure of the test itself.
      if (
        !stop.now &&
        !/fetch failed|ECONNREFUSED|ECONNRESET|socket|other side closed/i.test(String((err as Error).cause ?? err))
      )
        throw err;
      return;
    }
  }
}

const ORG = "durable-org";

describe("kill -9 in the middle of a write load", () => {
  test(`${CYCLES} kills: every acknowledged write survives, nothing half-written`, async () => {
    const allAcked: Acked[] = [];
    const everInFlight = new Set<string>();
    let kills = 0;
    for (let cycle = 0; cycle < CYCLES; cycle++) {
      server = await startChildServer(["--db", file, "--token", token, "--organization", ORG, "--rate-limit", "0"]);
      const api = new Api(server.url, token);
      const acked: Acked[] = [];
      const stop = { now: false };
      const writers = Array.from({ length: WRITERS }, (_, i) => writer(api, `c${cycle}`, i, acked, everInFlight, stop));
      while (acked.length < KILL_AFTER) await new Promise((r) => setTimeout(r, 5));
      // SIGKILL while writers are mid-request: no shutdown hook, no flush, no close.
      server.process.kill("SIGKILL");
      expect(await server.exited).toBe("SIGKILL");
      kills++;
      stop.now = true;
      await Promise.all(writers);
      server = null;
      allAcked.push(...acked);
    }

    // The file itself is sound after the kills.
    const check = new Database(file);
    expect(check.pragma("integrity_check", { simple: true })).toBe("ok");
    check.close();

    server = await startChildServer(["--db", file, "--token", token, "--organization", ORG, "--rate-limit", "0"]);
    const api = new Api(server.url, token);
    const found = new Map<string, any>();
    for (let page = 1; ; page++) {
      const r = await api.get(`/organizations/${ORG}/workspaces?page%5Bsize%5D=100&page%5Bnumber%5D=${page}`);
      expect(r.status).toBe(200);
      for (const w of r.body.data) found.set(w.attributes.name, w);
      if (!r.body.meta.pagination["next-page"]) break;
    }

    // Every acknowledged write is there.
    for (const a of allAcked) {
      const w = found.get(a.name);
      expect(w, `acknowledged ${a.kind} of ${a.name} lost`).toBeDefined();
      expect(w.id).toBe(a.workspace);
      if (a.kind === "tag") expect(w.attributes["tag-names"]).toContain(a.detail);
      if (a.kind === "lock") {
        expect(w.attributes.locked).toBe(true);
        expect(w.attributes["locked-reason"]).toBe(`lock of ${a.name}`);
      }
    }
    // Nothing exists that was not asked for, and nothing is half-written: a workspace is
    // either absent or has every attribute and binding its one create request carried.
    const bindings = await Promise.all([...found.values()].map((w) => api.get(`/workspaces/${w.id}/tag-bindings`)));
    [...found.values()].forEach((w, i) => {
      const name = w.attributes.name as string;
      expect(everInFlight.has(name), `${name} exists but was never requested`).toBe(true);
      expect(w.attributes.description).toBe(`description of ${name}`);
      expect(w.attributes["execution-mode"]).toBe("local");
      expect(bindings[i].body.data.map((b: any) => ({ key: b.attributes.key, value: b.attributes.value }))).toEqual([
        bindingOf(name),
      ]);
    });
    const creates = allAcked.filter((a) => a.kind === "create").length;
    expect(found.size).toBeGreaterThanOrEqual(creates);
    recordFigures("durability", {
      "kill -9 during the write load": kills,
      "acknowledged writes checked after restart": allAcked.length,
      "of which creates / tag adds / locks": `${creates} / ${allAcked.filter((a) => a.kind === "tag").length} / ${allAcked.filter((a) => a.kind === "lock").length}`,
      "unacknowledged creates found complete after restart": found.size - creates,
      "acknowledged writes lost": 0,
      "half-written workspaces": 0,
    });
  }, 240_000);
});
