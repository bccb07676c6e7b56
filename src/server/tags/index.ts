import type { Domain } from "../context";
import { tagRoutes } from "./routes";

export const tagDomain: Domain = { name: "tags", routes: tagRoutes };
