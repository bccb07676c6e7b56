/**
 * The organisation map: which workspace's apply queues a run of which (run triggers) and which
 * workspace reads whose state (remote state consumers), grouped by project. A pure model,
 * shared by the local server's web view (which draws it) and the generator (which writes it);
 * it imports nothing, so the page's bundle carries no schema library.
 */

/** A project of the map. */
export interface OrgMapProject {
  /** The project's id (`prj-…`). */
  id: string;
  /** The project's name. */
  name: string;
}

/** A workspace of the map. */
export interface OrgMapWorkspace {
  /** The workspace's id (`ws-…`). */
  id: string;
  /** The workspace's name. */
  name: string;
  /** The id of the project that holds it. */
  projectId: string;
  /** Every workspace of the organisation may read its state (drawn as a badge, not as edges). */
  globalRemoteState: boolean;
}

/**
 * A dependency between two workspaces (ids).
 * run-trigger: from = the sourceable workspace (its apply queues a run), to = the workspace whose run is queued.
 * remote-state: from = the workspace whose state is read, to = the consumer that reads it.
 */
export interface OrgMapEdge {
  /** `run-trigger` or `remote-state`. */
  kind: "run-trigger" | "remote-state";
  /** Workspace id at the tail (see the kinds above). */
  from: string;
  /** Workspace id at the head (see the kinds above). */
  to: string;
}

/** The whole map of one organisation. */
export interface OrgMap {
  /** The organisation's name. */
  organization: string;
  /** Its projects. */
  projects: OrgMapProject[];
  /** Its workspaces. */
  workspaces: OrgMapWorkspace[];
  /** The dependencies between its workspaces. */
  edges: OrgMapEdge[];
}

/** One project with what touches it: an edge that crosses to another project ends at an external workspace. */
export interface OrgMapProjectView {
  /** The project. */
  project: OrgMapProject;
  /** Its own workspaces. */
  workspaces: OrgMapWorkspace[];
  /** Every edge with at least one end in the project. */
  edges: OrgMapEdge[];
  /** The workspaces of other projects at the far ends of those edges. */
  external: OrgMapWorkspace[];
}

/** The project `projectId` of the map, its edges and the external workspaces they reach. */
export function projectView(map: OrgMap, projectId: string): OrgMapProjectView {
  const project = map.projects.find((p) => p.id === projectId);
  if (!project) throw new Error(`the map of ${map.organization} has no project ${projectId}`);
  const byId = workspacesById(map);
  const own = map.workspaces.filter((w) => w.projectId === projectId);
  const inside = new Set(own.map((w) => w.id));
  const edges = map.edges.filter((e) => inside.has(e.from) || inside.has(e.to));
  const externalIds = new Set<string>();
  for (const e of edges) {
    for (const end of [e.from, e.to]) if (!inside.has(end) && byId.has(end)) externalIds.add(end);
  }
  const external = map.workspaces.filter((w) => externalIds.has(w.id));
  return { project, workspaces: own, edges, external };
}

/** A node as drawn: a workspace, or a collapsed project standing for all of its workspaces. */
export type OrgMapNode =
  | {
      /** A workspace drawn on its own. */
      type: "workspace";
      /** The workspace's id. */
      id: string;
      /** The workspace's name. */
      name: string;
      /** The workspace itself. */
      workspace: OrgMapWorkspace;
    }
  | {
      /** A collapsed project. */
      type: "project";
      /** The project's id. */
      id: string;
      /** The project's name. */
      name: string;
      /** How many workspaces it stands for. */
      workspaceCount: number;
      /** Edges between two of its own workspaces (hidden while it is collapsed). */
      internalEdges: number;
    };

/** An edge as drawn, between node ids; `count` is how many workspace edges it stands for. */
export interface OrgMapDrawnEdge {
  /** `run-trigger` or `remote-state`. */
  kind: OrgMapEdge["kind"];
  /** Node id at the tail. */
  from: string;
  /** Node id at the head. */
  to: string;
  /** Workspace edges merged into this one (1 when both ends are workspaces). */
  count: number;
}

/** What is drawn once some projects are collapsed. */
export interface OrgMapCollapsed {
  /** Workspaces of expanded projects, then one node per collapsed project (map order). */
  nodes: OrgMapNode[];
  /** Edges between those nodes, one per kind, tail and head. */
  edges: OrgMapDrawnEdge[];
}

/**
 * The map with the projects of `collapsedProjectIds` drawn as one node each: an edge with an
 * end in a collapsed project ends at the project's node; edges of the same kind between the
 * same two nodes become one with a count; an edge inside one collapsed project is counted on
 * its node, not drawn. Edges to a workspace the map does not hold are left out.
 */
export function collapse(map: OrgMap, collapsedProjectIds: ReadonlySet<string>): OrgMapCollapsed {
  const byId = workspacesById(map);
  const nodes: OrgMapNode[] = [];
  const projectNodes = new Map<string, Extract<OrgMapNode, { type: "project" }>>();
  for (const p of map.projects) {
    if (!collapsedProjectIds.has(p.id)) continue;
    projectNodes.set(p.id, { type: "project", id: p.id, name: p.name, workspaceCount: 0, internalEdges: 0 });
  }
  for (const w of map.workspaces) {
    const projectNode = projectNodes.get(w.projectId);
    if (projectNode) projectNode.workspaceCount++;
    else nodes.push({ type: "workspace", id: w.id, name: w.name, workspace: w });
  }
  nodes.push(...projectNodes.values());
  const nodeOf = (workspaceId: string): string | undefined => {
    const w = byId.get(workspaceId);
    if (!w) return undefined;
    return projectNodes.has(w.projectId) ? w.projectId : w.id;
  };
  const merged = new Map<string, OrgMapDrawnEdge>();
  for (const e of map.edges) {
    const from = nodeOf(e.from);
    const to = nodeOf(e.to);
    if (from === undefined || to === undefined) continue;
    if (from === to && projectNodes.has(from)) {
      projectNodes.get(from)!.internalEdges++;
      continue;
    }
    const key = `${e.kind}\u0000${from}\u0000${to}`;
    const seen = merged.get(key);
    if (seen) seen.count++;
    else merged.set(key, { kind: e.kind, from, to, count: 1 });
  }
  return { nodes, edges: [...merged.values()] };
}

/**
 * The ids of the workspaces that match `query`: its text (trimmed, any case) is part of the
 * workspace's name or of its project's name. An empty query matches nothing.
 */
export function search(map: OrgMap, query: string): Set<string> {
  const q = query.trim().toLowerCase();
  const found = new Set<string>();
  if (q === "") return found;
  const projectMatches = new Set(map.projects.filter((p) => p.name.toLowerCase().includes(q)).map((p) => p.id));
  for (const w of map.workspaces) {
    if (w.name.toLowerCase().includes(q) || projectMatches.has(w.projectId)) found.add(w.id);
  }
  return found;
}

function workspacesById(map: OrgMap): Map<string, OrgMapWorkspace> {
  return new Map(map.workspaces.map((w) => [w.id, w]));
}
