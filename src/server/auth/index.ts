import type { Domain } from "../context";
import { adminRoutes } from "./routes";

export const adminDomain: Domain = { name: "admin", routes: adminRoutes };
