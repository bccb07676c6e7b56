import type { Domain } from "../context";
import { renderNoCodeModule } from "./render";
import { noCodeRoutes } from "./routes";
import { noCodeModuleOf, onVersionDeleting, onVersionPublished } from "./service";
import { NOCODE_SCHEMA } from "./store";
import { sealClearValues } from "./vars";
import { noCodeWorkspaceRender } from "./workspaces";

/** No-code provisioning (spec 4.12 to 4.16). */
export const noCodeDomain: Domain = {
  name: "no-code",
  schema: NOCODE_SCHEMA,
  init(ctx) {
    sealClearValues(ctx);
    ctx.hooks.workspaceRender.push(noCodeWorkspaceRender);
    // A registry module shows whether it is enabled for no-code provisioning, and its
    // published versions move or keep the pins.
    ctx.hooks.registryModule.push({
      versionPublished: onVersionPublished,
      versionDeleting: onVersionDeleting,
      render(ctx, moduleId, resource) {
        const noCode = noCodeModuleOf(ctx, moduleId);
        resource.attributes["no-code"] = noCode?.enabled === 1;
        resource.relationships!["no-code-modules"] = {
          data: noCode ? [{ id: noCode.id, type: "no-code-modules" }] : [],
        };
      },
      included(ctx, moduleId) {
        const noCode = noCodeModuleOf(ctx, moduleId);
        return noCode ? [renderNoCodeModule(ctx.db, noCode)] : [];
      },
    });
  },
  routes: noCodeRoutes,
};
