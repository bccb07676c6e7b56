import type { Caller } from "../auth/service/caller";
import type { ServerContext } from "../context";
import type { Resource } from "../http/jsonapi";
import { renderPolicy } from "./routes";
import { policiesById } from "./service/policies";
import { renderProject } from "../project/render";
import { findProject } from "../project/service";
import { workspaceDocuments } from "../workspace/render";
import { findWorkspace, permissionsFor } from "../workspace/service";
import { renderPolicySetVersion } from "./set-render";
import type { PolicySetView } from "./service/sets";

/** What each `include` value adds: the records a list names (those the caller may see), or a version. */
export function policySetIncluded(
  ctx: ServerContext,
  caller: Caller,
  views: readonly PolicySetView[],
  include: Set<string>,
): { included?: Resource[] } {
  if (!include.size) return {};
  const ids = (...lists: (keyof PolicySetView["lists"])[]) => [
    ...new Set(views.flatMap((v) => lists.flatMap((l) => (include.has(l.replace("-", "_")) ? v.lists[l] : [])))),
  ];
  const out: Resource[] = [];
  // A set's policies are its organization's, which every reader of the set may see.
  out.push(...policiesById(ctx.db, ids("policies")).map(renderPolicy));
  const workspaces = ids("workspaces", "workspace-exclusions").flatMap((id) => {
    const ws = findWorkspace(ctx, id);
    const permissions = ws && permissionsFor(ctx, caller, ws);
    return ws && permissions ? [{ ws, permissions }] : [];
  });
  out.push(...workspaceDocuments(ctx, workspaces));
  for (const id of ids("projects", "project-exclusions")) {
    const p = findProject(ctx.db, id);
    if (p) out.push(renderProject(ctx.db, p));
  }
  for (const v of views) {
    if (include.has("newest_version") && v.newest) out.push(renderPolicySetVersion(v.newest));
    if (include.has("current_version") && v.current && v.current.id !== v.newest?.id)
      out.push(renderPolicySetVersion(v.current));
  }
  return { included: out };
}
