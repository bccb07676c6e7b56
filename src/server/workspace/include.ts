import type { ServerContext } from "../context";
import type { OrgRole } from "../auth/service/caller";
import { renderUser } from "../auth/render";
import type { Resource } from "../http/jsonapi";
import { findOrganization } from "../organization/service";
import { renderOrganization } from "../organization/render";
import { findProject } from "../project/service";
import { renderProject } from "../project/render";
import { findRun } from "../run/service";
import { renderRun } from "../run/render";
import { stateVersionOutputs } from "../state-version/service";
import { renderWorkspaceOutput } from "../state-version/render";
import { effectiveTagBindings } from "../tags/service";
import { renderEffectiveTagBinding } from "../tags/render";
import type { WorkspaceRecord } from "./store";

/**
 * The `included` array for `include` (spec 4.5). Records the service does not keep
 * (configuration versions, plans, readmes) contribute nothing; each related
 * record appears once however many workspaces point to it. `documents` are the
 * rendered workspaces, in the same order, for relationships that list what is included.
 * `role` is the caller's standing in the workspaces' organization, as the service that
 * found them decided it: an included organization shows it as its permissions.
 */
export function includedFor(
  ctx: ServerContext,
  role: OrgRole,
  workspaces: WorkspaceRecord[],
  include: Set<string>,
  documents: Resource[] = [],
): Resource[] {
  const out = new Map<string, Resource>();
  const add = (r: Resource | undefined) => {
    if (r?.id && !out.has(`${r.type}/${r.id}`)) out.set(`${r.type}/${r.id}`, r);
  };
  for (const ws of workspaces) {
    if (include.has("organization")) {
      const org = findOrganization(ctx.db, ws.organization);
      if (org) add(renderOrganization(org, role));
    }
    if (include.has("project")) {
      const p = findProject(ctx.db, ws.project_id);
      if (p) add(renderProject(ctx.db, p));
    }
    if (include.has("locked_by") && ws.locked === 1 && ws.locked_by) add(renderUser(ctx.db, ws.locked_by));
    if (include.has("outputs") && ws.current_state_version_id) {
      for (const o of stateVersionOutputs(ctx.db, ws.current_state_version_id)) add(renderWorkspaceOutput(o));
    }
    if ([...include].some((i) => i.startsWith("current_run")) && ws.current_run_id) {
      const run = findRun(ctx.db, ws.current_run_id);
      if (run) add(renderRun(run));
    }
  }
  if (include.has("effective_tag_bindings")) {
    // Included, the relationship also lists its entries, so clients can find them.
    workspaces.forEach((ws, i) => {
      const entries = effectiveTagBindings(ctx.db, ws).map((b) => renderEffectiveTagBinding(b, ws.project_id));
      entries.forEach(add);
      const rel = documents[i]?.relationships?.["effective-tag-bindings"];
      if (rel) rel.data = entries.map((e) => ({ id: e.id!, type: e.type }));
    });
  }
  return [...out.values()];
}
