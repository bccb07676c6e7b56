import type { Domain } from "../context";
import { organizationRoutes } from "./routes";
import { addOrganizationDefaultColumns } from "./service";

export const organizationDomain: Domain = { name: "organization", init: (ctx) => addOrganizationDefaultColumns(ctx.db), routes: organizationRoutes };
export * from "./service";
