/**
 * The map's layout: where each node, project box and edge goes. No DOM here, so the same code
 * runs in the browser and in the unit tests.
 *
 * dagre (a layered layout, left to right) places things in two levels: each expanded project's
 * workspaces inside its box, then the boxes and the collapsed projects as the nodes of one
 * graph whose edges are the projects' merged dependencies. An edge between two projects runs
 * from its workspace to that trunk and along it. dagre's own compound mode (projects as
 * clusters) places nodes at NaN as soon as two projects depend on each other both ways, which
 * real organisations do; two flat layouts have no such case, and a project's inner layout is
 * kept while other projects collapse and expand.
 */
import dagre from "@dagrejs/dagre";
import type { OrgMapCollapsed, OrgMapDrawnEdge, OrgMapNode, OrgMapProject } from "../../../api/org-map";

/** Longest name drawn whole on a node; a longer one is cut with an ellipsis (its node's title has it whole). */
const LABEL_CHARS = 30;
/** Width the drawing allows per character of a 12px label (a generous average of proportional fonts). */
const CHAR_WIDTH = 7.4;
const WORKSPACE_HEIGHT = 30;
const PROJECT_HEIGHT = 46;
const PADDING_X = 14;
/** Room for the badge of a workspace whose state every workspace may read. */
export const BADGE_WIDTH = 46;
/** Room at the top of a project box for its name. */
export const CLUSTER_LABEL_HEIGHT = 24;
const BOX_PADDING = 12;
/** Unconnected nodes of one group are laid out in rows of at most this many, not one tall column. */
const GRID_COLUMNS = 4;

interface Point {
  x: number;
  y: number;
}

/** A node placed: centre, width and height. */
export interface PlacedNode {
  node: OrgMapNode;
  x: number;
  y: number;
  width: number;
  height: number;
}

/** A project box around its expanded workspaces: top-left corner, width and height. */
interface PlacedCluster {
  project: OrgMapProject;
  x: number;
  y: number;
  width: number;
  height: number;
}

/** An edge placed: the points of its line, tail first. */
interface PlacedEdge {
  edge: OrgMapDrawnEdge;
  points: Point[];
}

/** The whole drawing's geometry. */
export interface MapLayout {
  nodes: PlacedNode[];
  clusters: PlacedCluster[];
  edges: PlacedEdge[];
  width: number;
  height: number;
}

/**
 * The inner layout of one expanded project, relative to its box's top-left corner. Edges that
 * leave the project run from their workspace to the box's out port and on along a trunk;
 * edges that arrive come off a trunk at the in port: `ports` holds those legs.
 */
interface BoxLayout {
  width: number;
  height: number;
  nodes: Map<string, Point>;
  edges: Map<string, Point[]>;
  ports: Map<string, Point[]>;
}

/** Room between two edges that run side by side (at a port, along a trunk). */
const LANE = 6;
/** Widest band of edges along one trunk, so that its ends stay on the nodes they join. */
const MAX_BAND = 36;

const IN_PORT = "\u0000in";
const OUT_PORT = "\u0000out";
const PORT_EDGE = "\u0000port";

/** Inner layouts of expanded projects, by project id: valid for one map (its workspaces and edges). */
export type LayoutCache = Map<string, BoxLayout>;

/** The text a node shows for `name`. */
export function shownLabel(name: string): string {
  return name.length > LABEL_CHARS ? `${name.slice(0, LABEL_CHARS - 1)}…` : name;
}

function textWidth(text: string): number {
  return Math.ceil(text.length * CHAR_WIDTH);
}

function nodeSize(node: OrgMapNode): { width: number; height: number } {
  if (node.type === "project") {
    const wide = Math.max(textWidth(shownLabel(node.name)), textWidth(`${node.workspaceCount} workspaces`));
    return { width: wide + 2 * PADDING_X, height: PROJECT_HEIGHT };
  }
  const badge = node.workspace.globalRemoteState ? BADGE_WIDTH : 0;
  return { width: textWidth(shownLabel(node.name)) + 2 * PADDING_X + badge, height: WORKSPACE_HEIGHT };
}

/** The top-level node a drawn node belongs to: its project (box or collapsed node). */
function groupOf(node: OrgMapNode): string {
  return node.type === "workspace" ? node.workspace.projectId : node.id;
}

