import { describe, expect, it } from "vitest";
import { collapse, projectView, search, type OrgMap } from "../../src/api/org-map";

/**
 * net (network, dns) → app (api, web) → data (db); ops has nothing. Edges:
 * network → api (trigger), network → web (trigger), dns → network (trigger, inside net),
 * db → api and db → web (remote state, data read by app), api → web (trigger, inside app),
 * network → db (remote state across), network → api (remote state: same ends, other kind).
 */
function sample(): OrgMap {
  const ws = (id: string, projectId: string, globalRemoteState = false) => ({
    id,
    name: id.replace("ws-", ""),
    projectId,
    globalRemoteState,
  });
  return {
    organization: "acme",
    projects: [
      { id: "prj-net", name: "Networking" },
      { id: "prj-app", name: "Apps" },
      { id: "prj-data", name: "Data" },
      { id: "prj-ops", name: "Ops" },
    ],
    workspaces: [
      ws("ws-network", "prj-net"),
      ws("ws-dns", "prj-net", true),
      ws("ws-api", "prj-app"),
      ws("ws-web", "prj-app"),
      ws("ws-db", "prj-data"),
    ],
    edges: [
      { kind: "run-trigger", from: "ws-network", to: "ws-api" },
      { kind: "run-trigger", from: "ws-network", to: "ws-web" },
      { kind: "run-trigger", from: "ws-dns", to: "ws-network" },
      { kind: "remote-state", from: "ws-db", to: "ws-api" },
      { kind: "remote-state", from: "ws-db", to: "ws-web" },
      { kind: "run-trigger", from: "ws-api", to: "ws-web" },
      { kind: "remote-state", from: "ws-network", to: "ws-db" },
      { kind: "remote-state", from: "ws-network", to: "ws-api" },
      { kind: "run-trigger", from: "ws-gone", to: "ws-api" },
    ],
  };
}

const key = (e: { kind: string; from: string; to: string }) => `${e.kind}:${e.from}->${e.to}`;

describe("projectView", () => {
  it("holds the project's workspaces, every edge touching them, and the far ends in other projects", () => {
    const view = projectView(sample(), "prj-app");
    expect(view.project.name).toBe("Apps");
    expect(view.workspaces.map((w) => w.id)).toEqual(["ws-api", "ws-web"]);
    expect(view.edges.map(key).sort()).toEqual(
      [
        "run-trigger:ws-network->ws-api",
        "run-trigger:ws-network->ws-web",
        "remote-state:ws-db->ws-api",
        "remote-state:ws-db->ws-web",
        "run-trigger:ws-api->ws-web",
        "remote-state:ws-network->ws-api",
        "run-trigger:ws-gone->ws-api",
      ].sort(),
    );
    expect(view.external.map((w) => w.id).sort()).toEqual(["ws-db", "ws-network"]);
  });

  it("of a project without workspaces is empty, and an unknown project is an error naming it", () => {
    expect(projectView(sample(), "prj-ops")).toMatchObject({ workspaces: [], edges: [], external: [] });
    expect(() => projectView(sample(), "prj-nope")).toThrow(/acme has no project prj-nope/);
  });
});

describe("collapse", () => {
  it("with nothing collapsed draws every workspace and every edge between known workspaces once", () => {
    const { nodes, edges } = collapse(sample(), new Set());
    expect(nodes.map((n) => `${n.type}:${n.id}`)).toEqual([
      "workspace:ws-network",
      "workspace:ws-dns",
      "workspace:ws-api",
      "workspace:ws-web",
      "workspace:ws-db",
    ]);
    expect(edges).toHaveLength(8);
    expect(edges.every((e) => e.count === 1)).toBe(true);
    expect(edges.map(key)).not.toContain("run-trigger:ws-gone->ws-api");
  });

  it("draws a collapsed project as one node: its edges merged by kind and direction, counted, inner ones hidden", () => {
    const { nodes, edges } = collapse(sample(), new Set(["prj-net", "prj-ops"]));
    expect(nodes.map((n) => `${n.type}:${n.id}`)).toEqual([
      "workspace:ws-api",
      "workspace:ws-web",
      "workspace:ws-db",
      "project:prj-net",
      "project:prj-ops",
    ]);
    const net = nodes.find((n) => n.id === "prj-net");
    expect(net).toMatchObject({ type: "project", name: "Networking", workspaceCount: 2, internalEdges: 1 });
    expect(nodes.find((n) => n.id === "prj-ops")).toMatchObject({ workspaceCount: 0, internalEdges: 0 });
    const byKey = new Map(edges.map((e) => [key(e), e.count]));
    expect(Object.fromEntries(byKey)).toEqual({
      "run-trigger:prj-net->ws-api": 1,
      "run-trigger:prj-net->ws-web": 1,
      "remote-state:ws-db->ws-api": 1,
      "remote-state:ws-db->ws-web": 1,
      "run-trigger:ws-api->ws-web": 1,
      "remote-state:prj-net->ws-db": 1,
      "remote-state:prj-net->ws-api": 1,
    });
  });

  it("merges the edges between two collapsed projects into one per kind, with their count", () => {
    const { edges } = collapse(sample(), new Set(["prj-net", "prj-app", "prj-data"]));
    expect(Object.fromEntries(edges.map((e) => [key(e), e.count]))).toEqual({
      "run-trigger:prj-net->prj-app": 2,
      "remote-state:prj-data->prj-app": 2,
      "remote-state:prj-net->prj-data": 1,
      "remote-state:prj-net->prj-app": 1,
    });
    const { nodes } = collapse(sample(), new Set(["prj-app"]));
    expect(nodes.find((n) => n.id === "prj-app")).toMatchObject({ workspaceCount: 2, internalEdges: 1 });
  });
});

describe("search", () => {
  it("matches part of a workspace's name in any case, and every workspace of a project whose name matches", () => {
    const map = sample();
    expect([...search(map, "  WE ")]).toEqual(["ws-web"]);
    expect([...search(map, "net")].sort()).toEqual(["ws-dns", "ws-network"]);
    expect([...search(map, "data")]).toEqual(["ws-db"]);
    expect([...search(map, "zzz")]).toEqual([]);
  });

  it("with an empty query matches nothing", () => {
    expect(search(sample(), "   ").size).toBe(0);
  });
});
