/**
 * The organization's map as the generator writes it: one Mermaid diagram per project in the
 * README beside the program, and a few lines of text for a terminal (the demo's ending). Both
 * are drawn from the organisation map's model (`src/api/org-map.ts`), built from what the
 * generator already read (the consumers and inbound run triggers of each workspace), so the
 * map costs no request of its own; {@link readOrgMap} reads only those lists, for a caller
 * that wants the map alone.
 */
import { projectView, type OrgMap, type OrgMapEdge, type OrgMapWorkspace } from "../api/org-map";
import type { RunTrigger, Workspace, WorkspacesClient } from "../client";
import { byCodePoint } from "./names";
import { noneIfUnavailable, perRecordList, pool } from "./read-lists";

export type { OrgMap } from "../api/org-map";

/** What the map is drawn from: the generator's snapshot has this shape, and {@link readOrgMap} reads it. */
export interface MapSource {
  /** The organization. */
  organization: string;
  /** Its projects (the ones read). */
  projects: { id: string; name: string }[];
  /** Its workspaces (the ones read), each with the consumers of its state and the run triggers into it. */
  workspaces: {
    workspace: Pick<Workspace, "id" | "name" | "projectId" | "globalRemoteState">;
    /** Workspaces allowed to read its state (none read when every workspace may). */
    consumerIds: string[];
    /** Run triggers into it: each names the workspace whose applies queue a run here. */
    runTriggers?: Pick<RunTrigger, "sourceableId" | "sourceableName">[];
  }[];
}

/** The project of a workspace that sits in none (a server without projects). */
const NO_PROJECT = { id: "", name: "workspaces without a project" };
/** The project of a workspace that was not read (a program of one project): known only by its id, or a trigger's name for it. */
const NOT_READ = "(not read)";

/**
 * The map of what `source` holds: its projects, its workspaces, and an edge per consumer
 * (`remote-state`, from the workspace read to its reader) and per run trigger (`run-trigger`,
 * from the source workspace to the one whose run it queues). A far end that was not read (a
 * workspace of another project, in a program of one project) is a workspace of the map all
 * the same, in no project of it, named by the trigger when it says, else by its id.
 */
export function orgMapOf(source: MapSource): OrgMap {
  const workspaces: OrgMapWorkspace[] = source.workspaces.map(({ workspace: w }) => ({
    id: w.id,
    name: w.name,
    projectId: w.projectId ?? NO_PROJECT.id,
    globalRemoteState: w.globalRemoteState === true,
  }));
  const known = new Map(workspaces.map((w) => [w.id, w]));
  const edges: OrgMapEdge[] = [];
  const end = (id: string, name: string | null | undefined) => {
    if (!known.has(id)) known.set(id, { id, name: name ?? id, projectId: NOT_READ, globalRemoteState: false });
  };
  for (const { workspace, consumerIds, runTriggers } of source.workspaces) {
    for (const reader of consumerIds) {
      end(reader, undefined);
      edges.push({ kind: "remote-state", from: workspace.id, to: reader });
    }
    for (const t of runTriggers ?? []) {
      if (!t.sourceableId) continue;
      end(t.sourceableId, t.sourceableName);
      edges.push({ kind: "run-trigger", from: t.sourceableId, to: workspace.id });
    }
  }
  const projects = [...source.projects];
  // A project the list did not bring (a server that lists none) is named by its id.
  for (const w of workspaces) {
    if (!projects.some((p) => p.id === w.projectId))
      projects.push(w.projectId === NO_PROJECT.id ? NO_PROJECT : { id: w.projectId, name: w.projectId });
  }
  const name = (id: string) => known.get(id)!.name;
  edges.sort(
    (a, b) =>
      byCodePoint(a.kind, b.kind) || byCodePoint(name(a.from), name(b.from)) || byCodePoint(name(a.to), name(b.to)),
  );
  return { organization: source.organization, projects, workspaces: [...known.values()], edges };
}

/**
 * Reads the map alone through `client`: the projects, the workspaces, and per workspace its
 * consumers and inbound run triggers (two lists each; a kind the server does not serve is
 * asked for once).
 */
export async function readOrgMap(client: WorkspacesClient, organization: string, concurrency = 8): Promise<OrgMap> {
  const [projects, workspaces] = await Promise.all([
    noneIfUnavailable(client.projects.list(organization).all()),
    client.workspaces.list(organization).all(),
  ]);
  projects.sort((a, b) => byCodePoint(a.name, b.name) || byCodePoint(a.id, b.id));
  workspaces.sort((a, b) => byCodePoint(a.name, b.name));
  const triggersOf = perRecordList("run triggers", (id) => client.runTriggers.list(id, "inbound").all(), undefined);
  const records = await pool(workspaces, concurrency, async (workspace) => ({
    workspace,
    consumerIds: workspace.globalRemoteState
      ? []
      : await noneIfUnavailable(client.remoteStateConsumers.listIds(workspace.id)),
    runTriggers: await triggersOf(workspace.id),
  }));
  return orgMapOf({ organization, projects, workspaces: records });
}

