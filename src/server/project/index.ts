import type { Domain } from "../context";
import { projectRoutes } from "./routes";
import { addProjectDefaultColumns } from "./service";

export const projectDomain: Domain = { name: "project", init: (ctx) => addProjectDefaultColumns(ctx.db), routes: projectRoutes };
export * from "./service";
