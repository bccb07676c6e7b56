import type { ServerContext } from "../context";
import type { Caller } from "../auth/service";
import { orgRole, renderUser } from "../auth/service";
import type { Resource } from "../http/jsonapi";
import { ref } from "../http/jsonapi";
import { findOrganization, renderOrganization } from "../organization/service";
import { findProject, renderProject } from "../project/service";
import { findRun, renderRun } from "../run/service";
import { renderWorkspaceOutput, stateVersionOutputs } from "../stateversion/outputs";
import { effectiveTagBindings, type WorkspaceRecord } from "./store";

/**
 * The `included` array for `include` (spec 4.5). Records the service does not keep
 * (configuration versions, plans, readmes) contribute nothing; each related
 * record appears once however many workspaces point to it.
 */
export function includedFor(ctx: ServerContext, caller: Caller, workspaces: WorkspaceRecord[], include: Set<string>): Resource[] {
  const out = new Map<string, Resource>();
  const add = (r: Resource | undefined) => {
    if (r?.id && !out.has(`${r.type}/${r.id}`)) out.set(`${r.type}/${r.id}`, r);
  };
  for (const ws of workspaces) {
    if (include.has("organization")) {
      const org = findOrganization(ctx.db, ws.organization);
      if (org) add(renderOrganization(org, orgRole(ctx.db, caller, org.name)));
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
  const bindings: Resource[] = [];
  if (include.has("effective_tag_bindings")) {
    // Bindings have no id, so each names its workspace; inherited ones also name the project.
    for (const ws of workspaces) {
      for (const b of effectiveTagBindings(ctx.db, ws)) {
        bindings.push({
          type: "effective-tag-bindings",
          attributes: { key: b.key, value: b.value },
          relationships: {
            workspace: ref("workspaces", ws.id),
            ...(b.inherited ? { "inherited-from": ref("projects", ws.project_id) } : {}),
          },
        });
      }
    }
  }
  return [...out.values(), ...bindings];
}
