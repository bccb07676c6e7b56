/**
 * The map the generator writes into the README beside the program: one Mermaid diagram per
 * project, whose edges are exactly the organization's run triggers and remote state
 * consumers, read from the real server over HTTP; and the same map as text for a terminal.
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { WorkspacesClient } from "../../src/client";
import { generate, generateSplit, mermaidOf, orgMapOf, readOrgMap, textMapOf, type OrgMap } from "../../src/generate";
import { startServer, type RunningServer } from "../../src/server";

/** The seeded organization: workspace names by project, run triggers and consumers as [from, to] names. */
const PROJECTS: Record<string, string[]> = {
  platform: ["net-prod", "net-dev", "identity-prod", "dns"],
  payments: ["billing-prod", "checkout-prod", "ledger", "fraud"],
  data: ["warehouse", "etl", "reports", "archive"],
};
/** [source, target]: an apply of the source queues a run of the target. */
const TRIGGERS: [string, string][] = [
  ["net-prod", "identity-prod"],
  ["identity-prod", "billing-prod"],
  ["billing-prod", "checkout-prod"],
  ["billing-prod", "ledger"],
  ["etl", "warehouse"],
  ["ledger", "reports"],
];
/** [workspace read, its reader]. */
const CONSUMERS: [string, string][] = [
  ["net-prod", "identity-prod"],
  ["net-prod", "billing-prod"],
  ["net-prod", "checkout-prod"],
  ["identity-prod", "billing-prod"],
  ["ledger", "fraud"],
  ["ledger", "reports"],
  ["warehouse", "reports"],
  ["warehouse", "etl"],
];
/** Every workspace of the organization may read its state. */
const GLOBAL = "dns";

const projectOf = (ws: string) => Object.keys(PROJECTS).find((p) => PROJECTS[p].includes(ws))!;

let server: RunningServer;
let client: WorkspacesClient;
let dir: string;
let single: string;
let split: string;
/** The README of a program of project payments only (`--project`). */
let payments: string;
const ids = new Map<string, string>();

beforeAll(async () => {
  server = await startServer({ port: 0, db: ":memory:", rateLimit: false });
  client = new WorkspacesClient({
    address: server.url,
    token: server.token,
    organization: server.organization,
    rateLimit: false,
  });
  const projectIds = new Map<string, string>();
  for (const [project, names] of Object.entries(PROJECTS)) {
    const { id: projectId } = await client.projects.create(server.organization, { name: project });
    projectIds.set(project, projectId);
    for (const name of names) {
      const ws = await client.workspaces.create(server.organization, {
        name,
        projectId,
        ...(name === GLOBAL ? { globalRemoteState: true } : {}),
      });
      ids.set(name, ws.id);
    }
  }
  for (const [source, target] of TRIGGERS) await client.runTriggers.create(ids.get(target)!, ids.get(source)!);
  const readers = new Map<string, string[]>();
  for (const [read, reader] of CONSUMERS) readers.set(read, [...(readers.get(read) ?? []), ids.get(reader)!]);
  for (const [read, consumerIds] of readers) await client.remoteStateConsumers.replace(ids.get(read)!, consumerIds);
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "pw-generate-map-"));
  single = (await generate({ client, out: path.join(dir, "one", "index.ts") })).readme;
  await generateSplit({ client, out: path.join(dir, "split") });
  split = fs.readFileSync(path.join(dir, "split", "README.md"), "utf8");
  payments = (
    await generate({ client, projectId: projectIds.get("payments"), out: path.join(dir, "payments", "index.ts") })
  ).readme;
}, 60_000);

afterAll(async () => {
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
  await server?.close();
});

