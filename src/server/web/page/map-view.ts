/**
 * The organisation's map (route `#/o/<org>/map`): run triggers and remote-state sharing drawn
 * as a directed graph, grouped by project, with collapse by project, search, pan and zoom.
 * It reads the same JSON:API as every client: the projects, the workspaces, then each
 * workspace's inbound run triggers and remote state consumers.
 */
import { collapse, search, type OrgMap, type OrgMapEdge } from "../../../api/org-map";
import { inParallel, listAll } from "./api";
import { h, replace } from "./dom";
import { count } from "./format";
import { homeHash } from "./router";
import { layoutMap, type LayoutCache, type MapLayout } from "./map-layout";
import { initialState, setAll, shownCollapsed, toggle, withMatches, type MapState } from "./map-state";
import { drawMap, edgeMeaning, markMatches, markers, svg } from "./map-svg";
import { panZoom, type Area } from "./map-zoom";

/** Reads at a time while loading the workspaces' triggers and consumers. */
const PARALLEL_READS = 8;

/** The map of `org` as the API shows it to the signed-in token. */
async function loadOrgMap(org: string, progress: (done: number, total: number) => void = () => {}): Promise<OrgMap> {
  const base = `/organizations/${encodeURIComponent(org)}`;
  const [projects, workspaces] = await Promise.all([listAll(`${base}/projects`), listAll(`${base}/workspaces`)]);
  const map: OrgMap = {
    organization: org,
    projects: projects.map((p) => ({ id: String(p.id), name: String(p.attributes?.name ?? p.id) })),
    workspaces: workspaces.map((w) => ({
      id: String(w.id),
      name: String(w.attributes?.name ?? w.id),
      projectId: String(w.relationships?.project?.data?.id ?? ""),
      globalRemoteState: w.attributes?.["global-remote-state"] === true,
    })),
    edges: [],
  };
  // A workspace whose project the token may not list is drawn in a project box of its own.
  const listed = new Set(map.projects.map((p) => p.id));
  for (const w of map.workspaces) {
    if (listed.has(w.projectId)) continue;
    w.projectId ||= "(none)";
    if (!listed.has(w.projectId)) map.projects.push({ id: w.projectId, name: `project ${w.projectId}` });
    listed.add(w.projectId);
  }
  let done = 0;
  const perWorkspace = await inParallel(map.workspaces, PARALLEL_READS, async (ws): Promise<OrgMapEdge[]> => {
    const path = `/workspaces/${encodeURIComponent(ws.id)}`;
    const [inbound, consumers] = await Promise.all([
      listAll(`${path}/run-triggers?filter%5Brun-trigger%5D%5Btype%5D=inbound`),
      // With global remote state on, the consumers are every workspace: a badge says so instead.
      ws.globalRemoteState ? Promise.resolve([]) : listAll(`${path}/relationships/remote-state-consumers`),
    ]);
    progress(++done, map.workspaces.length);
    const edges: OrgMapEdge[] = [];
    for (const t of inbound) {
      const from = t.relationships?.sourceable?.data?.id;
      if (typeof from === "string") edges.push({ kind: "run-trigger", from, to: ws.id });
    }
    for (const c of consumers)
      if (typeof c.id === "string") edges.push({ kind: "remote-state", from: ws.id, to: c.id });
    return edges;
  });
  map.edges = perWorkspace.flat();
  return map;
}

function legend(): HTMLElement {
  const line = (kind: "run-trigger" | "remote-state") =>
    svg(
      "svg",
      { width: 44, height: 12, class: "map-legend-line", "aria-hidden": "true" },
      svg("path", { d: "M 2 6 L 40 6", class: `map-edge-${kind}`, "marker-end": `url(#map-arrow-${kind})` }),
    );
  return h(
    "ul",
    { class: "map-legend" },
    h("li", null, line("run-trigger"), h("span", null, "run trigger: ", edgeMeaning("run-trigger"))),
    h("li", null, line("remote-state"), h("span", null, "remote state: ", edgeMeaning("remote-state"))),
    h(
      "li",
      null,
      h("span", { class: "map-legend-badge" }, "all"),
      h("span", null, "global remote state: every workspace may read its state"),
    ),
    h(
      "li",
      null,
      h("span", { class: "map-legend-project" }, "n"),
      h("span", null, "a collapsed project: click it to expand"),
    ),
  );
}

