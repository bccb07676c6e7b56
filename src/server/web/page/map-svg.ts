/**
 * The map drawn as SVG from its layout: project boxes, workspace and collapsed-project nodes,
 * edges with arrowheads (run triggers solid, remote state dashed). Elements are made with
 * createElementNS and text goes in as text nodes only; every look is a class of app.css.
 */
import type { OrgMapDrawnEdge, OrgMapNode } from "../../../api/org-map";
import { count as countOf } from "./format";
import { BADGE_WIDTH, shownLabel, type MapLayout, type PlacedNode } from "./map-layout";

const SVG = "http://www.w3.org/2000/svg";

/** What clicking a node does. */
export interface MapActions {
  openWorkspace(id: string): void;
  expandProject(id: string): void;
}

/** An SVG element with attributes. */
export function svg<K extends keyof SVGElementTagNameMap>(
  tag: K,
  attrs: Record<string, string | number> = {},
  ...children: (SVGElement | string)[]
): SVGElementTagNameMap[K] {
  const el = document.createElementNS(SVG, tag);
  for (const [name, value] of Object.entries(attrs)) el.setAttribute(name, String(value));
  for (const child of children) el.append(typeof child === "string" ? document.createTextNode(child) : child);
  return el;
}

/** What an edge means, said in words (its tooltip and the legend). */
export function edgeMeaning(kind: OrgMapDrawnEdge["kind"]): string {
  return kind === "run-trigger"
    ? "an apply of the first queues a run of the second"
    : "the second reads the first's state";
}

/** The arrowhead markers, one per kind. */
export function markers(): SVGDefsElement {
  const defs = svg("defs");
  for (const kind of ["run-trigger", "remote-state"]) {
    defs.append(
      svg(
        "marker",
        {
          id: `map-arrow-${kind}`,
          viewBox: "0 0 10 10",
          refX: 9,
          refY: 5,
          markerWidth: 7,
          markerHeight: 7,
          orient: "auto-start-reverse",
          class: `map-arrow map-arrow-${kind}`,
        },
        svg("path", { d: "M 0 0 L 10 5 L 0 10 z" }),
      ),
    );
  }
  return defs;
}

/** A smooth path through `points`: straight ends, quadratic curves through the bends' midpoints. */
function pathThrough(points: ReadonlyArray<{ x: number; y: number }>): string {
  const r = (n: number) => Math.round(n * 10) / 10;
  if (points.length === 0) return "";
  let d = `M ${r(points[0].x)} ${r(points[0].y)}`;
  if (points.length === 2) return `${d} L ${r(points[1].x)} ${r(points[1].y)}`;
  for (let i = 1; i < points.length - 1; i++) {
    const p = points[i];
    const next = points[i + 1];
    const end = i === points.length - 2 ? next : { x: (p.x + next.x) / 2, y: (p.y + next.y) / 2 };
    d += ` Q ${r(p.x)} ${r(p.y)} ${r(end.x)} ${r(end.y)}`;
  }
  return d;
}

/** The point halfway along a polyline. */
function halfway(points: ReadonlyArray<{ x: number; y: number }>): { x: number; y: number } {
  const lengths = points.slice(1).map((p, i) => Math.hypot(p.x - points[i].x, p.y - points[i].y));
  let left = lengths.reduce((a, b) => a + b, 0) / 2;
  for (let i = 0; i < lengths.length; i++) {
    if (left <= lengths[i] && lengths[i] > 0) {
      const t = left / lengths[i];
      return {
        x: points[i].x + (points[i + 1].x - points[i].x) * t,
        y: points[i].y + (points[i + 1].y - points[i].y) * t,
      };
    }
    left -= lengths[i];
  }
  return points[0];
}

function nodeName(node: OrgMapNode): string {
  return node.name;
}

