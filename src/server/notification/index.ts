import type { Domain } from "../context";
import { notificationRoutes } from "./routes";

/** Notification configurations of workspaces and projects; delivery reaches loopback addresses only. */
export const notificationDomain: Domain = { name: "notifications", routes: notificationRoutes };
