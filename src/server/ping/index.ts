import type { Domain } from "../context";
import { pingRoutes } from "./routes";

/** `GET /ping`, answered without a token; no tables, so routes only. */
export const pingDomain: Domain = { name: "ping", routes: pingRoutes };
