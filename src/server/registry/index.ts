import type { Domain } from "../context";
import { registryRoutes } from "./routes";
import { REGISTRY_SCHEMA } from "./store";

/** Private registry modules and their versions, the modules no-code provisioning is built on. */
export const registryDomain: Domain = { name: "registry", schema: REGISTRY_SCHEMA, routes: registryRoutes };
export * from "./service";
export * from "./store";