function edgeKey(e: { kind: string; from: string; to: string }): string {
  return `${e.kind}\u0000${e.from}\u0000${e.to}`;
}

type Sized = { id: string; width: number; height: number };
type Linked = { kind: string; from: string; to: string; weight: number };

/** One flat dagre layout, left to right; unconnected nodes chained invisibly into short rows. */
function flatLayout(
  nodes: ReadonlyArray<Sized>,
  edges: ReadonlyArray<Linked>,
  margin: number,
): { width: number; height: number; nodes: Map<string, Point>; edges: Map<string, Point[]> } {
  const g = new dagre.graphlib.Graph({ multigraph: true });
  g.setGraph({ rankdir: "LR", nodesep: 18, ranksep: 70, edgesep: 12, marginx: margin, marginy: margin });
  g.setDefaultEdgeLabel(() => ({}));
  for (const n of nodes) g.setNode(n.id, { width: n.width, height: n.height });
  const connected = new Set<string>();
  for (const e of edges) {
    g.setEdge(e.from, e.to, { weight: e.weight }, e.kind);
    connected.add(e.from).add(e.to);
  }
  const loose = nodes.filter((n) => !connected.has(n.id)).map((n) => n.id);
  if (loose.length >= GRID_COLUMNS) {
    const columns = Math.min(GRID_COLUMNS, Math.ceil(Math.sqrt(loose.length)));
    for (let i = 0; i + 1 < loose.length; i++) {
      if ((i + 1) % columns !== 0) g.setEdge(loose[i], loose[i + 1], { weight: 0 }, "\u0000grid");
    }
  }
  dagre.layout(g);
  const placed = new Map<string, Point>();
  for (const n of nodes) {
    const { x, y } = g.node(n.id) as Point;
    placed.set(n.id, { x, y });
  }
  const routes = new Map<string, Point[]>();
  for (const e of edges) {
    const label = g.edge(e.from, e.to, e.kind) as { points?: Point[] };
    routes.set(
      edgeKey(e),
      (label.points ?? []).map((p) => ({ x: p.x, y: p.y })),
    );
  }
  const graph = g.graph() as { width?: number; height?: number };
  return { width: graph.width ?? 0, height: graph.height ?? 0, nodes: placed, edges: routes };
}

function boxLayout(
  project: OrgMapProject,
  members: ReadonlyArray<OrgMapNode>,
  edges: ReadonlyArray<OrgMapDrawnEdge>,
  leaving: ReadonlySet<string>,
  arriving: ReadonlySet<string>,
): BoxLayout {
  const sized: Sized[] = members.map((n) => ({ id: n.id, ...nodeSize(n) }));
  const linked: Linked[] = edges.map((e) => ({ ...e, weight: e.kind === "run-trigger" ? 2 : 1 }));
  const portHeight = (n: number) => Math.max(2, n * LANE);
  if (arriving.size) sized.push({ id: IN_PORT, width: 2, height: portHeight(arriving.size) });
  if (leaving.size) sized.push({ id: OUT_PORT, width: 2, height: portHeight(leaving.size) });
  for (const id of arriving) linked.push({ kind: PORT_EDGE, from: IN_PORT, to: id, weight: 1 });
  for (const id of leaving) linked.push({ kind: PORT_EDGE, from: id, to: OUT_PORT, weight: 1 });
  const inner = flatLayout(sized, linked, 0);
  const width = Math.max(inner.width + 2 * BOX_PADDING, textWidth(shownLabel(project.name)) + 2 * PADDING_X);
  const dx = (width - inner.width) / 2;
  const dy = CLUSTER_LABEL_HEIGHT + BOX_PADDING;
  const shift = (p: Point): Point => ({ x: p.x + dx, y: p.y + dy });
  const routes = new Map([...inner.edges].map(([key, points]) => [key, points.map(shift)]));
  const at = (id: string) => shift(inner.nodes.get(id)!);
  // Each workspace crosses its port in a lane of its own, in the order of the workspaces'
  // heights, so that the legs do not meet at one point.
  const lanes = (ids: ReadonlySet<string>, port: string) => {
    if (!ids.size) return new Map<string, number>();
    const centre = at(port);
    const sorted = [...ids].sort((a, b) => at(a).y - at(b).y);
    return new Map(sorted.map((id, i) => [id, centre.y + (i - (sorted.length - 1) / 2) * LANE]));
  };
  const ports = new Map<string, Point[]>();
  const inLanes = lanes(arriving, IN_PORT);
  for (const [id, y] of inLanes) {
    const { x } = at(IN_PORT);
    const leg = routes.get(edgeKey({ kind: PORT_EDGE, from: IN_PORT, to: id }))!;
    ports.set(`in:${id}`, [{ x: x - 1, y }, { x: x + 1, y }, ...leg.slice(1)]);
  }
  const outLanes = lanes(leaving, OUT_PORT);
  for (const [id, y] of outLanes) {
    const { x } = at(OUT_PORT);
    const leg = routes.get(edgeKey({ kind: PORT_EDGE, from: id, to: OUT_PORT }))!;
    ports.set(`out:${id}`, [...leg.slice(0, -1), { x: x - 1, y }, { x: x + 1, y }]);
  }
  return {
    width,
    height: inner.height + dy + BOX_PADDING,
    nodes: new Map([...inner.nodes].map(([id, p]) => [id, shift(p)])),
    edges: routes,
    ports,
  };
}

