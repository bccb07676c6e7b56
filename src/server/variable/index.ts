import type { Domain } from "../context";
import { variableDomainRoutes } from "./routes";

/**
 * Variables and variable sets: a workspace's own variables (`/workspaces/:id/vars`), its
 * effective ones (`/all-vars`), variable sets with their variables and where they apply.
 * Tables: `vars` and the variable set tables of schema version 2 (../store/schema.ts).
 */
export const variableDomain: Domain = {
  name: "variable",
  routes: variableDomainRoutes,
};
