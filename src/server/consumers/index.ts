import type { Domain } from "../context";
import { consumerRoutes } from "./routes";

export const consumerDomain: Domain = { name: "consumers", routes: consumerRoutes };
