/**
 * The web view's map without a browser: its layout (dagre, run in Node) and the rule that
 * decides which projects are collapsed. The drawing itself is tested in a real browser
 * (test/e2e/web-view.test.ts).
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { collapse, search, type OrgMap, type OrgMapEdge } from "../../src/api/org-map";
import {
  CLUSTER_LABEL_HEIGHT,
  layoutMap,
  shownLabel,
  type MapLayout,
  type LayoutCache,
} from "../../src/server/web/page/map-layout";
import {
  COLLAPSE_ABOVE,
  SEARCH_OPENS_UP_TO,
  initialState,
  setAll,
  shownCollapsed,
  toggle,
  withMatches,
} from "../../src/server/web/page/map-state";

/** `projects` projects of `perProject` workspaces; edges chosen by a fixed pseudo-random sequence, both ways between projects. */
function organisation(projects: number, perProject: number, edges: number): OrgMap {
  const map: OrgMap = { organization: "big", projects: [], workspaces: [], edges: [] };
  for (let p = 0; p < projects; p++) {
    map.projects.push({ id: `prj-${p}`, name: `project-${p}` });
    for (let w = 0; w < perProject; w++)
      map.workspaces.push({
        id: `ws-${p}-${w}`,
        name: `p${p}-workspace-${w}`,
        projectId: `prj-${p}`,
        globalRemoteState: w === 3,
      });
  }
  let seed = 42;
  const next = () => (seed = (seed * 16807) % 2147483647) / 2147483647;
  const seen = new Set<string>();
  while (map.edges.length < edges) {
    const from = map.workspaces[Math.floor(next() * map.workspaces.length)].id;
    const to = map.workspaces[Math.floor(next() * map.workspaces.length)].id;
    const kind: OrgMapEdge["kind"] = next() < 0.5 ? "run-trigger" : "remote-state";
    if (from === to || seen.has(`${kind}${from}${to}`)) continue;
    seen.add(`${kind}${from}${to}`);
    map.edges.push({ kind, from, to });
  }
  return map;
}

type Box = { x: number; y: number; width: number; height: number };
const rectOf = (n: MapLayout["nodes"][number]): Box => ({
  x: n.x - n.width / 2,
  y: n.y - n.height / 2,
  width: n.width,
  height: n.height,
});
const overlap = (a: Box, b: Box) =>
  a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;
const near = (p: { x: number; y: number }, r: Box, slack = 2) =>
  p.x >= r.x - slack && p.x <= r.x + r.width + slack && p.y >= r.y - slack && p.y <= r.y + r.height + slack;

