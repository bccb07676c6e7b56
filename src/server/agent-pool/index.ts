import type { Domain } from "../context";
import { agentPoolRoutes } from "./routes";

/** Agent pools as records, so that execution settings can name one; no agent ever runs here. */
export const agentPoolDomain: Domain = { name: "agent-pools", routes: agentPoolRoutes };
export * from "./service";
