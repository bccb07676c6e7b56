/**
 * The attributes of the workspace document (spec 2.2): every stored setting of the field
 * table (./stored-fields.ts) under its wire name, and under its neutral spelling too where the
 * line has one; plus what the server computes (permissions, actions, lock, metrics...).
 */
import type { ServerContext } from "../context";
import type { Permissions } from "../../api/workspaces";
import { oauthInfo, settingsOf, type OAuthInfo, type WorkspaceRecord } from "./store";
import { workspaceFieldEntries } from "../../api/workspace-fields";
import { settingLines, storedKey, type StoredVcsRepo } from "./stored-fields";

/**
 * The hosted service's order of the document's attributes, which the document has always
 * kept: clients and recordings compare documents byte for byte. A line the table adds
 * is placed by {@link documentOrder}, after the line before it in the table.
 */
const HOSTED_ORDER: readonly string[] = [
  "name",
  "actions",
  "allow-destroy-plan",
  "apply-duration-average",
  "assessments-enabled",
  "auto-apply",
  "auto-apply-run-trigger",
  "auto-destroy-at",
  "auto-destroy-status",
  "auto-destroy-activity-duration",
  "inherits-project-auto-destroy",
  "created-at",
  "updated-at",
  "latest-change-at",
  "last-assessment-result-at",
  "description",
  "environment",
  "execution-mode",
  "operations",
  "file-triggers-enabled",
  "global-remote-state",
  "locked",
  "locked-reason",
  "oauth-client-name",
  "permissions",
  "plan-duration-average",
  "policy-check-failures",
  "queue-all-runs",
  "resource-count",
  "run-failures",
  "source",
  "source-name",
  "source-url",
  "speculative-enabled",
  "structured-run-output-enabled",
  "tag-names",
  "engine-version",
  "terraform-version",
  "trigger-prefixes",
  "trigger-patterns",
  "vcs-repo",
  "vcs-repo-identifier",
  "working-directory",
  "workspace-kpis-runs-count",
  "setting-overwrites",
];

let placed: { lines: number; order: readonly string[] } | undefined;

/**
 * The document's attribute order: the hosted service's, and every attribute of the
 * field table it does not name right after the attribute of the line before it in the
 * table (so a new line's place in the table is its place in the document). Worked out
 * again only when the table grows.
 */
function documentOrder(): readonly string[] {
  if (placed?.lines === workspaceFieldEntries.length) return placed.order;
  const order = [...HOSTED_ORDER];
  let previous: string | undefined;
  for (const [, line] of workspaceFieldEntries) {
    for (const name of [line.wire, line.alias]) {
      if (name === undefined) continue;
      if (!order.includes(name))
        order.splice(previous === undefined ? order.length : order.indexOf(previous) + 1, 0, name);
      previous = name;
    }
  }
  placed = { lines: workspaceFieldEntries.length, order };
  return order;
}

function renderVcsRepo(ctx: ServerContext, repo: StoredVcsRepo | null, oauth: OAuthInfo | undefined): unknown {
  if (!repo) return null;
  return {
    branch: repo.branch,
    "display-identifier": repo.identifier,
    identifier: repo.identifier,
    "ingress-submodules": repo["ingress-submodules"],
    "oauth-token-id": repo["oauth-token-id"],
    ...(repo["vcs-app-installation-id"] ? { "vcs-app-installation-id": repo["vcs-app-installation-id"] } : {}),
    "repository-http-url": `${(oauth?.http_url ?? "https://github.com").replace(/\/+$/, "")}/${repo.identifier}`,
    "service-provider": oauth?.service_provider ?? "github",
    "tags-regex": repo["tags-regex"],
    "webhook-url": `${ctx.publicUrl}/webhooks/vcs/${repo["webhook-id"]}`,
  };
}

/** The document's attributes of a workspace for a caller with `permissions`; `tagNames` are its flat tags. */
export function workspaceAttributes(
  ctx: ServerContext,
  ws: WorkspaceRecord,
  permissions: Permissions,
  tagNames: string[],
): Record<string, unknown> {
  const s = settingsOf(ws) as unknown as Record<string, unknown>;
  const repo = s["vcs-repo"] as StoredVcsRepo | null;
  const oauth = repo?.["oauth-token-id"] ? oauthInfo(ctx.db, repo["oauth-token-id"]) : undefined;
  // What the server computes, and the settable lines it keeps outside `settings` (./stored-fields.ts).
  const found: Record<string, unknown> = {
    name: ws.name,
    actions: { "is-destroyable": permissions["can-destroy"] },
    "apply-duration-average": null,
    "auto-destroy-status": null,
    "inherits-project-auto-destroy": false,
    "created-at": ws.created_at,
    "updated-at": ws.updated_at,
    "latest-change-at": ws.latest_change_at,
    "last-assessment-result-at": null,
    operations: s["execution-mode"] !== "local",
    locked: ws.locked === 1,
    "locked-reason": ws.locked === 1 ? (ws.locked_reason ?? "") : null,
    "oauth-client-name": oauth?.name ?? null,
    permissions,
    "plan-duration-average": null,
    "policy-check-failures": null,
    "resource-count": ws.resource_count,
    "run-failures": null,
    source: ws.source,
    "tag-names": tagNames,
    "vcs-repo-identifier": repo ? repo.identifier : null,
    "workspace-kpis-runs-count": null,
  };
  for (const [key, line] of settingLines()) {
    const value = key === "vcsRepo" ? renderVcsRepo(ctx, repo, oauth) : s[storedKey(line)];
    found[line.wire!] = value;
    // The neutral spelling beside the vendor's, which clients such as go-tfe read alone.
    if (line.alias) found[line.alias] = value;
  }
  const attributes: Record<string, unknown> = {};
  for (const name of documentOrder()) if (name in found) attributes[name] = found[name];
  for (const [name, value] of Object.entries(found)) if (!(name in attributes)) attributes[name] = value;
  return attributes;
}
