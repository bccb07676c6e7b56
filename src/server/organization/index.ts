import type { Domain } from "../context";
import { organizationRoutes } from "./routes";

export const organizationDomain: Domain = { name: "organization", routes: organizationRoutes };
export * from "./service";