function drawNode(placed: PlacedNode, actions: MapActions): SVGGElement {
  const { node, width, height } = placed;
  const x = placed.x - width / 2;
  const y = placed.y - height / 2;
  const g = svg("g", {
    transform: `translate(${Math.round(x)} ${Math.round(y)})`,
    tabindex: 0,
    role: "link",
    "data-id": node.id,
  });
  g.append(svg("rect", { width, height, rx: node.type === "project" ? 8 : 5 }));
  if (node.type === "workspace") {
    g.setAttribute("data-node", node.name);
    g.setAttribute("class", "map-node map-workspace");
    g.append(svg("title", {}, node.name), svg("text", { x: 12, y: height / 2 + 4 }, shownLabel(node.name)));
    if (node.workspace.globalRemoteState) {
      const bx = width - BADGE_WIDTH + 2;
      g.append(
        svg(
          "g",
          { class: "map-badge", transform: `translate(${bx} ${height / 2 - 9})` },
          svg("title", {}, "global remote state: every workspace of the organization may read its state"),
          svg("rect", { width: BADGE_WIDTH - 10, height: 18, rx: 9 }),
          svg("text", { x: (BADGE_WIDTH - 10) / 2, y: 13 }, "all"),
        ),
      );
    }
    const open = () => actions.openWorkspace(node.id);
    g.addEventListener("click", open);
    g.addEventListener("keydown", (e) => {
      if (e.key === "Enter") open();
    });
  } else {
    g.setAttribute("data-project-node", node.name);
    g.setAttribute("class", "map-node map-project");
    const count = countOf(node.workspaceCount, "workspace");
    g.append(
      svg("title", {}, `${node.name}: ${count} (collapsed; click to expand)`),
      svg("text", { x: 12, y: 19, class: "map-project-name" }, shownLabel(node.name)),
      svg("text", { x: 12, y: 36, class: "map-project-count" }, count),
    );
    const expand = () => actions.expandProject(node.id);
    g.addEventListener("click", expand);
    g.addEventListener("keydown", (e) => {
      if (e.key === "Enter") expand();
    });
  }
  return g;
}

/** The drawing of `layout`: one `g` to place inside the map's zoomed viewport. */
export function drawMap(layout: MapLayout, actions: MapActions): SVGGElement {
  const root = svg("g", { class: "map-drawing" });
  const names = new Map(layout.nodes.map((n) => [n.node.id, nodeName(n.node)]));
  const boxes = svg("g", { class: "map-boxes" });
  for (const c of layout.clusters) {
    boxes.append(
      svg(
        "g",
        {
          class: "map-box",
          "data-project-box": c.project.name,
          transform: `translate(${Math.round(c.x)} ${Math.round(c.y)})`,
        },
        svg("rect", { width: Math.round(c.width), height: Math.round(c.height), rx: 10 }),
        svg("text", { x: 12, y: 17 }, shownLabel(c.project.name)),
      ),
    );
  }
  const edges = svg("g", { class: "map-edges" });
  for (const { edge, points } of layout.edges) {
    const from = names.get(edge.from) ?? edge.from;
    const to = names.get(edge.to) ?? edge.to;
    const times = edge.count > 1 ? ` (${edge.count} edges)` : "";
    const g = svg(
      "g",
      { class: `map-edge map-edge-${edge.kind}`, "data-edge-from": edge.from, "data-edge-to": edge.to },
      svg(
        "path",
        {
          d: pathThrough(points),
          "data-edge": `${edge.kind}:${from}->${to}`,
          "marker-end": `url(#map-arrow-${edge.kind})`,
        },
        svg(
          "title",
          {},
          `${edge.kind === "run-trigger" ? "run trigger" : "remote state"}: ${from} → ${to}${times}; ${edgeMeaning(edge.kind)}`,
        ),
      ),
    );
    if (edge.count > 1 && points.length) {
      const mid = halfway(points);
      g.append(
        svg("text", { x: Math.round(mid.x), y: Math.round(mid.y) - 4, class: "map-edge-count" }, `×${edge.count}`),
      );
    }
    edges.append(g);
  }
  const nodes = svg("g", { class: "map-nodes" });
  for (const placed of layout.nodes) {
    const node = drawNode(placed, actions);
    const id = placed.node.id;
    const focus = (on: boolean) => {
      root.classList.toggle("map-focus", on);
      for (const edge of edges.children) {
        const incident = edge.getAttribute("data-edge-from") === id || edge.getAttribute("data-edge-to") === id;
        edge.classList.toggle("map-incident", on && incident);
      }
    };
    node.addEventListener("pointerenter", () => focus(true));
    node.addEventListener("pointerleave", () => focus(false));
    node.addEventListener("focus", () => focus(true));
    node.addEventListener("blur", () => focus(false));
    nodes.append(node);
  }
  root.append(boxes, edges, nodes);
  return root;
}

/**
 * Marks the search's matches in a drawing: a matching workspace node, or a collapsed project
 * node holding one, gets `data-match="true"`; the other nodes and the edges that touch no
 * match are dimmed. An empty `matchedNodes` (no search) dims nothing.
 */
export function markMatches(drawing: SVGGElement, matchedNodes: ReadonlySet<string>, searching: boolean): void {
  for (const el of drawing.querySelectorAll(".map-node")) {
    const hit = searching && matchedNodes.has(el.getAttribute("data-id") ?? "");
    if (hit) el.setAttribute("data-match", "true");
    else el.removeAttribute("data-match");
    el.classList.toggle("map-dim", searching && !hit);
  }
  for (const el of drawing.querySelectorAll(".map-edge")) {
    const touches =
      matchedNodes.has(el.getAttribute("data-edge-from") ?? "") ||
      matchedNodes.has(el.getAttribute("data-edge-to") ?? "");
    el.classList.toggle("map-dim", searching && !touches);
  }
}
