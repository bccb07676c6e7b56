/**
 * A fake service that answers as OTF does (measured against OTF at commit `dfcb06bc`, test/otf):
 * `null` for an empty list, no `project` relationship, `terraform-version` only, 409 for a
 * taken name, and a plain-text 404 on every route it does not implement (safe delete,
 * key-value tags, projects, remote state consumers, no-code provisioning). Workspaces and
 * flat tags are kept in memory, so the client and the providers can be driven through
 * whole create, read, update and delete cycles over real HTTP.
 */
import type * as http from "node:http";
import { type FakeService, reply, startFakeService } from "./fake-service";

interface OtfWorkspace {
  id: string;
  name: string;
  description: string;
  "execution-mode": string;
  "auto-apply": boolean;
  "terraform-version": string;
  "working-directory": string;
  tags: string[];
  "created-at": string;
}

export interface OtfLike {
  service: FakeService;
  /** Workspaces by id. */
  workspaces: Map<string, OtfWorkspace>;
  /** Request bodies received, as `METHOD /path` and the parsed body. */
  bodies: { request: string; body: unknown }[];
  /** Answers the next create with this status and raw body instead (once), after storing the workspace. */
  nextCreateAnswer?: { status: number; body: string };
  close(): Promise<void>;
}

/** OTF's latest engine release at the commit measured: what it stores when no version is sent. */
export const OTF_LATEST = "1.14.9";

const PREFIX = "/api/v2";

function notFound(res: http.ServerResponse): void {
  // gorilla/mux's answer to a route it does not know.
  res.writeHead(404, { "content-type": "text/plain; charset=utf-8" });
  res.end("404 page not found\n");
}

function recordNotFound(res: http.ServerResponse): void {
  reply(res, 404, { errors: [{ status: "404", title: "not found", detail: "resource not found" }] });
}

/** A workspace document as OTF renders one. */
function otfDocument(ws: OtfWorkspace): unknown {
  return {
    data: {
      id: ws.id,
      type: "workspaces",
      attributes: {
        actions: { "is-destroyable": true },
        "agent-pool-id": null,
        "allow-destroy-plan": true,
        "auto-apply": ws["auto-apply"],
        "auto-apply-run-trigger": false,
        "can-queue-destroy-plan": true,
        "created-at": ws["created-at"],
        description: ws.description,
        environment: "default",
        "execution-mode": ws["execution-mode"],
        "file-triggers-enabled": false,
        "global-remote-state": false,
        locked: false,
        "migration-environment": "",
        name: ws.name,
        operations: ws["execution-mode"] === "remote",
        permissions: {
          "can-destroy": true,
          "can-update": true,
          "can-lock": true,
          "can-unlock": true,
          "can-force-unlock": true,
        },
        "queue-all-runs": false,
        "speculative-enabled": true,
        "source-name": "",
        "source-url": "",
        "structured-run-output-enabled": true,
        "terraform-version": ws["terraform-version"],
        "trigger-prefixes": null,
        "trigger-patterns": null,
        "vcs-repo": null,
        "working-directory": ws["working-directory"],
        "updated-at": ws["created-at"],
        "resource-count": 0,
        "apply-duration-average": 0,
        "plan-duration-average": 0,
        "policy-check-failures": 0,
        "run-failures": 0,
        "workspace-kpis-runs-count": 0,
        "tag-names": ws.tags.length ? ws.tags : null,
        "setting-overwrites": { "execution-mode": null, "agent-pool": null },
      },
      relationships: {
        "current-run": { data: null },
        organization: { data: { id: "acme", type: "organizations" } },
        outputs: { data: [] },
        "ssh-key": null,
      },
      links: { self: `${PREFIX}/organizations/acme/workspaces/${ws.name}` },
    },
  };
}

