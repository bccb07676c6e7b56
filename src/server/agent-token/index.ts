import type { Domain } from "../context";
import { agentTokenRoutes } from "./routes";

/** Agent tokens of agent pools: minted, listed and revoked; no agent ever presents one here. */
export const agentTokenDomain: Domain = { name: "agent-tokens", routes: agentTokenRoutes };