/**
 * Places the nodes and edges of `view` (from `collapse`); `projects` names the boxes. Give the
 * same `cache` to every call for one map, so that a project's inner layout is computed once.
 */
export function layoutMap(
  view: OrgMapCollapsed,
  projects: ReadonlyArray<OrgMapProject>,
  cache: LayoutCache = new Map(),
): MapLayout {
  const projectById = new Map(projects.map((p) => [p.id, p]));
  const nodeById = new Map(view.nodes.map((n) => [n.id, n]));
  const members = new Map<string, OrgMapNode[]>();
  for (const node of view.nodes) {
    if (node.type !== "workspace") continue;
    const list = members.get(node.workspace.projectId) ?? [];
    list.push(node);
    members.set(node.workspace.projectId, list);
  }
  const inside = new Map<string, OrgMapDrawnEdge[]>();
  const across = new Map<string, Linked>();
  const leaving = new Set<string>();
  const arriving = new Set<string>();
  for (const e of view.edges) {
    const from = groupOf(nodeById.get(e.from)!);
    const to = groupOf(nodeById.get(e.to)!);
    if (from === to && members.has(from)) {
      inside.set(from, [...(inside.get(from) ?? []), e]);
      continue;
    }
    if (members.has(from)) leaving.add(e.from);
    if (members.has(to)) arriving.add(e.to);
    const trunk = { kind: e.kind, from, to, weight: 0 };
    const seen = across.get(edgeKey(trunk)) ?? trunk;
    seen.weight += e.count;
    across.set(edgeKey(trunk), seen);
  }
  const boxes = new Map<string, BoxLayout>();
  for (const [projectId, nodes] of members) {
    const project = projectById.get(projectId) ?? { id: projectId, name: projectId };
    let box = cache.get(projectId);
    if (!box) {
      const own = (ids: Set<string>) => new Set(nodes.map((n) => n.id).filter((id) => ids.has(id)));
      box = boxLayout(project, nodes, inside.get(projectId) ?? [], own(leaving), own(arriving));
      cache.set(projectId, box);
    }
    boxes.set(projectId, box);
  }
  const groups: Sized[] = [...boxes].map(([id, box]) => ({ id, width: box.width, height: box.height }));
  for (const node of view.nodes) if (node.type === "project") groups.push({ id: node.id, ...nodeSize(node) });
  const top = flatLayout(groups, [...across.values()], 20);

  const corner = new Map<string, Point>();
  const clusters: PlacedCluster[] = [];
  for (const [projectId, box] of boxes) {
    const centre = top.nodes.get(projectId)!;
    const x = centre.x - box.width / 2;
    const y = centre.y - box.height / 2;
    corner.set(projectId, { x, y });
    clusters.push({ project: projectById.get(projectId) ?? { id: projectId, name: projectId }, x, y, ...box });
  }
  const nodes: PlacedNode[] = view.nodes.map((node) => {
    const size = nodeSize(node);
    if (node.type === "project") return { node, ...top.nodes.get(node.id)!, ...size };
    const origin = corner.get(node.workspace.projectId)!;
    const p = boxes.get(node.workspace.projectId)!.nodes.get(node.id)!;
    return { node, x: origin.x + p.x, y: origin.y + p.y, ...size };
  });
  const placedById = new Map(nodes.map((n) => [n.node.id, n]));
  const trunkOf = (edge: OrgMapDrawnEdge) =>
    edgeKey({
      kind: edge.kind,
      from: groupOf(placedById.get(edge.from)!.node),
      to: groupOf(placedById.get(edge.to)!.node),
    });
  // The edges along one trunk run side by side, ordered by the heights of their ends.
  const band = new Map<string, OrgMapDrawnEdge[]>();
  for (const edge of view.edges) band.set(trunkOf(edge), [...(band.get(trunkOf(edge)) ?? []), edge]);
  const offset = new Map<OrgMapDrawnEdge, number>();
  for (const along of band.values()) {
    along.sort(
      (a, b) =>
        placedById.get(a.from)!.y - placedById.get(b.from)!.y || placedById.get(a.to)!.y - placedById.get(b.to)!.y,
    );
    const step = along.length > 1 ? Math.min(LANE, MAX_BAND / (along.length - 1)) : 0;
    along.forEach((edge, i) => offset.set(edge, (i - (along.length - 1) / 2) * step));
  }
  const edges: PlacedEdge[] = view.edges.map((edge) => {
    const tail = placedById.get(edge.from)!;
    const head = placedById.get(edge.to)!;
    const from = groupOf(tail.node);
    const to = groupOf(head.node);
    if (from === to && boxes.has(from)) {
      const origin = corner.get(from)!;
      const points = boxes.get(from)!.edges.get(edgeKey(edge)) ?? [];
      return { edge, points: points.map((p) => ({ x: origin.x + p.x, y: origin.y + p.y })) };
    }
    const lane = offset.get(edge) ?? 0;
    const route = top.edges.get(trunkOf(edge)) ?? [];
    // A collapsed project's node is small: the band meets it at the trunk's own end.
    const trunk = route.map((p, i) =>
      (i === 0 && !boxes.has(from)) || (i === route.length - 1 && !boxes.has(to)) ? p : { x: p.x, y: p.y + lane },
    );
    const leg = (group: string, key: string): Point[] => {
      const origin = corner.get(group);
      const points = boxes.get(group)?.ports.get(key);
      return origin && points ? points.map((p) => ({ x: origin.x + p.x, y: origin.y + p.y })) : [];
    };
    const points = [...leg(from, `out:${edge.from}`), ...trunk, ...leg(to, `in:${edge.to}`)];
    return { edge, points };
  });
  return framed({ nodes, clusters, edges, width: top.width, height: top.height });
}

