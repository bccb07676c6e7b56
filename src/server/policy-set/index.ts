import type { Domain } from "../context";
import { policySetRoutes } from "./routes";

/** Policy sets with where they apply, their parameters and versions, as records: no run is ever checked against them here. */
export const policySetDomain: Domain = { name: "policy-sets", routes: policySetRoutes };
