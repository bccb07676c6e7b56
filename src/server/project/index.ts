import type { Domain } from "../context";
import { projectRoutes } from "./routes";

export const projectDomain: Domain = { name: "project", routes: projectRoutes };
export * from "./service";