/** Every rule a drawable layout keeps; returns the layout for more checks. */
function expectDrawable(map: OrgMap, collapsed: Set<string>, cache?: LayoutCache): MapLayout {
  const view = collapse(map, collapsed);
  const layout = layoutMap(view, map.projects, cache);
  expect(layout.nodes.map((n) => n.node.id).sort()).toEqual(view.nodes.map((n) => n.id).sort());
  for (const n of layout.nodes) expect([n.x, n.y, n.width, n.height].every(Number.isFinite), n.node.id).toBe(true);
  const rects = layout.nodes.map(rectOf);
  for (let i = 0; i < rects.length; i++)
    for (let j = i + 1; j < rects.length; j++)
      expect(overlap(rects[i], rects[j]), `${layout.nodes[i].node.id} overlaps ${layout.nodes[j].node.id}`).toBe(false);
  for (let i = 0; i < layout.clusters.length; i++)
    for (let j = i + 1; j < layout.clusters.length; j++)
      expect(overlap(layout.clusters[i], layout.clusters[j]), "two project boxes overlap").toBe(false);
  const boxOf = new Map(layout.clusters.map((c) => [c.project.id, c]));
  for (const n of layout.nodes) {
    if (n.node.type !== "workspace") continue;
    const box = boxOf.get(n.node.workspace.projectId);
    expect(box, `${n.node.id} has its project's box`).toBeDefined();
    const r = rectOf(n);
    expect(
      r.x >= box!.x &&
        r.y >= box!.y + CLUSTER_LABEL_HEIGHT &&
        r.x + r.width <= box!.x + box!.width &&
        r.y + r.height <= box!.y + box!.height,
    ).toBe(true);
  }
  for (const n of layout.nodes) {
    if (n.node.type !== "project") continue;
    for (const c of layout.clusters) expect(overlap(rectOf(n), c), `${n.node.id} lies on a box`).toBe(false);
  }
  const placed = new Map(layout.nodes.map((n) => [n.node.id, rectOf(n)]));
  expect(layout.edges.map((e) => e.edge)).toEqual(view.edges);
  for (const { edge, points } of layout.edges) {
    const label = `${edge.kind} ${edge.from}->${edge.to}`;
    expect(points.length, label).toBeGreaterThanOrEqual(2);
    expect(
      points.every((p) => Number.isFinite(p.x) && Number.isFinite(p.y)),
      label,
    ).toBe(true);
    expect(near(points[0], placed.get(edge.from)!), `${label} starts at its tail`).toBe(true);
    expect(near(points[points.length - 1], placed.get(edge.to)!), `${label} ends at its head`).toBe(true);
  }
  for (const p of layout.edges.flatMap((e) => e.points))
    expect(
      p.x >= -1 && p.y >= -1 && p.x <= layout.width + 1 && p.y <= layout.height + 1,
      `${p.x},${p.y} in ${layout.width}x${layout.height}`,
    ).toBe(true);
  for (const r of [...rects, ...layout.clusters])
    expect(r.x + r.width <= layout.width + 1 && r.y + r.height <= layout.height + 1).toBe(true);
  return layout;
}

describe("layoutMap", () => {
  it("places a small organisation: boxes around their workspaces, no overlap, every edge from tail to head", () => {
    const map = organisation(3, 5, 12);
    expectDrawable(map, new Set());
    expectDrawable(map, new Set(["prj-1"]));
    expectDrawable(map, new Set(["prj-0", "prj-1", "prj-2"]));
  });

  it("places 200 workspaces in 10 projects that depend on each other both ways, expanded, collapsed and mixed", () => {
    const map = organisation(10, 20, 300);
    const cache: LayoutCache = new Map();
    const all = expectDrawable(map, new Set(), cache);
    expect(all.nodes).toHaveLength(200);
    expect(all.clusters).toHaveLength(10);
    const folded = expectDrawable(map, new Set(map.projects.map((p) => p.id)), cache);
    expect(folded.nodes).toHaveLength(10);
    expect(folded.clusters).toHaveLength(0);
    expectDrawable(map, new Set(["prj-2", "prj-5", "prj-7"]), cache);
  });

  it("places an organisation with nothing in it, and one with only empty projects", () => {
    const empty: OrgMap = { organization: "o", projects: [], workspaces: [], edges: [] };
    expect(expectDrawable(empty, new Set())).toMatchObject({ nodes: [], clusters: [], edges: [] });
    const projects = organisation(3, 0, 0);
    expect(expectDrawable(projects, new Set(projects.projects.map((p) => p.id))).nodes).toHaveLength(3);
  });

  it("lays unconnected workspaces of a project out in rows, not one column", () => {
    const map = organisation(1, 16, 0);
    const layout = expectDrawable(map, new Set());
    const columns = new Set(layout.nodes.map((n) => Math.round(n.x)));
    const rows = new Set(layout.nodes.map((n) => Math.round(n.y)));
    expect(columns.size).toBeGreaterThan(1);
    expect(rows.size).toBeLessThan(16);
  });

  it("makes a node wide enough for its label, and cuts a long name with an ellipsis", () => {
    const long = "a-workspace-name-far-longer-than-the-map-shows";
    expect(shownLabel(long)).toHaveLength(30);
    expect(shownLabel(long).endsWith("…")).toBe(true);
    expect(shownLabel("short")).toBe("short");
    const map: OrgMap = {
      organization: "o",
      projects: [{ id: "prj-a", name: "a" }],
      workspaces: [
        { id: "ws-1", name: "x", projectId: "prj-a", globalRemoteState: false },
        { id: "ws-2", name: long, projectId: "prj-a", globalRemoteState: false },
        { id: "ws-3", name: long, projectId: "prj-a", globalRemoteState: true },
      ],
      edges: [],
    };
    const widths = expectDrawable(map, new Set()).nodes.map((n) => n.width);
    expect(widths[1]).toBeGreaterThan(widths[0] + 150);
    expect(widths[2]).toBeGreaterThan(widths[1]);
  });
});

