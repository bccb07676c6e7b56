import type { Domain } from "../context";
import { runTriggerRoutes } from "./routes";

/** Run triggers: a run in one workspace queues a run in another of the organization. */
export const runTriggerDomain: Domain = { name: "run-triggers", routes: runTriggerRoutes };
