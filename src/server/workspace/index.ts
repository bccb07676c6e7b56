import type { Domain } from "../context";
import { workspaceRoutes } from "./routes";

export const workspaceDomain: Domain = { name: "workspace", routes: workspaceRoutes };