describe("which projects the map collapses", () => {
  it(`opens expanded up to ${COLLAPSE_ABOVE} workspaces and collapsed past them`, () => {
    expect(shownCollapsed(organisation(4, 10, 0), initialState(organisation(4, 10, 0))).size).toBe(0);
    const big = organisation(10, 20, 0);
    expect([...shownCollapsed(big, initialState(big))].sort()).toEqual(big.projects.map((p) => p.id).sort());
  });

  it("always draws a project without workspaces as a node", () => {
    const map = organisation(2, 2, 0);
    map.projects.push({ id: "prj-empty", name: "empty" });
    expect([...shownCollapsed(map, initialState(map))]).toEqual(["prj-empty"]);
    expect([...shownCollapsed(map, setAll(map, initialState(map), false))]).toEqual(["prj-empty"]);
  });

  it(`opens the projects holding a search's matches when they are at most ${SEARCH_OPENS_UP_TO}, until the search ends`, () => {
    const map = organisation(10, 20, 0);
    const closed = initialState(map);
    const few = withMatches(closed, search(map, "p3-workspace-1"));
    expect(few.matches.size).toBe(11);
    expect(shownCollapsed(map, few).has("prj-3")).toBe(false);
    expect(shownCollapsed(map, few).size).toBe(9);
    expect(shownCollapsed(map, withMatches(few, new Set())).has("prj-3")).toBe(true);
    const many = withMatches(closed, search(map, "workspace-1"));
    expect(many.matches.size).toBeGreaterThan(SEARCH_OPENS_UP_TO);
    expect(shownCollapsed(map, many).size).toBe(10);
  });

  it("lets the user close a project the search opened, and open or close any other", () => {
    const map = organisation(10, 20, 0);
    let state = withMatches(initialState(map), search(map, "p3-workspace-1"));
    state = toggle(map, state, "prj-3");
    expect(shownCollapsed(map, state).has("prj-3")).toBe(true);
    state = toggle(map, state, "prj-3");
    expect(shownCollapsed(map, state).has("prj-3")).toBe(false);
    state = toggle(map, state, "prj-4");
    expect(shownCollapsed(map, state).has("prj-4")).toBe(false);
    state = withMatches(state, new Set());
    expect(shownCollapsed(map, state).has("prj-3")).toBe(false);
    expect(shownCollapsed(map, setAll(map, state, true)).size).toBe(10);
    expect(shownCollapsed(map, setAll(map, state, false)).size).toBe(0);
  });
});

describe("docs/local-server.md's map section", () => {
  it("states the thresholds the code uses", () => {
    const page = readFileSync(join(__dirname, "..", "..", "docs", "local-server.md"), "utf8");
    const section = page.slice(page.indexOf("### The map"), page.indexOf("\n## ", page.indexOf("### The map")));
    const prose = section.replace(/\s+/g, " ");
    expect(prose).toContain(`more than ${COLLAPSE_ABOVE} workspaces opens with every project collapsed`);
    expect(prose).toContain(`at most ${SEARCH_OPENS_UP_TO} matching workspaces`);
  });
});
