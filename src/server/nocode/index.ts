import type { Domain } from "../context";
import { nocodeRoutes } from "./routes";
import { NOCODE_SCHEMA } from "./store";
import { variableRoutes } from "./vars";
import { noCodeWorkspaceRender } from "./workspaces";

/** No-code provisioning (spec 4.12 to 4.16), and the read endpoints of the variables it writes. */
export const nocodeDomain: Domain = {
  name: "nocode",
  schema: NOCODE_SCHEMA,
  init(ctx) {
    ctx.hooks.workspaceRender.push(noCodeWorkspaceRender);
  },
  routes(app, ctx) {
    nocodeRoutes(app, ctx);
    variableRoutes(app, ctx);
  },
};
export { advanceUpgrade, UPGRADE_RUN_KIND } from "./upgrade";
