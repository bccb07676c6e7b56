import type { Domain } from "../context";
import { policyRoutes } from "./routes";
import { policySetRoutes } from "./set-routes";

/**
 * Policies and policy sets (with where they apply and their versions) as records;
 * nothing evaluates them here, and runs are never checked against them. A set's
 * parameters are variables (../variable/).
 */
export const policyDomain: Domain = {
  name: "policies",
  routes(app, ctx) {
    policyRoutes(app, ctx);
    policySetRoutes(app, ctx);
  },
};
