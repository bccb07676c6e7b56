import type { Domain } from "../context";
import { sshKeyRoutes } from "./routes";

/** SSH keys of an organization, which workspaces refer to. */
export const sshKeyDomain: Domain = { name: "ssh-keys", routes: sshKeyRoutes };
export * from "./service";