/** The layout moved and sized so that everything lies inside it: dagre's edge bends may stray past its own frame. */
function framed(layout: MapLayout): MapLayout {
  const margin = 20;
  let x0 = Infinity;
  let y0 = Infinity;
  let x1 = -Infinity;
  let y1 = -Infinity;
  const take = (x: number, y: number, width = 0, height = 0) => {
    x0 = Math.min(x0, x);
    y0 = Math.min(y0, y);
    x1 = Math.max(x1, x + width);
    y1 = Math.max(y1, y + height);
  };
  for (const n of layout.nodes) take(n.x - n.width / 2, n.y - n.height / 2, n.width, n.height);
  for (const c of layout.clusters) take(c.x, c.y, c.width, c.height);
  for (const e of layout.edges) for (const p of e.points) take(p.x, p.y);
  if (x0 === Infinity) return { ...layout, width: 2 * margin, height: 2 * margin };
  const dx = margin - x0;
  const dy = margin - y0;
  const move = <T extends Point>(p: T): T => ({ ...p, x: p.x + dx, y: p.y + dy });
  return {
    nodes: layout.nodes.map(move),
    clusters: layout.clusters.map(move),
    edges: layout.edges.map((e) => ({ edge: e.edge, points: e.points.map(move) })),
    width: x1 - x0 + 2 * margin,
    height: y1 - y0 + 2 * margin,
  };
}
