/**
 * Which projects the map shows collapsed: the rule that keeps a large organisation readable,
 * the user's own choices, and the search that opens the projects holding its matches. No DOM
 * here: the unit tests read it.
 */
import type { OrgMap } from "../../../api/org-map";

/** An organisation with more workspaces than this opens with every project collapsed. */
export const COLLAPSE_ABOVE = 40;
/** A search with at most this many matching workspaces opens the collapsed projects that hold them. */
export const SEARCH_OPENS_UP_TO = 30;

/** What the user chose, and what the current search asks. */
export interface MapState {
  /** Projects the user collapsed (or the opening rule did). */
  collapsed: Set<string>;
  /** Projects the user collapsed again while the current search had opened them. */
  keptClosed: Set<string>;
  /** Workspace ids that match the current search (empty: no search). */
  matches: Set<string>;
}

function projectsWithWorkspaces(map: OrgMap): Set<string> {
  return new Set(map.workspaces.map((w) => w.projectId));
}

/** The state the map opens in: past {@link COLLAPSE_ABOVE} workspaces, every project collapsed. */
export function initialState(map: OrgMap): MapState {
  const collapsed = map.workspaces.length > COLLAPSE_ABOVE ? projectsWithWorkspaces(map) : new Set<string>();
  return { collapsed, keptClosed: new Set(), matches: new Set() };
}

/** Projects a search opens: those holding a match, when the matches are few enough to show. */
function openedBySearch(map: OrgMap, state: MapState): Set<string> {
  if (state.matches.size === 0 || state.matches.size > SEARCH_OPENS_UP_TO) return new Set();
  const opened = new Set<string>();
  for (const w of map.workspaces)
    if (state.matches.has(w.id) && !state.keptClosed.has(w.projectId)) opened.add(w.projectId);
  return opened;
}

/**
 * The projects drawn as one node: the chosen ones, less those the search opens, plus every
 * project without a workspace (an empty box would say less than a node reading "0 workspaces").
 */
export function shownCollapsed(map: OrgMap, state: MapState): Set<string> {
  const opened = openedBySearch(map, state);
  const shown = new Set([...state.collapsed].filter((id) => !opened.has(id)));
  const holding = projectsWithWorkspaces(map);
  for (const p of map.projects) if (!holding.has(p.id)) shown.add(p.id);
  return shown;
}

/** The state after the user's toggle of one project: collapses it if shown expanded, else expands it. */
export function toggle(map: OrgMap, state: MapState, projectId: string): MapState {
  const collapsed = new Set(state.collapsed);
  const keptClosed = new Set(state.keptClosed);
  if (shownCollapsed(map, state).has(projectId)) {
    collapsed.delete(projectId);
    keptClosed.delete(projectId);
  } else {
    collapsed.add(projectId);
    if (openedBySearch(map, state).has(projectId)) keptClosed.add(projectId);
  }
  return { ...state, collapsed, keptClosed };
}

/** The state with every project collapsed (`true`) or expanded (`false`); the search still opens its matches' projects. */
export function setAll(map: OrgMap, state: MapState, collapsedAll: boolean): MapState {
  return {
    ...state,
    collapsed: collapsedAll ? projectsWithWorkspaces(map) : new Set(),
    keptClosed: new Set(),
  };
}

/** The state for a new search's matches (the user's closings of the last search's projects are forgotten). */
export function withMatches(state: MapState, matches: Set<string>): MapState {
  return { ...state, matches, keptClosed: new Set() };
}