/** The words an edge of each kind is drawn with: Mermaid's arrow and label, and the terminal's. */
const KINDS: Record<OrgMapEdge["kind"], { arrow: string; label: string; text: string }> = {
  "run-trigger": { arrow: "-->", label: "run trigger", text: "─run trigger→" },
  "remote-state": { arrow: "-.->", label: "state", text: "─state→" },
};

/** The name of the project `id` as a reader of the map sees it. */
function projectName(map: OrgMap, id: string): string {
  return id === NOT_READ ? "another project" : (map.projects.find((p) => p.id === id)?.name ?? id);
}

/** The projects that hold a workspace, in map order. */
function drawnProjects(map: OrgMap) {
  return map.projects.filter((p) => map.workspaces.some((w) => w.projectId === p.id));
}

/**
 * Text in a Mermaid label: every character that ends or changes a quoted label (quotes,
 * brackets, `<`, `>`, `|`, `#`, `;`, `&`, backquotes) as Mermaid's numeric entity code.
 */
function mermaidLabel(text: string): string {
  return text.replace(/["#;<>|[\]{}()&`]/g, (c) => `#${c.charCodeAt(0)};`);
}

/**
 * The Mermaid diagram (`flowchart LR`, without its fence) of project `projectId`: its
 * workspaces, and at the far end of an edge that leaves it a workspace of another project,
 * styled `external` and labelled with its project. Node ids are the workspaces' ids made safe
 * (`ws-abc` → `ws_abc`).
 */
export function mermaidOf(map: OrgMap, projectId: string): string[] {
  const view = projectView(map, projectId);
  const ids = new Map<string, string>();
  const nodeId = (workspaceId: string) => {
    let id = ids.get(workspaceId);
    if (id === undefined) {
      const safe = `n_${workspaceId.replace(/[^A-Za-z0-9_]/g, "_")}`;
      id = [...ids.values()].includes(safe) ? `${safe}_${ids.size}` : safe;
      ids.set(workspaceId, id);
    }
    return id;
  };
  const lines = ["flowchart LR"];
  for (const w of view.workspaces) {
    const note = w.globalRemoteState ? "<br/>state readable by every workspace" : "";
    lines.push(`  ${nodeId(w.id)}["${mermaidLabel(w.name)}${note}"]${w.globalRemoteState ? ":::global" : ""}`);
  }
  for (const w of view.external) {
    const where = `${w.projectId === NOT_READ ? "" : "project "}${projectName(map, w.projectId)}`;
    lines.push(`  ${nodeId(w.id)}["${mermaidLabel(w.name)}<br/>${mermaidLabel(where)}"]:::external`);
  }
  for (const e of view.edges) {
    lines.push(`  ${nodeId(e.from)} ${KINDS[e.kind].arrow}|${KINDS[e.kind].label}| ${nodeId(e.to)}`);
  }
  if (view.external.length) lines.push("  classDef external stroke-dasharray: 4 4");
  if (view.workspaces.some((w) => w.globalRemoteState)) lines.push("  classDef global stroke-width: 3px");
  return lines;
}

/** The README's section "Map": one diagram per project that holds a workspace (none: no section). */
export function mapSection(map: OrgMap): string[] {
  const projects = drawnProjects(map);
  if (!projects.length) return [];
  return [
    "## Map",
    "",
    "One diagram per project: its workspaces, the run triggers between them (`-->`, from the",
    "workspace whose apply queues a run to the workspace whose run it queues) and who reads",
    "whose state (`-.->`, from the workspace read to the workspace that reads it). A workspace",
    "of another project at the far end of an edge is drawn dashed and names its project; a",
    "workspace whose state every workspace of the organization may read says so.",
    "",
    ...projects.flatMap((p) => [`### Project ${p.name}`, "", "```mermaid", ...mermaidOf(map, p.id), "```", ""]),
  ];
}

/**
 * The map as lines of text, per project that holds a workspace: its name and count, then one
 * line per workspace and kind of edge that leaves it (`network-prod ─state→ billing-prod,
 * identity-prod`), a workspace of another project followed by its project in parentheses.
 */
export function textMapOf(map: OrgMap): string[] {
  const byId = new Map(map.workspaces.map((w) => [w.id, w]));
  const lines: string[] = [];
  for (const p of drawnProjects(map)) {
    const own = map.workspaces.filter((w) => w.projectId === p.id);
    lines.push(`${p.name} (${own.length} workspace${own.length === 1 ? "" : "s"})`);
    const before = lines.length;
    for (const w of own) {
      if (w.globalRemoteState)
        lines.push(`  ${w.name} ${KINDS["remote-state"].text} every workspace of the organization`);
      for (const kind of Object.keys(KINDS) as OrgMapEdge["kind"][]) {
        const heads = map.edges
          .filter((e) => e.kind === kind && e.from === w.id)
          .map((e) => byId.get(e.to)!)
          .map((h) => (h.projectId === p.id ? h.name : `${h.name} (${projectName(map, h.projectId)})`));
        if (heads.length) lines.push(`  ${w.name} ${KINDS[kind].text} ${heads.join(", ")}`);
      }
    }
    if (lines.length === before) lines.push("  no run trigger or state sharing leaves its workspaces");
  }
  return lines;
}
