import type { Domain } from "../context";
import { workspaceRoutes } from "./routes";

export const workspaceDomain: Domain = { name: "workspace", routes: workspaceRoutes };
export { renderWorkspace, workspacePath } from "./render";
export { workspaceDocumentFor, workspaceDocumentsFor } from "./routes";
export * from "./service";
export * from "./store";
