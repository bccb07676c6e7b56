import type { Domain } from "../context";
import { runRoutes } from "./routes";

export const runDomain: Domain = { name: "run", routes: runRoutes };
export * from "./service";