/** Mermaid's numeric entity codes (`#34;`) back to their characters. */
const decode = (s: string) => s.replace(/#(\d+);/g, (_, n: string) => String.fromCharCode(Number(n)));

interface Diagram {
  /** Label of each node that is not external (its first line), by node id. */
  own: Map<string, string>;
  /** Each external node's label lines: [name, "project X"]. */
  external: Map<string, string[]>;
  /** Nodes marked as readable by every workspace. */
  global: string[];
  /** `kind:from->to` by workspace names, kind `run-trigger` (`-->|run trigger|`) or `remote-state` (`-.->|state|`). */
  edges: string[];
}

/** Every ```mermaid block of `readme`, by the project its `### Project NAME` heading names. */
function diagrams(readme: string): Map<string, Diagram> {
  const out = new Map<string, Diagram>();
  for (const m of readme.matchAll(/^### Project (.+)\n\n```mermaid\n([\s\S]*?)\n```$/gm)) {
    const body = m[2].split("\n");
    expect(body[0]).toBe("flowchart LR");
    const d: Diagram = { own: new Map(), external: new Map(), global: [], edges: [] };
    const nodes = new Map<string, string>();
    const edges: [string, string, string][] = [];
    for (const line of body.slice(1)) {
      const node = line.match(/^ {2}(\w+)\["([^"]*)"\](?::::(\w+))?$/);
      const edge = line.match(/^ {2}(\w+) (-->|-\.->)\|([^|]+)\| (\w+)$/);
      if (node) {
        const lines = decode(node[2]).split("<br/>");
        nodes.set(node[1], lines[0]);
        if (node[3] === "external") d.external.set(lines[0], lines.slice(1));
        else d.own.set(node[1], lines[0]);
        if (node[3] === "global") d.global.push(lines[0]);
      } else if (edge) {
        const kind = edge[2] === "-->" && edge[3] === "run trigger" ? "run-trigger" : "";
        edges.push([edge[2] === "-.->" && edge[3] === "state" ? "remote-state" : kind, edge[1], edge[4]]);
      } else expect(line, `a line of the diagram of ${m[1]}`).toMatch(/^ {2}classDef (external|global) /);
    }
    d.edges = edges.map(([kind, from, to]) => `${kind}:${nodes.get(from)}->${nodes.get(to)}`).sort();
    out.set(m[1], d);
  }
  return out;
}

/** The seeded edges with an end in `project`, as the parser names them. */
function expectedEdges(project: string): string[] {
  const touches = ([a, b]: [string, string]) => projectOf(a) === project || projectOf(b) === project;
  return [
    ...TRIGGERS.filter(touches).map(([a, b]) => `run-trigger:${a}->${b}`),
    ...CONSUMERS.filter(touches).map(([a, b]) => `remote-state:${a}->${b}`),
  ].sort();
}

describe("the generated README's map", () => {
  it("has one diagram per project with workspaces, whose edges are exactly the seeded triggers and consumers", () => {
    const found = diagrams(single);
    // The organization's default project holds no workspace: no diagram.
    expect([...found.keys()].sort()).toEqual(Object.keys(PROJECTS).sort());
    for (const [project, names] of Object.entries(PROJECTS)) {
      const d = found.get(project)!;
      expect([...d.own.values()].sort(), project).toEqual([...names].sort());
      expect(d.edges, project).toEqual(expectedEdges(project));
    }
  });

  it("draws a workspace of another project at the far end of an edge as an external node naming its project", () => {
    for (const [project, d] of diagrams(single)) {
      const far = new Set(
        [...TRIGGERS, ...CONSUMERS]
          .filter(([a, b]) => (projectOf(a) === project) !== (projectOf(b) === project))
          .flatMap(([a, b]) => [a, b])
          .filter((ws) => projectOf(ws) !== project),
      );
      expect([...d.external.keys()].sort(), project).toEqual([...far].sort());
      for (const [ws, rest] of d.external) expect(rest, ws).toEqual([`project ${projectOf(ws)}`]);
    }
    expect(diagrams(single).get("payments")!.external.get("identity-prod")).toEqual(["project platform"]);
  });

  it("notes the workspace whose state every workspace may read, which has no consumer edge", () => {
    const platform = diagrams(single).get("platform")!;
    expect(platform.global).toEqual([GLOBAL]);
    expect(single).toMatch(/\["dns<br\/>state readable by every workspace"\]:::global/);
    expect(platform.edges.filter((e) => e.includes(`${GLOBAL}->`) || e.includes(`->${GLOBAL}`))).toEqual([]);
  });

  it("draws, for a program of one project, what that project's records say, naming ends it did not read", () => {
    const found = diagrams(payments);
    expect([...found.keys()]).toEqual(["payments"]);
    const d = found.get("payments")!;
    expect([...d.own.values()].sort()).toEqual([...PROJECTS.payments].sort());
    // The triggers into its workspaces and the consumers of their state; a trigger's source is
    // named by the trigger, a consumer of another project only by its id.
    const reports = ids.get("reports")!;
    expect(d.edges).toEqual(
      [
        ...TRIGGERS.filter(([, to]) => projectOf(to) === "payments").map(([a, b]) => `run-trigger:${a}->${b}`),
        ...CONSUMERS.filter(([from]) => projectOf(from) === "payments").map(
          ([a, b]) => `remote-state:${a}->${b === "reports" ? reports : b}`,
        ),
      ].sort(),
    );
    expect(Object.fromEntries(d.external)).toEqual({
      "identity-prod": ["another project"],
      [reports]: ["another project"],
    });
  });

  it("writes the same map in the README of a split program", () => {
    const section = (readme: string) => readme.slice(readme.indexOf("\n## Map\n"));
    expect(split).toContain("\n## Map\n");
    expect(section(split)).toBe(section(single));
  });
});

describe("the map as text", () => {
  it("reads the map alone and prints each edge once, under the project of the workspace it leaves", async () => {
    const lines = textMapOf(await readOrgMap(client, server.organization));
    const expected: string[] = [];
    for (const project of ["data", "payments", "platform"]) {
      expected.push(`${project} (${PROJECTS[project].length} workspaces)`);
      for (const ws of [...PROJECTS[project]].sort()) {
        if (ws === GLOBAL) expected.push(`  ${ws} ─state→ every workspace of the organization`);
        for (const [edges, arrow] of [
          [TRIGGERS, "─run trigger→"],
          [CONSUMERS, "─state→"],
        ] as const) {
          const heads = edges
            .filter(([from]) => from === ws)
            .map(([, to]) => to)
            .sort()
            .map((to) => (projectOf(to) === project ? to : `${to} (${projectOf(to)})`));
          if (heads.length) expected.push(`  ${ws} ${arrow} ${heads.join(", ")}`);
        }
      }
    }
    expect(lines).toEqual(expected);
  });
});

describe("a diagram's labels and ids", () => {
  it("escapes what would end or change a label, and keeps node ids to safe characters", () => {
    const map: OrgMap = {
      organization: "acme",
      projects: [{ id: "prj-1", name: 'a "quoted" [project] <b> | #1; end' }],
      workspaces: [
        { id: "ws-a", name: 'we"ird<x>|y#z;[w]', projectId: "prj-1", globalRemoteState: false },
        { id: "ws.b", name: "end", projectId: "prj-2", globalRemoteState: false },
      ],
      edges: [{ kind: "run-trigger", from: "ws.b", to: "ws-a" }],
    };
    map.projects.push({ id: "prj-2", name: "o|ther" });
    const lines = mermaidOf(map, "prj-1");
    expect(lines).toEqual([
      "flowchart LR",
      '  n_ws_a["we#34;ird#60;x#62;#124;y#35;z#59;#91;w#93;"]',
      '  n_ws_b["end<br/>project o#124;ther"]:::external',
      "  n_ws_b -->|run trigger| n_ws_a",
      "  classDef external stroke-dasharray: 4 4",
    ]);
    // No label lets a quote, a bracket, a pipe, `#`, `;`, `<` or `>` through but as an entity code.
    for (const line of lines.slice(1, 3)) {
      const label = line.slice(line.indexOf('["') + 2, line.lastIndexOf('"]'));
      expect(label.replace(/#\d+;/g, "").replace(/<br\/>/g, "")).not.toMatch(/["[\]|#;<>]/);
    }
  });

  it("draws workspaces whose project the list did not bring, or that have none, under a project of their own", () => {
    const ws = (id: string, projectId: string | null) => ({ id, name: id, projectId, globalRemoteState: false });
    const map = orgMapOf({
      organization: "acme",
      projects: [],
      workspaces: [
        { workspace: ws("ws-a", "prj-x"), consumerIds: ["ws-b"] },
        { workspace: ws("ws-b", null), consumerIds: [] },
      ],
    });
    expect(textMapOf(map)).toEqual([
      "prj-x (1 workspace)",
      "  ws-a ─state→ ws-b (workspaces without a project)",
      "workspaces without a project (1 workspace)",
      "  no run trigger or state sharing leaves its workspaces",
    ]);
  });
});
