import type { Domain } from "../context";
import { oauthRoutes } from "./routes";

/** VCS connections (OAuth clients and their tokens) as records that workspaces refer to. */
export const oauthDomain: Domain = { name: "oauth", routes: oauthRoutes };
export * from "./service";
