import type { Domain } from "../context";
import { stateVersionRoutes } from "./routes";
import { recordMissingOutputIds, settleOnUnlock, stateVersionOutputs } from "./service";

export const stateVersionDomain: Domain = {
  name: "state-versions",
  init(ctx) {
    recordMissingOutputIds(ctx);
    // The workspace's outputs are those of its current state version (spec 2.2).
    ctx.hooks.workspaceRender.push((ctx, ws, resource) => {
      if (!ws.current_state_version_id || !resource.relationships) return;
      const outputs = stateVersionOutputs(ctx.db, ws.current_state_version_id);
      resource.relationships.outputs = { data: outputs.map((o) => ({ id: o.id, type: "workspace-outputs" })) };
    });
    // Intermediate state versions are settled when the workspace is unlocked.
    ctx.hooks.workspaceUnlock.push(settleOnUnlock);
  },
  routes: stateVersionRoutes,
};
