import type { Domain } from "../context";
import { policyRoutes } from "./routes";

/** Policies as records with their code; nothing evaluates them here. */
export const policyDomain: Domain = { name: "policies", routes: policyRoutes };
