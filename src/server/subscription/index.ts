import type { Domain } from "../context";
import { subscriptionRoutes } from "./routes";

/** Organization subscriptions (plans and their limits), set by a local server's site administrator; tables in migration 6. */
export const subscriptionDomain: Domain = { name: "subscription", routes: subscriptionRoutes };