/** Draws the map of `org` into `container`; a workspace node opens its page through `navigate`. */
export async function renderMap(container: HTMLElement, org: string, navigate: (hash: string) => void): Promise<void> {
  const status = h("p", { class: "muted map-status" }, "Reading the organisation's projects and workspaces…");
  document.title = `map · ${org}`;
  const head = () => [
    h("nav", { class: "crumbs" }, h("a", { href: homeHash(org) }, org), " / map"),
    h("header", { class: "page-head" }, h("h1", null, "Map"), summary),
  ];
  const summary = h("p", { class: "muted map-summary" });
  replace(container, head(), status);
  const reading = performance.now();
  const map = await loadOrgMap(org, (done, total) => {
    status.textContent = `Reading triggers and consumers: ${done} of ${total} workspaces…`;
  });
  console.debug(`map read: ${Math.round(performance.now() - reading)} ms for ${map.workspaces.length} workspaces`);
  // Left for another page while reading: that page owns the container now.
  if (!container.contains(status)) return;

  const cache: LayoutCache = new Map();
  let state: MapState = initialState(map);
  let layout: MapLayout | null = null;
  let drawnKey = "";

  const svgEl = svg("svg", { "data-map": "", class: "map-canvas", "aria-label": `map of ${org}` });
  const viewport = svg("g", { class: "map-viewport" });
  svgEl.append(markers(), viewport);
  const zoom = panZoom(svgEl, viewport);

  const input = h("input", {
    type: "search",
    "data-map-search": "",
    placeholder: "Search workspaces or projects",
    "aria-label": "search workspaces or projects",
  });
  const projectList = h("ul", { class: "map-projects" });

  const whole = (): Area => ({ x: 0, y: 0, width: layout?.width ?? 0, height: layout?.height ?? 0 });
  const areaOf = (ids: ReadonlySet<string>): Area | null => {
    const hits = (layout?.nodes ?? []).filter((n) => ids.has(n.node.id));
    if (!hits.length) return null;
    const x0 = Math.min(...hits.map((n) => n.x - n.width / 2));
    const y0 = Math.min(...hits.map((n) => n.y - n.height / 2));
    const x1 = Math.max(...hits.map((n) => n.x + n.width / 2));
    const y1 = Math.max(...hits.map((n) => n.y + n.height / 2));
    return { x: x0 - 40, y: y0 - 40, width: x1 - x0 + 80, height: y1 - y0 + 80 };
  };
  const actions = {
    openWorkspace: (id: string) => navigate(`#/o/${encodeURIComponent(org)}/workspaces/${encodeURIComponent(id)}`),
    expandProject: (id: string) => toggleProject(id),
  };

  /** Redraws after a change of state; lays out again only when the collapsed projects changed. */
  function update(next: MapState, how: { fit?: boolean; focusProject?: string; focusMatches?: boolean } = {}): void {
    state = next;
    const collapsed = shownCollapsed(map, state);
    const key = [...collapsed].sort().join(",");
    const view = collapse(map, collapsed);
    if (!layout || key !== drawnKey) {
      const started = performance.now();
      layout = layoutMap(view, map.projects, cache);
      console.debug(
        `map layout: ${Math.round(performance.now() - started)} ms for ${view.nodes.length} nodes and ${view.edges.length} edges`,
      );
      replace(viewport, drawMap(layout, actions));
      drawnKey = key;
    }
    const searching = input.value.trim() !== "";
    const matchedNodes = new Set<string>(state.matches);
    for (const w of map.workspaces)
      if (state.matches.has(w.id) && collapsed.has(w.projectId)) matchedNodes.add(w.projectId);
    markMatches(viewport, matchedNodes, searching);
    renderPanel(collapsed, searching);
    if (how.fit) zoom.fit(whole());
    else if (how.focusProject) zoom.fit(areaOf(projectMembers(how.focusProject)) ?? whole());
    else if (how.focusMatches && searching) zoom.fit(areaOf(matchedNodes) ?? whole());
  }

  /** Expanding a project zooms to it; collapsing one shows the whole map again. */
  function toggleProject(projectId: string): void {
    const expanding = shownCollapsed(map, state).has(projectId);
    update(toggle(map, state, projectId), expanding ? { focusProject: projectId } : { fit: true });
  }

  function projectMembers(projectId: string): Set<string> {
    const ids = new Set<string>([projectId]);
    for (const w of map.workspaces) if (w.projectId === projectId) ids.add(w.id);
    return ids;
  }

  function renderPanel(collapsed: ReadonlySet<string>, searching: boolean): void {
    const counts = new Map<string, number>();
    const hits = new Map<string, number>();
    for (const w of map.workspaces) {
      counts.set(w.projectId, (counts.get(w.projectId) ?? 0) + 1);
      if (state.matches.has(w.id)) hits.set(w.projectId, (hits.get(w.projectId) ?? 0) + 1);
    }
    replace(
      projectList,
      map.projects.map((p) => {
        const n = counts.get(p.id) ?? 0;
        const isCollapsed = collapsed.has(p.id);
        return h(
          "li",
          { class: searching && !hits.get(p.id) ? "map-dim" : null },
          h(
            "button",
            {
              type: "button",
              "data-collapse": p.name,
              "aria-expanded": isCollapsed ? "false" : "true",
              disabled: n === 0,
              title: isCollapsed ? `expand ${p.name}` : `collapse ${p.name}`,
              "aria-label": isCollapsed ? `expand ${p.name}` : `collapse ${p.name}`,
              onclick: () => toggleProject(p.id),
            },
            isCollapsed ? "+" : "−",
          ),
          h("span", { class: "map-project-label" }, p.name),
          h("span", { class: "muted" }, searching && hits.get(p.id) ? ` ${hits.get(p.id)} of ${n}` : ` ${n}`),
        );
      }),
    );
    const edgeCount = map.edges.filter((e) => e.kind === "run-trigger").length;
    const sharing = map.edges.length - edgeCount;
    summary.textContent =
      `${count(map.workspaces.length, "workspace")} in ${count(map.projects.length, "project")}; ` +
      `${count(edgeCount, "run trigger")}, ${count(sharing, "remote state consumer")}` +
      (searching ? `; ${state.matches.size} ${state.matches.size === 1 ? "match" : "matches"}` : "");
  }

  input.addEventListener("input", () => {
    update(withMatches(state, search(map, input.value)), { focusMatches: true });
  });
  const button = (label: string, attr: string, onclick: () => void) =>
    h("button", { type: "button", [attr]: "", onclick }, label);

  replace(
    container,
    head(),
    h(
      "div",
      { class: "map-toolbar" },
      input,
      button("Collapse all", "data-collapse-all", () => update(setAll(map, state, true), { fit: true })),
      button("Expand all", "data-expand-all", () => update(setAll(map, state, false), { fit: true })),
      button("Fit", "data-map-fit", () => zoom.fit(whole())),
    ),
    h(
      "div",
      { class: "map-body" },
      svgEl,
      h("aside", { class: "map-panel" }, h("h2", null, "Projects"), projectList, legend()),
    ),
  );
  update(state, { fit: true });
}