/** Starts the fake OTF with organization `acme`. */
export async function startOtfLike(): Promise<OtfLike> {
  const workspaces = new Map<string, OtfWorkspace>();
  const bodies: OtfLike["bodies"] = [];
  let counter = 0;
  const byName = (name: string) => [...workspaces.values()].find((w) => w.name === name);
  const otf: OtfLike = {
    service: undefined as unknown as FakeService,
    workspaces,
    bodies,
    close: () => otf.service.close(),
  };
  otf.service = await startFakeService((req, res, raw) => {
    const url = new URL(req.url ?? "/", "http://x");
    const path = url.pathname.startsWith(PREFIX) ? url.pathname.slice(PREFIX.length) : url.pathname;
    const body = raw
      ? (JSON.parse(raw) as {
          data?: { attributes?: Record<string, unknown>; relationships?: Record<string, unknown> };
        })
      : undefined;
    if (body !== undefined) bodies.push({ request: `${req.method} ${path}`, body });
    const m = (re: RegExp) => re.exec(path);
    let hit: RegExpExecArray | null;
    if (path === "/ping") return reply(res, 204, undefined);
    if (req.method === "GET" && path === "/organizations/acme")
      return reply(res, 200, {
        data: {
          id: "acme",
          type: "organizations",
          attributes: { name: "acme", permissions: { "can-create-workspace": true, "can-update": true } },
        },
      });
    if (path === "/organizations/acme/workspaces" && req.method === "POST") {
      const a = body?.data?.attributes ?? {};
      const name = String(a.name);
      if (byName(name))
        return reply(res, 409, { errors: [{ status: "409", title: "conflict", detail: "resource already exists" }] });
      const ws: OtfWorkspace = {
        id: `ws-otf${++counter}`,
        name,
        description: typeof a.description === "string" ? a.description : "",
        "execution-mode": typeof a["execution-mode"] === "string" ? a["execution-mode"] : "remote",
        "auto-apply": a["auto-apply"] === true,
        // OTF reads this spelling only; anything else leaves its latest release.
        "terraform-version": typeof a["terraform-version"] === "string" ? a["terraform-version"] : OTF_LATEST,
        "working-directory": typeof a["working-directory"] === "string" ? a["working-directory"] : "",
        // OTF takes flat tags with the create, as go-tfe sends them.
        tags: (
          (body?.data?.relationships?.tags as { data?: { attributes?: { name?: string } }[] } | undefined)?.data ?? []
        ).map((t) => String(t.attributes?.name).toLowerCase()),
        "created-at": new Date().toISOString(),
      };
      workspaces.set(ws.id, ws);
      const once = otf.nextCreateAnswer;
      if (once) {
        otf.nextCreateAnswer = undefined;
        res.writeHead(once.status, { "content-type": "application/vnd.api+json" });
        return res.end(once.body.replace(/WS_ID/g, ws.id));
      }
      return reply(res, 201, otfDocument(ws));
    }
    if (path === "/organizations/acme/workspaces" && req.method === "GET") {
      const all = [...workspaces.values()].map((w) => (otfDocument(w) as { data: unknown }).data);
      const meta = {
        pagination: {
          "current-page": 1,
          "next-page": null,
          "prev-page": null,
          "page-size": 100,
          "total-count": all.length,
          "total-pages": 1,
        },
      };
      return reply(res, 200, { data: all, meta });
    }
    if ((hit = m(/^\/organizations\/acme\/workspaces\/([^/]+)$/)) && req.method === "GET") {
      const ws = byName(decodeURIComponent(hit[1]));
      return ws ? reply(res, 200, otfDocument(ws)) : recordNotFound(res);
    }
    if ((hit = m(/^\/workspaces\/(ws-[^/]+)$/))) {
      const ws = workspaces.get(hit[1]);
      if (!ws) return recordNotFound(res);
      if (req.method === "GET") return reply(res, 200, otfDocument(ws));
      if (req.method === "DELETE") {
        workspaces.delete(ws.id);
        return reply(res, 204, undefined);
      }
      if (req.method === "PATCH") {
        const a = body?.data?.attributes ?? {};
        for (const key of [
          "name",
          "description",
          "execution-mode",
          "auto-apply",
          "terraform-version",
          "working-directory",
        ] as const) {
          if (a[key] !== undefined) (ws as unknown as Record<string, unknown>)[key] = a[key];
        }
        return reply(res, 200, otfDocument(ws));
      }
    }
    if ((hit = m(/^\/workspaces\/(ws-[^/]+)\/relationships\/tags$/))) {
      const ws = workspaces.get(hit[1]);
      if (!ws) return recordNotFound(res);
      const names = ((body?.data as unknown as { attributes?: { name?: string } }[] | undefined) ?? []).map((t) =>
        String(t.attributes?.name).toLowerCase(),
      );
      if (req.method === "POST") ws.tags = [...new Set([...ws.tags, ...names])];
      else if (req.method === "DELETE") ws.tags = ws.tags.filter((t) => !names.includes(t));
      else if (req.method === "GET") {
        const meta = {
          pagination: {
            "current-page": 1,
            "next-page": null,
            "prev-page": null,
            "page-size": 100,
            "total-count": ws.tags.length,
            "total-pages": 1,
          },
        };
        return reply(res, 200, {
          data: ws.tags.map((t) => ({ id: `tag-${t}`, type: "tags", attributes: { name: t } })),
          meta,
        });
      }
      return reply(res, 204, undefined);
    }
    notFound(res);
  });
  return otf;
}
